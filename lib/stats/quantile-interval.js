'use strict'

// A confidence interval for a percentile from its sample alone, whatever
// the law (order statistics): of n samples, the number below the true pN
// is binomial(n, N/100), so the samples ranked at that binomial's lower
// and upper α/2 quantiles bound pN with confidence 1 − α. A step's p99 of
// 1,000 responses is then "between its 982nd and 999th", in ms from its
// histogram.

// P(B = k) for B ~ binomial(n, q), from the mode outwards, over the ranks
// that carry any weight (a few dozen standard deviations): an array of
// [from, weights], normalised. No factorials: each term is the last one
// times a ratio, so n may be in the millions.
function binomialWeights (n, q) {
  const mode = Math.min(n, Math.floor((n + 1) * q))
  const below = []
  const above = []
  const tiny = 1e-18
  let w = 1
  for (let k = mode; k > 0; k--) {
    w *= k / (n - k + 1) * (1 - q) / q
    if (w < tiny) break
    below.push(w)
  }
  w = 1
  for (let k = mode; k < n; k++) {
    w *= (n - k) / (k + 1) * q / (1 - q)
    if (w < tiny) break
    above.push(w)
  }
  const weights = [...below.reverse(), 1, ...above]
  let total = 0
  for (const x of weights) total += x
  for (let i = 0; i < weights.length; i++) weights[i] /= total
  return { from: mode - below.length, weights }
}

// The 1-based ranks [low, high] of the order statistics bounding the
// percentile (0–100, exclusive) of n samples at this confidence. low is 0
// when no sample bounds it from below (too few samples), high is n + 1
// when none bounds it from above.
function quantileRanks (n, percentile, confidence) {
  if (!(n > 0) || !(percentile > 0 && percentile < 100)) return { low: 0, high: n + 1 }
  const tail = (1 - confidence) / 2
  const { from, weights } = binomialWeights(n, percentile / 100)
  // low − 1: the largest k with P(B ≤ k) ≤ tail; high − 1: the smallest
  // k with P(B ≤ k) ≥ 1 − tail.
  let cdf = 0
  let low = from
  let high = from + weights.length
  for (let i = 0; i < weights.length; i++) {
    cdf += weights[i]
    if (cdf <= tail) low = from + i + 1
    if (cdf >= 1 - tail) {
      high = from + i + 1
      break
    }
  }
  return { low: Math.max(0, Math.min(low, n)), high: Math.min(n + 1, high) }
}

// The interval of pN from a histogram (values in its own unit): { low,
// high } values, low 0 and high Infinity where no sample bounds them.
function percentileInterval (histogram, percentile, confidence) {
  const n = histogram.totalCount
  const ranks = quantileRanks(n, percentile, confidence)
  const at = (rank) => histogram.getValueAtPercentile(rank / n * 100)
  return {
    low: ranks.low >= 1 ? at(ranks.low) : 0,
    high: ranks.high <= n ? at(ranks.high) : Infinity,
    ranks
  }
}

module.exports = { quantileRanks, percentileInterval, binomialWeights }
