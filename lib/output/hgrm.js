'use strict'

// The latency percentile distribution as HdrHistogram's .hgrm text, which
// HdrHistogram's own plotter, wrk2 users' scripts and hdr-plot read. The
// text is the library's: hdr-histogram-js prints the Java layout exactly,
// so there is no second copy of the format to drift from it.

const { decode } = require('../results/histogram')
const { raise } = require('../core/errors')

// Latency is recorded in microseconds; .hgrm files are read as ms.
const US_PER_MS = 1000
// HdrHistogram's default and the Java tools': 5 ticks per half distance.
const TICKS_PER_HALF_DISTANCE = 5

// `corrected: false` asks for latency measured from the actual write. Only
// a run at a fixed rate keeps it apart; in any other run (or with
// ignoreCoordinatedOmission) that is the only latency there is.
function renderHgrm (result, { corrected = true } = {}) {
  const histograms = result && result.histograms
  const encoded = histograms && (corrected ? histograms.latency : histograms.latencyUncorrected || histograms.latency)
  if (typeof encoded !== 'string') {
    throw raise('AC_NOT_A_RESULT', 'The result has no latency histogram: it was saved by an older autocannon; run it again with this one')
  }
  // A decoded histogram's max is the top of its bucket, as Java's
  // getMaxValue() reports every max: the encoding keeps counts, not values.
  return decode(encoded).outputPercentileDistribution(TICKS_PER_HALF_DISTANCE, US_PER_MS)
}

module.exports = { renderHgrm }
