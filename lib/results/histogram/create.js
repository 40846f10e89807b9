'use strict'

// The two kinds of histogram a run records into: latencies in integer
// microseconds, and counts (requests, bytes) per sample.

const Float64Histogram = require('hdr-histogram-js/dist/Float64Histogram').default
const { LatencyHistogram } = require('./latency-histogram')

const HOUR_US = 3600 * 1e6

// Three significant digits, from 1 to `highest`, growing when a value is
// beyond it.
function build (Constructor, highest) {
  const histogram = new Constructor(1, highest, 3)
  histogram.autoResize = true
  return histogram
}

function createLatencyHistogram () {
  return build(LatencyHistogram, HOUR_US)
}

function createCountHistogram () {
  // Bytes per sample can exceed 2^31 on fast links: 64-bit buckets.
  return build(Float64Histogram, 1e12)
}

module.exports = { createLatencyHistogram, createCountHistogram }
