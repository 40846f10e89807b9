'use strict'

// HdrHistogram construction, encoding and conversion to autocannon's stats
// objects. Latency is recorded in integer microseconds and reported in
// milliseconds; request and byte counts are recorded as they are.
//
// The one module every stage requires for histograms: the parts of
// histogram/, one concept each, gathered here, with the warm-up a run
// gives them before it sends and the phases it times.

const { createLatencyHistogram, createCountHistogram } = require('./histogram/create')
const { encode, pack, isPacked, decode, addEncoded } = require('./histogram/v2-encoding')
const { addHistogram, subtractHistogram } = require('./histogram/merge')
const { filledBuckets } = require('./histogram/buckets')
const { PERCENTILE_KEYS, toStats, valueSum, countAbove } = require('./histogram/stats')

// What a run does to its histograms once a second, on the sending thread
// (pack the interval, its percentiles, add it into the run's), done once
// per thread on small histograms before anything is sent: their first
// calls compile them, which at the first tick would delay the requests
// due then.
let warmed = false
function warmUp () {
  if (warmed) return
  warmed = true
  const run = createLatencyHistogram()
  const interval = createLatencyHistogram()
  // Small values: what runs is compiled, and each pass over the buckets
  // is a few steps.
  interval.recordValue(2)
  interval.recordValue(5)
  pack(interval)
  interval.getValueAtPercentile(99)
  addHistogram(run, interval)
  countAbove(run, 1)
}

// The phases a run times, each in a latency histogram of its own
// (lib/engine/recorder.js): per connection, then per response.
const TIMINGS = ['dns', 'connect', 'proxyConnect', 'tls', 'ttfb', 'transfer']

module.exports = {
  TIMINGS,
  warmUp,
  valueSum,
  subtractHistogram,
  countAbove,
  createLatencyHistogram,
  createCountHistogram,
  encode,
  pack,
  isPacked,
  decode,
  addEncoded,
  addHistogram,
  toStats,
  filledBuckets,
  PERCENTILE_KEYS
}
