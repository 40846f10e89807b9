'use strict'

// A Run's last interval (lib/engine/run.js), stopped at chosen moments of
// the real clock against a loopback server: a sample when it is nearly
// whole, else its responses counted without one, and a short run's only
// interval a sample whole or not. The wiring: test/engine/run.test.js.

const t = require('tap')
const { EventEmitter } = require('events')
const { performance } = require('perf_hooks')
const { Run } = require('../../lib/engine/run')
const { buildConfig } = require('../../lib/config/config')
const { rawServer } = require('../helpers/raw-server')

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// A run of `opts` against `url`; `ends` notes each onDone and onError.
function runOf (url, opts, runOpts = {}) {
  const config = buildConfig({ url, ...opts })
  const events = new EventEmitter()
  const ends = { done: [], errors: [] }
  let settle
  const ended = new Promise((resolve) => { settle = resolve })
  const run = new Run(config, events, {
    onDone: (snapshot) => { ends.done.push(snapshot); settle() },
    onError: (err) => { ends.errors.push(err); settle() },
    ...runOpts
  })
  return { run, config, events, ends, ended }
}

t.test('the last interval: a sample when nearly whole, else counted without one', async (t) => {
  const server = await rawServer(t, () => OK)
  {
    // Stopped 97 ms into a 100 ms interval: within its slack (5 ms), it
    // ends where its timer would have.
    const { run, ends, ended } = runOf(server.url, { connections: 1, duration: 10, sampleInt: 100 })
    run.start()
    setTimeout(() => run.stop(), 97)
    await ended
    const snapshot = ends.done[0]
    t.same(snapshot.series.map((x) => x[0]), [run.clock.epochAt(run.clock.startedAt + 100)], 'nearly whole: one sample, on the grid')
  }
  {
    // Stopped half-way into the second interval: not a sample.
    const { run, ends, ended } = runOf(server.url, { connections: 1, duration: 10, sampleInt: 100 })
    run.start()
    setTimeout(() => run.stop(), 150)
    await ended
    const snapshot = ends.done[0]
    t.same(snapshot.series.map((x) => x[0]), [run.clock.epochAt(run.clock.startedAt + 100)], 'the half interval is no sample')
    const inSamples = snapshot.series.reduce((sum, x) => sum + x[1], 0)
    t.ok(snapshot.totalCompletedRequests >= inSamples, `its responses are counted all the same (${snapshot.totalCompletedRequests} ≥ ${inSamples})`)
  }
  {
    // A short run's only interval is a sample, whole or not.
    const { run, ends, ended } = runOf(server.url, { connections: 1, duration: 10, sampleInt: 1000 })
    run.start()
    await sleep(40)
    const before = performance.now()
    run.stop()
    const after = performance.now()
    await ended
    const snapshot = ends.done[0]
    t.equal(snapshot.samples, 1, 'the only interval of a short run')
    const at = snapshot.series[0][0]
    t.ok(at >= run.clock.epochAt(before) && at <= run.clock.epochAt(after), 'ending when it stopped')
  }
})
