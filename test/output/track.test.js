'use strict'

// track(): header, progress bar driven by 'tick' events (seconds or
// responses), and the tables on 'done', with a fake instance and streams;
// and when the bar's module is loaded.

const t = require('tap')
const { EventEmitter } = require('events')
const track = require('../../lib/output/track')
const { parseTables, stripAnsi } = require('../helpers/tables')

function fakeStream (isTTY) {
  const stream = { isTTY, columns: 80, out: '', bars: [] }
  stream.write = (s) => { stream.out += s; return true }
  stream.cursorTo = () => { stream.out += '<cursor>' }
  stream.clearLine = () => { stream.out += '<clear>' }
  return stream
}

function fakeInstance (opts) {
  const instance = new EventEmitter()
  instance.opts = { url: 'http://127.0.0.1:3000', connections: 10, pipelining: 1, workers: 0, duration: 10, amount: 0, ...opts }
  return instance
}

function result () {
  const stats = { average: 1, mean: 1, stddev: 0, min: 1, max: 1 }
  for (const k of ['p0_001', 'p0_01', 'p0_1', 'p1', 'p2_5', 'p10', 'p25', 'p50', 'p75', 'p90', 'p97_5', 'p99', 'p99_9', 'p99_99', 'p99_999']) stats[k] = 1
  return {
    url: 'http://127.0.0.1:3000',
    connections: 10,
    sampleInt: 1000,
    pipelining: 1,
    duration: 1.01,
    samples: 1,
    errors: 0,
    timeouts: 0,
    mismatches: 0,
    non2xx: 0,
    resets: 0,
    '2xx': 10,
    statusCodeStats: { 200: { count: 10 } },
    latency: { ...stats, totalCount: 10 },
    requests: { ...stats, total: 10, sent: 10 },
    throughput: { ...stats, total: 1000 }
  }
}

t.test('needs an instance', async (t) => {
  t.throws(() => track(), { code: 'AC_INVALID_ARGUMENT', message: 'instance required for tracking' })
})

t.test('header lines as autocannon prints them', async (t) => {
  const { header } = track
  t.equal(header({ url: 'http://a', connections: 10, pipelining: 1, duration: 10 }),
    'Running 10s test @ http://a\n10 connections\n')
  t.equal(header({ url: 'http://a', connections: 100, pipelining: 1, duration: 10 }, 'warmup'),
    'Running 10s warmup @ http://a\n100 connections\n')
  t.equal(header({ url: ['http://a', 'http://b'], connections: 2, pipelining: 4, amount: 500, workers: 2, socketPath: '/tmp/s' }),
    'Running 500 requests test @ http://a, http://b (/tmp/s)\n2 connections with 4 pipelining factor\n2 workers\n')
})

t.test('not a terminal: header and tables, no bar', async (t) => {
  const stream = fakeStream(false)
  const instance = fakeInstance({ duration: 1 })
  track(instance, { outputStream: stream })
  instance.emit('start')
  instance.emit('tick', { counter: 5, bytes: 500 })
  instance.emit('done', result())
  t.match(stream.out, /^Running 1s test @ http:\/\/127\.0\.0\.1:3000\n10 connections\n\n\n┌/)
  t.notMatch(stream.out, /running \[|<cursor>/)
  t.equal(parseTables(stream.out).length, 2)
  t.match(stream.out, /10 requests in 1\.01s, 1 kB read\n$/)
})

t.test('a terminal: the bar follows the seconds of a duration run', async (t) => {
  const stream = fakeStream(true)
  const instance = fakeInstance({ duration: 0.2 })
  track(instance, { outputStream: stream })
  instance.emit('start')
  t.match(stripAnsi(stream.out), /running \[ {20}\] 0%/)
  await new Promise((resolve) => setTimeout(resolve, 110))
  instance.emit('tick', { counter: 5, bytes: 500 })
  const mid = stripAnsi(stream.out).match(/\] (\d+)%/g)
  const last = Number(/(\d+)%/.exec(mid[mid.length - 1])[1])
  t.ok(last >= 40 && last <= 99, `about half way after half the time (${last}%)`)
  instance.emit('tick', { counter: 5, bytes: 500 })
  instance.emit('done', result())
  const out = stripAnsi(stream.out)
  t.match(out, /100%<clear>.*<clear><cursor>/s, 'the bar completes and clears itself before the tables')
  t.equal(parseTables(out).length, 2, 'tables intact')
})

