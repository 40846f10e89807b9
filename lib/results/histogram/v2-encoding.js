'use strict'

// HdrHistogram's V2 encoding, the form a histogram takes in a result, a
// file, a message between threads or machines: a header and the counts,
// ZigZag LEB128 varints where a negative number is a run of empty
// buckets, compressed and in base64 (encode), or uncompressed (pack).
// Written and read here, bucket by bucket, rather than by the library's
// encoder and decoder (see pack() and addEncoded() for why), and held to
// the library's bytes and counts by test/results/histogram/
// v2-encoding.test.js.

const { createLatencyHistogram } = require('./create')
const { lazy } = require('../../core/lazy')
// Lazy: zlib only once a histogram is compressed or inflated (after a
// run, or to read one back): a run keeps its intervals packed, and a
// result's tables need nothing compressed.
const zlib = lazy(() => require('zlib'))
// Lazy: the library's decoder only for an encoding of another layout than
// ours (significant digits, lowest value, bucket size), as another
// tool's file may have.
const libraryEncoding = lazy(() => require('hdr-histogram-js/dist/encoding'))

const V2_COMPRESSED_COOKIE = 0x1c849304
const V2_COOKIE = 0x1c849303
const HEADER_BYTES = 40

// HdrHistogram's compressed V2 encoding (compressed base64), of a
// histogram or of its packed counts (pack() below), byte for byte what
// hdr-histogram-js's encodeIntoCompressedBase64 writes: a cookie, the
// length, and zlib's deflate of the uncompressed V2 form. Ours, from
// pack(), rather than the library's: a run's intervals are packed
// already, and the library's encoding module stays unloaded.
function encode (value) {
  const raw = isPacked(value) ? value : pack(value)
  const deflated = zlib().deflateSync(raw)
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
// across threads mid-run: one pass over the buckets up to the maximum,
// with no compression and nothing to load, so it can run on the sending
// thread while requests are due. The library's only encoder compresses
// and writes base64 every time, and its module loads the library's
// WebAssembly build and a JS deflater on first use, both far costlier
// than this pass (bench/histogram-micro.js measures them): compression
// waits for the end of the run (encode()).
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
  return libraryEncoding().decodeFromCompressedBase64(typeof value === 'string' ? value : encode(value), bitBucketSize, false)
}

// Adds an encoded histogram to `target`, bucket by bucket, as
// target.add(decode(encoded)) would, with the same counts, total, min and
// max. Merging many shards' results decodes thousands of histograms: the
// library's decoder builds a histogram for each (allocating and walking
// every bucket, reading bytes through a slicing buffer), which dominates
// the merge, where the varints can be read straight into the target's
// buckets. Encodings of another layout (significant digits, lowest value)
// go the library's way, unless `fallback` is false (then false is
// returned).
function addEncoded (target, encoded, { fallback = true } = {}) {
  const raw = isPacked(encoded) ? Buffer.from(encoded.buffer, encoded.byteOffset, encoded.length) : inflateEncoded(encoded)
  if (raw === null || raw.readInt32BE(12) !== target.numberOfSignificantValueDigits ||
    Number(raw.readBigInt64BE(16)) !== target.lowestDiscernibleValue) {
    if (!fallback) return false
    target.add(libraryEncoding().decodeFromCompressedBase64(typeof encoded === 'string' ? encoded : encode(encoded), 32, false))
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
  // Max first: a new minimum is then never above it.
  target.updateMinAndMax(target.highestEquivalentValue(target.valueFromIndex(last)))
  if (first !== -1) target.updateMinAndMax(target.valueFromIndex(first))
  return true
}

// The V2 header and counts of an encoded histogram, or null when it is
// not in that encoding.
function inflateEncoded (encoded) {
  const bytes = Buffer.from(encoded.trim(), 'base64')
  if (bytes.length < 8 || (bytes.readInt32BE(0) & ~0xf0) !== V2_COMPRESSED_COOKIE) return null
  const raw = zlib().inflateSync(bytes.subarray(8, 8 + bytes.readInt32BE(4)))
  if (raw.length < HEADER_BYTES || (raw.readInt32BE(0) & ~0xf0) !== V2_COOKIE) return null
  return raw
}

module.exports = { encode, pack, isPacked, decode, addEncoded }
