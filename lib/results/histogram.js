'use strict'

// HdrHistogram construction, encoding and conversion to autocannon's stats
// objects. Latency is recorded in integer microseconds and reported in
// milliseconds; request and byte counts are recorded as they are.

const { percentiles } = require('hdr-histogram-percentiles-obj')
const { round } = require('../core/format')

// The pure-JS histogram classes, required directly: the package's index
// also loads WebAssembly, log readers and compression, which a plain run
// never needs (about 20 ms of start-up). Encoding is loaded on first use.
const Int32Histogram = require('hdr-histogram-js/dist/Int32Histogram').default
const Float64Histogram = require('hdr-histogram-js/dist/Float64Histogram').default

const HOUR_US = 3600 * 1e6

function build (Constructor, highest) {
  const histogram = new Constructor(1, highest, 3)
  histogram.autoResize = true
  return histogram
}

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
  // where a response is counted, which it did not do with the library's
  // chain of five calls. Anything else (a resize, a fraction) goes the
  // library's way.
  recordValue (value) {
    if ((value | 0) !== value || value < 0 || this.unitMagnitude !== 0) return super.recordValue(value)
    const magnitude = this.subBucketHalfCountMagnitude
    const bucketIndex = Math.max(31 - Math.clz32(value) - magnitude, 0)
    const index = ((bucketIndex + 1) << magnitude) + (value >>> bucketIndex) - this.subBucketHalfCount
    if (index >= this.countsArrayLength) return super.recordValue(value)
    this._counts[index]++
    if (value > this.maxValue) this.maxValue = value
    if (value < this.minNonZeroValue && value !== 0) this.minNonZeroValue = value
    this._totalCount++
  }
}

function createLatencyHistogram () {
  return build(LatencyHistogram, HOUR_US)
}

function createCountHistogram () {
  // Bytes per sample can exceed 2^31 on fast links: 64-bit buckets.
  return build(Float64Histogram, 1e12)
}

// HdrHistogram's V2 encoding (what encode() writes): a compressed
// envelope around a header and the counts, ZigZag LEB128 varints where a
// negative number is a run of empty buckets.
const V2_COMPRESSED_COOKIE = 0x1c849304
const V2_COOKIE = 0x1c849303
const HEADER_BYTES = 40

// HdrHistogram's compressed V2 encoding (compressed base64), of a
// histogram or of its packed counts (pack() below), byte for byte what
// hdr-histogram-js's encodeIntoCompressedBase64 writes: a cookie, the
// length, and zlib's deflate of the uncompressed V2 form.
function encode (value) {
  const raw = isPacked(value) ? value : pack(value)
  const deflated = require('zlib').deflateSync(raw)
  const out = Buffer.allocUnsafe(8 + deflated.length)
  out.writeInt32BE(V2_COMPRESSED_COOKIE | 0x10, 0)
  out.writeInt32BE(deflated.length, 4)
  deflated.copy(out, 8)
  return out.toString('base64')
}

function isPacked (value) {
  return value instanceof Uint8Array
}

// A histogram's counts in HdrHistogram's uncompressed V2 form (header, then
// ZigZag LEB128 counts with runs of empty buckets as negative numbers), as
// bytes of their own. This is what a run keeps of each interval and hands
// across threads mid-run: a pass over the buckets up to the maximum, tens
// of microseconds, with no compression and nothing to load, so it can run
// on the sending thread while requests are due (the library's encoder
// loaded WebAssembly and a deflater on first use, 19 ms, then took up to
// 0.6 ms a second). Compression waits for the end of the run (encode()).
let scratch = Buffer.allocUnsafe(64 * 1024)

function pack (histogram) {
  const limit = histogram.countsArrayIndex(histogram.maxValue) + 1
  // 9 bytes at most per count, for a histogram whose buckets all differ.
  const need = HEADER_BYTES + limit * 9
  if (scratch.length < need) scratch = Buffer.allocUnsafe(need)
  const buf = scratch
  let pos = HEADER_BYTES
  let i = 0
  while (i < limit) {
    const count = histogram.getCountAtIndex(i++)
    let value
    if (count !== 0) {
      value = count * 2
    } else {
      let zeros = 1
      while (i < limit && histogram.getCountAtIndex(i) === 0) {
        zeros++
        i++
      }
      // One empty bucket is written as a count of 0, a run as -run.
      value = zeros > 1 ? zeros * 2 - 1 : 0
    }
    // LEB128-64b9B: 7 bits a byte, the ninth byte whole.
    for (let n = 1; value >= 128 && n < 9; n++) {
      buf[pos++] = (value % 128) | 0x80
      value = Math.floor(value / 128)
    }
    buf[pos++] = value
  }
  buf.writeInt32BE(V2_COOKIE | 0x10, 0)
  buf.writeInt32BE(pos - HEADER_BYTES, 4)
  // The library's header, field for field (its normalizing offset and
  // conversion ratio are written as integers 1).
  buf.writeInt32BE(1, 8)
  buf.writeInt32BE(histogram.numberOfSignificantValueDigits, 12)
  buf.writeBigInt64BE(BigInt(histogram.lowestDiscernibleValue), 16)
  buf.writeBigInt64BE(BigInt(histogram.highestTrackableValue), 24)
  buf.writeBigInt64BE(1n, 32)
  return Buffer.from(buf.subarray(0, pos))
}

