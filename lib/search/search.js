'use strict'

// The decisions of a capacity search: which rate to run next,
// and what the steps found. Pure: judged steps in, next step (or the end)
// out. No I/O, no timers, no clock, so that every decision can be unit
// tested on synthetic results and replayed from a saved search. The engine
// runs the steps; step-judge.js judges them.
//
// Method: MLPerf LoadGen's FindPeakPerformance (check a low rate, widen the
// upper bound until a run fails, bisect, then confirm the answer with a
// longer run, so that a single lucky step cannot set it).

const { judgeStep, samplesNeeded, parseSlos, sloText, measuredText, JUDGE_DEFAULTS } = require('./step-judge')
const { rate, thousands, percent } = require('../core/format')
const { InvalidOptionError } = require('../core/errors')
const { OPTIONS } = require('../core/options')
const { checkOption } = require('../config/config')

const DEFAULTS = Object.freeze({
  // Stop when (hi - lo) / lo < precision.
  precision: OPTIONS.precision.default,
  stepDuration: OPTIONS.stepDuration.default, // s
  warmup: OPTIONS.stepWarmup.default, // s, unrecorded, before every step
  maxStepDuration: 60, // s: a step lengthened for tail samples stops here
  maxSteps: OPTIONS.maxSteps.default, // every search ends, whatever the server does
  lowFraction: 0.1, // low check at 10% of the probed ceiling
  // ×1.5, not MLPerf's ×2: the closed-loop probe is at the same connection
  // count, so it rarely underestimates by much; a tighter bracket saves a
  // bisection step in that common case and costs one grow step when the
  // probe is off by 3× or more.
  growth: 1.5,
  // Past the probe's ceiling itself, a smaller first step: passing at the
  // closed-loop ceiling means the capacity is near it far more often than
  // far above it, and each step spared past it is a bisection spared.
  ceilingGrowth: 1.1,
  maxConfirms: 3, // confirmation failures before the answer is "unconfirmed"
  // The first bisections below a failure, when the bracket spans more than
  // ×2 (only the low check passed below it), try this share of the
  // failure's bound instead of the midpoint, up to nearGuesses times in a
  // row. The low check is a sanity check at a tenth of the probe's
  // ceiling, not an estimate of capacity: a server under a latency SLO
  // most often sustains 80–98% of what it failed at or achieved, and a
  // failed confirmation most often lands 2–20% below the rate confirmed.
  // Right, a guess spares two or three bisections of a bracket ten times
  // too wide; wrong, it costs one.
  nearGuess: 0.9,
  // The share when the failure is known to be close above capacity: the
  // server fell short of it (the bound is then its throughput at
  // saturation, not a rate it was merely asked for), or it was a
  // confirmation of a rate that had passed a shorter step. On a CPU-bound
  // server the rate that then held for 10 s was 96–99% of the bound in 8
  // searches of 12 (95%, 91%, 89% and 87% in the other four).
  nearClose: 0.95,
  // A wrong guess is cheap now that a failing step stops once its failure
  // is settled (early-verdict.js): one far above capacity settles in a
  // fraction of a second, one that settles late failed narrowly, and the
  // capacity is near. Four in a row reach ~70% of the bound (95% then 90%
  // each); below that the midpoint goes faster.
  nearGuesses: 4,
  ...JUDGE_DEFAULTS
})

// Planned durations aim for this many times the samples the tail needs, so
// that a step a little short of its plan is still conclusive.
const SAMPLE_MARGIN = 1.1
const MIN_STEP_REQUESTS = 200
// Seconds a window stopped early (its failure settled) must have measured
// for its achieved rate to bound the bisection.
const MIN_BOUND_WINDOW = 1

function positive (name, value, { integer = false } = {}) {
  if (typeof value !== 'number' || !(value > 0) || (integer && !Number.isInteger(value))) {
    throw new InvalidOptionError(name, value, `is not ${integer ? 'a positive integer' : 'a positive number'}`)
  }
  return value
}

