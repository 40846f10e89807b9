'use strict'

// Histograms added and subtracted bucket by bucket: the library's add()
// and subtract() walk every bucket of the other histogram, where only
// those between its min and max hold counts.

const { filledBuckets, recordedRange } = require('./buckets')

// target.add(source), with the same counts, total, min, max and time
// stamps, walking only the buckets between the source's min and max when
// the two share a layout: the library walks all of a latency histogram's
// buckets, tens of thousands, which costs the most at the end of a short
// run, when nothing is compiled yet. The recorder adds each interval into
// the run this way once a second, on the sending thread: a plain loop over
// the two typed arrays.
function addHistogram (target, source) {
  const highest = target.highestEquivalentValue(target.valueFromIndex(target.countsArrayLength - 1))
  if (highest < source.maxValue || target.bucketCount !== source.bucketCount ||
    target.subBucketCount !== source.subBucketCount || target.unitMagnitude !== source.unitMagnitude) {
    target.add(source)
    return
  }
  const into = target._counts
  const from = source._counts
  let added = 0
  if (ArrayBuffer.isView(into) && ArrayBuffer.isView(from)) {
    const [first, last] = recordedRange(source)
    added = addCounts(into, from, first, last)
    // A stale min or max: the buckets outside them too.
    if (added !== source.totalCount) added += addCounts(into, from, 0, first - 1) + addCounts(into, from, last + 1, source.countsArrayLength - 1)
  } else {
    const { indexes, counts } = filledBuckets(source)
    for (let k = 0; k < indexes.length; k++) {
      if (counts[k] > 0) {
        target.addToCountAtIndex(indexes[k], counts[k])
        added += counts[k]
      }
    }
  }
  target.setTotalCount(target.totalCount + added)
  target.updatedMaxValue(Math.max(target.maxValue, source.maxValue))
  target.updateMinNonZeroValue(Math.min(target.minNonZeroValue, source.minNonZeroValue))
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
  const into = target._counts
  const from = source._counts
  const [first, last] = recordedRange(source)
  let removed = 0
  for (let i = first; i <= last; i++) {
    const c = from[i]
    if (c !== 0) {
      into[i] -= c
      removed += c
    }
  }
  target.setTotalCount(target.totalCount - removed)
  const [low, high] = recordedRange(target)
  let lo = -1
  let hi = -1
  for (let i = low; i <= high; i++) {
    if (into[i] === 0) continue
    if (lo === -1) lo = i
    hi = i
  }
  if (hi === -1) {
    target.maxValue = 0
    target.minNonZeroValue = Number.MAX_SAFE_INTEGER
    return
  }
  target.maxValue = target.highestEquivalentValue(target.valueFromIndex(hi))
  const lowest = lo === 0 ? (hi === 0 ? -1 : nextFilled(into, 1, hi)) : lo
  target.minNonZeroValue = lowest === -1 ? Number.MAX_SAFE_INTEGER : target.lowestEquivalentValue(target.valueFromIndex(lowest))
}

function nextFilled (counts, from, to) {
  for (let i = from; i <= to; i++) if (counts[i] !== 0) return i
  return -1
}

// Adds from[first..last] into `into`; returns the sum added.
function addCounts (into, from, first, last) {
  let added = 0
  for (let i = first; i <= last; i++) {
    const c = from[i]
    if (c !== 0) {
      into[i] += c
      added += c
    }
  }
  return added
}

module.exports = { addHistogram, subtractHistogram }