// Accepts a histogram as it is (same thread), packed, or encoded (from a
// worker, a file, another machine). Latency histograms use 32-bit buckets.
function decode (value, bitBucketSize = 32) {
  if (typeof value !== 'string' && !isPacked(value)) return value
  if (bitBucketSize === 32) {
    const histogram = createLatencyHistogram()
    if (addEncoded(histogram, value, { fallback: false })) return histogram
  }
  return require('hdr-histogram-js/dist/encoding').decodeFromCompressedBase64(typeof value === 'string' ? value : encode(value), bitBucketSize, false)
}

// Adds an encoded histogram to `target`, bucket by bucket, as
// target.add(decode(encoded)) would, with the same counts, total, min and
// max. Merging many shards' results decodes thousands of histograms: the
// library's decoder builds a histogram for each (allocating and walking
// every bucket, reading bytes through a slicing buffer), ~2 ms apiece,
// where reading the varints straight into the target's buckets is ~0.1 ms.
// Encodings of another layout (significant digits, lowest value) go the
// library's way, unless `fallback` is false (then false is returned).
function addEncoded (target, encoded, { fallback = true } = {}) {
  const raw = isPacked(encoded) ? Buffer.from(encoded.buffer, encoded.byteOffset, encoded.length) : inflateEncoded(encoded)
  if (raw === null || raw.readInt32BE(12) !== target.numberOfSignificantValueDigits ||
    Number(raw.readBigInt64BE(16)) !== target.lowestDiscernibleValue) {
    if (!fallback) return false
    target.add(require('hdr-histogram-js/dist/encoding').decodeFromCompressedBase64(typeof encoded === 'string' ? encoded : encode(encoded), 32, false))
    return true
  }
  const highest = Number(raw.readBigInt64BE(24))
  if (highest > target.highestTrackableValue) target.resize(highest)
  const length = target.countsArrayLength
  const end = Math.min(raw.length, HEADER_BYTES + raw.readInt32BE(4))
  let pos = HEADER_BYTES
  let index = 0
  let added = 0
  let first = -1
  let last = -1
  while (pos < end) {
    // LEB128-64b9B as the library reads it: at most 9 bytes of 7 bits.
    let byte = raw[pos++]
    let value = byte & 0x7f
    let scale = 128
    for (let n = 1; (byte & 0x80) !== 0 && n < 9; n++) {
      byte = raw[pos++]
      value += (byte & 0x7f) * scale
      scale *= 128
    }
    value = value % 2 === 0 ? value / 2 : -(value + 1) / 2
    if (value < 0) {
      index -= value
      continue
    }
    if (value > 0) {
      if (index >= length) throw new Error('encoded histogram has counts beyond its range')
      target.addToCountAtIndex(index, value)
      added += value
      if (first === -1 && index !== 0) first = index
      last = index
    }
    index++
  }
  if (last === -1) return true
  target.setTotalCount(target.totalCount + added)
  target.updatedMaxValue(Math.max(target.maxValue, target.highestEquivalentValue(target.valueFromIndex(last))))
  if (first !== -1) target.updateMinNonZeroValue(Math.min(target.minNonZeroValue, target.valueFromIndex(first)))
  return true
}

// target.add(source), with the same counts, total, min, max and time
// stamps, walking only the buckets between the source's min and max when
// the two share a layout: the library walks all of a latency histogram's
// ~22,000, ~1 ms each at the end of a short run, when nothing is warm.
// The recorder adds each interval into the run this way once a second, on
// the sending thread: a plain loop over the two typed arrays, ~20 µs for
// 6,500 buckets (0.5 ms the first time, compiling, and 0.1 ms the second).
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

// The V2 header and counts of an encoded histogram, or null when it is
// not in that encoding.
function inflateEncoded (encoded) {
  const bytes = Buffer.from(encoded.trim(), 'base64')
  if (bytes.length < 8 || (bytes.readInt32BE(0) & ~0xf0) !== V2_COMPRESSED_COOKIE) return null
  const raw = require('zlib').inflateSync(bytes.subarray(8, 8 + bytes.readInt32BE(4)))
  if (raw.length < HEADER_BYTES || (raw.readInt32BE(0) & ~0xf0) !== V2_COOKIE) return null
  return raw
}

const PERCENTILE_KEYS = percentiles.map((p) => [p, ('p' + p).replace('.', '_')])

