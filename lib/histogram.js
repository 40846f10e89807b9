'use strict'

// HdrHistogram construction, encoding and conversion to autocannon's stats
// objects. Latency is recorded in integer microseconds and reported in
// milliseconds; request and byte counts are recorded as they are.

const { percentiles } = require('hdr-histogram-percentiles-obj')

// The pure-JS histogram classes, required directly: the package's index
// also loads WebAssembly, log readers and compression, which a plain run
// never needs (about 20 ms of start-up). Encoding is loaded on first use.
const Int32Histogram = require('hdr-histogram-js/dist/Int32Histogram').default
const Float64Histogram = require('hdr-histogram-js/dist/Float64Histogram').default

const HOUR_US = 3600 * 1e6

function build (Constructor, highest) {
  const histogram = new Constructor(1, highest, 3)
  histogram.autoResize = true
  return histogram
}

// One recordValue per response puts the bucket lookup on the hot path. The
// library finds a value's bucket with Math.log2, Math.floor and Math.pow on
// doubles; for the integer microseconds we record, clz32 and shifts give
// the same index in a fraction of the time. Anything else takes the
// library's own path.
class LatencyHistogram extends Int32Histogram {
  countsArrayIndex (value) {
    if ((value | 0) !== value || value < 0 || this.unitMagnitude !== 0) return super.countsArrayIndex(value)
    const magnitude = this.subBucketHalfCountMagnitude
    const bucketIndex = Math.max(31 - Math.clz32(value) - magnitude, 0)
    return ((bucketIndex + 1) << magnitude) + (value >>> bucketIndex) - this.subBucketHalfCount
  }
}

function createLatencyHistogram () {
  return build(LatencyHistogram, HOUR_US)
}

function createCountHistogram () {
  // Bytes per sample can exceed 2^31 on fast links: 64-bit buckets.
  return build(Float64Histogram, 1e12)
}

function encode (histogram) {
  return require('hdr-histogram-js/dist/encoding').encodeIntoCompressedBase64(histogram)
}

// Accepts a histogram as it is (same thread) or encoded (from a worker,
// a file, another machine). Latency histograms use 32-bit buckets.
function decode (value, bitBucketSize = 32) {
  if (typeof value !== 'string') return value
  return require('hdr-histogram-js/dist/encoding').decodeFromCompressedBase64(value, bitBucketSize, false)
}

const PERCENTILE_KEYS = percentiles.map((p) => [p, ('p' + p).replace('.', '_')])

function round (value, decimals) {
  const f = 10 ** decimals
  return Math.round(value * f) / f
}

// Every statistic of a histogram from one pass over its buckets. The
// library's getters walk the whole counts array once per percentile and
// three times for mean and stddev, through an iterator object per step: for
// a latency histogram (tens of thousands of buckets) that was ~25 ms at the
// end of every run. Formulas are the library's, so the numbers are equal.
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

// The buckets that hold counts, in value order: { indexes, counts }. Only
// the buckets between min and max can hold counts: a few hundred of a
// latency histogram's tens of thousands. Should min or max ever be stale,
// the counts won't add up and every bucket is walked.
function filledBuckets (histogram) {
  const found = nonEmptyBuckets(histogram, recordedRange(histogram))
  if (sumOf(found.counts) === histogram.totalCount) return found
  return nonEmptyBuckets(histogram, [0, histogram.countsArrayLength - 1])
}

function recordedRange (histogram) {
  const last = histogram.countsArrayLength - 1
  const clamp = (i) => Math.min(Math.max(i, 0), last)
  const from = histogram.getCountAtIndex(0) !== 0 || histogram.minNonZeroValue > histogram.maxValue
    ? 0
    : clamp(histogram.countsArrayIndex(histogram.minNonZeroValue))
  return [from, clamp(histogram.countsArrayIndex(histogram.maxValue))]
}

function nonEmptyBuckets (histogram, [from, to]) {
  const indexes = []
  const counts = []
  for (let i = from; i <= to; i++) {
    const c = histogram.getCountAtIndex(i)
    if (c !== 0) {
      indexes.push(i)
      counts.push(c)
    }
  }
  return { indexes, counts }
}

function sumOf (values) {
  let sum = 0
  for (let i = 0; i < values.length; i++) sum += values[i]
  return sum
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

// The same statistics through the library's own getters: the reference
// the tests hold summarize() to.
function toStatsReference (histogram, { scale = 1, decimals = 2, bucketEdges = false } = {}) {
  const empty = histogram.totalCount === 0
  const mean = empty ? 0 : round(histogram.mean / scale, decimals)
  const stats = {
    average: mean,
    mean,
    stddev: empty ? 0 : round(histogram.stdDeviation / scale, decimals),
    min: empty ? 0 : round(minOf(histogram, bucketEdges) / scale, decimals),
    max: empty ? 0 : round(maxOf(histogram, bucketEdges) / scale, decimals)
  }
  if (!empty && histogram.getValueAtPercentile(0) === 0) stats.min = 0
  for (const [p, key] of PERCENTILE_KEYS) {
    stats[key] = empty ? 0 : round(histogram.getValueAtPercentile(p) / scale, decimals)
  }
  return stats
}

module.exports = {
  createLatencyHistogram,
  createCountHistogram,
  encode,
  decode,
  toStats,
  toStatsReference,
  filledBuckets,
  PERCENTILE_KEYS
}