t.test('a terminal: the bar follows the responses of an amount run', async (t) => {
  const stream = fakeStream(true)
  const instance = fakeInstance({ amount: 1000 })
  track(instance, { outputStream: stream, progressBarString: 'custom [:bar] :percent' })
  instance.emit('start')
  t.match(stream.out, /^Running 1000 requests test @ /)
  instance.emit('tick', { counter: 250, bytes: 0 })
  t.match(stream.out, /custom \[={5} {15}\] 25%/)
  instance.emit('tick', { counter: 250, bytes: 0 })
  t.match(stream.out, /custom \[========== {10}\] 50%/)
  instance.emit('tick', { counter: 600, bytes: 0 })
  t.match(stream.out, /\] 99%/, 'never complete before done')
  t.notMatch(stream.out, /100%/)
  instance.emit('done', result())
  t.match(stream.out, /100%/)
})

t.test('renderProgressBar: false prints no header and no bar; renderResultsTable: false no tables', async (t) => {
  const stream = fakeStream(true)
  const instance = fakeInstance()
  track(instance, { outputStream: stream, renderProgressBar: false })
  instance.emit('start')
  instance.emit('tick', { counter: 1, bytes: 1 })
  t.equal(stream.out, '')
  instance.emit('done', result())
  t.equal(parseTables(stream.out).length, 2)
  t.notMatch(stream.out, /Running/)

  const quiet = fakeStream(true)
  const other = fakeInstance()
  track(other, { outputStream: quiet, renderResultsTable: false })
  other.emit('start')
  other.emit('done', result())
  t.equal(parseTables(quiet.out).length, 0)
  t.notMatch(quiet.out, /requests in/)
})

t.test('renderLatencyTable adds the percentile table', async (t) => {
  const stream = fakeStream(false)
  const instance = fakeInstance()
  track(instance, { outputStream: stream, renderLatencyTable: true })
  instance.emit('done', result())
  t.equal(parseTables(stream.out).length, 3)
})

t.test('a new header and bar each round (forever)', async (t) => {
  const stream = fakeStream(true)
  const instance = fakeInstance({ amount: 10 })
  track(instance, { outputStream: stream })
  for (let i = 0; i < 2; i++) {
    instance.emit('start')
    instance.emit('tick', { counter: 10, bytes: 10 })
    instance.emit('done', result())
  }
  t.equal(stream.out.match(/Running 10 requests test/g).length, 2)
  t.equal(parseTables(stream.out).length, 4)
})

// In a fresh process: whether the bar's module (progress) is loaded once
// track() is called, and once the run has started.
function progressLoaded (isTTY) {
  const { execFileSync } = require('child_process')
  const script = `
    const { EventEmitter } = require('events')
    const track = require(${JSON.stringify(require.resolve('../../lib/output/track'))})
    const loaded = () => Object.keys(require.cache).some((f) => /[\\\\/]node_modules[\\\\/]progress[\\\\/]/.test(f))
    const stream = { isTTY: ${isTTY}, columns: 80, write: () => true, cursorTo () {}, clearLine () {} }
    const instance = new EventEmitter()
    instance.opts = { url: 'http://127.0.0.1:3000', connections: 1, pipelining: 1, duration: 1, amount: 0 }
    track(instance, { outputStream: stream })
    const onTrack = loaded()
    instance.emit('start')
    process.stdout.write(JSON.stringify({ onTrack, afterStart: loaded() }))
  `
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }))
}

t.test('the bar\'s module is taken when track() is called, before the run starts, and only for a terminal', async (t) => {
  t.same(progressLoaded(true), { onTrack: true, afterStart: true }, 'on a terminal: loaded by track(), not at \'start\'')
  t.same(progressLoaded(false), { onTrack: false, afterStart: false }, 'elsewhere: never loaded')
})
