'use strict'

// Pass/fail expressions held to a result, in the style of k6's
// thresholds; the same grammar states the SLOs of a capacity search. Their
// grammar is lib/config/expressions.js (the config checks them before the
// run); here, each parsed expression is measured on a result and judged.

const { decode } = require('./histogram')
const { round } = require('../core/format')
const { parseThreshold, STAT_KEYS } = require('../config/expressions')

const OPERATORS = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '==': (a, b) => a === b,
  '!=': (a, b) => a !== b
}

function measureGenerator (threshold, result) {
  const g = result.generator
  if (!g) throw new Error(`${threshold.expression}: this result has no generator health (it was saved by an older autocannon)`)
  if (threshold.metric === 'generator.cpu') return g.cpu
  if (threshold.field) {
    // A result saved before the late requests were split has no split.
    const late = g[threshold.field] || 0
    if (threshold.unit !== '%') return late
    const sent = result.requests.sent || 0
    return sent === 0 ? 0 : round(late / sent * 100, 4)
  }
  // Where the thread's CPU time could not be read, no pause is known to be
  // of either cause.
  if (threshold.pause) return g.pauses ? g.pauses[threshold.pause].max : 0
  return g.loopDelay ? g.loopDelay[threshold.stat] : 0
}

// A phase of result.timings: a percentile from its histogram when the
// result has it, else from the stats (which hold autocannon's percentiles).
function measureTiming (threshold, result) {
  const stats = result.timings && result.timings[threshold.phase]
  if (!stats) throw new Error(`${threshold.expression}: this result has no timings (it was saved by an older autocannon)`)
  if (threshold.percentile === undefined) return stats[STAT_KEYS[threshold.metric.slice(threshold.metric.lastIndexOf('.') + 1)]]
  const encoded = result.histograms && result.histograms.timings && result.histograms.timings[threshold.phase]
  if (encoded) {
    const h = decode(encoded)
    return h.totalCount === 0 ? 0 : round(h.getValueAtPercentile(threshold.percentile) / 1000, 3)
  }
  const key = ('p' + threshold.percentile).replace('.', '_')
  if (stats[key] === undefined) throw new Error(`${threshold.expression}: this result has no histogram to take p${threshold.percentile} from`)
  return stats[key]
}

// The measured value a parsed threshold is held to, in its unit.
function measure (threshold, result, latencyHistogram) {
  const duration = result.duration > 0 ? result.duration : 0
  switch (threshold.kind) {
    case 'latency': {
      if (threshold.percentile === undefined) return result.latency[STAT_KEYS[threshold.metric]]
      if (latencyHistogram) {
        return latencyHistogram.totalCount === 0 ? 0 : round(latencyHistogram.getValueAtPercentile(threshold.percentile) / 1000, 3)
      }
      // A result saved without histograms still has autocannon's percentiles.
      const key = ('p' + threshold.percentile).replace('.', '_')
      if (result.latency[key] === undefined) throw new Error(`${threshold.expression}: this result has no histogram to take p${threshold.percentile} from`)
      return result.latency[key]
    }
    case 'count': {
      const count = result[threshold.metric] || 0
      if (threshold.unit !== '%') return count
      // errors and timeouts among the requests that ended; non-2xx among responses.
      const total = result.requests.total + (threshold.metric === 'non2xx' ? 0 : result.errors)
      return total === 0 ? 0 : round(count / total * 100, 4)
    }
    case 'generator':
      return measureGenerator(threshold, result)
    case 'timing':
      return measureTiming(threshold, result)
    default:
      if (threshold.metric === 'rps') {
        if (result.rate) return result.rate.achieved
        return duration ? round(result.requests.total / duration, 2) : 0
      }
      return duration ? round(result.throughput.total / duration, 2) : 0
  }
}

// Parsed thresholds held to a result: one entry each, in the order given.
// `latencyHistogram`: the latency histogram itself, when the caller has it
// (a run in progress, abort-check.js), instead of the result's encoded one.
function evaluateThresholds (thresholds, result, latencyHistogram = null) {
  const parsed = thresholds.map((t) => typeof t === 'string' ? parseThreshold(t) : t)
  const needsHistogram = parsed.some((t) => t.percentile !== undefined)
  const histogram = latencyHistogram || (needsHistogram && result.histograms && result.histograms.latency
    ? decode(result.histograms.latency)
    : null)
  return parsed.map((t) => {
    const value = measure(t, result, histogram)
    return {
      expression: t.expression,
      metric: t.metric,
      operator: t.operator,
      limit: t.limit,
      unit: t.unit,
      value,
      ok: OPERATORS[t.operator](value, t.limit)
    }
  })
}

module.exports = { parseThreshold, evaluateThresholds }
