'use strict'

// A histogram's percentile distribution as HdrHistogram's
// outputPercentileDistribution lists it: steps that halve their distance
// to 100% every `ticksPerHalfDistance` lines, so the tail (99.9%, 99.99%…)
// gets as many points as the body. Plotted against 1/(1−p) on a log axis,
// each "nine" takes the same width.

const { decode } = require('../../results/histogram')

// [{ percentile (0–100), value, count, x = 1/(1−p) }], values divided by
// `scale` (1000: recorded µs → ms). The 100% line is left out, as
// HdrHistogram's plotters leave it: its 1/(1−p) is infinite, and the
// iterator has already listed the maximum value on a line before it.
function percentileDistribution (histogram, { ticksPerHalfDistance = 5, scale = 1 } = {}) {
  const h = decode(histogram)
  const points = []
  if (!h || h.totalCount === 0) return points
  const iterator = h.percentileIterator
  iterator.reset(ticksPerHalfDistance)
  while (iterator.hasNext()) {
    // The iterator hands back one mutable object: copy what is needed.
    const step = iterator.next()
    const percentile = step.percentileLevelIteratedTo
    if (percentile >= 100) continue
    points.push({
      percentile,
      value: step.valueIteratedTo / scale,
      count: step.totalCountToThisValue,
      x: 1 / (1 - percentile / 100)
    })
  }
  return points
}

module.exports = { percentileDistribution }
