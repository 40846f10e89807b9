'use strict'

// The two kinds of histogram a run records into: their layout, and that
// they grow past the range they are built for.

const t = require('tap')
const { createLatencyHistogram, createCountHistogram } = require('../../../lib/results/histogram/create')
const { LatencyHistogram } = require('../../../lib/results/histogram/latency-histogram')
const Float64Histogram = require('hdr-histogram-js/dist/Float64Histogram').default

t.test('a latency histogram: integer µs from 1 to an hour, three digits, 32-bit buckets', async (t) => {
  const h = createLatencyHistogram()
  t.ok(h instanceof LatencyHistogram, 'the fast recordValue')
  t.same([h.lowestDiscernibleValue, h.highestTrackableValue, h.numberOfSignificantValueDigits], [1, 3600 * 1e6, 3])
  t.equal(h.unitMagnitude, 0, 'one µs per bucket at the bottom: the fast path\'s condition')
  t.equal(h.getCountAtIndex(0), 0)
  t.not(createLatencyHistogram(), h, 'a new histogram each time')
  h.recordValue(5 * 3600 * 1e6)
  t.equal(h.totalCount, 1, 'grows to record a value beyond the hour')
  t.ok(h.highestTrackableValue >= 5 * 3600 * 1e6)
})

t.test('a count histogram: 64-bit buckets up to 10^12', async (t) => {
  const h = createCountHistogram()
  t.ok(h instanceof Float64Histogram)
  t.same([h.lowestDiscernibleValue, h.highestTrackableValue, h.numberOfSignificantValueDigits], [1, 1e12, 3])
  h.recordValueWithCount(777, 2 ** 40)
  t.equal(h.getCountAtValue(777), 2 ** 40, 'a count past 2^32 in one bucket')
  h.recordValue(5e12)
  t.equal(h.totalCount, 2 ** 40 + 1, 'grows to record a value beyond its range')
})
