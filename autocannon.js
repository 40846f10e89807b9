'use strict'

// autocannon(opts[, cb]): validates the options into a frozen config, runs
// it (in this thread or in workers) and reports the result through the
// callback, the returned instance's events, and the instance as a promise.

const { EventEmitter } = require('events')
const { buildConfig } = require('./lib/config/config')
const { aggregateResult } = require('./lib/results/result')
const { raise } = require('./lib/core/errors')
const { Session } = require('./lib/engine/session')

class Instance extends EventEmitter {
  constructor () {
    super()
    this.opts = null
    this.run = null
    // The rounds (-f) are a session's: stop() ends the current one and
    // starts no other.
    this.session = new Session()
    this.outcome = null
    this.waiters = []
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

  get stopped () {
    return this.session.stopped
  }

  stop () {
    this.session.stop()
  }

  settle (err, result) {
    this.outcome = { err, result }
    for (const [resolve, reject] of this.waiters) err ? reject(err) : resolve(result)
    this.waiters = []
  }

  // Awaitable; the promise is only made when asked for, so a failed run
  // whose caller used a callback leaves no unhandled rejection behind.
  then (onFulfilled, onRejected) {
    return new Promise((resolve, reject) => {
      if (this.outcome) this.outcome.err ? reject(this.outcome.err) : resolve(this.outcome.result)
      else this.waiters.push([resolve, reject])
    }).then(onFulfilled, onRejected)
  }

  catch (onRejected) {
    return this.then(undefined, onRejected)
  }

  finally (fn) {
    return this.then((v) => { fn(); return v }, (e) => { fn(); throw e })
  }
}

function autocannon (opts, cb) {
  const instance = new Instance()
  const callback = typeof cb === 'function' ? cb : null

  const fail = (err) => {
    setImmediate(() => {
      if (instance.listenerCount('error') > 0) instance.emit('error', err)
      if (callback) callback(err)
      instance.settle(err)
    })
  }

  let config
  let prepared
  try {
    if (opts !== null && typeof opts === 'object') require('./lib/core/options').warnUnknown(opts)
    config = buildConfig(opts, { callbackGiven: callback !== null })
    instance.opts = config
    const limits = require('./lib/config/limits')
    limits.checkLimits(config)
    for (const { code, message } of limits.warnings(config)) process.emitWarning(message, { code })
    prepared = require('./lib/config/prepare').prepare(config)
  } catch (err) {
    fail(err)
    return instance
  }

  // One round: a run in this thread or in workers, settling with its
  // result (each round's is a 'done' event). Only the first round waits
  // for a start time (-f goes on from there).
  function startRound (round) {
    const startAt = round === 0 ? config.startAt : undefined
    let settle
    const outcome = new Promise((resolve, reject) => { settle = { resolve, reject } })
    const done = (result) => {
      instance.emit('done', result)
      settle.resolve(result)
    }
    if (config.workers) {
      instance.run = require('./lib/engine/workers').runWorkers(config, instance, prepared, (err, raw) => {
        if (err) return settle.reject(err)
        done(config.skipAggregateResult ? raw : aggregateResult(raw, config))
      })
    } else {
      const { Run } = require('./lib/engine/run')
      // A later round did not wait: its result has no start time to keep.
      const resultOpts = startAt === config.startAt ? config : { ...config, startAt: undefined }
      const run = new Run(config, instance, {
        ...prepared,
        startAt,
        onDone: (raw) => done(config.skipAggregateResult ? raw : aggregateResult([raw], resultOpts)),
        onError: (err) => settle.reject(err)
      })
      instance.run = run
      run.emitResponses = instance.listenerCount('response') > 0
      try {
        run.start()
      } catch (err) {
        // Thrown before anything was armed (see Run#start).
        run.finished = true
        settle.reject(err)
      }
    }
    // 'start' when requests begin to go, after any wait for the start time.
    const wait = startAt === undefined ? 0 : startAt - Date.now()
    if (wait > 0) {
      const timer = setTimeout(() => { if (!instance.outcome) instance.emit('start') }, wait)
      outcome.then(() => clearTimeout(timer), () => clearTimeout(timer))
    } else {
      setImmediate(() => instance.emit('start'))
    }
    const run = instance.run
    return { stop: () => run.stop(), then: (onFulfilled, onRejected) => outcome.then(onFulfilled, onRejected) }
  }

  setImmediate(() => {
    instance.session.rounds(startRound, () => config.forever).then((result) => {
      if (callback) callback(null, result)
      instance.settle(null, result)
    }, fail)
  })
  return instance
}

function track (instance, opts) {
  return require('./lib/output/track')(instance, opts)
}

function printResult (result, opts) {
  return require('./lib/output/print-result')(result, opts)
}

function findMaxRate (opts) {
  return require('./lib/search/find-max-rate').findMaxRate(opts)
}

function mergeResults (results, opts) {
  return require('./lib/distributed/merge').mergeResults(results, opts)
}

function renderHtml (results, opts) {
  return require('./lib/output/html/report').renderHtml(results, opts)
}

function parseArguments (argv) {
  return require('./lib/cli/args').parseArguments(argv)
}

// Written out one by one so that `import { track } from 'autocannon'`
// finds them too (Node detects CommonJS named exports by these patterns).
module.exports = autocannon
module.exports.default = autocannon
module.exports.track = track
module.exports.printResult = printResult
module.exports.aggregateResult = (results, opts) => aggregateResult(results, opts || {})
module.exports.parseArguments = parseArguments
module.exports.findMaxRate = findMaxRate
module.exports.renderHtml = renderHtml
module.exports.mergeResults = mergeResults
module.exports.compare = (a, b, opts) => require('./lib/compare/compare').compare(a, b, opts)

if (require.main === module) {
  require('./lib/cli/main').main(process.argv.slice(2))
}
