'use strict'

// The stages of a run: --stages ramps the rate, --connectionStages the
// number of open connections, each from the previous stage's value to its
// own. Either is a list of { duration, <target> } or the command line's
// "30s:100,2m:5000,30s:0"; checked here into frozen stages.

const { fail, parseDuration } = require('./values')

// Load stages: [{ duration, rate }], or the CLI's "30s:100,2m:5000,30s:0"
// (each stage ramps from the previous stage's rate to its own).
function checkStages (value) {
  return checkStageList('stages', value, {
    field: 'rate',
    expected: 'must be stages such as "30s:100,2m:5000,30s:0" or [{ duration: 30, rate: 100 }, …] (duration in seconds or a timestring, rate in req/s >= 0)',
    valid: (rate) => rate >= 0 && isFinite(rate),
    none: 'plan no request at all: give at least one stage a rate above 0'
  })
}

// Connection stages: [{ duration, connections }], or "30s:100,1m:1000,30s:0"
// (each stage ramps from the previous stage's count, the first from 0, to
// its own). A stage of 0s is a step: its count at once.
function checkConnectionStages (value) {
  return checkStageList('connectionStages', value, {
    field: 'connections',
    expected: 'must be stages such as "30s:100,1m:1000,30s:0" or [{ duration: 30, connections: 100 }, …] (duration in seconds or a timestring, 0s for a step; connections a whole number >= 0)',
    valid: (n) => Number.isInteger(n) && n >= 0,
    none: 'open no connection at all: give at least one stage a count above 0',
    steps: true
  })
}

function checkStageList (option, value, { field, expected, valid, none, steps = false }) {
  if (value === undefined || value === null) return undefined
  const list = typeof value === 'string'
    ? value.split(',').map((part) => {
      const [duration, target, extra] = part.split(':').map((x) => x.trim())
      if (extra !== undefined || target === undefined || target === '') fail(option, value, expected)
      return { duration, [field]: target }
    })
    : value
  if (!Array.isArray(list) || list.length === 0) fail(option, value, expected)
  const stages = list.map((stage) => {
    if (stage === null || typeof stage !== 'object' || stage.duration === undefined || stage.duration === null) fail(option, value, expected)
    let duration
    if (steps && (stage.duration === 0 || /^\s*0+(\.0*)?\s*(ms|s|m|h)?\s*$/.test(String(stage.duration)))) {
      duration = 0
    } else {
      try {
        duration = parseDuration(stage.duration)
      } catch {
        fail(option, value, expected)
      }
      if (!(duration > 0)) fail(option, value, expected)
    }
    const raw = stage[field]
    const target = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw
    if (typeof target !== 'number' || !valid(target)) fail(option, value, expected)
    return Object.freeze({ duration, [field]: target })
  })
  if (stages.every((stage) => stage[field] === 0)) fail(option, value, none)
  if (stages.every((stage) => stage.duration === 0)) fail(option, value, 'last no time at all: give at least one stage a duration')
  return Object.freeze(stages)
}

module.exports = { checkStages, checkConnectionStages }