// The options users give (precision, stepDuration, maxSteps, lowRate) are
// checked as findMaxRate() checks them, from the table of options; the
// rest are the search's own.
function searchOptions (opts = {}) {
  const o = { ...DEFAULTS, ...Object.fromEntries(Object.entries(opts).filter(([, v]) => v !== undefined)) }
  positive('ceiling', o.ceiling)
  for (const name of ['precision', 'stepDuration', 'maxSteps']) o[name] = checkOption(name, o[name])
  positive('maxStepDuration', o.maxStepDuration)
  positive('maxConfirms', o.maxConfirms, { integer: true })
  positive('minTailSamples', o.minTailSamples, { integer: true })
  if (!(o.growth > 1)) throw new InvalidOptionError('growth', o.growth, 'is not a number above 1')
  if (!(o.ceilingGrowth > 1)) throw new InvalidOptionError('ceilingGrowth', o.ceilingGrowth, 'is not a number above 1')
  if (!(Number.isInteger(o.nearGuesses) && o.nearGuesses >= 0)) throw new InvalidOptionError('nearGuesses', o.nearGuesses, 'is not an integer, 0 or more')
  for (const name of ['nearGuess', 'nearClose']) {
    if (!(o[name] > 0 && o[name] < 1)) throw new InvalidOptionError(name, o[name], 'is not a number between 0 and 1')
  }
  if (!(o.warmup >= 0)) throw new InvalidOptionError('warmup', o.warmup, 'is not a number of seconds (0 or more)')
  o.confirmDuration = opts.confirmDuration === undefined ? 2 * o.stepDuration : positive('confirmDuration', opts.confirmDuration)
  o.lowRate = opts.lowRate === undefined ? Math.max(1, Math.round(o.ceiling * o.lowFraction)) : checkOption('lowRate', opts.lowRate)
  o.maxRate = opts.maxRate === undefined ? Infinity : positive('maxRate', opts.maxRate)
  if (o.maxRate < o.lowRate) throw new InvalidOptionError('maxRate', o.maxRate, `is below the low rate (${o.lowRate})`)
  o.slos = parseSlos(opts.slos)
  return o
}

// What a step's judgement leaves in the outcome.
function summaryOf (record) {
  const { values = {}, checks } = record.judgement
  return {
    achieved: values.achieved,
    p50: values.p50,
    p99: values.p99,
    p999: values.p999,
    errors: values.errors || 0,
    errorRatio: values.errorRatio || 0,
    samples: values.samples,
    duration: record.step.duration,
    kind: record.step.kind,
    slos: (checks || []).filter((c) => c.kind !== 'achieved').map(({ name, value, ok, implied }) => ({ expression: name, value, ok, implied: !!implied }))
  }
}

function failedText (record) {
  const checks = (record.judgement.checks || []).filter((c) => c.ok === false)
  if (checks.length) return checks.map((c) => c.measured).join(', ')
  return (record.judgement.reasons || []).join('; ') || record.judgement.verdict
}

/**
 * @typedef {object} Step
 * @property {number} rate req/s to plan for the step (an integer)
 * @property {number} duration s to record, after the warm-up
 * @property {number} warmup s to run at this rate first, unrecorded
 * @property {'low'|'upper'|'bisect'|'confirm'} kind
 * @property {number} index position in the search's history
 * @property {boolean} [rerun] the same step again, longer: the last was inconclusive
 * @property {boolean} [lengthened] a rerun because the latency was still rising
 */

/**
 * @typedef {object} Outcome
 * @property {null|'found'|'below-low'|'generator-bound'|'at-ceiling'|'unconfirmed'|'max-steps'} status
 *   null while the search runs
 * @property {{ rate: number, confirmed: boolean, summary: object }|null} best highest passing rate
 *   below every failure; summary: achieved, p50, p99, p999, errors, errorRatio, samples,
 *   duration, kind, slos [{ expression, value, ok, implied }]
 * @property {{ rate: number, reason: string, summary: object }|null} failed lowest failing rate
 * @property {{ rate: number, reason: string }|null} generatorBound lowest generator-bound rate
 * @property {[number|null, number|null]} bracket [best rate, lowest failing or generator-bound rate]
 * @property {number} steps steps recorded, reruns and confirmations included
 * @property {number} confirmations confirmation steps run
 * @property {number} confirmationsFailed
 * @property {Array<{ step: Step, verdict: string, reasons: string[], values: object }>} history
 * @property {string} sentence the closing sentence
 */

