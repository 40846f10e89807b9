'use strict'

// autocannon(opts[, cb]): checks the options into a frozen config, runs it
// (in this thread or in workers, round after round with -f, after a
// warm-up when asked) and reports the result through the callback, the
// returned instance's events, and the instance as a promise (instance.js)
// when no callback was given. What it prints is autocannon's: the JSON
// result on stdout with `json`, and the header and tables on stderr for
// options that autocannon's parseArguments made (parse-arguments.js).

const { buildConfig } = require('../config/config')
const { warnUnknown } = require('../core/options')
const { warnLoose } = require('../config/loose-values')
const { InvalidOptionError } = require('../core/errors')
const { upstream } = require('../core/upstream-messages')
const { emitWarning } = require('../core/warnings')
const { runResult } = require('../results/result')
const { preflight } = require('../protocols/registry')
const { EventEmitter } = require('events')
const { Instance, AwaitableInstance } = require('./instance')
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
// Lazy: only a warning after the run needs it.
const format = lazy(() => require('../core/format'))
// Lazy: only skipAggregateResult hands raw results to the user, in
// autocannon's form and ours.
const upstreamRaw = lazy(() => require('../results/upstream-raw'))
// Lazy: only a run watched live (a 'sample' listener) makes its samples.
const liveSamples = lazy(() => require('./live-samples'))

// The mark autocannon's parseArguments leaves on its options: autocannon()
// then shows the run as the command does (autocannon's init.js).
const INTERNAL = Symbol.for('internal')

// An instance hears about its 'response' listeners: the run emits the
// event only while someone listens. Responses with workers happen in the
// worker threads, with a client that cannot be sent here: the listener is
// never called, as in autocannon, and a warning says so.
function watchResponses (instance) {
  instance.run = null
  let warned = false
  instance.on('newListener', (name) => {
    if (name !== 'response') return
    if (instance.opts !== null && instance.opts.workers) {
      if (warned) return
      warned = true
      emitWarning('AC_NOT_WITH_WORKERS', 'the \'response\' event is never emitted with workers: each response happens in a worker thread, with a client that stays there. ' +
        'Listen on the clients in a setupClient file (client.on(\'response\', …)), which runs in every worker, or run without workers')
      return
    }
    if (instance.run) instance.run.emitResponses = true
  })
}

// What autocannon's track() is given for options from parseArguments: its
// own options, where `json` turns the drawing off.
function shownAs (opts, overrides) {
  const off = opts.json === true ? { renderProgressBar: false, renderResultsTable: false, renderLatencyTable: false } : {}
  return { ...opts, ...off, ...overrides }
}

function printJson (result) {
  process.stdout.write(JSON.stringify(result) + '\n')
}

