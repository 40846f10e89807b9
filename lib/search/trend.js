'use strict'

// Whether a series is still rising: the Mann–Kendall test (is the series
// ordered upward more often than chance would order it?) and the
// Theil–Sen slope (the median of the slopes between every two points).
// Both are rank-based: one spike moves neither much, where a least-squares
// slope would follow it. A step of a capacity search uses them on its
// per-interval latency: a queue that is still building shows as a steady
// rise, and will break the SLO if the rate is held longer.

const { normalSf } = require('../stats/normal')

// Up to this many points the p-value is exact (the distribution of
// inversions over all orderings); above, the normal approximation.
const EXACT_LIMIT = 50

// P(S >= s) when all orderings of n distinct values are equally likely.
// S = pairs in order − pairs out of order = N − 2·inversions, and the
// number of orderings with k inversions follows the Mahonian recurrence.
function exactUpperP (n, s) {
  const pairs = n * (n - 1) / 2
  let dist = [1]
  for (let m = 2; m <= n; m++) {
    const next = new Array(dist.length + m - 1).fill(0)
    for (let k = 0; k < dist.length; k++) {
      for (let j = 0; j < m; j++) next[k + j] += dist[k] / m
    }
    dist = next
  }
  const maxInversions = Math.floor((pairs - s) / 2)
  let p = 0
  for (let k = 0; k <= maxInversions && k < dist.length; k++) p += dist[k]
  return Math.min(1, p)
}

function normalUpperP (n, s) {
  if (s <= 0) return s === 0 ? 0.5 : 1 - normalUpperP(n, -s)
  const variance = n * (n - 1) * (2 * n + 5) / 18
  // Continuity correction: S moves in steps of 2.
  return normalSf((s - 1) / Math.sqrt(variance))
}

// values: numbers in time order (gaps: null, skipped). Returns the number
// of points, Kendall's S, the one-sided p-value of "rising", and the
// Theil–Sen slope per point.
function trend (values) {
  const points = []
  values.forEach((v, i) => { if (typeof v === 'number' && Number.isFinite(v)) points.push([i, v]) })
  const n = points.length
  if (n < 2) return { n, s: 0, p: 1, slope: 0 }
  let s = 0
  const slopes = []
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dv = points[j][1] - points[i][1]
      s += Math.sign(dv)
      slopes.push(dv / (points[j][0] - points[i][0]))
    }
  }
  slopes.sort((a, b) => a - b)
  const mid = slopes.length >> 1
  const slope = slopes.length % 2 ? slopes[mid] : (slopes[mid - 1] + slopes[mid]) / 2
  // Ties lower |S|: the exact law of distinct values is then conservative.
  const p = n <= EXACT_LIMIT ? exactUpperP(n, s) : normalUpperP(n, s)
  return { n, s, p, slope }
}

module.exports = { trend, exactUpperP }