/**
 * The search as a state machine. Call next() for the step to run, run it,
 * then record(step, judgement) (judgement from search.judge(step, result)
 * or judgeStep); repeat until next() returns null; outcome() at any time.
 * Each call is a decision on what was recorded, nothing else: a search can
 * be replayed from its history.
 *
 * @param {object} opts
 * @param {number} opts.ceiling req/s of the closed-loop probe at this connection count
 * @param {Array<string|object>} [opts.slos]
 * @param {number} [opts.connections] only for the sentence
 * @param {'uniform'|'poisson'} [opts.arrivals] only for the sentence
 * @param {number} [opts.precision=0.02] stop bisecting when (hi - lo) / lo < precision
 * @param {number} [opts.stepDuration=5] s
 * @param {number} [opts.warmup=1] s, before every step
 * @param {number} [opts.confirmDuration=2*stepDuration] s
 * @param {number} [opts.maxStepDuration=60] s, for steps lengthened for tail samples
 * @param {number} [opts.maxSteps=25]
 * @param {number} [opts.lowRate=10% of the ceiling]
 * @param {number} [opts.maxRate=Infinity] never try above it; passing it ends 'at-ceiling'
 * @param {number} [opts.growth=1.5] upper bound grows by this factor while steps pass
 * @param {number} [opts.ceilingGrowth=1.1] the first growth past the probe's ceiling
 * @param {number} [opts.maxConfirms=3]
 * @param {number} [opts.nearGuess=0.9] first try below a failure ×2 or more above the best pass
 * @param {number} [opts.nearClose=0.95] the same below a failure known to be close: short of its rate, or a confirmation
 * @param {number} [opts.nearGuesses=4] near guesses in a row before the midpoint
 * @param {number} [opts.minTailSamples=10]
 */
