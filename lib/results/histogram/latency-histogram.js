'use strict'

// The histogram every latency goes into: hdr-histogram-js's Int32Histogram
// with a faster way to the bucket of an integer microsecond.

// The pure-JS histogram class, required directly: the package's index
// also loads WebAssembly, log readers and compression, which a plain run
// never needs.
const Int32Histogram = require('hdr-histogram-js/dist/Int32Histogram').default

// One recordValue per response puts the bucket lookup on the hot path. The
// library finds a value's bucket with Math.log2, Math.floor and Math.pow on
// doubles; for the integer microseconds we record, clz32 and shifts give
// the same index in a fraction of the time. Anything else takes the
// library's own path.
class LatencyHistogram extends Int32Histogram {
  countsArrayIndex (value) {
    if ((value | 0) !== value || value < 0 || this.unitMagnitude !== 0) return super.countsArrayIndex(value)
    const magnitude = this.subBucketHalfCountMagnitude
    const bucketIndex = Math.max(31 - Math.clz32(value) - magnitude, 0)
    return ((bucketIndex + 1) << magnitude) + (value >>> bucketIndex) - this.subBucketHalfCount
  }

  // The library's recordSingleValue, in one small function for the values
  // a run records (integer µs within range, unit magnitude 0, where the
  // library's min and max updates store the value itself): V8 inlines it
  // where a response is counted, which it does not do with the library's
  // chain of five calls. Anything else (a resize, a fraction) goes the
  // library's way.
  //
  // The count goes straight into the library's counts array, `_counts`,
  // which it does not document: its public incrementCountAtIndex checks
  // every new count for an overflow, a cost on every response that
  // bench/histogram-micro.js measures beside this way. (Min and max are
  // public fields, set as the library's updateMinAndMax sets them for
  // this layout, without its calls.) So package.json pins the library's
  // exact version, and test/results/histogram/hdr-histogram-js.test.js
  // fails when a version changes what this relies on.
  recordValue (value) {
    if ((value | 0) !== value || value < 0 || this.unitMagnitude !== 0) return super.recordValue(value)
    const magnitude = this.subBucketHalfCountMagnitude
    const bucketIndex = Math.max(31 - Math.clz32(value) - magnitude, 0)
    const index = ((bucketIndex + 1) << magnitude) + (value >>> bucketIndex) - this.subBucketHalfCount
    if (index >= this.countsArrayLength) return super.recordValue(value)
    this._counts[index]++
    if (value > this.maxValue) this.maxValue = value
    if (value < this.minNonZeroValue && value !== 0) this.minNonZeroValue = value
    this.incrementTotalCount()
  }
}

module.exports = { LatencyHistogram }
