'use strict'

// Which buckets of a histogram hold counts. Only those between its min
// and max can: a few hundred of a latency histogram's tens of thousands,
// so the passes of the stats and the merges start and end there.

// The buckets that hold counts, in value order: { indexes, counts }.
// Should min or max ever be stale, the counts won't add up and every
// bucket is walked.
function filledBuckets (histogram) {
  const found = nonEmptyBuckets(histogram, recordedRange(histogram))
  if (sumOf(found.counts) === histogram.totalCount) return found
  return nonEmptyBuckets(histogram, [0, histogram.countsArrayLength - 1])
}

// [first, last]: the indexes of the buckets of min (of bucket 0 when it
// holds counts, or when nothing above 0 is recorded) and of max.
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

module.exports = { filledBuckets, recordedRange }