function createSearch (opts) {
  const cfg = searchOptions(opts)
  const need = samplesNeeded(cfg.slos, cfg.minTailSamples)
  // Whatever the SLOs, a step of a few dozen requests is decided by its
  // edges (responses of the warm-up landing in it, its own last ones
  // landing after it), not by the server: plan at least this many.
  const planned = Math.max(need, MIN_STEP_REQUESTS)
  // Steps planned as near guesses (not a kind of their own: a guess is a
  // bisection that does not split the bracket in half).
  const guessSteps = new WeakSet()
  const state = {
    phase: 'low', // low → upper → bisect ⇄ confirm
    pending: null,
    rerun: null, // a step to repeat longer after an inconclusive one
    upperRate: null,
    // The upper step under way is at the probe's ceiling.
    upperIsCeiling: false,
    atCeiling: false,
    confirms: 0,
    guesses: 0, // near guesses run in a row, just before this step
    // Once a confirmation has failed, short steps are known to pass where
    // long ones do not (a backlog that a short step ends before it shows):
    // the search goes on at the confirmation's length.
    longSteps: false,
    history: [], // { step, judgement, verdict }: verdict after inconclusive-at-cap
    passes: [], // records that passed, any kind
    lo: null, // highest pass still below every failure
    failed: null, // lowest fail
    bound: null, // lowest generator-bound step
    status: null,
    confirmed: false
  }

  // Long enough for the tail samples at this rate, capped; a confirmation
  // at least confirmDuration.
  function durationFor (rate, base) {
    const cap = Math.max(cfg.maxStepDuration, base)
    return Math.min(cap, Math.max(base, Math.ceil(planned * SAMPLE_MARGIN / rate)))
  }

  function makeStep (rate, kind) {
    const base = kind === 'confirm' || state.longSteps ? cfg.confirmDuration : cfg.stepDuration
    return { rate, duration: durationFor(rate, base), warmup: cfg.warmup, kind, index: state.history.length }
  }

  // The lowest rate known not to be sustainable (or not measurable here).
  function upper () {
    const candidates = [state.failed, state.bound].filter(Boolean)
    if (!candidates.length) return null
    return candidates.reduce((a, b) => a.step.rate <= b.step.rate ? a : b)
  }

  // How high the next try may go below a failure: its rate, or what the
  // server achieved when it fell short of it (a server that delivered
  // 3,623 req/s when asked for 3,885 will not sustain 3,700 either). Only
  // a shortfall above the best pass counts: one below it was the step's
  // bad luck, not the server's limit. A generator-bound step's shortfall is
  // ours, never the server's. Nor does a step stopped under a second in,
  // its failure settled (judgement.settled): the rate of so short a window
  // is mostly chance (0.2 s of a Poisson plan at 3,800 req/s is ±4% by
  // itself) and the restart after the drain.
  function boundOf (entry, lo) {
    const rate = entry.step.rate
    if (entry.verdict !== 'fail' || (entry.judgement.settled && !(entry.judgement.values.duration >= MIN_BOUND_WINDOW))) return rate
    const achieved = (entry.judgement.checks || []).find((c) => c.kind === 'achieved')
    if (!achieved || achieved.ok !== false) return rate
    const bound = Math.floor(achieved.value)
    return bound > lo + 1 && bound < rate ? bound : rate
  }

  function converged (lo, hi) {
    return hi - lo <= 1 || (hi - lo) / lo < cfg.precision
  }

  function plan () {
    if (state.rerun) return state.rerun
    switch (state.phase) {
      case 'low':
        return makeStep(cfg.lowRate, 'low')
      case 'upper':
        return makeStep(state.upperRate, 'upper')
      case 'bisect': {
        const lo = state.lo.step.rate
        const failure = upper()
        const hi = boundOf(failure, lo)
        if (converged(lo, hi)) {
          state.phase = 'confirm'
          return plan()
        }
        const last = state.history[state.history.length - 1]
        const close = hi < failure.step.rate || failure.step.kind === 'confirm'
        const near = Math.round(hi * (close ? cfg.nearClose : cfg.nearGuess))
        const mayGuess = state.guesses < cfg.nearGuesses && (state.guesses > 0 || last.step.kind !== 'bisect')
        if (hi > 2 * lo && mayGuess && near > lo) {
          const step = makeStep(near, 'bisect')
          guessSteps.add(step)
          return step
        }
        return makeStep(Math.round((lo + hi) / 2), 'bisect')
      }
      case 'confirm':
        // A pass as long as a confirmation is its own confirmation.
        if (state.lo.step.duration >= cfg.confirmDuration) return null
        return makeStep(state.lo.step.rate, 'confirm')
    }
    throw new Error(`search in unknown phase ${state.phase}`)
  }

  function finish (status) {
    state.status = status
    state.pending = null
    state.rerun = null
  }

  function next () {
    if (state.status) return null
    if (state.pending) return state.pending
    const step = plan()
    if (!step) {
      confirmedBy(state.lo)
      return null
    }
    if (state.history.length >= cfg.maxSteps) {
      finish('max-steps')
      return null
    }
    state.pending = step
    return step
  }

  // The best rate held for a confirmation's length: the search ends.
  function confirmedBy (entry) {
    state.lo = entry
    state.confirmed = true
    const hi = upper()
    finish(state.atCeiling && !hi ? 'at-ceiling' : hi && hi === state.bound ? 'generator-bound' : 'found')
  }

  function judge (step, result) {
    return judgeStep(result, {
      target: step.rate,
      slos: cfg.slos,
      minTailSamples: cfg.minTailSamples,
      maxGeneratorCpu: cfg.maxGeneratorCpu,
      maxLoopDelay: cfg.maxLoopDelay
    })
  }

  // The highest pass below a rate: where to bisect from when a rate that
  // passed once fails its confirmation.
  function highestPassBelow (rate) {
    let best = null
    for (const r of state.passes) if (r.step.rate < rate && (!best || r.step.rate > best.step.rate)) best = r
    return best
  }

  function record (step, judgement) {
    if (state.status) throw new Error('the search has ended')
    if (!state.pending || step.rate !== state.pending.rate || step.kind !== state.pending.kind) {
      throw new Error('record() takes the step next() returned')
    }
    if (!judgement || !['pass', 'fail', 'inconclusive', 'generator-bound'].includes(judgement.verdict)) {
      throw new TypeError('record() needs a judgement with a verdict (see judgeStep)')
    }
    const wasGuess = guessSteps.has(state.pending)
    state.pending = null
    state.rerun = null
    const entry = { step, judgement, verdict: judgement.verdict, note: null }
    state.history.push(entry)

    if (entry.verdict === 'inconclusive' && judgement.rising) {
      // A queue still building: once more, twice as long; rising again,
      // it is a fail (it would break the SLO if held).
      const cap = Math.max(cfg.maxStepDuration, step.kind === 'confirm' ? cfg.confirmDuration : 0)
      if (!step.lengthened && step.duration < cap) {
        state.rerun = { ...step, duration: Math.min(cap, step.duration * 2), index: state.history.length, rerun: true, lengthened: true }
        if (wasGuess) guessSteps.add(state.rerun)
        return
      }
      entry.verdict = 'fail'
      entry.note = step.lengthened
        ? `still rising over a ${step.duration} s step: taken as a fail`
        : `rising over a ${step.duration} s step (the longest allowed): taken as a fail`
    } else if (entry.verdict === 'inconclusive') {
      const cap = Math.max(cfg.maxStepDuration, step.kind === 'confirm' ? cfg.confirmDuration : 0)
      if (step.duration < cap) {
        // Long enough for the samples it lacked, at the rate it achieved.
        const wanted = Math.max(judgement.needSamples || need, 1) * SAMPLE_MARGIN
        const have = judgement.values && judgement.values.samples > 0 ? judgement.values.samples : 0
        const perSecond = have && step.duration ? have / step.duration : step.rate
        const duration = Math.min(cap, Math.max(step.duration * 2, Math.ceil(wanted / perSecond)))
        state.rerun = { ...step, duration, index: state.history.length, rerun: true }
        if (wasGuess) guessSteps.add(state.rerun)
        return
      }
      entry.verdict = 'fail'
      entry.note = `still too few requests in ${step.duration} s steps (the longest allowed): taken as a fail`
    }

    // A guess rerun for being inconclusive is still the one guess.
    state.guesses = wasGuess ? state.guesses + 1 : 0
    const { verdict } = entry
    if (verdict === 'pass') state.passes.push(entry)

    if (step.kind === 'low') {
      if (verdict === 'pass') {
        state.lo = entry
        state.phase = 'upper'
        state.upperIsCeiling = cfg.ceiling > step.rate
        state.upperRate = Math.min(cfg.maxRate, state.upperIsCeiling ? Math.round(cfg.ceiling) : Math.round(step.rate * cfg.growth))
        if (state.upperRate <= step.rate) {
          state.atCeiling = true
          state.phase = 'confirm'
        }
      } else if (verdict === 'fail') {
        state.failed = entry
        finish('below-low')
      } else {
        state.bound = entry
        finish('generator-bound')
      }
      return
    }

    if (step.kind === 'upper') {
      if (verdict === 'pass') {
        state.lo = entry
        if (step.rate >= cfg.maxRate) {
          state.atCeiling = true
          state.phase = 'confirm'
        } else {
          const factor = state.upperIsCeiling ? cfg.ceilingGrowth : cfg.growth
          state.upperIsCeiling = false
          state.upperRate = Math.min(cfg.maxRate, Math.max(step.rate + 1, Math.round(step.rate * factor)))
        }
        return
      }
      // A generator-bound upper step is a rate this generator cannot
      // measure, not the end: rates below it may still be measurable and
      // show where the server fails.
      if (verdict === 'fail') state.failed = entry
      else state.bound = entry
      state.phase = 'bisect'
      return
    }

    if (step.kind === 'bisect') {
      if (verdict === 'pass') {
        if (step.rate > state.lo.step.rate) state.lo = entry
      } else if (verdict === 'fail') {
        if (!state.failed || step.rate < state.failed.step.rate) state.failed = entry
      } else if (!state.bound || step.rate < state.bound.step.rate) {
        state.bound = entry
      }
      return
    }

    // A confirmation.
    if (verdict === 'pass') {
      confirmedBy(entry)
      return
    }
    // The rate passed once and not again: a lucky step. It is the new
    // lowest failure, and the search steps down below it.
    if (verdict === 'fail') state.failed = entry
    else state.bound = entry
    state.atCeiling = false
    state.longSteps = true
    state.confirms++
    // Below what the server achieved, when it fell short, and below 95%
    // (nearClose) of the rate that failed: a short pass above that is as
    // suspect as the rate that just failed. Measured on a CPU-bound server
    // whose 10 s capacity is 1–13% under what passes for 5 s, such passes
    // failed their own confirmations in turn, one after another (each
    // settled in seconds, but three failed confirmations end a search as
    // unconfirmed). Steps after this one are as long as a confirmation.
    const trustedBelow = Math.min(boundOf(entry, 0), Math.round(step.rate * cfg.nearClose))
    const below = highestPassBelow(trustedBelow) || highestPassBelow(step.rate)
    if (!below) {
      // Only the low check was at or below it, and this was the low rate.
      finish(verdict === 'fail' ? 'below-low' : 'generator-bound')
      return
    }
    state.lo = below
    if (state.confirms >= cfg.maxConfirms) {
      finish('unconfirmed')
      return
    }
    state.phase = 'bisect'
  }

  function outcome () {
    const hi = upper()
    const best = state.lo && state.status !== 'below-low'
      ? { rate: state.lo.step.rate, confirmed: state.confirmed, summary: summaryOf(state.lo) }
      : null
    const failed = state.failed
      ? { rate: state.failed.step.rate, reason: failedText(state.failed), summary: summaryOf(state.failed) }
      : null
    const generatorBound = state.bound
      ? { rate: state.bound.step.rate, reason: state.bound.judgement.reasons[0] || 'generator saturated' }
      : null
    const status = state.status
    const out = {
      status,
      best,
      failed,
      generatorBound,
      bracket: [best ? best.rate : null, hi ? hi.step.rate : null],
      steps: state.history.length,
      confirmations: state.history.filter((h) => h.step.kind === 'confirm').length,
      confirmationsFailed: state.confirms,
      history: state.history.map(({ step, judgement, verdict, note }) => ({
        step,
        verdict,
        reasons: note ? [...judgement.reasons, note] : judgement.reasons,
        values: judgement.values
      }))
    }
    out.sentence = sentence(out, cfg)
    return out
  }

  return {
    /** @returns {Step|null} the step to run (the same one until recorded), or null: ended */
    next,
    /** @param {Step} step as next() returned it @param {object} judgement judgeStep's, or { verdict } */
    record,
    /** @returns {object} judgeStep(result) with this search's target, SLOs and limits */
    judge,
    /** @returns {Outcome} */
    outcome,
    options: cfg,
    get done () { return state.status !== null }
  }
}

