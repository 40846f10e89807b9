'use strict'

// hdr-histogram-js internals we rely on. lib/results/histogram/ writes
// counts straight into the library's `_counts` array (latency-histogram.js
// on each response, merge.js once a second), stores min and max as the
// library would for our layout, and requires its classes and encoding
// from dist/. None of that is the library's documented API, so
// package.json pins its exact version: a new version must pass this file
// before the pin moves. The equalities with the library's own ways are
// tested beside each part too: bucket index and recordValue
// (latency-histogram.test.js), add and subtract (merge.test.js), the
// encoder's bytes and decode + add (v2-encoding.test.js), the getters
// (stats.test.js).

const t = require('tap')
const path = require('path')
const { sameHistogram } = require('../../helpers/same-histogram')
const { createLatencyHistogram, createCountHistogram } = require('../../../lib/results/histogram/create')
const { addHistogram, subtractHistogram } = require('../../../lib/results/histogram/merge')
const { encode } = require('../../../lib/results/histogram/v2-encoding')
const Int32Histogram = require('hdr-histogram-js/dist/Int32Histogram').default
const Float64Histogram = require('hdr-histogram-js/dist/Float64Histogram').default
const { decodeFromCompressedBase64, encodeIntoCompressedBase64 } = require('hdr-histogram-js/dist/encoding')

const libraryRecord = Int32Histogram.prototype.recordValue

function values (seed, n) {
  const out = [0, 0, 1, 2047, 2048, 2049, 65535, 3600 * 1e6, 2 ** 31 - 1]
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    out.push(seed >>> (seed % 31))
  }
  return out
}

t.test('hdr-histogram-js internals we rely on: the version is pinned, exactly, to the one installed', async (t) => {
  const ours = require(path.join(__dirname, '../../../package.json'))
  const spec = ours.dependencies['hdr-histogram-js']
  t.match(spec, /^\d+\.\d+\.\d+$/, `an exact version, no range (${spec})`)
  t.equal(spec, require('hdr-histogram-js/package.json').version, 'the one node_modules holds')
  const lock = require(path.join(__dirname, '../../../package-lock.json'))
  t.equal(lock.packages['node_modules/hdr-histogram-js'].version, spec, 'and the lock file')
})

t.test('hdr-histogram-js internals we rely on: its classes and encoding at dist/', async (t) => {
  t.equal(typeof Int32Histogram, 'function')
  t.equal(typeof Float64Histogram, 'function')
  t.equal(typeof decodeFromCompressedBase64, 'function')
  t.equal(typeof encodeIntoCompressedBase64, 'function')
  t.ok(new Int32Histogram(1, 1000, 3).getCountAtIndex(0) === 0, 'an Int32Histogram is built from (lowest, highest, digits)')
})

t.test('hdr-histogram-js internals we rely on: `_counts` is the typed array of the counts, the one the library reads and writes', async (t) => {
  for (const [name, make] of [['latency', createLatencyHistogram], ['count', createCountHistogram], ['Int32Histogram', () => new Int32Histogram(1, 3600 * 1e6, 3)]]) {
    const h = make()
    h.autoResize = true
    t.ok(ArrayBuffer.isView(h._counts), `${name}: a typed array`)
    t.equal(h._counts.length, h.countsArrayLength, `${name}: one element a bucket`)
    // The library's own recording fills it, bucket for bucket.
    for (const v of values(3, 2000)) libraryRecord.call(h, v)
    let differ = 0
    for (let i = 0; i < h.countsArrayLength; i++) if (h._counts[i] !== h.getCountAtIndex(i)) differ++
    t.equal(differ, 0, `${name}: getCountAtIndex(i) reads _counts[i]`)
    // What is written into it is what the library reads back: its
    // getters, its percentiles, its encoder.
    const twin = make()
    twin.autoResize = true
    twin.add(h)
    const at = h.countsArrayIndex(1500)
    h._counts[at] += 7
    twin.recordValueWithCount(1500, 7)
    t.equal(h.getCountAtValue(1500), twin.getCountAtValue(1500), `${name}: getCountAtValue`)
    h.addToTotalCount(7)
    t.equal(h.getValueAtPercentile(10), twin.getValueAtPercentile(10), `${name}: getValueAtPercentile`)
    t.equal(encodeIntoCompressedBase64(h), encodeIntoCompressedBase64(twin), `${name}: encodeIntoCompressedBase64`)
  }
  // Growing replaces the array: the new one is `_counts`, with the old counts.
  const h = createLatencyHistogram()
  h.recordValue(1000)
  const before = h._counts
  h.recordValue(5 * 3600 * 1e6)
  t.not(h._counts, before, 'a new array once grown')
  t.equal(h._counts.length, h.countsArrayLength)
  t.equal(h._counts[h.countsArrayIndex(1000)], 1, 'holding the counts of the old')
})

