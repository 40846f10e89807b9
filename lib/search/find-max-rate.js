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
const { judgeProbe } = require('./step-judge')
const { DEFAULTS: SEARCH_DEFAULTS } = require('./search-options')
const { DEFAULTS, SEARCH_OPTIONS } = require('../core/options')
const { AwaitableInstance } = require('../engine/instance')
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
  // The dashboard is the search's, not each of its runs': `watched` is
  // the config it shows.
  delete run.dashboard
  const connections = connectionList(opts.connections)
  // The run options are checked now, with the largest connection count.
  const checked = buildConfig({ ...run, connections: Math.max(...connections), overallRate: 1, duration: SEARCH_RUN_SECONDS })
  // One seed for every step and connection count, so a search replays.
  if (checked.arrivals === 'poisson') run.seed = checked.seed
  const watched = isGiven(opts.dashboard) ? buildConfig({ url: opts.url, title: opts.title, sampleInt: opts.sampleInt, dashboard: opts.dashboard }) : null
  return { run, connections, arrivals: checked.arrivals, seed: run.seed, watched, ...options }
}

function isGiven (value) {
  return value !== undefined && value !== null && value !== false
}

// A peek's responses and errors, summed over workers.
function peeked (figures) {
  const all = Array.isArray(figures) ? figures : [figures]
  let responses = 0
  let errors = 0
  for (const f of all) {
    if (!f) continue
    responses += f.responses
    errors += f.errors
  }
  return { responses, errors }
}

function findMaxRate (opts) {
  const instance = new AwaitableInstance()
  let options
  try {
    options = searchOptions(opts)
  } catch (err) {
    instance.settle(err)
    return instance
  }
  instance.opts = options
  // Awaited or not, a failure reaches 'error' listeners too.
  // What watches the search (the dashboard) is ready first: added to
  // startAfter as the instance is returned, before this runs.
  Promise.resolve().then(() => Promise.all(instance.startAfter)).then(() => searchAll(instance, options)).then((out) => instance.settle(null, out), (err) => {
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

// The closed-loop probe, run again (as a step is, search-options.js) while
// its thread was starved: → { probe, ceiling, starved, tries }, starved
// null once a probe was not, else the last try's judgement. Starved in
// every try, the highest ceiling measured is taken and the search goes on:
// a ceiling only sets where the steps begin (a low one costs a step or
// two as the upper bound grows), and each step is judged on its own
// generator's health, so nothing the probe missed is charged to the
// server.
async function probeAt (instance, options, connections) {
  const session = instance.session
  const { generatorRetries, generatorPause } = SEARCH_DEFAULTS
  let best = null
  for (let tries = 1; ; tries++) {
    // The probe is a closed loop: no rate, so no arrival process either.
    const probe = await session.run(() => autocannon({ ...options.run, arrivals: undefined, seed: undefined, connections, duration: options.probeDuration }))
    if (probe.requests.total === 0) {
      throw raise('AC_NO_RESPONSE', noResponse().noResponseLine(probe))
    }
    const ceiling = ceilingOf(probe)
    if (best === null || ceiling > best.ceiling) best = { probe, ceiling }
    const starved = judgeProbe(probe)
    if (starved === null) return { probe, ceiling, starved, tries }
    if (tries > generatorRetries || session.stopped) return { ...best, starved, tries }
    await session.sleep(generatorPause * tries * 1000)
  }
}

// Only answers that did the work count: a server shedding load with
// instant 503s would otherwise look many times faster than it is.
function ceilingOf (probe) {
  const good = probe['2xx'] + probe['3xx']
  return Math.max(1, Math.round((good > 0 ? good : probe.requests.total) / probe.duration))
}

async function searchOne (instance, options, connections) {
  const started = Date.now()
  const session = instance.session
  const { probe, ceiling, starved, tries } = await probeAt(instance, options, connections)
  instance.emit('probe', { connections, ceiling, result: probe, tries, starved })

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
    // Watched live: the stepped run's samples are the search's.
    if (instance.listenerCount('sample') > 0) run.on('sample', (sample) => instance.emit('sample', sample))
    return run
  })
  if (run !== null) {
    // Worker threads take a moment to start: the first step begins with
    // the first responses (the probe showed there will be some).
    await new Promise((resolve, reject) => {
      const timer = setTimeout(resolve, 15000)
      run.on('tick', (tick) => { if (tick.counter > 0) { clearTimeout(timer); resolve() } })
      // Stopped before its workers had started (a loaded machine starts
      // threads slowly): the search is stopped, not failed.
      done.then(resolve, (err) => session.stopped ? resolve() : reject(err))
    })
    const config = run.opts
    // Each peek of a step's window, for what shows it as it runs.
    const onPeek = instance.listenerCount('stepProgress') > 0
      ? (figures, elapsed, verdict) => instance.emit('stepProgress', { elapsed: Math.round(elapsed * 10) / 10, ...peeked(figures), verdict })
      : null
    const stepped = new SteppedRun(session, run.run, { drainMs: Math.min(DRAIN_MAX_MS, config.timeout * 1000), onPeek })
    done.catch((err) => stepped.fail(err))
    try {
      const watch = createEarlyVerdict(options.slos)
      while (step && !session.stopped) {
        instance.emit('stepStart', { connections, index: steps.length + 1, kind: step.kind, target: step.rate, warmup: step.warmup, duration: step.duration })
        const window = await stepped.step(step, watch)
        if (window === null) break
        const measured = runResult(window.raws, { ...config, overallRate: step.rate, thresholds: undefined, workers: config.workers || undefined })
        const judgement = search.judge(step, measured, { behind: window.behind })
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
    // The probe's tries, when its thread was starved in the first, and
    // why its ceiling is this machine's when it was in every one.
    probeTries: tries > 1 ? tries : undefined,
    probeStarved: starved !== null ? starved.text : undefined,
    ...search.outcome(),
    stopped: session.stopped || undefined,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
    steps
  }
}

module.exports = { findMaxRate }
