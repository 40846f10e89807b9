'use strict'

// One run in this thread: starts the clients, keeps the clock (samples,
// ticks, the end), counts what goes wrong, and hands the recorder's
// snapshot back when it is over.
//
// Clients (lib/http1/client.js, or lib/http2/client-h2.js with http2:
// the protocol is picked once per run) get what they share once, at construction
// (clientSetup: config values, the recorder, the planned-times array),
// and reach the run only through this port, these methods and one flag:
//   take(client, n) → how many of n requests may go now (their planned
//     times are then in clientSetup.planned), takeAttempt(), giveBack(n),
//     exhausted(), checkAmount(), onClientError(client, err, lost, cause,
//     connected),
//     onClientDone(client), onMismatch(client, body), onHookError(client,
//     err), onResponseHookError(client, err, count), emitResponse(…) while
//     `emitResponses` is set.
// The run asks of a client only start(), stop(), checkTimeout(now), its
// `inFlight` and `connected`, and (--connectionStages) park() and
// unpark().

const { performance } = require('perf_hooks')
const { Recorder } = require('./recorder')
const { LoopMonitor } = require('./loop-monitor')
const { transportFor } = require('../transport/transport')
const { codeOf } = require('../core/errors')
const { maskSecrets } = require('../core/redact')

// Connections opened per turn of the event loop (~70 µs each on loopback).
const OPEN_BATCH = 256
// The ramp of --connectionStages wakes at most this often (ms): a steep
// one moves several connections at a time rather than spinning.
const RAMP_MIN_MS = 10

// The random stream --order random draws from (far from the arrivals').
const TARGETS_STREAM = 0x7a000000
const TEMPLATE_STREAM = 0x7b000000

// {{seq}} is unique across the run: this thread's values are k * stride +
// its place among all threads (workers of all shards).
function templateState (config) {
  const { createState } = require('../http1/template')
  const { seededRandom, streamSeed } = require('../core/random')
  const workers = Math.max(1, config.workersOfShard || 1)
  const shards = config.shard ? config.shard.count : 1
  return createState({
    random: seededRandom(streamSeed(config.seed, config.shardIndex, config.workerIndex, TEMPLATE_STREAM)),
    stride: workers * shards,
    offset: (config.shardIndex || 0) * workers + (config.workerIndex || 0)
  })
}

