'use strict'

// What a saved result keeps, from real runs: encoded histograms equal to
// the tables, and per-second series whose counts add up to the totals.
// What is not a result: test/results/saved-result.test.js.

const t = require('tap')
const autocannon = require('../..')
const { decode, toStats } = require('../../lib/results/histogram')
const { httpServer } = require('../helpers/servers')
const { run } = require('../helpers/cli')
const { parseResults } = require('../../lib/results/saved-result')

const sum = (list) => list.reduce((a, b) => a + b, 0)
const LATENCY = { scale: 1000, decimals: 3, bucketEdges: true }

t.test('a run: histograms match the tables, the series adds up', async (t) => {
  let n = 0
  // Every 4th request is answered by a reset: errors per second too.
  const url = await httpServer(t, (req, res) => {
    if (++n % 4 === 0) return req.socket.destroy()
    setTimeout(() => res.end('hello'), 10)
  })
  const result = await autocannon({ url, connections: 4, duration: 3 })
  const s = result.series

  t.same(toStats(decode(result.histograms.latency), LATENCY), (({ totalCount, ...rest }) => rest)(result.latency),
    'the latency table is the encoded histogram\'s')
  t.equal(decode(result.histograms.latency).totalCount, result.latency.totalCount)
  t.equal(decode(result.histograms.requests, 64).totalCount, result.samples, 'one Req/Sec sample per interval')
  t.equal(decode(result.histograms.throughput, 64).maxValue >= result.throughput.max, true)

  t.equal(s.interval, 1000)
  t.equal(s.requests.length, result.samples)
  for (const key of ['time', 'bytes', 'errors', 'latencyP50', 'latencyP99', 'latency']) t.equal(s[key].length, result.samples, `${key}: one per sample`)
  const total = sum(s.requests)
  t.ok(total <= result.requests.total && total >= result.requests.total * 0.6,
    `the samples hold the responses of whole intervals (${total} of ${result.requests.total})`)
  t.ok(sum(s.errors) > 0 && sum(s.errors) <= result.errors, `errors per interval (${sum(s.errors)} of ${result.errors})`)
  for (let i = 0; i < s.time.length; i++) {
    t.ok(s.latencyP50[i] >= 9 && s.latencyP50[i] < 200, `second ${i + 1}: p50 ${s.latencyP50[i]} ms is the server's 10 ms`)
    t.ok(s.latencyP99[i] >= s.latencyP50[i])
    t.equal(decode(s.latency[i]).totalCount, s.requests[i], `second ${i + 1}: its histogram has its responses`)
    if (i > 0) t.ok(Math.abs(s.time[i] - s.time[i - 1] - 1000) < 200, 'a second apart')
  }
  t.ok(Math.abs(s.time[0] - result.start.getTime() - 1000) < 200, 'the first sample ends a second after the start')
})

t.test('workers: one series for the whole run', async (t) => {
  const url = await httpServer(t)
  const result = await autocannon({ url, connections: 4, workers: 2, duration: 2 })
  t.equal(result.series.requests.length, result.samples)
  t.ok(result.samples >= 1 && result.samples <= 3, `${result.samples} samples of 2 s`)
  t.equal(sum(result.series.requests.map((n, i) => decode(result.series.latency[i]).totalCount)), sum(result.series.requests),
    'each interval\'s histogram holds both workers\' responses')
  t.equal(decode(result.histograms.latency).totalCount, result.requests.total)
})

t.test('-j writes them, and the result reads back', async (t) => {
  const url = await httpServer(t)
  const out = await run(['-c', '2', '-d', '1', '-j', url])
  t.equal(out.code, 0, out.stderr)
  const [result] = parseResults(out.stdout, 'stdout')
  t.type(result.histograms.latency, 'string')
  t.type(result.start, Date, 'dates revived')
  t.equal(result.series.requests.length, result.samples)

  // NDJSON with log lines between results (kubectl logs mixes them in).
  const ndjson = `Running 1s test\n${out.stdout.trim()}\nsome log line\n${out.stdout.trim()}\n`
  t.equal(parseResults(ndjson, 'logs').length, 2)
  // A JSON array of results.
  t.equal(parseResults(`[${out.stdout.trim()},${out.stdout.trim()}]`, 'array').length, 2)
})
