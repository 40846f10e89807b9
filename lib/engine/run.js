'use strict'

// One run in this thread: it builds its parts (its clock, its
// connections, the handle its clients reach it through, the controls a
// session steps it with, the rate plan under a rate, and the recorder, the
// only writer of the counts), starts them, takes the samples, and hands
// the recorder's snapshot back when it is over.
//
// The run asks of a client only start(), stop(), checkTimeout(now), its
// `inFlight` and `connected`, and (--connectionStages) park() and unpark().

const { performance } = require('perf_hooks')
const { Recorder } = require('./recorder')
const { LoopMonitor } = require('./loop-monitor')
const { RunClock } = require('./clock')
const { RunHandle } = require('./run-handle')
const { Connections } = require('./connections')
const { Controls } = require('./controls')
const { createState } = require('../client/templates')
const { seededRandom, streamSeed } = require('../core/random')
const { lazy } = require('../core/lazy')
// Lazy: only a run under a rate needs its plan (scheduler.js, and with it
// plan.js, arrivals.js and the precise timer).
const scheduler = lazy(() => require('./scheduler'))
// Lazy: only --abortOnFail needs its check.
const abortChecks = lazy(() => require('../results/abort-check'))

const TEMPLATE_STREAM = 0x7b000000

// {{seq}} is unique across the run: this thread's values are k * stride +
// its place among all threads (workers of all shards).
function templateState (config) {
  const workers = Math.max(1, config.workersOfShard || 1)
  const shards = config.shard ? config.shard.count : 1
  return createState({
    random: seededRandom(streamSeed(config.seed, config.shardIndex, config.workerIndex, TEMPLATE_STREAM)),
    stride: workers * shards,
    offset: (config.shardIndex || 0) * workers + (config.workerIndex || 0)
  })
}

class Run {
  constructor (config, events, { onDone, onError, onSample, onLiveSample, requestsByOrigin, baseHeaders, baseBody, verifyBody, setupClient, clock, encodeSnapshot, startAt } = {}) {
    this.config = config
    this.events = events
    this.onDone = onDone
    this.onError = onError || ((err) => { throw err })
    const rated = !!(config.connectionRate || config.overallRate || config.stages)
    // Under a rate, latency runs from the planned send time, and the
    // service time is kept beside it; -C makes latency the service time.
    const correctLatency = rated && !config.ignoreCoordinatedOmission
    // The service time per interval too, only for what draws it live (the
    // dashboard, when the run's samples are watched).
    const liveUncorrected = correctLatency && !!onLiveSample && !!config.dashboard
    this.recorder = new Recorder({ excludeErrorStats: config.excludeErrorStats, trackUncorrected: correctLatency, liveUncorrected })
    // Made here, before anything is sent, so that its modules load while
    // no request is due.
    this.scheduler = rated ? scheduler().createScheduler(config) : null
    this.loopMonitor = new LoopMonitor(this.recorder)
    this.finished = false
    // --abortOnFail's check, made once before the first send (its module
    // loaded with it: checkAbort uses it mid-run); the run's verdict when it
    // stopped on one.
    this.abortCheck = config.abortOnFail ? abortChecks().createAbortCheck(config.thresholds, config.abortAfter) : null
    this.aborted = null
    // A worker's run under --abortOnFail: each sample's figures go to the
    // main thread, which checks the whole run's (abort-watch.js).
    this.onSample = onSample || null
    // A run watched live (a 'sample' listener): each sample as it is
    // taken, the last whole interval at the end included.
    this.onLiveSample = onLiveSample || null
    // Epoch ms to wait for before starting (the first round only: the
    // caller passes it or not).
    this.startAt = startAt
    // Workers and skipAggregateResult hand the snapshot on: encode it.
    this.encodeSnapshot = !!encodeSnapshot || config.skipAggregateResult

    this.handle = new RunHandle(config, {
      recorder: this.recorder,
      scheduler: this.scheduler,
      events,
      finish: () => this.finish(),
      clientDone: () => this.connections.clientDone()
    })
    // What every client of the run shares, once.
    this.clientSetup = Object.freeze({
      recorder: this.recorder,
      pipelining: config.pipelining,
      rated,
      timeoutMs: config.timeout * 1000,
      amount: config.amount,
      amountRun: config.amount > 0,
      // amount takes precedence over maxConnectionRequests (as in autocannon).
      maxRequests: config.amount ? 0 : config.maxConnectionRequests,
      reconnectRate: config.reconnectRate,
      verifyBody: verifyBody || null,
      expectBody: config.expectBody,
      maxBodySize: config.maxBodySize,
      method: config.method,
      headers: baseHeaders || config.headers,
      body: baseBody !== undefined ? baseBody : config.body,
      idReplacement: config.idReplacement,
      initialContext: config.initialContext,
      // Latency runs from these when it is corrected (see above).
      planned: correctLatency ? this.scheduler.planned : null,
      // What {{…}} holes draw from, one for all this thread's connections.
      templates: templateState(config)
    })
    this.connections = new Connections(config, this.clientSetup, this.handle, { requestsByOrigin, setupClient })
    this.clock = new RunClock(config, clock, {
      begin: () => this.begin(),
      sample: (due) => this.sample(due),
      tick: () => events.emit('tick', this.recorder.takeTick()),
      sweep: () => this.connections.sweep(),
      end: () => this.finish()
    })
    this.controls = new Controls({
      recorder: this.recorder,
      scheduler: this.scheduler,
      connections: this.connections,
      clock: this.clock,
      loopMonitor: this.loopMonitor,
      ended: () => this.finished
    })
  }