// What the best step measured, for each user SLO, and its errors.
function measuredAll (summary, slos) {
  const parts = []
  const seen = new Set()
  for (const slo of slos) {
    if (seen.has(slo.metric) || slo.metric === 'errors') continue
    seen.add(slo.metric)
    const e = summary.slos.find((s) => s.expression === slo.expression)
    if (e) parts.push(measuredText(slo, e.value))
  }
  const n = summary.errors || 0
  parts.push(n === 0 ? '0 errors' : `${thousands(n, 3)} error${n === 1 ? '' : 's'} (${percent(summary.errorRatio)})`)
  return parts.join(', ')
}

// The closing sentence, in the words load testers state a capacity in
// ("our server can achieve 20K RPS under 5K connections with p99 below
// 200 ms"): "Sustains 18,500 req/s at 100 connections with p99 < 200 ms
// (p99 143 ms, 0 errors); 19,000 req/s failed (p99 412 ms)."
function sentence (out, cfg) {
  const at = cfg.connections ? ` at ${thousands(cfg.connections, 3)} connection${cfg.connections === 1 ? '' : 's'}` : ''
  const slos = cfg.slos.length ? ` with ${cfg.slos.map(sloText).join(' and ')}` : ''
  const arrivals = cfg.arrivals === 'poisson' ? ' of Poisson arrivals' : ''
  const sustains = (b) => `${rate(b.rate)} req/s${arrivals}${at}${slos} (${measuredAll(b.summary, cfg.slos)})`
  const failed = out.failed ? `; ${rate(out.failed.rate)} req/s failed (${out.failed.reason})` : ''
  const { best } = out
  switch (out.status) {
    case null:
      return best
        ? `Searching: ${rate(best.rate)} req/s passed so far${failed}.`
        : 'Searching.'
    case 'found':
      return `Sustains ${sustains(best)}${failed}.`
    case 'at-ceiling':
      return `Sustains at least ${sustains(best)}: no higher rate tried (maxRate ${rate(cfg.maxRate)} req/s).`
    case 'below-low':
      return `Misses its SLOs even at the low rate, ${rate(out.failed.rate)} req/s${at} (${out.failed.reason}): ` +
        'no sustainable rate at this connection count.'
    case 'generator-bound': {
      const g = out.generatorBound
      const head = `Generator-bound at ${rate(g.rate)} req/s: use more workers (-w) or machines (${g.reason.replace(/^generator saturated: /, '')}).`
      return best
        ? `${head} The server sustained ${sustains(best)}, the most this generator could measure${failed}.`
        : head
    }
    case 'unconfirmed':
      return `Unstable: ${out.confirmationsFailed} confirmation runs of ${cfg.confirmDuration} s failed; ` +
        `${rate(best.rate)} req/s passed a ${best.summary.duration} s step but was not confirmed${failed}.`
    case 'max-steps':
      return `Stopped after ${out.steps} steps (maxSteps) without converging: ` +
        (best ? `${rate(best.rate)} req/s passed${best.confirmed ? '' : ' (not confirmed)'}` : 'no rate passed') +
        `${failed}.`
  }
  return ''
}

module.exports = { createSearch, DEFAULTS }
