'use strict'

// A Run (lib/engine/run.js) against a loopback server: how it wires its
// parts, the one snapshot finish() hands back, abort(), a stop before the
// start time, and emitResponses. The last sample's rule, which stops at
// chosen moments of the real clock: test/e2e/run-last-interval.test.js.
// Whole runs are tested end to end elsewhere (test/e2e/engine.test.js and
// others); this holds the wiring.

const t = require('tap')
const { EventEmitter } = require('events')
const { Run } = require('../../lib/engine/run')
const { RunHandle } = require('../../lib/engine/run-handle')
const { Connections } = require('../../lib/engine/connections')
const { RunClock } = require('../../lib/engine/clock')
const { Controls } = require('../../lib/engine/controls')
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

t.test('its parts, wired to each other', async (t) => {
  const server = await rawServer(t, () => OK)
  const { run, ends, ended } = runOf(server.url, { connections: 2, amount: 10 })
  t.ok(run.handle instanceof RunHandle)
  t.ok(run.connections instanceof Connections)
  t.ok(run.clock instanceof RunClock)
  t.ok(run.controls instanceof Controls)
  t.equal(run.connections.run, run.handle, 'the connections hand the run\'s handle to their clients')
  t.equal(run.connections.setup, run.clientSetup)
  t.ok(Object.isFrozen(run.clientSetup), 'what the clients share is made once')
  t.equal(run.clientSetup.recorder, run.recorder)
  t.equal(run.handle.recorder, run.recorder, 'one recorder counts')
  t.equal(run.controls.connections, run.connections)
  t.equal(run.controls.clock, run.clock)
  t.equal(run.handle.scheduler, null, 'no rate, no plan')
  run.start()
  t.ok(run.clock.beganAt > 0, 'no start time: begun at once')
  t.equal(run.connections.clients.length, 2)
  t.ok(run.connections.clients.every((c) => c.run === run.handle), 'each client holds the run\'s handle, not the run')
  await ended
  t.equal(ends.done.length, 1, 'the amount done, the handle finished the run')
  t.equal(ends.done[0].totalCompletedRequests, 10)
  t.ok(run.connections.stopped, 'its connections stopped')
  t.equal(run.handle.closed, true, 'its handle closed')
  t.equal(run.loopMonitor.timer, null, 'its loop monitor stopped')
})

t.test('a rated run hands its plan to the handle and the controls', async (t) => {
  const { run } = runOf('http://127.0.0.1:9', { connections: 1, overallRate: 10 })
  t.not(run.scheduler, null)
  t.equal(run.handle.scheduler, run.scheduler)
  t.equal(run.controls.scheduler, run.scheduler)
  t.equal(run.clientSetup.planned, run.scheduler.planned, 'latency runs from the planned times')
})

t.test('a run of whole intervals: one sample per interval, on the grid', async (t) => {
  const server = await rawServer(t, () => OK)
  const { run, ends, ended, events } = runOf(server.url, { connections: 1, duration: 0.2, sampleInt: 50 })
  const ticks = []
  events.on('tick', (tick) => ticks.push(tick))
  run.start()
  await ended
  t.equal(ends.done.length, 1, 'one snapshot')
  const snapshot = ends.done[0]
  const s = run.clock.startedAt
  t.same(snapshot.series.map((x) => x[0]), [50, 100, 150, 200].map((ms) => run.clock.epochAt(s + ms)))
  t.equal(snapshot.samples, 4)
  t.same(snapshot.series.map((x) => x[8]), [1, 1, 1, 1], 'one connection open in each')
  t.ok(snapshot.totalCompletedRequests > 0)
  t.equal(ticks.length, 1, 'a last tick at the end')
  t.equal(ticks[0].counter, snapshot.totalCompletedRequests, 'with what the run counted')
  run.stop()
  await sleep(10)
  t.equal(ends.done.length, 1, 'stop() after the end: no second snapshot')
})

t.test('abort(err): the run ends with the error, and no snapshot', async (t) => {
  const server = await rawServer(t, () => OK)
  const { run, ends, ended } = runOf(server.url, { connections: 1, duration: 10 })
  run.start()
  await sleep(20)
  const err = new Error('stop here')
  run.abort(err)
  await ended
  t.same(ends.errors, [err])
  run.abort(new Error('again'))
  run.stop()
  await sleep(10)
  t.same(ends, { done: [], errors: [err] }, 'once, and nothing after')
  t.ok(run.connections.stopped)
  t.equal(run.handle.closed, true)
})

t.test('a setupClient that throws for a later batch aborts the run', async (t) => {
  const server = await rawServer(t, () => OK)
  const boom = new Error('no client 256')
  const { run, ends, ended } = runOf(server.url, { connections: 300, duration: 10 }, {
    setupClient: (client) => { if (client.index === 256) throw boom }
  })
  run.start()
  await ended
  t.same(ends, { done: [], errors: [boom] })
})

t.test('stopped while waiting for its start time: an empty result, and no connection', async (t) => {
  const server = await rawServer(t, () => OK)
  const { run, ends, ended } = runOf(server.url, { connections: 2, duration: 10 }, { startAt: Date.now() + 5000 })
  run.start()
  await sleep(20)
  t.equal(run.clock.beganAt, 0, 'not begun')
  run.stop()
  await ended
  const snapshot = ends.done[0]
  t.same({
    samples: snapshot.samples,
    series: snapshot.series,
    sent: snapshot.totalRequests,
    completed: snapshot.totalCompletedRequests,
    duration: snapshot.duration
  }, { samples: 0, series: [], sent: 0, completed: 0, duration: 0 })
  t.equal(snapshot.start.getTime(), snapshot.finish.getTime())
  await sleep(20)
  t.equal(server.stats.connections, 0, 'nothing was opened')
})

t.test('emitResponses: the handle\'s flag, read and written through the run', async (t) => {
  const { run } = runOf('http://127.0.0.1:9', { connections: 1 })
  t.equal(run.emitResponses, false)
  run.emitResponses = true
  t.equal(run.handle.emitResponses, true)
  run.handle.emitResponses = false
  t.equal(run.emitResponses, false)
})

t.test('encodeSnapshot: the snapshot in its encoded form', async (t) => {
  const server = await rawServer(t, () => OK)
  const { run, ends, ended } = runOf(server.url, { connections: 1, amount: 5 }, { encodeSnapshot: true })
  run.start()
  await ended
  t.type(ends.done[0].latencies, 'string')
})