// Every statistic of a histogram from one pass over its buckets. The
// library's getters walk the whole counts array once per percentile and
// three times for mean and stddev, through an iterator object per step: for
// a latency histogram (tens of thousands of buckets) that was ~25 ms at the
// end of every run. Formulas are the library's, so the numbers are equal.
function summarize (histogram) {
  const total = histogram.totalCount
  const { indexes, counts } = filledBuckets(histogram)
  const medians = indexes.map((i) => histogram.medianEquivalentValue(histogram.valueFromIndex(i)))
  let sum = 0
  for (let k = 0; k < medians.length; k++) sum += medians[k] * counts[k]
  const mean = sum / total
  let deviations = 0
  for (let k = 0; k < medians.length; k++) deviations += (medians[k] - mean) ** 2 * counts[k]

  const atPercentile = new Map()
  let k = 0
  let cumulative = counts[0]
  for (const [p] of PERCENTILE_KEYS) {
    // As JsHistogram.getValueAtPercentile: the count to reach, rounded up
    // with care for one-ulp errors, and the highest value of that bucket.
    const fp = (p / 100) * total
    const target = Math.max(Math.ceil(fp - ulp(fp)), 1)
    while (cumulative < target && k < counts.length - 1) cumulative += counts[++k]
    atPercentile.set(p, histogram.highestEquivalentValue(histogram.valueFromIndex(indexes[k])))
  }
  return {
    mean,
    stddev: Math.sqrt(deviations / total),
    lowest: histogram.lowestEquivalentValue(histogram.valueFromIndex(indexes[0])),
    atPercentile
  }
}

// The buckets that hold counts, in value order: { indexes, counts }. Only
// the buckets between min and max can hold counts: a few hundred of a
// latency histogram's tens of thousands. Should min or max ever be stale,
// the counts won't add up and every bucket is walked.
function filledBuckets (histogram) {
  const found = nonEmptyBuckets(histogram, recordedRange(histogram))
  if (sumOf(found.counts) === histogram.totalCount) return found
  return nonEmptyBuckets(histogram, [0, histogram.countsArrayLength - 1])
}

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

function ulp (x) {
  return Math.pow(2, Math.floor(Math.log2(x)) - 52)
}

// `scale` divides every recorded value (1000 turns microseconds into ms).
// `bucketEdges` reports min and max as the lowest and highest values of
// their buckets (as HdrHistogram's Java getters do), which is all an
// encoded histogram keeps of them.
function toStats (histogram, { scale = 1, decimals = 2, bucketEdges = false } = {}) {
  if (histogram.totalCount === 0) {
    const stats = { average: 0, mean: 0, stddev: 0, min: 0, max: 0 }
    for (const [, key] of PERCENTILE_KEYS) stats[key] = 0
    return stats
  }
  const { mean, stddev, lowest, atPercentile } = summarize(histogram)
  const average = round(mean / scale, decimals)
  const stats = {
    average,
    mean: average,
    stddev: round(stddev / scale, decimals),
    // minNonZeroValue skips zero-valued samples (a second with no responses).
    min: lowest === 0 ? 0 : round(minOf(histogram, bucketEdges) / scale, decimals),
    max: round(maxOf(histogram, bucketEdges) / scale, decimals)
  }
  for (const [p, key] of PERCENTILE_KEYS) stats[key] = round(atPercentile.get(p) / scale, decimals)
  return stats
}

function minOf (histogram, bucketEdges) {
  const min = histogram.minNonZeroValue
  return bucketEdges ? histogram.lowestEquivalentValue(min) : min
}

function maxOf (histogram, bucketEdges) {
  const max = histogram.maxValue
  return bucketEdges ? histogram.highestEquivalentValue(max) : max
}

// What a run does to its histograms once a second, on the sending thread
// (pack the interval, its percentiles, add it into the run's), done once
// per thread on small histograms before anything is sent: their first
// calls compile them (~1 ms together without the CLI's code cache), which
// at the first tick would delay the requests due then.
let warmed = false
function warmUp () {
  if (warmed) return
  warmed = true
  const run = createLatencyHistogram()
  const interval = createLatencyHistogram()
  // Small values: what runs is compiled, and each pass over the buckets
  // is a few steps (values in the thousands made ~1 ms of passes).
  interval.recordValue(2)
  interval.recordValue(5)
  pack(interval)
  interval.getValueAtPercentile(99)
  addHistogram(run, interval)
  countAbove(run, 1)
}

// The sum of the values recorded (each as its bucket's middle, as the
// mean is taken), from the buckets between min and max: what a sample
// keeps of an interval's phase times, so that intervals of several
// threads or machines add up to their mean.
function valueSum (histogram) {
  if (histogram.totalCount === 0) return 0
  const { indexes, counts } = filledBuckets(histogram)
  let sum = 0
  for (let k = 0; k < indexes.length; k++) sum += histogram.medianEquivalentValue(histogram.valueFromIndex(indexes[k])) * counts[k]
  return sum
}

// Recorded latencies (µs) strictly above a bound in ms. The bucket holding
// the bound itself is not counted: a fail needs evidence beyond it.
function countAbove (histogram, limitMs) {
  if (!histogram || histogram.totalCount === 0) return 0
  const last = histogram.countsArrayLength - 1
  const from = Math.max(histogram.countsArrayIndex(Math.round(limitMs * 1000)) + 1, 0)
  const to = Math.min(histogram.countsArrayIndex(histogram.maxValue), last)
  let count = 0
  for (let i = from; i <= to; i++) count += histogram.getCountAtIndex(i)
  return count
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
