'use strict'

// findMaxRate(opts): for each connection count, the highest rate at which
// every SLO holds. A short closed-loop probe gives the ceiling; then one
// rated run per connection count is stepped from rate to rate (its
// connections stay open, so no step pays for reconnecting), each step an
// unrecorded warm-up and a measured window cut out of the run. What to try
// next is lib/search.js's decision; this file only runs steps.

const { EventEmitter } = require('events')
const { aggregateResult } = require('../results/result')
const { buildConfig } = require('../config/config')
const { raise, InvalidOptionError } = require('../core/errors')
const { parseThreshold } = require('../results/thresholds')
const { createSearch, DEFAULTS: STEP_DEFAULTS } = require('./search')
const { DEFAULTS } = require('../core/options')
const { Session } = require('../engine/session')

// Long enough for any search: runs are stopped when their search ends.
const SEARCH_RUN_SECONDS = 24 * 3600
const PROBE_SECONDS = 3
// Before each step, the requests still in flight are let finish, for up
// to this (or the request timeout): what outlives it times out, unrecorded.
const DRAIN_MAX_MS = 5000

const SEARCH_DEFAULTS = Object.freeze({
  precision: STEP_DEFAULTS.precision,
  stepDuration: STEP_DEFAULTS.stepDuration,
  warmup: STEP_DEFAULTS.warmup
})

// Search options apart from the run's own; the rest goes to autocannon().
const SEARCH_KEYS = ['slos', 'slo', 'precision', 'stepDuration', 'stepWarmup', 'lowRate', 'maxSteps', 'probeDuration']

class SearchInstance extends EventEmitter {
  constructor () {
    super()
    this.session = new Session()
    this.promise = null
  }

  get stopped () {
    return this.session.stopped
  }

  stop () {
    this.session.stop()
  }

  then (onFulfilled, onRejected) {
    return this.promise.then(onFulfilled, onRejected)
  }

  catch (onRejected) {
    return this.promise.catch(onRejected)
  }
}

function connectionList (value) {
  const list = typeof value === 'string'
    ? value.split(',').map((x) => Number(x.trim()))
    : Array.isArray(value) ? value.map(Number) : [value === undefined ? DEFAULTS.connections : Number(value)]
  if (list.length === 0 || !list.every((n) => Number.isInteger(n) && n >= 1)) {
    throw new InvalidOptionError('connections', value, 'must be a positive integer or a list of them, such as 100,1000')
  }
  return list
}

// Checked up front, as autocannon(opts) checks its own: bad input is one
// coded error before anything runs.
function searchOptions (opts) {
  if (opts === null || typeof opts !== 'object') throw new InvalidOptionError('opts', opts, 'must be an object with a url and slos')
  const slos = [].concat(opts.slos !== undefined ? opts.slos : opts.slo !== undefined ? opts.slo : [])
  if (slos.length === 0) throw new InvalidOptionError('slos', opts.slos, 'must list at least one SLO, such as "p99 < 200ms"')
  for (const slo of slos) {
    try {
      parseThreshold(slo)
    } catch (err) {
      throw new InvalidOptionError('slos', slo, `is not an SLO: ${err.why || err.message}`)
    }
  }
  const precision = opts.precision === undefined ? SEARCH_DEFAULTS.precision : Number(opts.precision)
  if (!(precision > 0 && precision < 1)) throw new InvalidOptionError('precision', opts.precision, 'must be a fraction between 0 and 1, such as 0.02 for 2%')
  const stepDuration = opts.stepDuration === undefined ? SEARCH_DEFAULTS.stepDuration : Number(opts.stepDuration)
  if (!(stepDuration >= 1)) throw new InvalidOptionError('stepDuration', opts.stepDuration, 'must be a number of seconds >= 1')
  for (const key of ['overallRate', 'connectionRate', 'stages', 'amount', 'forever']) {
    if (opts[key]) throw raise('AC_CONFLICTING_OPTIONS', `findMaxRate sets the rate and length of its runs itself: remove ${key}`)
  }
  const run = {}
  for (const [key, value] of Object.entries(opts)) if (!SEARCH_KEYS.includes(key) && key !== 'connections') run[key] = value
  const connections = connectionList(opts.connections)
  // The run options are checked now, with the largest connection count.
  buildConfig({ ...run, connections: Math.max(...connections), overallRate: 1, duration: SEARCH_RUN_SECONDS })
  return {
    run,
    connections,
    slos: Object.freeze(slos.slice()),
    precision,
    stepDuration,
    warmup: opts.stepWarmup === undefined ? SEARCH_DEFAULTS.warmup : Number(opts.stepWarmup),
    lowRate: opts.lowRate,
    maxSteps: opts.maxSteps,
    probeDuration: opts.probeDuration === undefined ? PROBE_SECONDS : Number(opts.probeDuration)
  }
}

