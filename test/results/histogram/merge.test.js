'use strict'

// addHistogram() and subtractHistogram() walk only the buckets that can
// hold counts: the same counts, total, min, max and time stamps as the
// library's add() and subtract().

const t = require('tap')
const { sameHistogram } = require('../../helpers/same-histogram')
const { createLatencyHistogram, createCountHistogram } = require('../../../lib/results/histogram/create')
const { addHistogram, subtractHistogram } = require('../../../lib/results/histogram/merge')
const Int32Histogram = require('hdr-histogram-js/dist/Int32Histogram').default

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

t.test('subtractHistogram() takes the counts of some values away, min and max found again', async (t) => {
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
})

t.test('subtractHistogram() is the library\'s subtract(): counts and total; min and max at their buckets\' edges, as the library\'s decoder finds them', async (t) => {
  const { decodeFromCompressedBase64, encodeIntoCompressedBase64 } = require('hdr-histogram-js/dist/encoding')
  let seed = 9
  const rand = () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed / 4294967296 }
  for (let trial = 0; trial < 20; trial++) {
    const parts = [0, 1, 2].map((p) => {
      const h = createLatencyHistogram()
      const n = trial === 0 && p === 1 ? 0 : Math.floor(rand() * 2000)
      for (let i = 0; i < n; i++) h.recordValue(Math.floor(Math.exp(rand() * (trial % 4 === 0 ? 17 : 11))))
      if (trial % 3 === 1) h.recordValue(0)
      return h
    })
    const ours = createLatencyHistogram()
    const library = createLatencyHistogram()
    for (const h of parts) {
      addHistogram(ours, h)
      library.add(h)
    }
    // Taking the part with the highest or the lowest values moves a bound.
    const taken = parts[trial % 3]
    subtractHistogram(ours, taken)
    library.subtract(taken)
    t.equal(ours.totalCount, library.totalCount, `trial ${trial}: total`)
    let differ = 0
    for (let i = 0; i < library.countsArrayLength; i++) if (ours.getCountAtIndex(i) !== library.getCountAtIndex(i)) differ++
    t.equal(differ, 0, `trial ${trial}: every bucket`)
    const found = decodeFromCompressedBase64(encodeIntoCompressedBase64(library), 32, false)
    t.equal(ours.maxValue, found.maxValue, `trial ${trial}: max`)
    if (found.minNonZeroValue <= found.maxValue) t.equal(ours.minNonZeroValue, found.minNonZeroValue, `trial ${trial}: min`)
    else t.equal(ours.minNonZeroValue, Number.MAX_SAFE_INTEGER, `trial ${trial}: no min above 0`)
  }
})