class Run {
  constructor (config, events, { onDone, onError, onSample, requestsByOrigin, baseHeaders, baseBody, verifyBody, setupClient, clock, encodeSnapshot, startAt } = {}) {
    this.config = config
    this.events = events
    this.onDone = onDone
    this.onError = onError || ((err) => { throw err })
    const rated = !!(config.connectionRate || config.overallRate || config.stages)
    // Under a rate, latency runs from the planned send time, and the
    // service time is kept beside it; -C makes latency the service time.
    this.correctLatency = rated && !config.ignoreCoordinatedOmission
    this.recorder = new Recorder({
      excludeErrorStats: config.excludeErrorStats,
      trackUncorrected: this.correctLatency
    })
    // Loaded here, before anything is sent, and only under a rate
    // (scheduler.js with plan.js, arrivals.js and random.js: ~1 ms).
    this.scheduler = rated ? require('./scheduler').createScheduler(config) : null
    this.loopMonitor = new LoopMonitor(this.recorder)
    this.transports = new Map(config.urls.map((target) => [target, transportFor(target, config)]))
    // HTTP/2's code is loaded only when it is used (its Huffman table is
    // built at load).
    this.Client = config.http2 ? require('../http2/client-h2').Http2Client : require('../http1/client').Client
    this.requestsByOrigin = requestsByOrigin || null
    this.orders = null
    this.baseHeaders = baseHeaders || config.headers
    this.baseBody = baseBody !== undefined ? baseBody : config.body
    this.verifyBody = verifyBody || null
    this.setupClient = setupClient || null
    // amount, else maxOverallRequests unless maxConnectionRequests (which
    // takes precedence over it, as in autocannon) is set.
    this.budget = config.amount || (config.maxConnectionRequests ? 0 : config.maxOverallRequests) || Infinity
    this.emitResponses = false
    this.clients = []
    this.openTimer = null
    // --connectionStages: the count to hold from moment to moment; the
    // connections wanted now (the first `wanted` clients), and how many
    // have ever been started.
    this.ramp = config.connectionStages
      ? require('./connection-ramp').createConnectionRamp(config.connectionStages, config.connectionShares)
      : null
    this.rampTimer = null
    this.wanted = this.ramp === null ? config.connections : 0
    this.started = 0
    this.doneClients = 0
    this.finished = false
    this.stopping = false
    this.hookErrors = 0
    // --abortOnFail's check, made once before the first send; the run's
    // verdict when it stopped on one.
    this.abortCheck = config.abortOnFail ? require('../results/abort-check').createAbortCheck(config.thresholds, config.abortAfter) : null
    this.aborted = null
    // A worker's run under --abortOnFail: each sample's figures go to the
    // main thread, which checks the whole run's (workers.js).
    this.onSample = onSample || null
    // The run's clock: performance.now() for intervals, plus the epoch it
    // maps to; workers are handed the main thread's so samples line up.
    this.clock = clock || { start: performance.now(), epoch: performance.timeOrigin + performance.now() }
    // Epoch ms to wait for before starting (the first round only: the
    // caller passes it or not).
    this.startAt = startAt
    this.waitTimer = null
    // Where the samples are counted from, and when the run really began:
    // the same, except when a start time was given and the run got there
    // late (a timer's lateness, a worker's boot).
    this.startedAt = 0
    this.beganAt = 0
    this.cutAt = 0
    // The rate plan's due count at the last cut (plannedSince).
    this.dueAtCut = 0
    this.timers = []
    // Workers and skipAggregateResult hand the snapshot on: encode it.
    this.encodeSnapshot = !!encodeSnapshot || config.skipAggregateResult
    this.clientSetup = Object.freeze({
      recorder: this.recorder,
      pipelining: config.pipelining,
      // Closed loop: refill the pipeline once at least half of it is free,
      // so that one write carries several requests (as wrk's pipelining
      // does) instead of one write per response. Under a rate plan every
      // free slot is used at once, to stay on the plan.
      refillAt: this.scheduler ? 1 : Math.ceil(config.pipelining / 2),
      timeoutMs: config.timeout * 1000,
      amount: config.amount,
      amountRun: config.amount > 0,
      // amount takes precedence over maxConnectionRequests (as in autocannon).
      maxRequests: config.amount ? 0 : config.maxConnectionRequests,
      reconnectRate: config.reconnectRate,
      verifyBody: this.verifyBody,
      expectBody: config.expectBody,
      maxBodySize: config.maxBodySize,
      method: config.method,
      headers: this.baseHeaders,
      body: this.baseBody,
      idReplacement: config.idReplacement,
      initialContext: config.initialContext,
      // Latency runs from these when it is corrected (see above).
      planned: this.correctLatency ? this.scheduler.planned : null,
      // What {{…}} holes draw from, one for all this thread's connections.
      templates: templateState(config)
    })
  }

  // --targets: one order of an origin's entries for all its connections.
  orderFor (target) {
    if (!this.config.targets || !this.requestsByOrigin || !this.requestsByOrigin.has(target.origin)) return null
    if (this.orders === null) this.orders = new Map()
    let order = this.orders.get(target.origin)
    if (order === undefined) {
      const { sharedOrder } = require('../config/targets')
      const { seededRandom, streamSeed } = require('../core/random')
      // Its own stream of the run's seed (the arrivals use 0, 1, 2…).
      const random = seededRandom(streamSeed(this.config.seed, this.config.shardIndex, this.config.workerIndex, TARGETS_STREAM + this.orders.size))
      order = sharedOrder(this.config.order, this.requestsByOrigin.get(target.origin).length, random)
      this.orders.set(target.origin, order)
    }
    return order
  }

