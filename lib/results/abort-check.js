'use strict'

// --abortOnFail: the run's thresholds held, at every sample, to what the
// run has measured so far, as k6's abortOnFail does; the first that fails
// stops the run. Read straight off the recorder (the run's own histogram
// and counts, nothing encoded or copied): a check is a few percentile
// lookups per interval on the sending thread.

const { parseThreshold, evaluateThresholds } = require('./thresholds')
const { toStats } = require('./histogram')

const STATUS_CLASSES = [1, 2, 3, 4, 5]

// The counts a check reads, from a live recorder: what a worker thread
// sends the main thread at each sample, with its interval's histogram.
function figuresOf (recorder) {
  let non2xx = 0
  for (const c of STATUS_CLASSES) {
    if (c === 2) continue
    for (let s = c * 100; s < c * 100 + 100; s++) non2xx += recorder.statusCounts[s]
  }
  return {
    completed: recorder.totalCompleted + recorder.counter,
    sent: recorder.sent,
    errors: recorder.errors,
    timeouts: recorder.timeouts,
    non2xx,
    bytes: recorder.totalBytes + recorder.bytes
  }
}

// What evaluateThresholds reads of a result.
function viewOf (figures, latency, elapsedS, { rated, stats }) {
  const total = figures.completed
  return {
    duration: elapsedS,
    latency: stats ? toStats(latency, { scale: 1000, decimals: 3 }) : {},
    requests: { total, sent: figures.sent },
    errors: figures.errors,
    timeouts: figures.timeouts,
    non2xx: figures.non2xx,
    throughput: { total: figures.bytes },
    rate: rated ? { achieved: elapsedS > 0 ? total / elapsedS : 0 } : undefined
  }
}

// thresholds: the config's expressions; after: seconds before the first
// check (k6's delayAbortEval). Returns check(recorder, elapsedS, rated) →
// the first failed threshold ({ expression, value, limit, … }) or null;
// check.figures(figures, latency, elapsedS, rated) does the same from
// counts and a histogram gathered elsewhere (workers' samples).
// The generator's health and the phases' times are judged on the whole
// run only (a threshold on them is not checked while the run goes on).
function createAbortCheck (thresholds, after) {
  const live = thresholds.map(parseThreshold).filter((t) => t.kind !== 'generator' && t.kind !== 'timing')
  const stats = live.some((t) => t.kind === 'latency' && t.percentile === undefined)
  const judge = (figures, latency, elapsedS, rated) => {
    if (elapsedS < after || live.length === 0) return null
    const view = viewOf(figures, latency, elapsedS, { rated, stats })
    return evaluateThresholds(live, view, latency).find((r) => !r.ok) || null
  }
  function check (recorder, elapsedS, rated) {
    if (elapsedS < after || live.length === 0) return null
    return judge(figuresOf(recorder), recorder.latency, elapsedS, rated)
  }
  check.figures = judge
  return check
}

// The verdict a run records when a check failed at `elapsedS`.
function abortedAt (failed, elapsedS) {
  return { threshold: failed.expression, at: Math.round(elapsedS * 1000) / 1000, value: failed.value, unit: failed.unit }
}

module.exports = { createAbortCheck, figuresOf, abortedAt }
