'use strict'

// Raw results in autocannon's form beside ours. autocannon's raw result
// (what its skipAggregateResult gives, and what scripts build with its
// lib/histUtil for its lib/aggregateResult) carries three HdrHistograms in
// compressed base64: `latencies` in whole milliseconds, and `requests` and
// `throughput`, a value per sample. Ours records latency in microseconds:
// the raw result a user is given carries autocannon's three under its
// names, and ours as `latenciesUs`, which aggregateResult merges from
// (lossless); a raw result without it, without a series and with
// latencies in autocannon's layout is autocannon's, read as milliseconds.

const Float64Histogram = require('hdr-histogram-js/dist/Float64Histogram').default
const { createLatencyHistogram, createCountHistogram, decode, encode, filledBuckets } = require('./histogram')

// autocannon's latency histogram's layout (its lib/histUtil.js).
const MS_LOWEST = 1
const MS_HIGHEST = 10000
const MS_DIGITS = 5

function msHistogram () {
  const histogram = new Float64Histogram(MS_LOWEST, MS_HIGHEST, MS_DIGITS)
  histogram.autoResize = true
  return histogram
}

// Every bucket's count at `map(the bucket's lowest value)` in `target`.
function copyBuckets (source, target, map) {
  const { indexes, counts } = filledBuckets(source)
  for (let k = 0; k < indexes.length; k++) target.recordValueWithCount(map(source.valueFromIndex(indexes[k])), counts[k])
  return target
}

// µs → whole ms, cut as autocannon's histogram cuts its fractional ms.
function toMs (latenciesUs) {
  return copyBuckets(decode(latenciesUs), msHistogram(), (us) => Math.floor(us / 1000))
}

function countsOf (series, column) {
  const histogram = createCountHistogram()
  for (const entry of series || []) histogram.recordValue(entry[column])
  return histogram
}

// Our raw result (a run's snapshot, histograms encoded) as the user is
// given it: autocannon's fields added.
function publicRaw (raw) {
  return {
    ...raw,
    latencies: encode(toMs(raw.latencies)),
    latenciesUs: raw.latencies,
    requests: encode(countsOf(raw.series, 1)),
    throughput: encode(countsOf(raw.series, 2))
  }
}

// autocannon's encoded (or decoded) latency histogram, in ms.
function decodeMs (latencies) {
  if (latencies === null || latencies === undefined || latencies === '') return null
  return typeof latencies === 'string' ? decode(latencies, 64) : latencies
}

// Our latency histograms have 3 significant digits (µs), autocannon's 5
// (ms): the layout an encoded histogram carries in its header says whose
// it is, encoded or not.
const OWN_DIGITS = createLatencyHistogram().numberOfSignificantValueDigits

function inOwnLayout (latencies) {
  const histogram = decodeMs(latencies)
  return histogram !== null && histogram.numberOfSignificantValueDigits === OWN_DIGITS
}

// A raw result of either form as our merge reads it: latencies in µs.
function ownRaw (raw) {
  if (raw === null || typeof raw !== 'object') return raw
  if (raw.latenciesUs !== undefined) return { ...raw, latencies: raw.latenciesUs }
  if (Array.isArray(raw.series) || inOwnLayout(raw.latencies)) return raw
  const ms = decodeMs(raw.latencies)
  return { ...raw, latencies: ms === null ? null : copyBuckets(ms, createLatencyHistogram(), (value) => Math.round(value * 1000)) }
}

module.exports = { publicRaw, ownRaw, inOwnLayout, decodeMs, msHistogram }