  // Whether the run's 'response' event has a listener (set by the
  // instance as listeners come and go).
  get emitResponses () {
    return this.handle.emitResponses
  }

  set emitResponses (value) {
    this.handle.emitResponses = value
  }

  start () {
    if (this.finished) return
    this.connections.build()
    this.clock.start(this.startAt)
  }

  begin () {
    if (this.finished) return
    if (this.scheduler) this.scheduler.start(this.recorder, () => this.loopMonitor.late())
    this.loopMonitor.start()
    this.connections.begin(this.clock.startedAt, (err) => this.abort(err))
  }

  // A sample is due: → whether to go on sampling.
  sample (due) {
    if (this.finished) return false
    const recorder = this.recorder
    recorder.sample(this.clock.epochAt(due), this.connections.openCount())
    if (this.abortCheck !== null && this.checkAbort(due)) return false
    if (this.onSample !== null) this.onSample(recorder, (due - this.clock.startedAt) / 1000)
    if (this.onLiveSample !== null) this.onLiveSample(recorder, (due - this.clock.startedAt) / 1000)
    return true
  }

  // --abortOnFail: a threshold failed on the run so far; the run stops
  // here, with what it measured ('abort', then 'done').
  checkAbort (at) {
    const elapsed = (at - this.clock.startedAt) / 1000
    const failed = this.abortCheck(this.recorder, elapsed, this.scheduler !== null)
    if (failed === null) return false
    this.aborted = abortChecks().abortedAt(failed, elapsed)
    this.events.emit('abort', this.aborted)
    this.finish()
    return true
  }

  // --- a session's controls (controls.js) ---

  setRate (rate) {
    this.controls.setRate(rate)
  }

  drain (timeoutMs) {
    return this.controls.drain(timeoutMs)
  }

  cut () {
    return this.controls.cut()
  }

  peek (limitsMs, remainingMs) {
    return this.controls.peek(limitsMs, remainingMs)
  }

  // --- the end ---

  stop () {
    this.finish()
  }

  // A setupClient that threw while later connections were being built:
  // the run ends with that error instead of a result.
  abort (err) {
    if (this.finished) return
    this.finished = true
    this.halt()
    this.onError(err)
  }

  // → the requests that were in flight.
  halt () {
    this.handle.closed = true
    this.clock.stop()
    if (this.scheduler) this.scheduler.stop()
    this.loopMonitor.stop()
    return this.connections.stop()
  }

  finish () {
    if (this.finished) return
    this.finished = true
    const now = performance.now()
    const busy = this.loopMonitor.busy()
    const open = this.connections.openCount()
    const inFlight = this.halt()
    const recorder = this.recorder
    const clock = this.clock
    // Stopped while waiting for the start time: nothing was sent.
    const began = clock.beganAt !== 0
    if (!began) clock.beganAt = clock.startedAt = now
    // The last interval becomes a sample only when it is (nearly) whole,
    // or when it is the only one a short run has.
    const end = began ? clock.lastSampleEnd(now - clock.startedAt, recorder.series.length) : null
    if (end !== null) {
      recorder.sample(clock.epochAt(end), open)
      if (this.onLiveSample !== null) this.onLiveSample(recorder, (end - clock.startedAt) / 1000)
    } else if (began && recorder.series.length === 0) recorder.sample(clock.epochAt(now), open)
    else recorder.flushPartial()
    this.events.emit('tick', recorder.takeTick())
    const snapshot = recorder.snapshot({ ...this.controls.window(now, inFlight, busy), form: this.encodeSnapshot ? 'encoded' : 'histogram' })
    const handle = this.handle
    if (handle.firstHookError) snapshot.hookError = String(handle.firstHookError && handle.firstHookError.message)
    if (this.aborted !== null) snapshot.aborted = this.aborted
    this.onDone(snapshot)
  }
}

module.exports = { Run }