  requestsFor (target) {
    if (this.requestsByOrigin && this.requestsByOrigin.has(target.origin)) return this.requestsByOrigin.get(target.origin)
    return this.config.requests
  }

  start () {
    if (this.finished) return
    // The first batch is built before any timer is armed: a request that
    // cannot be encoded, or a setupClient that throws, fails the start and
    // leaves nothing behind.
    this.addClients(OPEN_BATCH)
    if (this.startAt === undefined) return this.begin(null)
    this.waitUntil(this.perfAt(this.startAt))
  }

  // One timer until the start time; nothing of the run exists until then.
  // Timers may fire a little early: it is armed again for what is left.
  waitUntil (at) {
    this.waitTimer = null
    const left = at - performance.now()
    if (left > 0) {
      this.waitTimer = setTimeout(() => this.waitUntil(at), left)
      return
    }
    this.begin(at)
  }

  // The run ends at its deadline, never before: a timer that fires a
  // little early (they do, by up to a millisecond) is armed again for
  // what is left, so `-d 1` measures at least 1 s.
  endAt (at) {
    const left = at - performance.now()
    if (left <= 0) return this.finish()
    const timer = setTimeout(() => {
      this.timers.splice(this.timers.indexOf(timer), 1)
      this.endAt(at)
    }, Math.ceil(left))
    this.timers.push(timer)
  }

  // `at`: the start time (performance.now() ms), or null for now.
  begin (at) {
    if (this.finished) return
    const config = this.config
    const now = performance.now()
    this.beganAt = now
    this.startedAt = at === null ? now : this.sampleOrigin(at, now)
    this.scheduleSample(1)
    this.timers.push(setInterval(() => this.events.emit('tick', this.recorder.takeTick()), 1000))
    const timeoutMs = config.timeout * 1000
    this.timers.push(setInterval(() => this.sweep(), Math.max(10, Math.min(250, timeoutMs / 10))))
    if (!config.amount) {
      // From the sample origin: shards that started together end together.
      this.endAt(this.startedAt + config.duration * 1000)
    }
    if (this.scheduler) this.scheduler.start(this.recorder)
    this.loopMonitor.start()
    if (this.ramp !== null) this.followRamp()
    else this.openClients()
  }

  // Samples are counted from the start time, so that they end at the same
  // instants on every machine, even when this one got there a little late
  // (its first sample is then short). Later than a whole interval, the
  // intervals it missed are skipped rather than recorded as empty: the
  // samples still fall on the shared grid, and the merge's start skew
  // shows how late it was.
  sampleOrigin (at, now) {
    const interval = this.config.sampleInt
    if (now - at <= interval) return at
    return at + Math.floor((now - at) / interval) * interval
  }

  perfAt (epochMs) {
    return this.clock.start + (epochMs - this.clock.epoch)
  }

  addClients (count) {
    const urls = this.config.urls
    const to = Math.min(this.config.connections, this.clients.length + count)
    for (let i = this.clients.length; i < to; i++) {
      const target = urls[i % urls.length]
      const client = new this.Client(this, this.clientSetup, target, i, this.transports.get(target), this.requestsFor(target), this.orderFor(target))
      if (this.setupClient) this.setupClient(client)
      this.clients.push(client)
    }
  }

  // Connections are built and opened a batch per turn of the event loop,
  // up to the count wanted: thousands of them in one go would hold the
  // clock (samples, timeouts, the end of the run) for seconds.
  openClients () {
    this.openTimer = null
    const to = Math.min(this.clients.length, this.wanted)
    for (let i = this.started; i < to && !this.finished; i++) this.clients[i].start()
    if (to > this.started) this.started = to
    if (this.started >= this.wanted || this.finished) return
    this.openTimer = setImmediate(() => {
      this.openTimer = null
      if (this.finished) return
      try {
        this.addClients(OPEN_BATCH)
      } catch (err) {
        return this.abort(err)
      }
      this.openClients()
    })
  }

