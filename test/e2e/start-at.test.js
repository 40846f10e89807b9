'use strict'

// --startAt / startAt: nothing is sent before the time, the samples end at
// the time + k intervals (so shards on several machines line up), and a
// time already past by more than an interval is refused.

const t = require('tap')
const autocannon = require('../..')
const { httpServer } = require('../helpers/servers')
const { run } = require('../helpers/cli')

// A server that notes when each request arrives (wall clock).
async function arrivalServer (t) {
  const arrivals = []
  const url = await httpServer(t, (req, res) => {
    arrivals.push(Date.now())
    res.end('hello')
  })
  return { url, arrivals }
}

t.test('a time in the past is refused, one interval of lateness is not', async (t) => {
  const url = 'http://127.0.0.1:9'
  await t.rejects(autocannon({ url, startAt: Date.now() - 5000 }), { code: 'AC_INVALID_OPTION', option: 'startAt', message: /5\.\d s in the past.*more than one sample interval \(1000 ms\)/ })
  await t.rejects(autocannon({ url, startAt: new Date(Date.now() - 1500), sampleInt: 1000 }), { message: /in the past/ })
  await t.rejects(autocannon({ url, startAt: '2030-01-01T12:00:00' }), { message: /no time zone: add Z/ })
  await t.rejects(autocannon({ url, startAt: 'soon' }), { message: /ISO 8601 with a zone/ })

  const out = await run(['--startAt', new Date(Date.now() - 60000).toISOString(), '-d', '1', url])
  t.equal(out.code, 1)
  t.equal(out.stderr.trim().split('\n').length, 1, 'one line')
  t.match(out.stderr, /^Error: Invalid value for --startAt: ".*" is \d+\.\d s in the past, more than one sample interval/)
  const seconds = await run(['--startAt', String(Math.floor(Date.now() / 1000) + 10), '-d', '1', url])
  t.match(seconds.stderr, /epoch milliseconds are expected, not seconds/, 'epoch seconds are recognised as a mistake')

  // Up to one interval late: it starts at once, its samples on the grid.
  const server = await arrivalServer(t)
  const late = Date.now() - 300
  const result = await autocannon({ url: server.url, connections: 1, duration: 1.5, startAt: late })
  t.ok(result.requests.total > 0)
  t.equal(result.series.time[0], late + 1000, 'the first (short) sample ends an interval after the time')
})

t.test('nothing before the start; the first sample ends an interval after it', async (t) => {
  const { url, arrivals } = await arrivalServer(t)
  const startAt = Date.now() + 1000
  const instance = autocannon({ url, connections: 2, duration: 2, startAt })
  let startEvent = 0
  instance.on('start', () => { startEvent = Date.now() })
  const result = await instance
  t.ok(arrivals.length > 0, `${arrivals.length} requests`)
  t.ok(arrivals[0] >= startAt - 15, `first request ${arrivals[0] - startAt} ms after the start time`)
  t.ok(arrivals[0] < startAt + 1000, 'and soon after it')
  t.ok(startEvent >= startAt - 15 && startEvent < startAt + 1000, `'start' at ${startEvent - startAt} ms`)
  t.ok(Math.abs(result.series.time[0] - (startAt + 1000)) <= 50, `first sample ends at ${result.series.time[0] - startAt} ms`)
  for (let i = 1; i < result.series.time.length; i++) {
    t.ok(Math.abs(result.series.time[i] - (startAt + (i + 1) * 1000)) <= 50, `sample ${i + 1} at ${result.series.time[i] - startAt} ms`)
  }
  t.ok(result.start.getTime() >= startAt && result.start.getTime() < startAt + 1000, `start ${result.start.getTime() - startAt} ms after the time`)
  t.equal(result.startAt.getTime(), startAt, 'the result keeps the start time')
})

t.test('-L 500 with workers: each worker counts from the start time', async (t) => {
  const { url } = await arrivalServer(t)
  const startAt = Date.now() + 1500
  const result = await autocannon({ url, connections: 2, workers: 2, duration: 2, sampleInt: 500, startAt })
  t.ok(result.series.time.length >= 2, `${result.series.time.length} samples`)
  // A busy machine may boot the workers after the start time: they then
  // skip the intervals they missed, and still end theirs on the grid.
  result.series.time.forEach((end, i) => {
    const offset = (end - startAt) % 500
    t.ok(offset <= 50 || offset >= 450, `sample ${i + 1} ends at ${end - startAt} ms, on the 500 ms grid`)
    if (i > 0) t.ok(Math.abs(end - result.series.time[i - 1] - 500) <= 50, 'one interval after the last')
  })
})

t.test('stopped while waiting: nothing sent, an empty result', async (t) => {
  const { url, arrivals } = await arrivalServer(t)
  const instance = autocannon({ url, connections: 2, duration: 5, startAt: Date.now() + 2000 })
  let started = false
  instance.on('start', () => { started = true })
  setTimeout(() => instance.stop(), 200)
  const began = Date.now()
  const result = await instance
  t.ok(Date.now() - began < 1500, 'ends at the stop, not at the start time')
  t.equal(arrivals.length, 0)
  t.equal(result.requests.total, 0)
  t.equal(result.requests.sent, 0)
  t.equal(result.samples, 0)
  t.notOk(started, 'no start event')
})

t.test('the CLI says when it starts, and --out keeps the result', async (t) => {
  const { url } = await arrivalServer(t)
  const dir = t.testdir({})
  const file = require('path').join(dir, 'shard.json')
  // Room for the command's own start on a busy machine.
  const startAt = Date.now() + 3000
  const out = await run(['--startAt', String(startAt), '--shard', '1/2', '-c', '2', '-d', '1', '--out', file, url])
  t.equal(out.code, 0, out.stderr)
  t.match(out.stderr, /shard 1 of 2 \(0-based\), starting at \S+Z \(in \d\.\d s\)/)
  const saved = JSON.parse(require('fs').readFileSync(file, 'utf8'))
  t.match(saved.shard, { index: 1, count: 2 })
  t.equal(saved.connections, 1, 'its part of -c 2')
  t.equal(new Date(saved.startAt).getTime(), startAt)
  t.equal(saved.series.time[0], startAt + 1000)

  // With -j as well: the same JSON on stdout and in the file.
  const both = await run(['-c', '1', '-d', '1', '-j', '--out', file, url])
  t.equal(both.code, 0, both.stderr)
  t.equal(JSON.parse(both.stdout).requests.total, JSON.parse(require('fs').readFileSync(file, 'utf8')).requests.total)
  const bad = await run(['--out', require('path').join(dir, 'no', 'such', 'dir', 'x.json'), url])
  t.equal(bad.code, 1)
  t.match(bad.stderr, /^Error: --out .*cannot write there \(no such directory\)/)
})
