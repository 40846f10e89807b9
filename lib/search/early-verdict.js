'use strict'

// A step's failure settled before the step ends. Within a step's window,
// what fails a step only grows: responses beyond a latency bound, errors,
// 5xx. And the window can end no more requests than those already ended,
// in flight, owed by the plan and still to be made due (Run.peek bounds
// this). When what is already counted breaks an SLO even if every request
// still to come were fast and fine, the rest of the step can only repeat
// the verdict, so the step stops there. Near capacity a failing step is
// mostly settled in its first seconds, and such steps would otherwise be
// most of a search's time.
//
// Watched: upper bounds on pN and max latency, on errors, timeouts and
// non2xx (counts or %), and the judge's implied errors<1% and 5xx<1%.
// Lower bounds, averages and rates are not monotone within a window and
// wait for the step's end. As in the judge, a percentile fails only on
// minTailSamples responses beyond its bound. Pure: figures in, a reason
// or null out.

const { parseSlos, heldTo, sloText, JUDGE_DEFAULTS } = require('./step-judge')
const { thousands, msBrief } = require('../core/format')

// Rounding in the judge (percentages to 4 decimals) must not turn a
// settled failure back into a pass.
const PERCENT_MARGIN = 1e-3

function isUpper (slo) {
  return slo.operator === '<' || slo.operator === '<='
}

// A count breaks `count < limit` at limit, `count <= limit` above it.
function countBreaks (slo, count) {
  return slo.operator === '<' ? count >= slo.limit : count > slo.limit
}

// slos: the search's SLOs (expressions or parsed). Returns { limitsMs,
// settle(figures) } where limitsMs are the latency bounds a peek counts
// responses above, and settle(figures) gives why the step has already
// failed, or null. figures: one Run.peek() or a list of them (workers),
// each { responses, errors, timeouts, non2xx, serverErrors, above: [per
// limit], mostEnded }.
function createEarlyVerdict (slos, { minTailSamples = JUDGE_DEFAULTS.minTailSamples } = {}) {
  const { list, implied5xx } = heldTo(parseSlos(slos))
  const limitsMs = []
  const watches = []
  for (const slo of list) {
    if (!isUpper(slo)) continue
    if (slo.kind === 'latency' && (slo.percentile !== undefined || slo.metric === 'max')) {
      watches.push({ slo, index: limitsMs.length })
      limitsMs.push(slo.limit)
    } else if (slo.kind === 'count') {
      watches.push({ slo })
    }
  }

  function latencySettled (slo, above, most) {
    const ms = `${msBrief(slo.limit)} ms`
    if (slo.metric === 'max') {
      return above > 0 ? `${thousands(above, 3)} responses above ${ms}` : null
    }
    // pN's value lies beyond the bound once more than (100 − N)% of the
    // responses do (plus half a response for the percentile's rounding),
    // whatever their final number, which is at most `most`.
    const share = (100 - slo.percentile) / 100
    if (above < minTailSamples || above <= share * most + 0.5) return null
    return `${thousands(above, 3)} responses above ${ms}, more than ${+(share * 100).toPrecision(3)}% of the most it can end (${thousands(most, 3)})`
  }

  function countSettled (slo, f) {
    const count = f[slo.metric]
    if (slo.unit !== '%') return countBreaks(slo, count) ? `${thousands(count, 3)} ${slo.metric}` : null
    // The share can only fall as far as count / most.
    const floor = f.mostEnded > 0 ? count / f.mostEnded * 100 : 0
    if (count === 0 || floor < slo.limit + PERCENT_MARGIN) return null
    return `${thousands(count, 3)} ${slo.metric}, ${+floor.toPrecision(3)}% or more of the most it can end (${thousands(f.mostEnded, 3)})`
  }

  function settle (figures) {
    const f = sum(figures, limitsMs.length)
    if (f === null || !(f.mostEnded < Infinity)) return null
    for (const { slo, index } of watches) {
      const why = slo.kind === 'latency' ? latencySettled(slo, f.above[index], f.mostEnded) : countSettled(slo, f)
      if (why !== null) return `${why}: ${sloText(slo)} can no longer hold`
    }
    if (implied5xx && f.serverErrors > 0 && f.serverErrors / f.mostEnded * 100 >= JUDGE_DEFAULTS.implied5xxPercent + PERCENT_MARGIN) {
      return `${thousands(f.serverErrors, 3)} 5xx of the most it can end (${thousands(f.mostEnded, 3)}): 5xx < ${JUDGE_DEFAULTS.implied5xxPercent}% can no longer hold`
    }
    return null
  }

  return { limitsMs, settle }
}

// One thread's figures, or the sum of every worker's (null when one is
// missing: a sum without it is no bound).
function sum (figures, limits) {
  if (!Array.isArray(figures)) return figures || null
  const out = { responses: 0, errors: 0, timeouts: 0, non2xx: 0, serverErrors: 0, mostEnded: 0, above: new Array(limits).fill(0) }
  for (let i = 0; i < figures.length; i++) {
    const f = figures[i]
    if (!f) return null
    for (const key of ['responses', 'errors', 'timeouts', 'non2xx', 'serverErrors', 'mostEnded']) out[key] += f[key]
    for (let k = 0; k < limits; k++) out.above[k] += f.above[k]
  }
  return out
}

module.exports = { createEarlyVerdict }
