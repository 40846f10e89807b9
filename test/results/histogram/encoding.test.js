'use strict'

// addEncoded() reads encoded histograms straight into a target: the same
// counts, total, min and max as the library's decode followed by add().
// encode() writes what the library's encoder writes, byte for byte, and
// pack() the same counts uncompressed, which addEncoded() reads too.

const t = require('tap')
const { createLatencyHistogram, createCountHistogram, encode, pack, decode, addEncoded, addHistogram, subtractHistogram, valueSum } = require('../../../lib/results/histogram')
const { decodeFromCompressedBase64, encodeIntoCompressedBase64 } = require('hdr-histogram-js/dist/encoding')
const Int32Histogram = require('hdr-histogram-js/dist/Int32Histogram').default

function sameHistogram (t, a, b, label) {
  t.equal(a.totalCount, b.totalCount, `${label}: total`)
  t.equal(a.maxValue, b.maxValue, `${label}: max`)
  t.equal(a.minNonZeroValue, b.minNonZeroValue, `${label}: min`)
  t.equal(a.countsArrayLength, b.countsArrayLength, `${label}: range`)
  let diff = 0
  for (let i = 0; i < a.countsArrayLength; i++) if (a.getCountAtIndex(i) !== b.getCountAtIndex(i)) diff++
  t.equal(diff, 0, `${label}: every bucket`)
}

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

t.test('addHistogram() is the library\'s add(): counts, total, min, max and time stamps', async (t) => {
  let seed = 5
  const rand = () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed / 4294967296 }
  for (let trial = 0; trial < 25; trial++) {
    const latency = trial % 4 !== 3
    const make = latency ? createLatencyHistogram : createCountHistogram
    const viaLibrary = make()
    const direct = make()
    for (let p = 0; p < 3; p++) {
      const h = make()
      const n = trial === 0 ? 0 : Math.floor(rand() * 3000)
      // Some spread past the hour the histogram is built for (it resizes).
      const spread = trial % 5 === 0 ? 23 : 12
      for (let i = 0; i < n; i++) h.recordValue(Math.floor(Math.exp(rand() * spread)))
      if (trial % 7 === 1) h.recordValue(0)
      if (trial % 6 === 2) h.recordValueWithCount(1500, 3e6)
      h.startTimeStampMsec = 1000 + p
      h.endTimeStampMsec = 2000 - p
      viaLibrary.add(h)
      addHistogram(direct, h)
    }
    sameHistogram(t, direct, viaLibrary, `trial ${trial}`)
    t.equal(direct.startTimeStampMsec, viaLibrary.startTimeStampMsec)
    t.equal(direct.endTimeStampMsec, viaLibrary.endTimeStampMsec)
  }
  const other = new Int32Histogram(1, 1e6, 2)
  for (let i = 1; i < 1000; i++) other.recordValue(i * 37)
  const viaLibrary = createLatencyHistogram()
  viaLibrary.add(other)
  const direct = createLatencyHistogram()
  addHistogram(direct, other)
  sameHistogram(t, direct, viaLibrary, 'another layout')

  // A source whose min and max are stale: its buckets outside them count.
  const stale = createLatencyHistogram()
  for (const v of [5, 700, 90000]) stale.recordValue(v)
  stale.maxValue = 800
  stale.minNonZeroValue = 600
  const into = createLatencyHistogram()
  into.recordValue(40)
  addHistogram(into, stale)
  t.equal(into.totalCount, 4)
  t.same([5, 40, 700, 90000].map((v) => into.getCountAtValue(v)), [1, 1, 1, 1], 'every bucket of the source added')
})

t.test('subtractHistogram() takes the counts of some values away, min and max found again; valueSum() adds the values up', async (t) => {
  const all = createLatencyHistogram()
  const some = createLatencyHistogram()
  for (const v of [0, 100, 1500, 5000, 9000, 20000]) all.recordValue(v)
  for (const v of [100, 20000]) some.recordValue(v)
  subtractHistogram(all, some)
  const rest = createLatencyHistogram()
  for (const v of [0, 1500, 5000, 9000]) rest.recordValue(v)
  t.equal(all.totalCount, 4)
  t.equal(all.getValueAtPercentile(100), rest.getValueAtPercentile(100))
  t.equal(all.maxValue, rest.highestEquivalentValue(9000), 'max at its bucket\'s edge')
  t.equal(all.minNonZeroValue, 1500, 'the lowest left above 0')
  t.same([50, 75, 99].map((p) => all.getValueAtPercentile(p)), [50, 75, 99].map((p) => rest.getValueAtPercentile(p)))
  subtractHistogram(all, createLatencyHistogram())
  t.equal(all.totalCount, 4, 'nothing taken: nothing changes')
  const zeros = createLatencyHistogram()
  zeros.recordValue(0)
  zeros.recordValue(7)
  const seven = createLatencyHistogram()
  seven.recordValue(7)
  subtractHistogram(zeros, seven)
  t.same([zeros.totalCount, zeros.maxValue, zeros.minNonZeroValue], [1, 0, Number.MAX_SAFE_INTEGER], 'only a zero left: no value above 0')
  subtractHistogram(seven, seven)
  t.same([seven.totalCount, seven.maxValue], [0, 0], 'all taken: empty')
  t.equal(valueSum(rest), 0 + 1500 + 5000 + 9000 + (rest.medianEquivalentValue(9000) - 9000) + (rest.medianEquivalentValue(5000) - 5000), 'each value as its bucket\'s middle')
  t.equal(valueSum(createLatencyHistogram()), 0)
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