  // --connectionStages: the connections above the ramp's count are parked
  // (closed once answered), those below it opened or unparked; then the
  // timer is armed for the count's next change.
  followRamp () {
    this.rampTimer = null
    if (this.finished) return
    const t = performance.now() - this.startedAt
    const want = this.ramp.at(t)
    const started = this.started
    for (let i = want; i < Math.min(this.wanted, started); i++) this.clients[i].park()
    for (let i = this.wanted; i < Math.min(want, started); i++) this.clients[i].unpark()
    this.wanted = want
    if (started < want && this.openTimer === null) this.openClients()
    const next = this.ramp.nextChange(t)
    if (next !== Infinity) this.rampTimer = setTimeout(() => this.followRamp(), Math.max(RAMP_MIN_MS, next - t))
  }

  // Connections open now: what each sample records beside its counts.
  openConnections () {
    let open = 0
    for (let i = 0; i < this.started; i++) if (this.clients[i].connected) open++
    return open
  }

  // Samples fall at fixed offsets from the start, whatever the timer drift.
  // A timer may fire a little early (by up to a millisecond): it is armed
  // again for what is left, so that no sample, and no run stopped at one
  // (--abortOnFail), ends before its time.
  scheduleSample (k) {
    const due = this.startedAt + k * this.config.sampleInt
    const fire = () => {
      if (this.finished) return
      const left = due - performance.now()
      if (left > 0) {
        this.sampleTimer = setTimeout(fire, Math.ceil(left))
        return
      }
      this.recorder.sample(this.epochAt(due), this.openConnections())
      if (this.abortCheck !== null && this.checkAbort(due)) return
      if (this.onSample !== null) this.onSample(this.recorder, (due - this.startedAt) / 1000)
      this.scheduleSample(k + 1)
    }
    this.sampleTimer = setTimeout(fire, Math.max(0, due - performance.now()))
  }

  // --abortOnFail: a threshold failed on the run so far; the run stops
  // here, with what it measured ('abort', then 'done').
  checkAbort (at) {
    const elapsed = (at - this.startedAt) / 1000
    const failed = this.abortCheck(this.recorder, elapsed, this.scheduler !== null)
    if (failed === null) return false
    this.aborted = require('../results/abort-check').abortedAt(failed, elapsed)
    this.events.emit('abort', this.aborted)
    this.finish()
    return true
  }

  epochAt (t) {
    return this.clock.epoch + (t - this.clock.start)
  }

  // Timers run before the event loop reads its sockets: after a stall,
  // responses and connections that are already waiting would count as
  // timeouts. Checking after the next poll reads them first.
  sweep () {
    setImmediate(() => {
      if (this.finished) return
      const now = performance.now()
      for (const client of this.clients) client.checkTimeout(now)
    })
  }

  // --- called by clients ---

  // How many of `n` requests may go now; under a rate the scheduler's
  // `planned` (the clients' clientSetup.planned) then holds their intended
  // send times.
  take (client, n) {
    if (this.finished) return 0
    // The budget caps the request before the plan is asked: a planned
    // request granted and then refused would have had its lateness
    // recorded (and counted late again when taken once more).
    if (n > this.budget) n = this.budget
    if (n === 0) return 0
    if (this.scheduler !== null) n = this.scheduler.take(client, n)
    if (this.budget !== Infinity) this.budget -= n
    return n
  }

  // A connection that could not be opened counts as one request that
  // ended in an error, as in autocannon: taken from the budget (not from a
  // rate plan) and counted as sent. False once the budget is spent.
  takeAttempt () {
    if (this.finished || this.budget === 0) return false
    if (this.budget !== Infinity) this.budget--
    this.recorder.started(1)
    return true
  }

