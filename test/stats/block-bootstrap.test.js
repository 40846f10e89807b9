'use strict'

// The block bootstrap's parts: blocks merge into the percentiles one
// histogram of the same responses gives, long runs become at most
// MAX_BLOCKS blocks, and the interval is read at Hesterberg's expanded
// tail (reference values from scipy 1.17.1:
// norm.sf(sqrt(n / (n - 1)) * t.ppf(0.975, n - 1))).

const t = require('tap')
const { Blocks, ratioIntervals, expandedTail, countAt, MAX_BLOCKS } = require('../../lib/stats/block-bootstrap')
const { createLatencyHistogram } = require('../../lib/results/histogram')
const { seededRandom } = require('../../lib/core/random')

function intervals (count, seed, scale = 1) {
  const random = seededRandom(seed)
  return Array.from({ length: count }, (_, i) => {
    const h = createLatencyHistogram()
    // A wide spread, and one slow interval, so buckets differ between them.
    const level = i === 3 ? 20000 : 1000
    for (let k = 0; k < 500; k++) h.recordValue(Math.round(scale * level * Math.exp(2 * random())))
    return h
  })
}

const PERCENTILES = [0, 1, 50, 90, 99, 99.9, 100]

t.test('weights of 1 give the percentiles of all intervals in one histogram', async (t) => {
  const hs = intervals(12, 1)
  const blocks = new Blocks([...hs, null])
  t.equal(blocks.length, 13, 'an interval without responses is a block too')
  const merged = createLatencyHistogram()
  for (const h of hs) merged.add(h)
  const out = new Float64Array(PERCENTILES.length)
  blocks.percentilesOf(new Int32Array(13).fill(1), PERCENTILES, out)
  t.same([...out], PERCENTILES.map((p) => merged.getValueAtPercentile(p)), 'as HdrHistogram reads them')
  t.equal(blocks.total, merged.totalCount)

  // Weights are counts: block 3 twice is block 3 recorded twice.
  const twice = createLatencyHistogram()
  for (const h of hs) twice.add(h)
  twice.add(hs[3])
  const weights = new Int32Array(13).fill(1)
  weights[3] = 2
  blocks.percentilesOf(weights, PERCENTILES, out)
  t.same([...out], PERCENTILES.map((p) => twice.getValueAtPercentile(p)))

  blocks.percentilesOf(new Int32Array(13), PERCENTILES, out)
  t.ok(out.every(Number.isNaN), 'nothing drawn: no percentile')
})

t.test('countAt: HdrHistogram\'s target count, without float error', async (t) => {
  t.equal(countAt(99.9, 1000), 999)
  t.equal(countAt(99, 100), 99)
  t.equal(countAt(50, 3), 2)
  t.equal(countAt(0, 10), 1)
  t.equal(countAt(100, 10), 10)
})

t.test('long runs: at most MAX_BLOCKS blocks of consecutive intervals', async (t) => {
  const hs = Array.from({ length: 450 }, (_, i) => {
    const h = createLatencyHistogram()
    h.recordValue(1000 + i)
    return h
  })
  const blocks = new Blocks(hs)
  t.equal(MAX_BLOCKS, 200)
  t.equal(blocks.intervalsPerBlock, 3)
  t.equal(blocks.length, 150)
  const out = new Float64Array(2)
  const only = new Int32Array(150)
  only[1] = 1
  blocks.percentilesOf(only, [0, 100], out)
  t.same([...out], [1003, 1005], 'block 1 holds intervals 3, 4 and 5')
})

t.test('the expanded percentile tail', async (t) => {
  const close = (actual, expected, rel) => Math.abs(actual - expected) <= rel * expected
  t.ok(close(expandedTail(0.05, 8), 0.0057375205170298775, 1e-3), `n = 8: ${expandedTail(0.05, 8)}`)
  t.ok(close(expandedTail(0.05, 60), 0.021801790933923385, 1e-5), `n = 60: ${expandedTail(0.05, 60)}`)
  t.ok(close(expandedTail(0.05, 4), 0.00011903073915322603, 0.03), `n = 4: ${expandedTail(0.05, 4)} (t by expansion at 3 df)`)
  t.ok(expandedTail(0.05, 10000) < 0.025 && expandedTail(0.05, 10000) > 0.0249, 'tends to alpha / 2')
})

t.test('ratio intervals: around the true ratio, and seeded', async (t) => {
  const a = new Blocks(intervals(20, 1))
  const b = new Blocks(intervals(20, 2, 1.3))
  const run = () => ratioIntervals(a, b, [50, 99], { resamples: 500, alpha: 0.05, random: seededRandom(5) })
  const [p50, p99] = run()
  t.ok(p50.lo < 1.3 && p50.hi > 1.3 && p50.lo > 1, `p50 ratio in [${p50.lo.toFixed(3)}, ${p50.hi.toFixed(3)}]`)
  t.ok(p99.lo < p99.hi)
  t.same(run(), [p50, p99], 'the same seed, the same intervals')
})

t.test('blocksAbove: how many intervals the tail comes from', async (t) => {
  const quiet = () => {
    const h = createLatencyHistogram()
    for (let k = 0; k < 1000; k++) h.recordValue(1000 + k % 10)
    return h
  }
  const stalled = quiet()
  for (let k = 0; k < 50; k++) stalled.recordValue(90000)
  const one = new Blocks([quiet(), stalled, quiet(), quiet()])
  t.equal(one.blocksAbove(99), 1, 'one stall holds the slowest 1%')
  t.equal(one.blocksAbove(50), 4, 'every interval has responses above the median')
})