function findMaxRate (opts) {
  const instance = new SearchInstance()
  let options
  try {
    options = searchOptions(opts)
  } catch (err) {
    instance.promise = Promise.reject(err)
    instance.promise.catch(() => {})
    return instance
  }
  instance.opts = options
  instance.promise = searchAll(instance, options)
  // Awaited or not, a failure reaches 'error' listeners too.
  instance.promise.catch((err) => { if (instance.listenerCount('error') > 0) instance.emit('error', err) })
  return instance
}

async function searchAll (instance, options) {
  const autocannon = require('../../autocannon')
  const searches = []
  for (const connections of options.connections) {
    if (instance.stopped) break
    searches.push(await searchOne(autocannon, instance, options, connections))
  }
  const out = { slos: options.slos, precision: options.precision, searches }
  instance.emit('done', out)
  return out
}

async function searchOne (autocannon, instance, options, connections) {
  const started = Date.now()
  const session = instance.session
  const probe = await session.run(() => autocannon({ ...options.run, connections, duration: options.probeDuration }))
  if (probe.requests.total === 0) {
    throw raise('AC_NO_RESPONSE', require('../output/print-result').noResponseLine(probe))
  }
  // Only answers that did the work count: a server shedding load with
  // instant 503s would otherwise look many times faster than it is.
  const good = probe['2xx'] + probe['3xx']
  const ceiling = Math.max(1, Math.round((good > 0 ? good : probe.requests.total) / probe.duration))
  instance.emit('probe', { connections, ceiling, result: probe })

  const search = createSearch({
    ceiling,
    connections,
    slos: options.slos,
    precision: options.precision,
    stepDuration: options.stepDuration,
    warmup: options.warmup,
    lowRate: options.lowRate,
    maxSteps: options.maxSteps
  })
  const steps = []
  let step = search.next()
  let run = null
  const done = step && session.run(() => {
    run = autocannon({ ...options.run, connections, overallRate: step.rate, duration: SEARCH_RUN_SECONDS })
    return run
  })
  if (run !== null) {
    // Worker threads take a moment to start: the first step begins with
    // the first responses (the probe showed there will be some).
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, 15000)
      run.on('tick', (tick) => { if (tick.counter > 0) { clearTimeout(timer); resolve() } })
      done.then(resolve, reject)
    })
    const config = run.opts
    const stepped = session.stepped(run.run, { threads: config.workers || 1, drainMs: Math.min(DRAIN_MAX_MS, config.timeout * 1000) })
    try {
      while (step && !session.stopped) {
        const window = await stepped.step(step)
        if (window === null) break
        const measured = aggregateResult(window.raws, { ...config, overallRate: step.rate, thresholds: undefined })
        measured.generator = window.generator
        const judgement = search.judge(step, measured)
        search.record(step, judgement)
        const entry = { connections, kind: step.kind, target: step.rate, ...judgement, result: measured }
        steps.push(entry)
        instance.emit('step', entry)
        step = search.next()
      }
    } finally {
      stepped.close()
      run.stop()
      await done.catch(() => {})
    }
  }
  return {
    connections,
    ceiling,
    ...search.outcome(),
    stopped: session.stopped || undefined,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
    steps
  }
}

module.exports = { findMaxRate, searchOptions, connectionList, SEARCH_DEFAULTS }
