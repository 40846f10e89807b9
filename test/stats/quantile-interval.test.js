'use strict'

// The confidence interval of a percentile from order statistics: the
// ranks textbooks tabulate, the coverage it claims (simulated), and the
// values a histogram gives for them.

const t = require('tap')
const { quantileRanks, percentileInterval, binomialWeights } = require('../../lib/stats/quantile-interval')
const { seededRandom } = require('../../lib/core/random')
const { createLatencyHistogram } = require('../../lib/results/histogram')

t.test('the ranks of the tables', async (t) => {
  // Conover, Practical Nonparametric Statistics, table A3 and the
  // binomial: the median of 100 between the 40th and 61st (95%); of 10,
  // between the 2nd and 9th (97.9%, the nearest above 95%).
  t.same(quantileRanks(100, 50, 0.95), { low: 40, high: 61 })
  t.same(quantileRanks(10, 50, 0.95), { low: 2, high: 9 })
  // p99 of 1,000: 990 ± 2.576·√9.9 ≈ 990 ± 8.1 (normal approximation).
  const r = quantileRanks(1000, 99, 0.99)
  t.ok(r.low >= 980 && r.low <= 983 && r.high >= 997 && r.high <= 999, `p99 of 1,000 at 99%: ranks ${r.low}–${r.high}`)
  t.same(quantileRanks(5, 50, 0.99), { low: 0, high: 6 }, 'five samples bound the median on neither side at 99%')
  t.same(quantileRanks(100, 99, 0.99).high, 101, 'the maximum of 100 is no upper bound of p99 at 99%')
  t.same(quantileRanks(0, 99, 0.99), { low: 0, high: 1 }, 'no samples, no bounds')
  // 1,998,000 ± 2.576·√1,998 ≈ ± 115.
  const big = quantileRanks(2e6, 99.9, 0.99)
  t.ok(Math.abs(big.low - 1997885) <= 2 && Math.abs(big.high - 1998116) <= 2, `two million samples: ranks ${big.low}–${big.high}`)
})

t.test('the binomial weights sum to 1 and peak at the mode', async (t) => {
  const { from, weights } = binomialWeights(1000, 0.99)
  t.ok(Math.abs(weights.reduce((a, b) => a + b, 0) - 1) < 1e-12)
  const mode = from + weights.indexOf(Math.max(...weights))
  t.equal(mode, 990)
  // P(B = 990) for binomial(1000, 0.99), from the log-gamma form.
  t.ok(Math.abs(weights[990 - from] - 0.12574) < 1e-4, `P(B = 990) ${weights[990 - from].toFixed(5)}`)
})

t.test('the interval covers the true percentile as often as it claims', async (t) => {
  const random = seededRandom(5)
  for (const [n, percentile, confidence] of [[300, 90, 0.95], [1000, 99, 0.99], [60, 50, 0.9]]) {
    const q = percentile / 100
    const trials = 3000
    let covered = 0
    for (let k = 0; k < trials; k++) {
      const xs = new Float64Array(n)
      for (let i = 0; i < n; i++) xs[i] = random()
      xs.sort()
      const { low, high } = quantileRanks(n, percentile, confidence)
      const lo = low >= 1 ? xs[low - 1] : -Infinity
      const hi = high <= n ? xs[high - 1] : Infinity
      if (lo <= q && q <= hi) covered++
    }
    const share = covered / trials
    // At least as often as claimed (less 3 standard errors), and not far
    // above it (the ranks are whole numbers: a little above is expected).
    const se = Math.sqrt(confidence * (1 - confidence) / trials)
    t.ok(share >= confidence - 3 * se, `n ${n}, p${percentile}, ${confidence}: covered ${share.toFixed(4)}`)
    t.ok(share <= confidence + 0.04, `not a needlessly wide interval (${share.toFixed(4)})`)
  }
})

t.test('from a histogram: the values ranked at the bounds', async (t) => {
  const h = createLatencyHistogram()
  for (let v = 1; v <= 1000; v++) h.recordValue(v * 10)
  const { low, high, ranks } = percentileInterval(h, 99, 0.99)
  // (The histogram keeps three significant digits.)
  t.ok(Math.abs(low - ranks.low * 10) <= 10, `the ${ranks.low}th value: ${low}`)
  t.ok(Math.abs(high - ranks.high * 10) <= 10, `the ${ranks.high}th value: ${high}`)
  const few = createLatencyHistogram()
  for (let v = 1; v <= 50; v++) few.recordValue(v)
  t.equal(percentileInterval(few, 99, 0.99).high, Infinity, '50 samples: no upper bound of p99')
  t.ok(percentileInterval(few, 99, 0.99).low > 0, 'but a lower one')
})