t.test('hdr-histogram-js internals we rely on: our recordValue counts, totals, and sets min and max as the library\'s own on a twin', async (t) => {
  // Ours, the library's recordValue on the same class, and an
  // Int32Histogram, each recording the lists in turn.
  const twins = () => {
    const reference = new Int32Histogram(1, 3600 * 1e6, 3)
    reference.autoResize = true
    return { ours: createLatencyHistogram(), twin: createLatencyHistogram(), reference }
  }
  const record = ({ ours, twin, reference }, list) => {
    for (const v of list) {
      ours.recordValue(v)
      libraryRecord.call(twin, v)
      reference.recordValue(v)
    }
  }
  const same = ({ ours, twin, reference }, label) => {
    sameHistogram(t, ours, twin, `${label}: ours and the library's recordValue on the same class`)
    sameHistogram(t, ours, reference, `${label}: ours and an Int32Histogram`)
  }
  // Values the fast path takes (integer µs below 2^31): min and max are
  // set by it alone.
  const random = twins()
  record(random, [...values(11, 30000).filter((v) => v < 2 ** 31 - 1), 2 ** 31 - 5000])
  same(random, 'fast path')
  // Min and max inside buckets wider than 1 µs, off their edges.
  const wide = twins()
  record(wide, [70001, 5001, 123457, 9999])
  t.not(wide.ours.minNonZeroValue, wide.ours.lowestEquivalentValue(5001), 'a min that is not its bucket\'s lower edge')
  t.not(wide.ours.maxValue, wide.ours.highestEquivalentValue(123457), 'a max that is not its bucket\'s upper edge')
  same(wide, 'off the edges')
  // Then others (fractions, beyond the hour: the histogram grows), and
  // the fast path again.
  record(random, [2.5, 1e-3, 5 * 3600 * 1e6, 7, 2 ** 31 - 1])
  same(random, 'after the library\'s path')
  t.equal(random.ours.unitMagnitude, 0, 'the layout where the library stores min and max as the value itself')
})

t.test('hdr-histogram-js internals we rely on: counts added into `_counts` are the library\'s add() and subtract()', async (t) => {
  const parts = [0, 1, 2].map((k) => {
    const h = createLatencyHistogram()
    for (const v of values(20 + k, 3000)) if (v < 3600 * 1e6) h.recordValue(v)
    return h
  })
  const ours = createLatencyHistogram()
  const library = createLatencyHistogram()
  for (const h of parts) {
    addHistogram(ours, h)
    library.add(h)
  }
  sameHistogram(t, ours, library, 'added')
  subtractHistogram(ours, parts[1])
  library.subtract(parts[1])
  t.equal(ours.totalCount, library.totalCount, 'subtracted: total')
  let differ = 0
  for (let i = 0; i < ours.countsArrayLength; i++) if (ours.getCountAtIndex(i) !== library.getCountAtIndex(i)) differ++
  t.equal(differ, 0, 'subtracted: every bucket')
  t.equal(encode(ours), encodeIntoCompressedBase64(library), 'subtracted: the same encoding')
})