  // Granted but never started (a setupRequest that asked for a reset).
  giveBack (n) {
    if (this.budget !== Infinity) this.budget += n
  }

  exhausted () {
    return this.budget === 0
  }

  // With an amount, the run ends when every request has ended, answered or
  // not, so a dead target cannot hold it open.
  checkAmount () {
    if (this.budget === 0 && this.recorder.ended >= this.config.amount) this.finish()
  }

  emitResponse (client, status, bytes, latencyMs) {
    this.events.emit('response', client, status, bytes, latencyMs)
  }

  // A ramp's run ends at its end, or when a request budget (-O) is spent
  // and every connection it started is done.
  onClientDone (client) {
    ++this.doneClients
    if (this.ramp === null ? this.doneClients === this.config.connections : this.doneClients === this.started && this.exhausted()) this.finish()
  }

  // A connection failed: `lost` requests ended with it (its requests in
  // flight, or the attempt itself). Counted per request, reported once.
  // An attempt to connect made after the last request was granted (an
  // amount run's budget spent) ends nothing: not an error, not reported.
  // A connected one is reported even so (a response for no request).
  onClientError (client, err, lost, cause, connected) {
    if (lost > 0) this.recorder.requestErrors(lost, cause, codeOf(err))
    if ((lost > 0 || connected) && this.events.listenerCount('reqError') > 0) this.events.emit('reqError', err)
    if (this.config.debug) {
      process.stderr.write(`autocannon: connection ${client.index}: ${maskSecrets(String(err && err.message))}` +
        (lost > 1 ? ` (${lost} requests lost)\n` : '\n'))
    }
    this.checkBailout()
    if (this.config.amount && lost > 0) this.checkAmount()
  }

  onMismatch (client, body) {
    this.recorder.mismatch()
    if (this.events.listenerCount('reqMismatch') > 0) this.events.emit('reqMismatch', body)
    this.checkBailout()
  }

  // A setupRequest hook failed: that request ends in an error, unsent.
  onHookError (client, err) {
    this.recorder.requestErrors(1, 'hook', 'AC_HOOK_ERROR')
    this.reportHookError(err)
    this.checkBailout()
    if (this.config.amount) this.checkAmount()
  }

  // verifyBody or onResponse threw: the response arrived (it is counted),
  // but its check failed, so it counts as a mismatch (once per response).
  onResponseHookError (client, err, count) {
    if (count) this.recorder.mismatch()
    this.reportHookError(err)
    this.checkBailout()
  }

  // Once per run: a hook that throws usually throws every time.
  reportHookError (err) {
    if (this.hookErrors++ !== 0) return
    this.firstHookError = err
    if (this.events.listenerCount('reqError') > 0) this.events.emit('reqError', err)
    if (this.config.debug || this.events.listenerCount('reqError') === 0) {
      process.stderr.write(`autocannon: a request hook threw: ${maskSecrets(String(err && err.message))}\n`)
    }
  }

  checkBailout () {
    const bailout = this.config.bailout
    if (bailout && (this.recorder.errors >= bailout || this.recorder.mismatches >= bailout)) {
      setImmediate(() => this.finish())
    }
  }

  // --- a session's controls (search steps) ---

  // A constant overall rate from now on.
  setRate (rate) {
    if (this.scheduler === null || this.finished) return
    this.scheduler.setRate(rate)
  }

  // Sends nothing more until the next setRate, and resolves once no
  // request is in flight (true) or after `timeoutMs` (false): a step of a
  // search starts on a server with no backlog of the step before, as a
  // fresh run would, but on connections already open. Near capacity a
  // backlog drains at only the capacity's margin: left in, it would fail
  // a rate the server sustains.
  drain (timeoutMs) {
    if (this.scheduler === null || this.finished) return Promise.resolve(true)
    this.scheduler.pause()
    const until = performance.now() + timeoutMs
    return new Promise((resolve) => {
      const check = () => {
        if (this.finished || this.inFlight() === 0) return resolve(true)
        if (performance.now() >= until) return resolve(false)
        setTimeout(check, 5)
      }
      check()
    })
  }

