'use strict'

// The stats of a result taken as autocannon's aggregateResult takes them,
// from histograms in its units, with its library (hdr-histogram-percentiles-
// obj): a mean and stddev rounded up to hundredths, min and max as
// recorded, its percentiles. For raw results that are all autocannon's
// (latency in ms), and for its third argument's requests and throughput.

const { histAsObj, addPercentiles } = require('hdr-histogram-percentiles-obj')
const { decodeMs, msHistogram } = require('./upstream-raw')

// An empty histogram's min is its initial MAX_SAFE_INTEGER: 0, as autocannon shows it.
function statsOf (histogram, total) {
  const stats = addPercentiles(histogram, histAsObj(histogram, total))
  if (stats.min >= Number.MAX_SAFE_INTEGER) stats.min = 0
  return stats
}

// Our key order: the stats, then what counts them.
function ordered (stats, counts) {
  const { total, ...rest } = stats
  return { ...rest, ...counts }
}

// Every raw result is autocannon's: latency from their ms histograms, and
// samples as they counted them.
function asUpstream (result, raws) {
  const merged = msHistogram()
  let samples = 0
  for (const raw of raws) {
    const h = decodeMs(raw.latencies)
    if (h) merged.add(h)
    samples += raw.samples || 0
  }
  const latency = statsOf(merged)
  latency.totalCount = merged.totalCount
  result.latency = latency
  result.samples = samples
}

// autocannon's third argument: the per-sample requests and throughput.
// One it lacks is an empty histogram, as autocannon's getHistograms gives.
function countsFrom (result, histograms) {
  const empty = () => msHistogram()
  const requests = statsOf(histograms.requests || empty(), result.requests.total)
  result.requests = ordered(requests, { total: result.requests.total, sent: result.requests.sent, inFlight: result.requests.inFlight })
  const throughput = statsOf(histograms.throughput || empty(), result.throughput.total)
  result.throughput = ordered(throughput, { total: result.throughput.total })
}

module.exports = { asUpstream, countsFrom }
