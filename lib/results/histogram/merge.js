'use strict'

// Histograms added and subtracted bucket by bucket: the library's add()
// and subtract() walk every bucket of the other histogram, where only
// those between its min and max hold counts.

const { recordedRange } = require('./buckets')

// target.add(source), with the same counts, total, min, max and time
// stamps, walking only the buckets between the source's min and max when
// the two share a layout: the library walks all of a latency histogram's
// buckets, tens of thousands, which costs the most at the end of a short
// run, when nothing is compiled yet. The recorder adds each interval into
// the run this way once a second, on the sending thread.
function addHistogram (target, source) {
  const highest = target.highestEquivalentValue(target.valueFromIndex(target.countsArrayLength - 1))
  if (highest < source.maxValue || target.bucketCount !== source.bucketCount ||
    target.subBucketCount !== source.subBucketCount || target.unitMagnitude !== source.unitMagnitude) {
    target.add(source)
    return
  }
  const [first, last] = recordedRange(source)
  let added = addCounts(target, source, first, last, 1)
  // A stale min or max: the buckets outside them too.
  if (added !== source.totalCount) added += addCounts(target, source, 0, first - 1, 1) + addCounts(target, source, last + 1, source.countsArrayLength - 1, 1)
  target.setTotalCount(target.totalCount + added)
  target.updateMinAndMax(source.maxValue)
  // A source with nothing above 0 has no minimum to give.
  if (source.minNonZeroValue <= source.maxValue) target.updateMinAndMax(source.minNonZeroValue)
  target.startTimeStampMsec = Math.min(target.startTimeStampMsec, source.startTimeStampMsec)
  target.endTimeStampMsec = Math.max(target.endTimeStampMsec, source.endTimeStampMsec)
}

// target − source, bucket by bucket, where target holds every value
// source does (the recorder takes one interval's latencies of some
// responses from those of all): the counts between source's min and max,
// then target's min and max found again from its buckets (at their
// buckets' edges, as an encoded histogram keeps them).
function subtractHistogram (target, source) {
  if (source.totalCount === 0) return
  const [first, last] = recordedRange(source)
  const removed = addCounts(target, source, first, last, -1)
  target.setTotalCount(target.totalCount - removed)
  // The filled buckets nearest the old bounds, each side: most often the
  // bounds' own.
  const [low, high] = recordedRange(target)
  const hi = lastFilled(target, low, high)
  if (hi === -1) {
    target.maxValue = 0
    target.minNonZeroValue = Number.MAX_SAFE_INTEGER
    return
  }
  const lowest = firstFilled(target, Math.max(low, 1), hi)
  target.maxValue = target.highestEquivalentValue(target.valueFromIndex(hi))
  target.minNonZeroValue = lowest === -1 ? Number.MAX_SAFE_INTEGER : target.lowestEquivalentValue(target.valueFromIndex(lowest))
}

function firstFilled (histogram, from, to) {
  for (let i = from; i <= to; i++) if (histogram.getCountAtIndex(i) !== 0) return i
  return -1
}

function lastFilled (histogram, from, to) {
  for (let i = to; i >= from; i--) if (histogram.getCountAtIndex(i) !== 0) return i
  return -1
}

// Adds (sign 1) or subtracts (-1) source's buckets first..last to or
// from target's; returns the sum of the counts. They are read through
// getCountAtIndex, which V8 inlines here, and written straight into the
// target's counts array, `_counts`: the library's addToCountAtIndex checks
// every sum for an overflow, which costs more than the rest of the loop
// (bench/histogram-micro.js measures both ways). The array, which the
// library does not document, is what lib/results/histogram/
// latency-histogram.js relies on too, with the same pin and test. A
// target without one goes the public way.
function addCounts (target, source, first, last, sign) {
  const into = target._counts
  let sum = 0
  if (!ArrayBuffer.isView(into)) {
    for (let i = first; i <= last; i++) {
      const c = source.getCountAtIndex(i)
      if (c !== 0) {
        target.addToCountAtIndex(i, sign * c)
        sum += c
      }
    }
    return sum
  }
  for (let i = first; i <= last; i++) {
    const c = source.getCountAtIndex(i)
    if (c !== 0) {
      into[i] += sign * c
      sum += c
    }
  }
  return sum
}

module.exports = { addHistogram, subtractHistogram }