  inFlight () {
    let inFlight = 0
    for (const client of this.clients) inFlight += client.inFlight
    return inFlight
  }

  // What was measured since the last cut (or the start), as a raw snapshot.
  cut () {
    const now = performance.now()
    const inFlight = this.inFlight()
    const raw = this.recorder.cut({
      start: this.epochAt(this.cutAt || this.beganAt),
      finish: this.epochAt(now),
      inFlight,
      targetRate: this.scheduler ? this.scheduler.targetRate : 0,
      planned: this.plannedSince(now),
      busy: this.loopMonitor.busy()
    })
    this.cutAt = now
    return raw
  }

  // The window so far, and the most requests it can end by its end,
  // `remainingMs` from now: those ended, those in flight, those the plan
  // owes and those it can still make due. What a search step's watch needs
  // to tell that its verdict is already settled.
  peek (limitsMs, remainingMs) {
    const figures = this.recorder.peek(limitsMs)
    const now = performance.now()
    const scheduler = this.scheduler
    const pending = scheduler === null ? Infinity : scheduler.owed(now) + scheduler.mostDueWithin(remainingMs)
    figures.mostEnded = figures.responses + figures.errors + this.inFlight() + pending
    return figures
  }

  // Requests the rate plan made due since the last cut (or the start).
  plannedSince (now) {
    if (this.scheduler === null) return 0
    const due = this.scheduler.dueBy(now)
    const planned = due - this.dueAtCut
    this.dueAtCut = due
    return planned
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

  halt () {
    clearTimeout(this.waitTimer)
    for (const t of this.timers) clearTimeout(t)
    clearTimeout(this.sampleTimer)
    clearTimeout(this.rampTimer)
    if (this.openTimer) clearImmediate(this.openTimer)
    if (this.scheduler) this.scheduler.stop()
    this.loopMonitor.stop()
    let inFlight = 0
    for (const client of this.clients) {
      inFlight += client.inFlight
      client.stop()
    }
    return inFlight
  }

  finish () {
    if (this.finished) return
    this.finished = true
    const now = performance.now()
    const busy = this.loopMonitor.busy()
    const open = this.openConnections()
    const inFlight = this.halt()
    const recorder = this.recorder
    const sampleInt = this.config.sampleInt
    // Stopped while waiting for the start time: nothing was sent.
    const began = this.beganAt !== 0
    if (!began) this.beganAt = this.startedAt = now
    const elapsed = now - this.startedAt
    const due = (recorder.series.length + 1) * sampleInt
    // The last interval becomes a sample only when it is (nearly) whole,
    // or when it is the only one a short run has.
    if (began && elapsed >= due - Math.max(5, sampleInt * 0.02)) {
      // Whole: it ends where its timer would have ended it, as every other
      // sample does (and every other shard's, on other machines).
      recorder.sample(this.epochAt(this.startedAt + due), open)
    } else if (began && recorder.series.length === 0) {
      recorder.sample(this.epochAt(now), open)
    } else {
      recorder.flushPartial()
    }
    const tick = recorder.takeTick()
    this.events.emit('tick', tick)
    const snapshot = recorder.snapshot({
      start: this.epochAt(this.cutAt || this.beganAt),
      finish: this.epochAt(now),
      inFlight,
      targetRate: this.scheduler ? this.scheduler.targetRate : 0,
      planned: this.plannedSince(now),
      busy,
      form: this.encodeSnapshot ? 'encoded' : 'histogram'
    })
    if (this.firstHookError) snapshot.hookError = String(this.firstHookError && this.firstHookError.message)
    if (this.aborted !== null) snapshot.aborted = this.aborted
    this.onDone(snapshot)
  }
}

module.exports = { Run }