// show(emitter, trackOptions): how the package's entry shows a run (its
// track()), for options from parseArguments; the engine loads no output.
function autocannon (opts, cb, { show = null } = {}) {
  const callback = typeof cb === 'function' ? cb : null
  const given = opts !== null && typeof opts === 'object'
  // Awaitable only without a callback, and not with forever (a promise of
  // rounds that never end), as autocannon's instance.
  const forever = given && Boolean(opts.forever)
  const instance = callback === null && !forever ? new AwaitableInstance() : new Instance()
  watchResponses(instance)

  // With a callback, the error goes there; without one, to the promise.
  // Only a forever run without a callback, which has neither, emits
  // 'error' (as autocannon's, heard or not).
  const fail = (err) => {
    instance.settle(err)
    if (callback) callback(err)
    else if (forever) instance.emit('error', err)
  }

  let config
  let prepared
  let warmup = null
  try {
    if (given) {
      warnUnknown(opts)
      warnLoose(opts)
    }
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
    // Before autocannon() returns, as autocannon's callback gets it;
    // 'error' a turn later, once a listener could be added.
    if (callback !== null) fail(err)
    else setImmediate(() => fail(err))
    return instance
  }

  // Options from autocannon's parseArguments: the header, progress and
  // tables on stderr, unless the JSON goes to a terminal.
  const shown = show !== null && given && opts[INTERNAL] === true && (!opts.json || !process.stdout.isTTY)
  if (shown) show(instance, shownAs(opts))
  // The result says workers as given (0 too), as autocannon's does.
  const workers = opts.workers === undefined || opts.workers === null ? undefined : config.workers

  // The run proper; a warm-up, when asked for, is another such pair.
  const main = { config, prepared }

  // One round: a run in this thread or in workers, settling with its
  // result (each round's is a 'done' event). Only the first round waits
  // for a start time (-f goes on from there). The warm-up is a round of
  // its own config whose events are not the instance's (as in autocannon).
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
      if (events === instance) warnAfter(result)
      events.emit('done', result)
      settle.resolve(result)
    }
    // When requests may begin to go: at once in this thread, once every
    // worker is ready with workers.
    let ready = !config.workers
    let due = wait <= 0
    const maybeStart = () => { if (ready && due && !instance.outcome) emitStart() }
    if (config.workers) {
      instance.run = inWorkers().runWorkers(config, events, prepared, (err, raw) => {
        if (err) return settle.reject(err)
        done(config.skipAggregateResult ? raw.map(upstreamRaw().publicRaw) : runResult(raw, { ...config, workers }))
      }, () => {
        ready = true
        maybeStart()
      })
    } else {
      const { Run } = inThisThread()
      // A later round did not wait: its result has no start time to keep.
      const resultOpts = { ...config, workers, startAt: startAt === config.startAt ? config.startAt : undefined }
      // Watched live: each sample as an event, made off the recorder once
      // per interval.
      const liveSample = events.listenerCount('sample') > 0 ? liveSamples().liveSample : null
      const run = new Run(config, events, {
        ...prepared,
        startAt,
        onLiveSample: liveSample === null ? undefined : (recorder, elapsedS) => events.emit('sample', liveSample(recorder, elapsedS, config.sampleInt)),
        onDone: (raw) => done(config.skipAggregateResult ? upstreamRaw().publicRaw(raw) : runResult([raw], resultOpts)),
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
    // 'start' when requests begin to go: after any wait for the start
    // time, and with workers once they are all ready.
    if (wait > 0) {
      const timer = setTimeout(() => {
        due = true
        maybeStart()
      }, wait)
      outcome.then(() => clearTimeout(timer), () => clearTimeout(timer))
    } else if (ready) {
      setImmediate(emitStart)
    }
    const run = instance.run
    return { stop: () => run.stop(), then: (onFulfilled, onRejected) => outcome.then(onFulfilled, onRejected) }
  }

  setImmediate(async () => {
    let result
    try {
      const session = instance.session
      // What watches the run (the dashboard) is ready first.
      await Promise.all(instance.startAfter)
      // A host that does not resolve: one line before the run, not a run
      // of connect errors.
      await hostCheck().checkHosts(config)
      // Before anything is sent, once per origin (workers too): a run never
      // starts against a server that cannot speak the protocol its target
      // was given.
      // A protocol's check may complete the config from the server (gRPC's
      // reflection): the run, and its warm-up (completed alike), go with
      // what it completed.
      const completed = await preflight(config)
      if (completed !== config) {
        config = completed
        instance.opts = completed
        main.config = completed
        main.prepared = prepare().prepare(completed)
        if (warmup !== null) {
          const warm = await preflight(warmup.config)
          warmup = { config: warm, prepared: prepare().prepare(warm) }
        }
      }
      const warmed = warmup === null ? undefined : await session.run(() => startRound(0, warmup, warmupEvents(warmup.config)))
      if (warmed !== undefined && opts.json) printJson(warmed)
      result = await session.rounds((round) => startRound(round), () => config.forever)
      if (warmed !== undefined && result) result.warmup = warmed
    } catch (err) {
      return deliver(() => fail(err))
    }
    deliver(() => {
      if (callback) callback(null, result)
      instance.settle(null, result)
      // After 'done' and the callback, as autocannon prints it; a forever
      // run's rounds are not printed (autocannon's never end).
      if (opts.json && !config.forever) printJson(result)
    })
  })
  return instance

  // The outcome to the caller, outside the run's try: what the callback
  // throws is the caller's own exception, uncaught as in autocannon, and
  // never comes back to the callback as the run's error.
  function deliver (outcome) {
    try {
      outcome()
    } catch (thrown) {
      process.nextTick(() => { throw thrown })
    }
  }

  // The warm-up's events, which are not the instance's: shown as
  // autocannon shows them for options from parseArguments, else heard by
  // nobody.
  function warmupEvents (warmupConfig) {
    const events = new EventEmitter()
    if (shown) {
      events.opts = warmupConfig
      show(events, shownAs(opts, { warmupRunning: true, renderResultsTable: false }))
    }
    return events
  }
}

// What the run found wrong with the server, that only its end can tell:
// a process warning (the CLI prints it after the tables).
function warnAfter (result) {
  const n = result && result.unexpectedResponses
  if (!n) return
  emitWarning('AC_RESPONSES_TO_NO_REQUEST', `the server sent ${format().thousands(n)} ${n === 1 ? 'response' : 'responses'} to no request (does it answer some requests twice?): ` +
    'each closed its connection, and one that came after the next request was sent passed for its answer, so these counts and latencies are not the server\'s')
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
