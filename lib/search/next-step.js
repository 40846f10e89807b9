'use strict'

// The capacity search's policy for its next step: which rate to try and
// for how long. Pure functions of the steps recorded and the search's
// options (search-options.js); the state machine (search.js) decides when
// each applies.

// Planned durations aim for this many times the samples the tail needs, so
// that a step a little short of its plan is still conclusive.
const SAMPLE_MARGIN = 1.1
// Whatever the SLOs, a step of a few dozen requests is decided by its
// edges (responses of the warm-up landing in it, its own last ones
// landing after it), not by the server: plan at least this many.
const MIN_STEP_REQUESTS = 200
// Seconds a window stopped early (its failure settled) must have measured
// for its achieved rate to bound the bisection.
const MIN_BOUND_WINDOW = 1

// Requests a step plans for, when its tail needs `need` samples.
function plannedRequests (need) {
  return Math.max(need, MIN_STEP_REQUESTS)
}

// Long enough for the tail samples at this rate, capped; a confirmation
// at least confirmDuration (its `base`).
function durationFor (rate, base, planned, maxStepDuration) {
  const cap = Math.max(maxStepDuration, base)
  return Math.min(cap, Math.max(base, Math.ceil(planned * SAMPLE_MARGIN / rate)))
}

// The longest a step may be rerun for: a confirmation is never cut below
// its own length.
function rerunCap (step, cfg) {
  return Math.max(cfg.maxStepDuration, step.kind === 'confirm' ? cfg.confirmDuration : 0)
}

// A step rerun for the samples it lacked: long enough for them at the
// rate it achieved, and at least twice as long, so that reruns end.
function samplesRerunDuration (step, judgement, need, cap) {
  const wanted = Math.max(judgement.needSamples || need, 1) * SAMPLE_MARGIN
  const have = judgement.values && judgement.values.samples > 0 ? judgement.values.samples : 0
  const perSecond = have && step.duration ? have / step.duration : step.rate
  return Math.min(cap, Math.max(step.duration * 2, Math.ceil(wanted / perSecond)))
}

// A step rerun because a pN was within chance of its bound: four times
// the requests (the interval about halves), at least twice as long. A
// window stopped early measured less than its step: its own rate counts.
function chanceRerunDuration (step, judgement, cap) {
  const values = judgement.values || {}
  const have = values.samples > 0 ? values.samples : 0
  const seconds = values.duration > 0 ? values.duration : step.duration
  const perSecond = have ? have / seconds : step.rate
  return Math.min(cap, Math.max(step.duration * 2, Math.ceil(4 * Math.max(have, 1) / perSecond)))
}

// The first upper step after the low check passed at `lowRate`: the probe's
// ceiling when it is above, else one growth up.
function firstUpper (lowRate, cfg) {
  const isCeiling = cfg.ceiling > lowRate
  return {
    rate: Math.min(cfg.maxRate, isCeiling ? Math.round(cfg.ceiling) : Math.round(lowRate * cfg.growth)),
    isCeiling
  }
}

// The upper step after one passed at `rate`: smaller past the probe's
// ceiling itself (ceilingGrowth), and always at least 1 req/s higher.
function grownUpper (rate, fromCeiling, cfg) {
  const factor = fromCeiling ? cfg.ceilingGrowth : cfg.growth
  return Math.min(cfg.maxRate, Math.max(rate + 1, Math.round(rate * factor)))
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

function converged (lo, hi, precision) {
  return hi - lo <= 1 || (hi - lo) / lo < precision
}

// The next bisection between the best pass `lo` and the lowest failure:
// { rate, guess }, guess when it is a near guess rather than the midpoint
// (see nearGuess in search-options.js), or null once the bracket is within
// the precision. `guesses`: near guesses just run in a row; `lastKind`:
// the kind of the step just recorded.
function bisection (lo, failure, { guesses, lastKind }, cfg) {
  const hi = boundOf(failure, lo)
  if (converged(lo, hi, cfg.precision)) return null
  const close = hi < failure.step.rate || failure.step.kind === 'confirm'
  const near = Math.round(hi * (close ? cfg.nearClose : cfg.nearGuess))
  const mayGuess = guesses < cfg.nearGuesses && (guesses > 0 || lastKind !== 'bisect')
  if (hi > 2 * lo && mayGuess && near > lo) return { rate: near, guess: true }
  return { rate: Math.round((lo + hi) / 2), guess: false }
}

// After a confirmation failed, the rates whose passes are still believed:
// below what the server achieved, when it fell short, and below 95%
// (nearClose) of the rate that failed. A short pass above that is as
// suspect as the rate that just failed: a server's capacity over a long
// step can be below what passes a short one, and such passes would fail
// their own confirmations in turn, one after another (each settled in
// seconds, but three failed confirmations end a search as unconfirmed).
function trustedBelow (entry, nearClose) {
  return Math.min(boundOf(entry, 0), Math.round(entry.step.rate * nearClose))
}

module.exports = {
  plannedRequests,
  durationFor,
  rerunCap,
  samplesRerunDuration,
  chanceRerunDuration,
  firstUpper,
  grownUpper,
  boundOf,
  converged,
  bisection,
  trustedBelow
}
