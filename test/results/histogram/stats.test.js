'use strict'

// toStats() walks the buckets once, between min and max: the same figures
// as the library's own getters (test/helpers/stats-reference.js), whatever
// the histogram went through. valueSum() and countAbove() read the same
// buckets.

const t = require('tap')
const { toStatsReference } = require('../../helpers/stats-reference')
const { createLatencyHistogram, createCountHistogram } = require('../../../lib/results/histogram/create')
const { encode, decode } = require('../../../lib/results/histogram/v2-encoding')
const { toStats, valueSum } = require('../../../lib/results/histogram/stats')

t.test('toStats equals the library\'s own getters, for latency and count histograms', async (t) => {
  let seed = 7
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    return seed / 2 ** 31
  }
  const shapes = {
    single: () => 250,
    uniform: () => Math.floor(rand() * 5000),
    longTail: () => Math.floor(Math.exp(rand() * 20)),
    withZeros: () => (rand() < 0.2 ? 0 : Math.floor(rand() * 100000))
  }
  for (const [name, draw] of Object.entries(shapes)) {
    for (const n of [1, 2, 7, 1000, 20000]) {
      const latency = createLatencyHistogram()
      const count = createCountHistogram()
      for (let i = 0; i < n; i++) {
        const v = draw()
        latency.recordValue(v)
        count.recordValue(v * 3)
      }
      t.same(toStats(latency, { scale: 1000, decimals: 3 }), toStatsReference(latency, { scale: 1000, decimals: 3 }), `${name} × ${n}: latency`)
      t.same(toStats(count), toStatsReference(count), `${name} × ${n}: counts`)
    }
  }
  const empty = createLatencyHistogram()
  t.same(toStats(empty), toStatsReference(empty), 'empty')
})

t.test('toStats reads only the buckets between min and max, and still agrees after merges, decoding and stale bounds', async (t) => {
  const a = createLatencyHistogram()
  const b = createLatencyHistogram()
  for (let v = 100; v < 3000; v += 7) a.recordValue(v)
  for (let v = 40000; v < 90000; v += 501) b.recordValue(v)
  const merged = createLatencyHistogram()
  merged.add(a)
  merged.add(b)
  const opts = { scale: 1000, decimals: 3 }
  t.same(toStats(merged, opts), toStatsReference(merged, opts), 'merged')
  const decoded = decode(encode(merged))
  t.same(toStats(decoded, opts), toStatsReference(decoded, opts), 'decoded')

  const zeros = createCountHistogram()
  for (let i = 0; i < 5; i++) zeros.recordValue(0)
  t.same(toStats(zeros), toStatsReference(zeros), 'only zeros')
  t.equal(toStats(zeros).max, 0)

  const calls = []
  const counted = createLatencyHistogram()
  for (const v of [250, 260, 900]) counted.recordValue(v)
  const getCountAtIndex = counted.getCountAtIndex.bind(counted)
  counted.getCountAtIndex = (i) => { calls.push(i); return getCountAtIndex(i) }
  toStats(counted)
  t.ok(calls.length < 2000, `walked ${calls.length} of ${counted.countsArrayLength} buckets`)

  const stale = createLatencyHistogram()
  for (const v of [10, 500, 70000]) stale.recordValue(v)
  const expected = toStatsReference(stale)
  stale.maxValue = 600 // as if a path forgot to update it
  t.same(toStats(stale).p99, expected.p99, 'a stale max falls back to walking every bucket')
})

t.test('valueSum() adds the values up', async (t) => {
  const rest = createLatencyHistogram()
  for (const v of [0, 1500, 5000, 9000]) rest.recordValue(v)
  t.equal(valueSum(rest), 0 + 1500 + 5000 + 9000 + (rest.medianEquivalentValue(9000) - 9000) + (rest.medianEquivalentValue(5000) - 5000), 'each value as its bucket\'s middle')
  t.equal(valueSum(createLatencyHistogram()), 0)
})

t.test('countAbove() counts what lies beyond the bound\'s bucket', async (t) => {
  const { countAbove } = require('../../../lib/results/histogram/stats')
  const h = createLatencyHistogram()
  for (const v of [500, 1000, 1001, 2500, 90000]) h.recordValue(v)
  t.equal(countAbove(h, 1), 3, 'above 1 ms: 1001 µs, 2.5 ms and 90 ms (1000 µs is the bound\'s own bucket)')
  t.equal(countAbove(h, 2), 2)
  t.equal(countAbove(h, 90), 0, 'the bucket holding the bound is not counted')
  t.equal(countAbove(h, 0.2), 5)
  t.equal(countAbove(createLatencyHistogram(), 1), 0, 'an empty histogram')
  t.equal(countAbove(null, 1), 0, 'no histogram')
})
