'use strict'

// A histogram's statistics, as autocannon's result reports them: mean,
// stddev, min, max and percentiles (toStats), the sum of its values
// (valueSum), the count above a bound (countAbove).

const { percentiles } = require('hdr-histogram-percentiles-obj')
const { round } = require('../../core/format')
const { filledBuckets } = require('./buckets')

const PERCENTILE_KEYS = percentiles.map((p) => [p, ('p' + p).replace('.', '_')])

// Every statistic of a histogram from one pass over its buckets. The
// library's getters walk the whole counts array once per percentile and
// three times for mean and stddev, through an iterator object per step,
// which for a latency histogram (tens of thousands of buckets) would be
// most of what the end of a run costs. Formulas are the library's, so the
// numbers are equal.
function summarize (histogram) {
  const total = histogram.totalCount
  const { indexes, counts } = filledBuckets(histogram)
  const medians = indexes.map((i) => histogram.medianEquivalentValue(histogram.valueFromIndex(i)))
  let sum = 0
  for (let k = 0; k < medians.length; k++) sum += medians[k] * counts[k]
  const mean = sum / total
  let deviations = 0
  for (let k = 0; k < medians.length; k++) deviations += (medians[k] - mean) ** 2 * counts[k]

  const atPercentile = new Map()
  let k = 0
  let cumulative = counts[0]
  for (const [p] of PERCENTILE_KEYS) {
    // As JsHistogram.getValueAtPercentile: the count to reach, rounded up
    // with care for one-ulp errors, and the highest value of that bucket.
    const fp = (p / 100) * total
    const target = Math.max(Math.ceil(fp - ulp(fp)), 1)
    while (cumulative < target && k < counts.length - 1) cumulative += counts[++k]
    atPercentile.set(p, histogram.highestEquivalentValue(histogram.valueFromIndex(indexes[k])))
  }
  return {
    mean,
    stddev: Math.sqrt(deviations / total),
    lowest: histogram.lowestEquivalentValue(histogram.valueFromIndex(indexes[0])),
    atPercentile
  }
}

function ulp (x) {
  return Math.pow(2, Math.floor(Math.log2(x)) - 52)
}

// `scale` divides every recorded value (1000 turns microseconds into ms).
// `bucketEdges` reports min and max as the lowest and highest values of
// their buckets (as HdrHistogram's Java getters do), which is all an
// encoded histogram keeps of them.
function toStats (histogram, { scale = 1, decimals = 2, bucketEdges = false } = {}) {
  if (histogram.totalCount === 0) {
    const stats = { average: 0, mean: 0, stddev: 0, min: 0, max: 0 }
    for (const [, key] of PERCENTILE_KEYS) stats[key] = 0
    return stats
  }
  const { mean, stddev, lowest, atPercentile } = summarize(histogram)
  const average = round(mean / scale, decimals)
  const stats = {
    average,
    mean: average,
    stddev: round(stddev / scale, decimals),
    // minNonZeroValue skips zero-valued samples (a second with no responses).
    min: lowest === 0 ? 0 : round(minOf(histogram, bucketEdges) / scale, decimals),
    max: round(maxOf(histogram, bucketEdges) / scale, decimals)
  }
  for (const [p, key] of PERCENTILE_KEYS) stats[key] = round(atPercentile.get(p) / scale, decimals)
  return stats
}

function minOf (histogram, bucketEdges) {
  const min = histogram.minNonZeroValue
  return bucketEdges ? histogram.lowestEquivalentValue(min) : min
}

function maxOf (histogram, bucketEdges) {
  const max = histogram.maxValue
  return bucketEdges ? histogram.highestEquivalentValue(max) : max
}

// The sum of the values recorded (each as its bucket's middle, as the
// mean is taken), from the buckets between min and max: what a sample
// keeps of an interval's phase times, so that intervals of several
// threads or machines add up to their mean.
function valueSum (histogram) {
  if (histogram.totalCount === 0) return 0
  const { indexes, counts } = filledBuckets(histogram)
  let sum = 0
  for (let k = 0; k < indexes.length; k++) sum += histogram.medianEquivalentValue(histogram.valueFromIndex(indexes[k])) * counts[k]
  return sum
}

// Recorded latencies (µs) strictly above a bound in ms. The bucket holding
// the bound itself is not counted: a fail needs evidence beyond it.
function countAbove (histogram, limitMs) {
  if (!histogram || histogram.totalCount === 0) return 0
  const last = histogram.countsArrayLength - 1
  const from = Math.max(histogram.countsArrayIndex(Math.round(limitMs * 1000)) + 1, 0)
  const to = Math.min(histogram.countsArrayIndex(histogram.maxValue), last)
  let count = 0
  for (let i = from; i <= to; i++) count += histogram.getCountAtIndex(i)
  return count
}

module.exports = { PERCENTILE_KEYS, toStats, valueSum, countAbove }
