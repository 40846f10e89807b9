'use strict'

// findMaxRate(opts): for each connection count, the highest rate at which
// every SLO holds. This file runs the search; what to try next is
// search.js's pure decision, whether a step passed step-judge.js's, and
// stepped-run.js measures each step. A short closed-loop probe gives the
// ceiling; then one rated run per connection count is stepped from rate
// to rate (its connections stay open, so no step pays for reconnecting),
// each step an unrecorded warm-up and a measured window cut out of the
// run.

const { runResult } = require('../results/result')
const { buildConfig, checkOption } = require('../config/config')
const { checkRules } = require('../config/rules')
const { raise, InvalidOptionError } = require('../core/errors')
const { createSearch } = require('./search')
const { DEFAULTS, SEARCH_OPTIONS } = require('../core/options')
const { Instance } = require('../engine/instance')
const { SteppedRun } = require('./stepped-run')
const { createEarlyVerdict } = require('./early-verdict')
const { autocannon } = require('../engine/autocannon')
const { lazy } = require('../core/lazy')
// Lazy: only a probe that got no response needs it, to say why.
const noResponse = lazy(() => require('../results/no-response'))

// Long enough for any search: runs are stopped when their search ends.
const SEARCH_RUN_SECONDS = 24 * 3600
// Before each step, the requests still in flight are let finish, for up
// to this (or the request timeout): what outlives it times out, unrecorded.
const DRAIN_MAX_MS = 5000

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
// coded error before anything runs. `slo`, the flag's name, is taken for
// `slos`.
function searchOptions (opts) {
  if (opts === null || typeof opts !== 'object') throw new InvalidOptionError('opts', opts, 'must be an object with a url and slos')
  const given = { ...opts, slos: opts.slos !== undefined ? opts.slos : opts.slo }
  const options = {}
  for (const name of SEARCH_OPTIONS) options[name] = checkOption(name, given[name])
  checkRules({ ...opts, findMaxRate: true }, { involving: ['findMaxRate'] })
  const run = {}
  for (const [key, value] of Object.entries(opts)) {
    if (!SEARCH_OPTIONS.includes(key) && key !== 'slo' && key !== 'connections') run[key] = value
  }
  const connections = connectionList(opts.connections)
  // The run options are checked now, with the largest connection count.
  const checked = buildConfig({ ...run, connections: Math.max(...connections), overallRate: 1, duration: SEARCH_RUN_SECONDS })
  // One seed for every step and connection count, so a search replays.
  if (checked.arrivals === 'poisson') run.seed = checked.seed
  return { run, connections, arrivals: checked.arrivals, seed: run.seed, ...options }
}

function findMaxRate (opts) {
  const instance = new Instance()
  let options
  try {
    options = searchOptions(opts)
  } catch (err) {
    instance.settle(err)
    return instance
  }
  instance.opts = options
  // Awaited or not, a failure reaches 'error' listeners too.
  searchAll(instance, options).then((out) => instance.settle(null, out), (err) => {
    instance.emitError(err)
    instance.settle(err)
  })
  return instance
}

async function searchAll (instance, options) {
  const searches = []
  for (const connections of options.connections) {
    if (instance.stopped) break
    searches.push(await searchOne(instance, options, connections))
  }
  const out = { slos: options.slos, precision: options.precision, arrivals: options.arrivals, seed: options.seed, searches }
  instance.emit('done', out)
  return out
}

async function searchOne (instance, options, connections) {
  const started = Date.now()
  const session = instance.session
  // The probe is a closed loop: no rate, so no arrival process either.
  const probe = await session.run(() => autocannon({ ...options.run, arrivals: undefined, seed: undefined, connections, duration: options.probeDuration }))
  if (probe.requests.total === 0) {
    throw raise('AC_NO_RESPONSE', noResponse().noResponseLine(probe))
  }
  // Only answers that did the work count: a server shedding load with
  // instant 503s would otherwise look many times faster than it is.
  const good = probe['2xx'] + probe['3xx']
  const ceiling = Math.max(1, Math.round((good > 0 ? good : probe.requests.total) / probe.duration))
  instance.emit('probe', { connections, ceiling, result: probe })

  const search = createSearch({
    ceiling,
    connections,
    arrivals: options.arrivals,
    slos: options.slos,
    precision: options.precision,
    stepDuration: options.stepDuration,
    warmup: options.stepWarmup,
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
    const stepped = new SteppedRun(session, run.run, { drainMs: Math.min(DRAIN_MAX_MS, config.timeout * 1000) })
    done.catch((err) => stepped.fail(err))
    try {
      const watch = createEarlyVerdict(options.slos)
      while (step && !session.stopped) {
        const window = await stepped.step(step, watch)
        if (window === null) break
        const measured = runResult(window.raws, { ...config, overallRate: step.rate, thresholds: undefined })
        const judgement = search.judge(step, measured)
        // Stopped where its failure was settled: the window it measured
        // is judged as any other, and the reasons say why it is short.
        const settled = window.settled
        if (settled !== null) {
          judgement.settled = settled
          judgement.reasons.unshift(`stopped at ${settled.at} of ${step.duration} s: ${settled.reason}`)
        }
        search.record(step, judgement)
        const entry = { connections, kind: step.kind, target: step.rate, ...judgement, result: measured }
        steps.push(entry)
        instance.emit('step', entry)
        step = search.next()
      }
    } finally {
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

module.exports = { findMaxRate }
