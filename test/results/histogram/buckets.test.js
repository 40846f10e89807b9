'use strict'

// filledBuckets() finds the buckets that hold counts from those between
// min and max, and every bucket when min or max is stale.

const t = require('tap')
const { createLatencyHistogram, createCountHistogram } = require('../../../lib/results/histogram/create')
const { filledBuckets, recordedRange } = require('../../../lib/results/histogram/buckets')

t.test('the buckets that hold counts, in value order, with their counts', async (t) => {
  const h = createLatencyHistogram()
  for (const v of [900, 12, 12, 70000, 0]) h.recordValue(v)
  const { indexes, counts } = filledBuckets(h)
  t.same(indexes, [0, 12, 900, 70000].map((v) => h.countsArrayIndex(v)))
  t.same(counts, [1, 2, 1, 1])
  t.same(filledBuckets(createLatencyHistogram()), { indexes: [], counts: [] }, 'none in an empty histogram')
  const zeros = createCountHistogram()
  zeros.recordValueWithCount(0, 3)
  t.same(filledBuckets(zeros), { indexes: [0], counts: [3] }, 'only bucket 0')
})

t.test('recordedRange(): from min\'s bucket (or bucket 0) to max\'s', async (t) => {
  const h = createLatencyHistogram()
  for (const v of [250, 260, 900]) h.recordValue(v)
  t.same(recordedRange(h), [h.countsArrayIndex(250), h.countsArrayIndex(900)])
  h.recordValue(0)
  t.same(recordedRange(h), [0, h.countsArrayIndex(900)], 'bucket 0 holds counts')
  t.same(recordedRange(createLatencyHistogram()), [0, 0], 'nothing recorded')
  const beyond = createLatencyHistogram()
  beyond.maxValue = 2 ** 52 // past the last bucket
  t.same(recordedRange(beyond), [0, beyond.countsArrayLength - 1], 'clamped to the buckets there are')
})

t.test('a stale min or max: every bucket is walked', async (t) => {
  const h = createLatencyHistogram()
  for (const v of [10, 500, 70000]) h.recordValue(v)
  h.maxValue = 600
  h.minNonZeroValue = 400
  t.same(filledBuckets(h).counts, [1, 1, 1], 'the three buckets all the same')
  t.same(filledBuckets(h).indexes, [10, 500, 70000].map((v) => h.countsArrayIndex(v)))
})
