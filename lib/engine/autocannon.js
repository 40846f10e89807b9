'use strict'

// autocannon(opts[, cb]): checks the options into a frozen config, runs it
// (in this thread or in workers, round after round with -f, after a
// warm-up when asked) and reports the result through the callback, the
// returned instance's events, and the instance as a promise (instance.js).

const { buildConfig } = require('../config/config')
const { warnUnknown } = require('../core/options')
const { raise, InvalidOptionError } = require('../core/errors')
const { upstream } = require('../core/upstream-messages')
const { emitWarning } = require('../core/warnings')
const { runResult } = require('../results/result')
const { EventEmitter } = require('events')
const { Instance } = require('./instance')
const { lazy } = require('../core/lazy')
// Lazy: each only once autocannon() is called, so that the package
// required alone (for printResult or aggregateResult, say) loads none of
// a run's set-up.
const limits = lazy(() => require('../config/limits'))
const prepare = lazy(() => require('../config/prepare'))
const hostCheck = lazy(() => require('../config/host-check'))
// Lazy: a run in this thread needs only run.js, a run in workers only
// workers.js (and worker_threads with it).
const inThisThread = lazy(() => require('./run'))
const inWorkers = lazy(() => require('./workers'))
// Lazy: only a run with an HTTP/2 target checks its ALPN.
const alpnCheck = lazy(() => require('../http2/alpn-check'))

class RunInstance extends Instance {
  constructor () {
    super()
    this.run = null
    this.on('newListener', (name) => {
      if (name !== 'response') return
      // Responses happen in the worker threads, with a client that cannot
      // be sent here: refused where the listener is added rather than
      // never called (autocannon calls it never).
      if (this.opts !== null && this.opts.workers) {
        throw raise('AC_NOT_WITH_WORKERS', 'the \'response\' event cannot be used with workers: each response happens in a worker thread, with a client that stays there. ' +
          'Listen on the clients in a setupClient file (client.on(\'response\', …)), which runs in every worker, or run without workers')
      }
      if (this.run) this.run.emitResponses = true
    })
  }
}

function autocannon (opts, cb) {
  const instance = new RunInstance()
  const callback = typeof cb === 'function' ? cb : null

  const fail = (err) => {
    setImmediate(() => {
      instance.emitError(err)
      if (callback) callback(err)
      instance.settle(err)
    })
  }

  let config
  let prepared
  let warmup = null
  try {
    if (opts !== null && typeof opts === 'object') warnUnknown(opts)
    config = buildConfig(opts, { callbackGiven: callback !== null })
    instance.opts = config
    const { checkLimits, warnings } = limits()
    checkLimits(config)
    for (const { code, message } of warnings(config)) emitWarning(code, message)
    prepared = prepare().prepare(config)
    if (opts.warmup !== undefined && opts.warmup !== null && opts.warmup !== false) {
      const warmupConfig = buildConfig(warmupOptions(opts))
      checkLimits(warmupConfig)
      warmup = { config: warmupConfig, prepared: prepare().prepare(warmupConfig) }
    }
  } catch (err) {
    // autocannon throws this one at a caller that gave a callback (its
    // others go to the callback); scripts catch it so.
    if (callback !== null && err.message === upstream('connectionsOverAmount')) throw err
    fail(err)
    return instance
  }

  // The run proper; a warm-up, when asked for, is another such pair.
  const main = { config, prepared }

  // One round: a run in this thread or in workers, settling with its
  // result (each round's is a 'done' event). Only the first round waits
  // for a start time (-f goes on from there). The warm-up is a round of
  // its own config whose events nobody hears (as in autocannon).
  function startRound (round, { config, prepared } = main, events = instance) {
    const startAt = round === 0 ? config.startAt : undefined
    let settle
    const outcome = new Promise((resolve, reject) => { settle = { resolve, reject } })
    // 'start' comes before 'done', even when the round ended before its
    // turn came (stopped at once, or a short run on a loop held up): the
    // CLI's header would follow the result.
    let started = false
    const emitStart = () => {
      if (started) return
      started = true
      events.emit('start')
    }
    const wait = startAt === undefined ? 0 : startAt - Date.now()
    const done = (result) => {
      if (wait <= 0) emitStart()
      events.emit('done', result)
      settle.resolve(result)
    }
    if (config.workers) {
      instance.run = inWorkers().runWorkers(config, events, prepared, (err, raw) => {
        if (err) return settle.reject(err)
        done(config.skipAggregateResult ? raw : runResult(raw, config))
      })
    } else {
      const { Run } = inThisThread()
      // A later round did not wait: its result has no start time to keep.
      const resultOpts = startAt === config.startAt ? config : { ...config, startAt: undefined }
      const run = new Run(config, events, {
        ...prepared,
        startAt,
        onDone: (raw) => done(config.skipAggregateResult ? raw : runResult([raw], resultOpts)),
        onError: (err) => settle.reject(err)
      })
      instance.run = run
      run.emitResponses = events.listenerCount('response') > 0
      try {
        run.start()
      } catch (err) {
        // Thrown before anything was armed (see Run#start).
        run.finished = true
        settle.reject(err)
      }
    }
    // 'start' when requests begin to go, after any wait for the start time.
    if (wait > 0) {
      const timer = setTimeout(() => { if (!instance.outcome) emitStart() }, wait)
      outcome.then(() => clearTimeout(timer), () => clearTimeout(timer))
    } else {
      setImmediate(emitStart)
    }
    const run = instance.run
    return { stop: () => run.stop(), then: (onFulfilled, onRejected) => outcome.then(onFulfilled, onRejected) }
  }

  setImmediate(async () => {
    try {
      const session = instance.session
      // A host that does not resolve: one line before the run, not a run
      // of connect errors.
      await hostCheck().checkHosts(config)
      // Before anything is sent, once per origin (workers too): a run never
      // starts against a server that cannot speak the protocol its target
      // was given.
      if (config.urls.some((target) => target.protocol === 'h2')) await alpnCheck().checkH2(config)
      const warmed = warmup === null ? undefined : await session.run(() => startRound(0, warmup, new EventEmitter()))
      const result = await session.rounds((round) => startRound(round), () => config.forever)
      if (warmed !== undefined && result) result.warmup = warmed
      if (callback) callback(null, result)
      instance.settle(null, result)
    } catch (err) {
      fail(err)
    }
  })
  return instance
}

// The warm-up's options: the run's, with the warm-up's own over them
// (autocannon takes connections and duration there). Given a duration, it
// runs for it even before an amount run; it is never forever, and starts
// at once (the run proper waits for a start time).
function warmupOptions (opts) {
  const warmup = opts.warmup
  if (typeof warmup !== 'object' || Array.isArray(warmup)) {
    throw new InvalidOptionError('warmup', warmup, 'must be an object of options for the warm-up, such as { connections: 1, duration: 3 }')
  }
  const out = { ...opts, ...warmup, forever: false }
  if (warmup.duration !== undefined) out.amount = 0
  delete out.warmup
  delete out.startAt
  // The warm-up holds its own connections unless it ramps too.
  if (warmup.connectionStages === undefined) delete out.connectionStages
  return out
}

module.exports = { autocannon, warmupOptions }
