'use strict'

// The statistics of a histogram through hdr-histogram-js's own getters: the
// reference that lib/results/histogram/stats.js's toStats, which walks the
// buckets once, is held to.

const { round } = require('../../lib/core/format')
const { PERCENTILE_KEYS } = require('../../lib/results/histogram')

function toStatsReference (histogram, { scale = 1, decimals = 2, bucketEdges = false } = {}) {
  const empty = histogram.totalCount === 0
  const mean = empty ? 0 : round(histogram.mean / scale, decimals)
  const stats = {
    average: mean,
    mean,
    stddev: empty ? 0 : round(histogram.stdDeviation / scale, decimals),
    // min and max at their buckets' edges when asked, as HdrHistogram's Java getters report them.
    min: empty ? 0 : round((bucketEdges ? histogram.lowestEquivalentValue(histogram.minNonZeroValue) : histogram.minNonZeroValue) / scale, decimals),
    max: empty ? 0 : round((bucketEdges ? histogram.highestEquivalentValue(histogram.maxValue) : histogram.maxValue) / scale, decimals)
  }
  if (!empty && histogram.getValueAtPercentile(0) === 0) stats.min = 0
  for (const [p, key] of PERCENTILE_KEYS) {
    stats[key] = empty ? 0 : round(histogram.getValueAtPercentile(p) / scale, decimals)
  }
  return stats
}

module.exports = { toStatsReference }
