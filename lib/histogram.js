'use strict'

// HdrHistogram construction, encoding and conversion to autocannon's stats
// objects. Latency is recorded in integer microseconds and reported in
// milliseconds; request and byte counts are recorded as they are.

const hdr = require('hdr-histogram-js')
const { percentiles } = require('hdr-histogram-percentiles-obj')

// The pure-JS implementation: no WebAssembly start-up cost, and the
// histogram can be encoded and shipped between threads all the same.
const BASE = { bitBucketSize: 32, useWebAssembly: false, autoResize: true, lowestDiscernibleValue: 1 }
const HOUR_US = 3600 * 1e6

function createLatencyHistogram () {
  return hdr.build({ ...BASE, highestTrackableValue: HOUR_US, numberOfSignificantValueDigits: 3 })
}

function createCountHistogram () {
  // Counts per sample can exceed 2^31 bytes per second on fast links.
  return hdr.build({ ...BASE, bitBucketSize: 64, highestTrackableValue: 1e12, numberOfSignificantValueDigits: 3 })
}

function encode (histogram) {
  return hdr.encodeIntoCompressedBase64(histogram)
}

// Latency histograms use 32-bit buckets, count histograms 64-bit ones.
function decode (base64, bitBucketSize = 32) {
  return hdr.decodeFromCompressedBase64(base64, bitBucketSize, false)
}

const PERCENTILE_KEYS = percentiles.map((p) => [p, ('p' + p).replace('.', '_')])

function round (value, decimals) {
  const f = 10 ** decimals
  return Math.round(value * f) / f
}

// `scale` divides every recorded value (1000 turns microseconds into ms).
function toStats (histogram, { scale = 1, decimals = 2 } = {}) {
  const empty = histogram.totalCount === 0
  const mean = empty ? 0 : round(histogram.mean / scale, decimals)
  const stats = {
    average: mean,
    mean,
    stddev: empty ? 0 : round(histogram.stdDeviation / scale, decimals),
    min: empty ? 0 : round(histogram.minNonZeroValue / scale, decimals),
    max: empty ? 0 : round(histogram.maxValue / scale, decimals)
  }
  // minNonZeroValue skips zero-valued samples (a second with no responses).
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
  PERCENTILE_KEYS
}
