'use strict'

// The decisions of a capacity search: which rate to run next,
// and what the steps found. Pure: judged steps in, next step (or the end)
// out. No I/O, no timers, no clock, so that every decision can be unit
// tested on synthetic results and replayed from a saved search. The engine
// runs the steps; step-judge.js judges them; next-step.js holds the policy
// for each step's rate and length, search-options.js the options and
// outcome-text.js the words of the outcome. What is left here is the state
// machine that says which applies when.
//
// Method: MLPerf LoadGen's FindPeakPerformance (check a low rate, widen the
// upper bound until a run fails, bisect, then confirm the answer with a
// longer run, so that a single lucky step cannot set it).

const { judgeStep, samplesNeeded } = require('./step-judge')
const { DEFAULTS, searchOptions } = require('./search-options')
const { summaryOf, failedText, sentence } = require('./outcome-text')
const {
  plannedRequests, durationFor, rerunCap, samplesRerunDuration, chanceRerunDuration,
  firstUpper, grownUpper, bisection, trustedBelow
} = require('./next-step')

/**
 * @typedef {object} Step
 * @property {number} rate req/s to plan for the step (an integer)
 * @property {number} duration s to record, after the warm-up
 * @property {number} warmup s to run at this rate first, unrecorded
 * @property {'low'|'upper'|'bisect'|'confirm'} kind
 * @property {number} index position in the search's history
 * @property {boolean} [rerun] the same step again, longer: the last was inconclusive
 * @property {boolean} [lengthened] a rerun because the latency was still rising
 * @property {boolean} [forChance] a rerun because a pN was within chance of its bound
 * @property {number} [tries] the how-manieth run of the step, when it is run again because the
 *   generator could not run it as planned (its thread starved or paused)
 * @property {number} [pause] s to wait before the step, sending nothing: the machine's moment
 */

/**
 * @typedef {object} Outcome
 * @property {null|'found'|'below-low'|'generator-bound'|'at-ceiling'|'unconfirmed'|'max-steps'} status
 *   null while the search runs
 * @property {{ rate: number, target: number, confirmed: boolean, summary: object }|null} best highest passing rate
 *   below every failure: its target, or what a Poisson plan drew below it (rate); summary: achieved, p50, p99, p999, errors, errorRatio, samples,
 *   duration, kind, slos [{ expression, value, ok, implied }]
 * @property {{ rate: number, reason: string, summary: object }|null} failed lowest failing rate
 * @property {{ rate: number, reason: string, cause: string|null, tries: number, kind: string, measured?: string }|null} generatorBound
 *   lowest generator-bound rate: why (cause: 'saturated', 'loop', 'starved' or 'own', see judgeStep),
 *   in how many tries, the step's kind, and what it measured
 * @property {object|null} uncertain the lowest failure was chance: a pN within chance of its
 *   bound over the longest step allowed ({ expression, metric, limit, low, high, confidence,
 *   samples, aboveShare, slowMs, restMs, step, text })
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
 * @param {number} [opts.generatorRetries=2] times a step is run again when the generator could not run
 *   it as planned (starved, or paused by its own work), before it counts as generator-bound
 * @param {number} [opts.generatorPause=2] s before the first of them, sending nothing; twice that before the second
 */
