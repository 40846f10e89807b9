'use strict'

// The capacity search's options: their defaults and their checks. A search
// refuses a bad option when it is created, before any step runs.

const { parseSlos, JUDGE_DEFAULTS } = require('./step-judge')
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
  // most often sustains most of what it failed at or achieved, and a
  // failed confirmation most often lands a little below the rate
  // confirmed. Right, a guess spares two or three bisections of a bracket
  // ten times too wide; wrong, it costs one.
  nearGuess: 0.9,
  // The share when the failure is known to be close above capacity: the
  // server fell short of it (the bound is then its throughput at
  // saturation, not a rate it was merely asked for), or it was a
  // confirmation of a rate that had passed a shorter step: what then holds
  // is most often just below the bound.
  nearClose: 0.95,
  // A wrong guess is cheap now that a failing step stops once its failure
  // is settled (early-verdict.js): one far above capacity settles in a
  // fraction of a second, one that settles late failed narrowly, and the
  // capacity is near. Four in a row reach ~70% of the bound (95% then 90%
  // each); below that the midpoint goes faster.
  nearGuesses: 4,
  // A step the generator could not run as planned (its thread starved by
  // other processes, or paused by its own work) is run again, twice at
  // most, after a pause of 2 s, then 4 s, sending nothing: long enough for
  // a burst of other work on the machine to pass, short beside a search.
  generatorRetries: 2,
  generatorPause: 2, // s
  ...JUDGE_DEFAULTS
})

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
  if (!(Number.isInteger(o.generatorRetries) && o.generatorRetries >= 0)) throw new InvalidOptionError('generatorRetries', o.generatorRetries, 'is not an integer, 0 or more')
  if (!(o.generatorPause >= 0)) throw new InvalidOptionError('generatorPause', o.generatorPause, 'is not a number of seconds (0 or more)')
  if (!(o.warmup >= 0)) throw new InvalidOptionError('warmup', o.warmup, 'is not a number of seconds (0 or more)')
  o.confirmDuration = opts.confirmDuration === undefined ? 2 * o.stepDuration : positive('confirmDuration', opts.confirmDuration)
  o.lowRate = opts.lowRate === undefined ? Math.max(1, Math.round(o.ceiling * o.lowFraction)) : checkOption('lowRate', opts.lowRate)
  o.maxRate = opts.maxRate === undefined ? Infinity : positive('maxRate', opts.maxRate)
  if (o.maxRate < o.lowRate) throw new InvalidOptionError('maxRate', o.maxRate, `is below the low rate (${o.lowRate})`)
  o.slos = parseSlos(opts.slos)
  return o
}

module.exports = { DEFAULTS, searchOptions }
