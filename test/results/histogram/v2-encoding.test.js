'use strict'

// addEncoded() reads encoded histograms straight into a target: the same
// counts, total, min and max as the library's decode followed by add().
// encode() writes what the library's encoder writes, byte for byte, and
// pack() the same counts uncompressed, which addEncoded() reads too.

const t = require('tap')
const { sameHistogram } = require('../../helpers/same-histogram')
const { createLatencyHistogram, createCountHistogram } = require('../../../lib/results/histogram/create')
const { encode, pack, decode, addEncoded } = require('../../../lib/results/histogram/v2-encoding')
const { decodeFromCompressedBase64, encodeIntoCompressedBase64 } = require('hdr-histogram-js/dist/encoding')
const Int32Histogram = require('hdr-histogram-js/dist/Int32Histogram').default

t.test('the same as decode + add, for narrow, wide, empty and huge histograms', async (t) => {
  let seed = 7
  const rand = () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed / 4294967296 }
  for (let trial = 0; trial < 25; trial++) {
    const parts = []
    for (let p = 0; p < 3; p++) {
      const h = createLatencyHistogram()
      const n = trial === 0 ? 0 : Math.floor(rand() * 5000)
      // Some spread past the hour the histogram is built for (it resizes).
      const spread = trial % 5 === 0 ? 23 : 12
      for (let i = 0; i < n; i++) h.recordValue(Math.floor(Math.exp(rand() * spread)))
      if (trial % 7 === 1) h.recordValue(0)
      if (trial % 6 === 2) h.recordValueWithCount(1500, 3e6)
      parts.push(encode(h))
    }
    const viaLibrary = createLatencyHistogram()
    const direct = createLatencyHistogram()
    for (const e of parts) {
      viaLibrary.add(decodeFromCompressedBase64(e, 32, false))
      addEncoded(direct, e)
    }
    sameHistogram(t, direct, viaLibrary, `trial ${trial}`)
    const one = decode(parts[1])
    const reference = decodeFromCompressedBase64(parts[1], 32, false)
    t.equal(one.totalCount, reference.totalCount)
    t.equal(one.getValueAtPercentile(99), reference.getValueAtPercentile(99), 'decode() reads it the same')
  }
})

t.test('an encoding of another layout goes the library\'s way', async (t) => {
  const other = new Int32Histogram(1, 1e6, 2)
  for (let i = 1; i < 1000; i++) other.recordValue(i * 37)
  const target = createLatencyHistogram()
  addEncoded(target, encode(other))
  t.equal(target.totalCount, 999)
  const viaLibrary = createLatencyHistogram()
  viaLibrary.add(decodeFromCompressedBase64(encode(other), 32, false))
  sameHistogram(t, target, viaLibrary, 'two significant digits')
  t.equal(addEncoded(createLatencyHistogram(), encode(other), { fallback: false }), false)
})

t.test('encode() is the library\'s encoding, byte for byte; pack() holds the same counts', async (t) => {
  let seed = 11
  const rand = () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed / 4294967296 }
  for (let trial = 0; trial < 30; trial++) {
    const latency = trial % 2 === 0
    const h = latency ? createLatencyHistogram() : createCountHistogram()
    const n = trial < 2 ? 0 : Math.floor(rand() * 4000)
    // Wide spreads give long runs of empty buckets and multi-byte varints;
    // the count histogram gets counts past 2^32 (9-byte varints).
    for (let i = 0; i < n; i++) h.recordValue(Math.floor(rand() ** 4 * (trial % 3 === 0 ? 5e9 : 2e5)))
    if (!latency && n > 0) h.recordValueWithCount(777, 2 ** 45)
    t.equal(encode(h), encodeIntoCompressedBase64(h), `trial ${trial}: same bytes`)
    t.equal(encode(pack(h)), encode(h), `trial ${trial}: packed, then encoded`)
    if (latency) sameHistogram(t, decode(pack(h)), decode(encode(h)), `trial ${trial}: packed`)
  }
  // Packed counts cross threads as a plain Uint8Array (structured clone).
  const h = createLatencyHistogram()
  for (let i = 1; i < 500; i++) h.recordValue(i * 37)
  const cloned = structuredClone(new Uint8Array(pack(h)))
  const target = createLatencyHistogram()
  t.ok(addEncoded(target, cloned))
  sameHistogram(t, target, h, 'through structuredClone')
})