function createSearch (opts) {
  const cfg = searchOptions(opts)
  const need = samplesNeeded(cfg.slos, cfg.minTailSamples)
  const planned = plannedRequests(need)
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

  function makeStep (rate, kind) {
    const base = kind === 'confirm' || state.longSteps ? cfg.confirmDuration : cfg.stepDuration
    return { rate, duration: durationFor(rate, base, planned, cfg.maxStepDuration), warmup: cfg.warmup, kind, index: state.history.length }
  }

  // The lowest rate known not to be sustainable (or not measurable here).
  function upper () {
    const candidates = [state.failed, state.bound].filter(Boolean)
    if (!candidates.length) return null
    return candidates.reduce((a, b) => a.step.rate <= b.step.rate ? a : b)
  }

  function plan () {
    if (state.rerun) return state.rerun
    switch (state.phase) {
      case 'low':
        return makeStep(cfg.lowRate, 'low')
      case 'upper':
        return makeStep(state.upperRate, 'upper')
      case 'bisect': {
        const last = state.history[state.history.length - 1]
        const next = bisection(state.lo.step.rate, upper(), { guesses: state.guesses, lastKind: last.step.kind }, cfg)
        if (!next) {
          state.phase = 'confirm'
          return plan()
        }
        const step = makeStep(next.rate, 'bisect')
        if (next.guess) guessSteps.add(step)
        return step
      }
      case 'confirm':
        // A pass as long as a confirmation is its own confirmation.
        if (state.lo.step.duration >= cfg.confirmDuration) return null
        return makeStep(state.lo.step.rate, 'confirm')
    }
    throw new Error(`search in unknown phase ${state.phase}`)
  }

  // Run again (after a pause) when the generator could not run the step as
  // planned for a reason that passes (other processes had the CPU, a pause
  // of its own): a loaded machine is often loaded for moments. Not when its
  // thread was busy all along at this rate: the same rate would busy it again.
  function retriesGenerator (step, judgement) {
    return judgement.verdict === 'generator-bound' && !!judgement.generator &&
      judgement.generator.cause !== 'saturated' && (step.tries || 1) <= cfg.generatorRetries
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

  // behind: the window opened behind its plan (lib/search/stepped-run.js).
  function judge (step, result, { behind = null } = {}) {
    return judgeStep(result, {
      target: step.rate,
      slos: cfg.slos,
      minTailSamples: cfg.minTailSamples,
      maxGeneratorCpu: cfg.maxGeneratorCpu,
      maxLoopDelay: cfg.maxLoopDelay,
      behind
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

    if (retriesGenerator(step, judgement)) {
      const tries = step.tries || 1
      const pause = cfg.generatorPause * tries
      state.rerun = { ...step, index: state.history.length, rerun: true, tries: tries + 1, pause }
      entry.note = `run again after a ${pause} s pause: the generator, not the server, was late`
      if (wasGuess) guessSteps.add(state.rerun)
      return
    }
    if (entry.verdict === 'generator-bound' && step.tries > 1) entry.note = `generator-bound in ${step.tries} tries`

    if (entry.verdict === 'inconclusive' && judgement.rising) {
      // A queue still building: once more, twice as long; rising again,
      // it is a fail (it would break the SLO if held).
      const cap = rerunCap(step, cfg)
      if (!step.lengthened && step.duration < cap) {
        state.rerun = { ...step, duration: Math.min(cap, step.duration * 2), index: state.history.length, rerun: true, lengthened: true }
        if (wasGuess) guessSteps.add(state.rerun)
        return
      }
      entry.verdict = 'fail'
      entry.note = step.lengthened
        ? `still rising over a ${step.duration} s step: taken as a fail`
        : `rising over a ${step.duration} s step (the longest allowed): taken as a fail`
    } else if (entry.verdict === 'inconclusive' && judgement.uncertain && !judgement.needSamples) {
      // pN within chance of its bound: once more, with four times the
      // requests (the interval about halves); still within chance, the
      // rate is not shown to hold, and the outcome says it was chance.
      const cap = rerunCap(step, cfg)
      if (!step.forChance && step.duration < cap) {
        state.rerun = { ...step, duration: chanceRerunDuration(step, judgement, cap), index: state.history.length, rerun: true, forChance: true }
        if (wasGuess) guessSteps.add(state.rerun)
        return
      }
      entry.verdict = 'fail'
      entry.note = `${judgement.uncertain.metric} still within chance of its bound over a ${step.duration} s step: taken as a fail`
    } else if (entry.verdict === 'inconclusive') {
      const cap = rerunCap(step, cfg)
      if (step.duration < cap) {
        const duration = samplesRerunDuration(step, judgement, need, cap)
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
        const first = firstUpper(step.rate, cfg)
        state.upperIsCeiling = first.isCeiling
        state.upperRate = first.rate
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
          state.upperRate = grownUpper(step.rate, state.upperIsCeiling, cfg)
          state.upperIsCeiling = false
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
    // The search goes on from the highest pass still believed (see
    // trustedBelow), else from any below the failure. Steps after this one
    // are as long as a confirmation.
    const below = highestPassBelow(trustedBelow(entry, cfg.nearClose)) || highestPassBelow(step.rate)
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

  function boundOutcome (entry) {
    const { step, judgement } = entry
    return {
      rate: step.rate,
      // The generator's reason, not a step stopped early's first one.
      reason: judgement.generator ? judgement.generator.text : judgement.reasons[0] || 'generator saturated',
      cause: judgement.generator ? judgement.generator.cause : null,
      tries: step.tries || 1,
      kind: step.kind,
      // What the step measured, charged to the generator.
      measured: failedText(entry)
    }
  }

  // A pass shows the rate the server was offered: the step's target, or
  // less when a Poisson plan drew fewer requests than the target in the
  // window (a 2 s step at 1,024 req/s may draw 1,002/s by chance).
  function sustainedRate (entry) {
    const drawn = entry.judgement.values && entry.judgement.values.drawn
    return drawn > 0 && drawn < entry.step.rate ? Math.floor(drawn) : entry.step.rate
  }

  function outcome () {
    const hi = upper()
    const best = state.lo && state.status !== 'below-low'
      ? { rate: sustainedRate(state.lo), target: state.lo.step.rate, confirmed: state.confirmed, summary: summaryOf(state.lo) }
      : null
    const failed = state.failed
      ? { rate: state.failed.step.rate, reason: failedText(state.failed), summary: summaryOf(state.failed) }
      : null
    // The answer rests on a failure that was chance.
    const chance = state.failed && state.failed.verdict === 'fail' ? state.failed.judgement.uncertain || null : null
    const generatorBound = state.bound ? boundOutcome(state.bound) : null
    const status = state.status
    const out = {
      status,
      best,
      failed,
      generatorBound,
      uncertain: chance,
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
    /** @returns {object} judgeStep(result) with this search's target, SLOs and limits (and { behind }) */
    judge,
    /** @returns {Outcome} */
    outcome,
    options: cfg,
    get done () { return state.status !== null }
  }
}

module.exports = { createSearch, DEFAULTS }
