'use strict'

// --abortOnFail: the run's thresholds held, at every sample, to what the
// run has measured so far, as k6's abortOnFail does; the first that fails
// stops the run. Read straight off the recorder (the run's own histogram
// and counts, nothing encoded or copied): a check is a few percentile
// lookups per interval on the sending thread.

const { parseThreshold, evaluateThresholds } = require('./thresholds')
const { toStats } = require('./histogram')

const STATUS_CLASSES = [1, 2, 3, 4, 5]

// What evaluateThresholds reads of a result, from a live recorder.
function viewOf (recorder, elapsedS, { rated, stats }) {
  const total = recorder.totalCompleted + recorder.counter
  let non2xx = 0
  for (const c of STATUS_CLASSES) {
    if (c === 2) continue
    for (let s = c * 100; s < c * 100 + 100; s++) non2xx += recorder.statusCounts[s]
  }
  return {
    duration: elapsedS,
    latency: stats ? toStats(recorder.latency, { scale: 1000, decimals: 3 }) : {},
    requests: { total, sent: recorder.sent },
    errors: recorder.errors,
    timeouts: recorder.timeouts,
    non2xx,
    throughput: { total: recorder.totalBytes + recorder.bytes },
    rate: rated ? { achieved: elapsedS > 0 ? total / elapsedS : 0 } : undefined
  }
}

// thresholds: the config's expressions; after: seconds before the first
// check (k6's delayAbortEval). Returns check(recorder, elapsedS, rated) →
// the first failed threshold ({ expression, value, limit, … }) or null.
// The generator's health is judged on the whole run only (a threshold on
// it is not checked while the run goes on).
function createAbortCheck (thresholds, after) {
  const live = thresholds.map(parseThreshold).filter((t) => t.kind !== 'generator')
  const stats = live.some((t) => t.kind === 'latency' && t.percentile === undefined)
  return function check (recorder, elapsedS, rated) {
    if (elapsedS < after || live.length === 0) return null
    const view = viewOf(recorder, elapsedS, { rated, stats })
    return evaluateThresholds(live, view, recorder.latency).find((r) => !r.ok) || null
  }
}

module.exports = { createAbortCheck }
