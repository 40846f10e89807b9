'use strict'

// One option's value, checked as the table of options (lib/core/options.js)
// says for its kind: integer, count, positive, rate, duration, flag,
// fraction, slos. The number a value stands for, its default when not
// given, or an InvalidOptionError naming the option.

const { InvalidOptionError } = require('../core/errors')
const { UPSTREAM } = require('../core/upstream-messages')
const { OPTIONS, DEFAULTS } = require('../core/options')
const { lazy } = require('../core/lazy')
// Lazy: only a duration written as a timestring ("10s") needs it.
const timestring = lazy(() => require('timestring'))
// Lazy: only thresholds and SLOs need it.
const expressions = lazy(() => require('./expressions'))

// An option autocannon also refuses is refused in its words (its users
// compare them); ours follow in err.detail.
const SAID = UPSTREAM.AC_INVALID_OPTION

function fail (option, value, expected, message = SAID[option]) {
  throw new InvalidOptionError(option, value, expected, message)
}

// Accepts numbers and numeric strings ("10"), as the CLI and JSON configs
// hand both; anything else is reported with the option's name.
function toNumber (option, value) {
  if (typeof value === 'number') return value
  if (typeof value === 'string' && value.trim() !== '' && !isNaN(Number(value))) return Number(value)
  return fail(option, value, 'must be a number', option === 'sampleInt' ? SAID.sampleIntFormat : SAID[option])
}

function integer (opts, option, min) {
  const value = opts[option]
  if (value === undefined || value === null) return OPTIONS[option].default
  const n = toNumber(option, value)
  if (!Number.isInteger(n) || n < min) fail(option, value, `must be an integer >= ${min}`)
  return n
}

// 0 means "not set" for the optional limits, as in autocannon.
// (also "0": the CLI and JSON configs hand numbers as strings).
function optionalPositiveInteger (opts, option) {
  const value = opts[option]
  if (value === undefined || value === null || value === false) return 0
  const n = toNumber(option, value)
  if (n === 0) return 0
  if (!Number.isInteger(n) || n < 1) fail(option, value, 'must be a positive integer')
  return n
}

function positiveNumber (opts, option) {
  const value = opts[option]
  if (value === undefined || value === null) return OPTIONS[option].default
  const n = toNumber(option, value)
  if (option === 'sampleInt' && !isFinite(n)) fail(option, value, 'must be a number > 0', SAID.sampleIntFormat)
  if (option === 'sampleInt' && n < 0) fail(option, value, 'must be a number > 0', SAID.sampleIntNegative)
  if (!(n > 0) || !isFinite(n)) fail(option, value, 'must be a number > 0')
  return n
}

function optionalRate (opts, option) {
  const value = opts[option]
  if (value === undefined || value === null || value === false) return 0
  const n = toNumber(option, value)
  if (n === 0) return 0
  if (!(n > 0) || !isFinite(n)) fail(option, value, 'must be a number of requests per second > 0')
  return n
}

function fraction (opts, option) {
  const value = opts[option]
  if (value === undefined || value === null) return OPTIONS[option].default
  const n = toNumber(option, value)
  if (!(n > 0 && n < 1)) fail(option, value, 'must be a fraction between 0 and 1, such as 0.02 for 2%')
  return n
}

// Seconds: a number, a numeric string or a timestring ("10s", "2m",
// "1h30m"). The CLI hands its -d here as typed, so both doors accept and
// refuse the same durations.
function parseDuration (value) {
  if (value === undefined || value === null) return DEFAULTS.duration
  if (typeof value === 'number') {
    if (value < 0) fail('duration', value, 'must be a number of seconds > 0', SAID.durationNegative)
    if (!(value >= 0) || !isFinite(value)) fail('duration', value, 'must be a number of seconds > 0', SAID.durationFormat)
    return value
  }
  if (typeof value === 'string') {
    const s = value.trim()
    if (/^\d+(\.\d+)?$/.test(s)) return Number(s)
    if (/^[\d.]+\s*[a-zA-Z]+(\s*[\d.]+\s*[a-zA-Z]+)*$/.test(s)) {
      try {
        const seconds = timestring()(s)
        if (seconds >= 0 && isFinite(seconds)) return seconds
      } catch {}
    }
  }
  const negative = typeof value === 'string' && /^\s*-\d/.test(value)
  return fail('duration', value, 'must be a number of seconds > 0 or a timestring such as "10s" or "2m"',
    negative ? SAID.durationNegative : SAID.durationFormat)
}

// Thresholds, and a search's SLOs, in one grammar (expressions.js):
// checked once here, so a malformed expression is bad input before the
// run, not a surprise after it. `required`: at least one.
function checkExpressions (option, value, { required = false } = {}) {
  const what = option === 'thresholds' ? 'threshold' : 'SLO'
  if ((value === undefined || value === null) && !required) return undefined
  const list = value === undefined || value === null ? [] : typeof value === 'string' ? [value] : value
  if (!Array.isArray(list)) fail(option, value, 'must be an array of expressions such as "p99 < 200ms"')
  if (list.length === 0 && required) fail(option, value, `must list at least one ${what}, such as "p99 < 200ms"`)
  const { parseThreshold } = expressions()
  for (const expression of list) {
    try {
      parseThreshold(expression)
    } catch (err) {
      fail(option, expression, `is not a${what === 'SLO' ? 'n' : ''} ${what}: ${err.why || err.message}`)
    }
  }
  return list.length === 0 ? undefined : Object.freeze(list.slice())
}

// The checks the table names for options of one kind; the others are
// config.js's, option by option.
const CHECKS = {
  integer: (opts, option) => integer(opts, option, OPTIONS[option].min),
  count: optionalPositiveInteger,
  positive: positiveNumber,
  rate: optionalRate,
  duration: (opts, option) => parseDuration(opts[option]),
  flag: (opts, option) => !!opts[option],
  fraction,
  slos: (opts, option) => checkExpressions(option, opts[option], { required: true })
}

// The value of opts[option] (or its default), checked by the check the
// table names for the option (its `check`, one of CHECKS).
function checkByTable (opts, option) {
  return CHECKS[OPTIONS[option].check](opts, option)
}

// One option's value, checked as the table says; its default when it is
// not given and not required. For options checked apart from buildConfig
// (findMaxRate's).
function checkOption (option, value) {
  if ((value === undefined || value === null) && !OPTIONS[option].required) return OPTIONS[option].default
  return checkByTable({ [option]: value }, option)
}

module.exports = { SAID, fail, checkByTable, checkOption, parseDuration, checkExpressions }
