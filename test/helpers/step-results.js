'use strict'

// Synthetic step results for the capacity search's tests: what an engine
// would hand the judge, shaped as lib/results/result.js shapes a result, from a
// small model of a server. No server, no clock.

const { createLatencyHistogram, encode, toStats } = require('../../lib/results/histogram')

const LATENCY_STATS = { scale: 1000, decimals: 3, bucketEdges: true }

// A result as lib/results/result.js shapes it. Latency: `tailShare` of the
// responses at `tailMs` (so pN for N < 100·(1 - tailShare) is `baseMs` and
// p99 is `tailMs` when tailShare >= 1%), the rest at `baseMs`.
function makeResult ({
  target, duration = 5, achieved = target, baseMs = 2, tailMs = 20, tailShare = 0.03,
  errors = 0, fiveXx = 0, serviceMs = null, generator = { cpu: 0.3, loopDelay: { p50: 0, p99: 2, max: 2 } }
}) {
  const n = Math.round(achieved * duration)
  const tail = Math.min(n, Math.ceil(n * tailShare))
  const h = createLatencyHistogram()
  if (n - tail > 0) h.recordValueWithCount(Math.round(baseMs * 1000), n - tail)
  if (tail > 0) h.recordValueWithCount(Math.round(tailMs * 1000), tail)
  const u = createLatencyHistogram()
  if (n > 0) u.recordValueWithCount(Math.round((serviceMs === null ? baseMs : serviceMs) * 1000), n)
  const latency = { ...toStats(h, LATENCY_STATS), totalCount: h.totalCount }
  return {
    duration,
    errors,
    '5xx': fiveXx,
    non2xx: fiveXx,
    requests: { total: n, sent: n + errors },
    latency,
    latencyUncorrected: { ...toStats(u, LATENCY_STATS), totalCount: u.totalCount },
    rate: { target, achieved: duration ? Math.round(n / duration * 100) / 100 : 0, late: 0 },
    histograms: { latency: encode(h), latencyUncorrected: encode(u) },
    generator
  }
}

// A server of capacity C with a sharp knee, so that the answer is known:
// below C, p99 20 ms; above C, a backlog from the start (p99 300 ms) that
// grows with the excess and the step's length, and from 5% over, achieved
// falls behind too. (A real queue just above C can pass a short step: see
// the lucky-step test.)
function capacityServer (C, extra = {}) {
  return (step) => {
    const over = step.rate / C - 1
    if (over <= 0) return makeResult({ target: step.rate, duration: step.duration, ...extra })
    return makeResult({
      target: step.rate,
      duration: step.duration,
      achieved: over > 0.05 ? C * 1.02 : step.rate,
      tailMs: 300 + over * step.duration * 1000,
      serviceMs: 2 + over * step.duration * 1000,
      ...extra
    })
  }
}

// The generator's health in a step it could not run as planned: 54
// requests left late while its thread was not running (600 ms of the
// step, in 12 pauses), its event loop up to 115 ms late.
function starvedGenerator () {
  return {
    loopDelay: { p50: 0, p99: 61, max: 115 },
    cpu: 0.02,
    late: 54,
    lateness: { p99: 110, max: 115 },
    lateNoConnection: 0,
    lateOwn: 0,
    lateStarved: 54,
    pauses: { own: { count: 1, ms: 0.5, max: 0.5 }, starved: { count: 12, ms: 600, max: 115 } }
  }
}

module.exports = { makeResult, capacityServer, starvedGenerator }
