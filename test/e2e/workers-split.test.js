'use strict'

// Worker threads run their part of the run, split as shards split it
// (lib/config/split.js): a rate and an overall cap are the whole run's,
// not each worker's (autocannon gives each worker the whole rate), and
// {{seq}} stays unique across the workers of every shard.

const t = require('tap')
const autocannon = require('../..')
const { httpServer } = require('../helpers/servers')

async function countingServer (t) {
  const paths = []
  const url = await httpServer(t, (req, res) => {
    paths.push(req.url)
    res.end('ok')
  })
  return { url, paths }
}

t.test('-w 2 -O 30: thirty requests in all, not thirty each', async (t) => {
  const { url, paths } = await countingServer(t)
  const result = await autocannon({ url, workers: 2, connections: 2, maxOverallRequests: 30, duration: 10 })
  t.equal(paths.length, 30, 'the server saw the cap')
  t.equal(result.requests.total, 30)
  t.ok(result.duration < 9, `the run ended at the cap (${result.duration} s)`)
})

t.test('-w 2 -R 50 for 2 s: about 100 requests, the rate of the whole run', async (t) => {
  const { url, paths } = await countingServer(t)
  const result = await autocannon({ url, workers: 2, connections: 2, overallRate: 50, duration: 2 })
  // Each worker plans 25 req/s; the whole rate for each would be ~200.
  t.ok(paths.length >= 60 && paths.length <= 130, `${paths.length} requests at -R 50 for 2 s`)
  // Every request the server saw is counted: answered, or still in
  // flight as the run ended (a loaded machine can hold the last answer
  // past the end).
  t.equal(result.requests.sent, paths.length, `sent ${result.requests.sent}: total ${result.requests.total} + errors ${result.errors} + in flight ${result.requests.inFlight}`)
  t.equal(result.requests.sent, result.requests.total + result.errors + result.requests.inFlight)
})

t.test('2 shards of 2 workers each: every {{seq}} once', async (t) => {
  const { url, paths } = await countingServer(t)
  const runs = [0, 1].map((index) => autocannon({ url: `${url}/{{seq}}`, shard: { index, count: 2 }, workers: 2, connections: 4, amount: 400 }))
  const results = await Promise.all(runs)
  t.same(results.map((r) => r.requests.total), [200, 200])
  t.equal(paths.length, 400)
  t.equal(new Set(paths).size, 400, 'no value sent twice')
  t.same([...paths].map((p) => Number(p.slice(1))).sort((a, b) => a - b), Array.from({ length: 400 }, (_, i) => i), '0 to 399, each once')
})
