'use strict'

// Micro-benchmark of what lib/results/histogram/ does on the hot path and
// once a second, beside the other ways to do it: through hdr-histogram-js's
// public API, or its undocumented fields. It shows what each private
// access saves, and so which are worth pinning the library's version for.
//
//   node bench/histogram-micro.js [--seconds 0.5] [--only record,add,subtract,encode,merge]
//
// - recordValue, once per response: ours (the count into the library's
//   `_counts`, the total through incrementTotalCount) beside the total
//   written into `_totalCount` too, the count through the public
//   incrementCountAtIndex (and min and max through updateMinAndMax), and
//   the library's own recordValue.
// - once a second on the sending thread: addHistogram and
//   subtractHistogram (ours, reading through getCountAtIndex and writing
//   into `_counts`, beside the public addToCountAtIndex, loops over both
//   `_counts` arrays, and the library's add() and subtract()); pack()
//   beside the library's only encoder (encodeIntoCompressedBase64), and
//   the first call of each in a fresh process (what loading it costs).
// - at the end of a run, per shard or thread merged: addEncoded() beside
//   the library's decodeFromCompressedBase64 followed by add().
//
// The variants of a group run in one process, interleaved in short slices
// (a millisecond or so each, in a new order each cycle) for `--seconds`
// per group. A figure is the median over the slices of the time per
// operation, with the 10th percentile; the comparison with the group's
// first is the median of the ratios of slices run side by side, which
// holds on a shared machine where another process can take the core
// during any one slice.

const { parseArgs } = require('util')
const { execFileSync } = require('child_process')
const path = require('path')
const Int32Histogram = require('hdr-histogram-js/dist/Int32Histogram').default
const { LatencyHistogram } = require('../lib/results/histogram/latency-histogram')
const { createLatencyHistogram } = require('../lib/results/histogram/create')
const { addHistogram, subtractHistogram } = require('../lib/results/histogram/merge')
const { recordedRange } = require('../lib/results/histogram/buckets')
const { encode, pack, addEncoded } = require('../lib/results/histogram/v2-encoding')

const { values: options } = parseArgs({
  options: {
    seconds: { type: 'string', default: '0.5' },
    only: { type: 'string' }
  }
})
const GROUP_MS = Number(options.seconds) * 1000
const SLICE_MS = 1

// ---- the other ways ----

// Ours, with the total written into `_totalCount` too.
class PrivateTotal extends LatencyHistogram {
  recordValue (value) {
    if ((value | 0) !== value || value < 0 || this.unitMagnitude !== 0) return Int32Histogram.prototype.recordValue.call(this, value)
    const magnitude = this.subBucketHalfCountMagnitude
    const bucketIndex = Math.max(31 - Math.clz32(value) - magnitude, 0)
    const index = ((bucketIndex + 1) << magnitude) + (value >>> bucketIndex) - this.subBucketHalfCount
    if (index >= this.countsArrayLength) return Int32Histogram.prototype.recordValue.call(this, value)
    this._counts[index]++
    if (value > this.maxValue) this.maxValue = value
    if (value < this.minNonZeroValue && value !== 0) this.minNonZeroValue = value
    this._totalCount++
  }
}

// Ours, with the count through incrementCountAtIndex.
class PublicCount extends LatencyHistogram {
  recordValue (value) {
    if ((value | 0) !== value || value < 0 || this.unitMagnitude !== 0) return Int32Histogram.prototype.recordValue.call(this, value)
    const magnitude = this.subBucketHalfCountMagnitude
    const bucketIndex = Math.max(31 - Math.clz32(value) - magnitude, 0)
    const index = ((bucketIndex + 1) << magnitude) + (value >>> bucketIndex) - this.subBucketHalfCount
    if (index >= this.countsArrayLength) return Int32Histogram.prototype.recordValue.call(this, value)
    this.incrementCountAtIndex(index)
    if (value > this.maxValue) this.maxValue = value
    if (value < this.minNonZeroValue && value !== 0) this.minNonZeroValue = value
    this.incrementTotalCount()
  }
}

// The same, min and max through updateMinAndMax.
class PublicAll extends LatencyHistogram {
  recordValue (value) {
    if ((value | 0) !== value || value < 0 || this.unitMagnitude !== 0) return Int32Histogram.prototype.recordValue.call(this, value)
    const magnitude = this.subBucketHalfCountMagnitude
    const bucketIndex = Math.max(31 - Math.clz32(value) - magnitude, 0)
    const index = ((bucketIndex + 1) << magnitude) + (value >>> bucketIndex) - this.subBucketHalfCount
    if (index >= this.countsArrayLength) return Int32Histogram.prototype.recordValue.call(this, value)
    this.incrementCountAtIndex(index)
    this.updateMinAndMax(value)
    this.incrementTotalCount()
  }
}

function build (Constructor) {
  const h = new Constructor(1, 3600 * 1e6, 3)
  h.autoResize = true
  return h
}

// addHistogram as a loop over the two `_counts` arrays, min and max
// through the library's own private setters.
function addPrivate (target, source) {
  const highest = target.highestEquivalentValue(target.valueFromIndex(target.countsArrayLength - 1))
  if (highest < source.maxValue || target.bucketCount !== source.bucketCount ||
    target.subBucketCount !== source.subBucketCount || target.unitMagnitude !== source.unitMagnitude) {
    target.add(source)
    return
  }
  const into = target._counts
  const from = source._counts
  const [first, last] = recordedRange(source)
  let added = addArrays(into, from, first, last)
  if (added !== source.totalCount) added += addArrays(into, from, 0, first - 1) + addArrays(into, from, last + 1, source.countsArrayLength - 1)
  target.setTotalCount(target.totalCount + added)
  target.updatedMaxValue(Math.max(target.maxValue, source.maxValue))
  target.updateMinNonZeroValue(Math.min(target.minNonZeroValue, source.minNonZeroValue))
  target.startTimeStampMsec = Math.min(target.startTimeStampMsec, source.startTimeStampMsec)
  target.endTimeStampMsec = Math.max(target.endTimeStampMsec, source.endTimeStampMsec)
}

function addArrays (into, from, first, last) {
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

// Ours, with the counts written through addToCountAtIndex.
function addPublic (target, source) {
  const highest = target.highestEquivalentValue(target.valueFromIndex(target.countsArrayLength - 1))
  if (highest < source.maxValue || target.bucketCount !== source.bucketCount ||
    target.subBucketCount !== source.subBucketCount || target.unitMagnitude !== source.unitMagnitude) {
    target.add(source)
    return
  }
  const [first, last] = recordedRange(source)
  let added = addPublicCounts(target, source, first, last)
  if (added !== source.totalCount) added += addPublicCounts(target, source, 0, first - 1) + addPublicCounts(target, source, last + 1, source.countsArrayLength - 1)
  target.setTotalCount(target.totalCount + added)
  target.updateMinAndMax(source.maxValue)
  if (source.minNonZeroValue <= source.maxValue) target.updateMinAndMax(source.minNonZeroValue)
  target.startTimeStampMsec = Math.min(target.startTimeStampMsec, source.startTimeStampMsec)
  target.endTimeStampMsec = Math.max(target.endTimeStampMsec, source.endTimeStampMsec)
}

function addPublicCounts (target, source, first, last) {
  let added = 0
  for (let i = first; i <= last; i++) {
    const c = source.getCountAtIndex(i)
    if (c !== 0) {
      target.addToCountAtIndex(i, c)
      added += c
    }
  }
  return added
}

// subtractHistogram over the two `_counts` arrays, the new min and max
// looked for across the range between the old ones.
function subtractPrivate (target, source) {
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
  let lowest = lo
  if (lo === 0) {
    lowest = -1
    for (let i = 1; i <= hi && lowest === -1; i++) if (into[i] !== 0) lowest = i
  }
  target.minNonZeroValue = lowest === -1 ? Number.MAX_SAFE_INTEGER : target.lowestEquivalentValue(target.valueFromIndex(lowest))
}

// Ours, with the counts written through addToCountAtIndex.
function subtractPublic (target, source) {
  if (source.totalCount === 0) return
  const [first, last] = recordedRange(source)
  let removed = 0
  for (let i = first; i <= last; i++) {
    const c = source.getCountAtIndex(i)
    if (c !== 0) {
      target.addToCountAtIndex(i, -c)
      removed += c
    }
  }
  target.setTotalCount(target.totalCount - removed)
  const [low, high] = recordedRange(target)
  let hi = -1
  for (let i = high; i >= low && hi === -1; i--) if (target.getCountAtIndex(i) !== 0) hi = i
  if (hi === -1) {
    target.maxValue = 0
    target.minNonZeroValue = Number.MAX_SAFE_INTEGER
    return
  }
  let lowest = -1
  for (let i = Math.max(low, 1); i <= hi && lowest === -1; i++) if (target.getCountAtIndex(i) !== 0) lowest = i
  target.maxValue = target.highestEquivalentValue(target.valueFromIndex(hi))
  target.minNonZeroValue = lowest === -1 ? Number.MAX_SAFE_INTEGER : target.lowestEquivalentValue(target.valueFromIndex(lowest))
}

// ---- inputs ----

let seed = 42
function random () {
  seed = (seed * 1103515245 + 12345) >>> 0
  return seed / 4294967296
}
// Latencies in µs around 2 ms, log-normal, with a tail to ~100 ms.
function latency () {
  const gauss = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
  return Math.min(Math.round(Math.exp(Math.log(2000) + 0.7 * gauss)), 100000)
}
const MASK = 4095
const LATENCIES = new Int32Array(MASK + 1).map(latency)

// An interval as a run holds it at the end of a second: 20,000 responses.
function interval () {
  const h = createLatencyHistogram()
  for (let i = 0; i < 20000; i++) h.recordValue(latency())
  return h
}

// ---- timing ----

// A slice of `batch` (which does `per` operations): called as often as
// fills SLICE_MS, returns ns per operation.
function slicer (batch, per) {
  for (let k = 0; k < 20; k++) batch()
  const from = process.hrtime.bigint()
  batch()
  const once = Number(process.hrtime.bigint() - from) / 1e6
  const reps = Math.max(1, Math.round(SLICE_MS / Math.max(once, 1e-3)))
  return () => {
    const start = process.hrtime.bigint()
    for (let k = 0; k < reps; k++) batch()
    return Number(process.hrtime.bigint() - start) / (reps * per)
  }
}

// One driver per variant, so that each call site sees one class, as the
// recorder's does.
const N = 10000
function recordOurs (h) { for (let i = 0; i < N; i++) h.recordValue(LATENCIES[i & MASK]) }
function recordPrivateTotal (h) { for (let i = 0; i < N; i++) h.recordValue(LATENCIES[i & MASK]) }
function recordPublicCount (h) { for (let i = 0; i < N; i++) h.recordValue(LATENCIES[i & MASK]) }
function recordPublicAll (h) { for (let i = 0; i < N; i++) h.recordValue(LATENCIES[i & MASK]) }
function recordLibrary (h) { for (let i = 0; i < N; i++) h.recordValue(LATENCIES[i & MASK]) }

// A histogram recorded into is reset every 2^16 batches, far below an
// overflow of its 32-bit buckets.
function recordCase (driver, Constructor) {
  const h = build(Constructor)
  let batches = 0
  return slicer(() => {
    driver(h)
    if (++batches % 65536 === 0) h.reset()
  }, N)
}

// `op(target, source)` once per call, into a run's histogram reset now and
// then.
function perSecondCase (op, source) {
  const target = createLatencyHistogram()
  let calls = 0
  return slicer(() => {
    op(target, source)
    if (++calls % 10000 === 0) target.reset()
  }, 1)
}

// The first call of each encoder in a fresh process, after the modules a
// run has loaded anyway (the histograms, and ours): CPU ms, the process's
// threads together (V8 compiles on threads of its own).
function firstUse (library) {
  const root = path.join(__dirname, '..')
  const script = `
    const { createLatencyHistogram } = require(${JSON.stringify(path.join(root, 'lib/results/histogram/create'))})
    const { pack } = require(${JSON.stringify(path.join(root, 'lib/results/histogram/v2-encoding'))})
    const h = createLatencyHistogram()
    for (let i = 1; i <= 20000; i++) h.recordValue(500 + (i * 7919) % 20000)
    const from = process.cpuUsage()
    ${library
      ? "require('hdr-histogram-js/dist/encoding').encodeIntoCompressedBase64(h)"
      : 'pack(h)'}
    const cpu = process.cpuUsage(from)
    process.stdout.write(String((cpu.user + cpu.system) / 1000))`
  return Number(execFileSync(process.execPath, ['-e', script], { cwd: root }))
}

function quantile (xs, q) {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(s.length * q))]
}
const median = (xs) => quantile(xs, 0.5)

// Slices of each variant of `list`, interleaved, for GROUP_MS: ns per
// operation, per variant, slice by slice.
function runGroup (list) {
  const samples = list.map(() => [])
  const deadline = performance.now() + GROUP_MS
  for (let cycle = 0; performance.now() < deadline; cycle++) {
    const row = new Array(list.length)
    for (let k = 0; k < list.length; k++) {
      const at = (k + cycle) % list.length
      row[at] = list[at][1]()
    }
    row.forEach((ns, k) => samples[k].push(ns))
  }
  return samples
}

function main () {
  const source = interval()
  const shard = createLatencyHistogram()
  for (let i = 0; i < 5; i++) addHistogram(shard, interval())
  const encodedShard = encode(shard)
  const { decodeFromCompressedBase64, encodeIntoCompressedBase64 } = require('hdr-histogram-js/dist/encoding')

  const all = [
    ['record', 'recordValue, ns per response', 'ns', [
      ['ours: `_counts[index]++`, incrementTotalCount()', recordCase(recordOurs, LatencyHistogram)],
      ['`_totalCount++` too', recordCase(recordPrivateTotal, PrivateTotal)],
      ['incrementCountAtIndex(), incrementTotalCount()', recordCase(recordPublicCount, PublicCount)],
      ['... and updateMinAndMax()', recordCase(recordPublicAll, PublicAll)],
      ['the library\'s recordValue', recordCase(recordLibrary, Int32Histogram)]
    ]],
    ['add', `addHistogram of a second of 20,000 responses (${recordedRange(source)[1] - recordedRange(source)[0] + 1} buckets between min and max), µs`, 'us', [
      ['ours: getCountAtIndex(), into `_counts`', perSecondCase(addHistogram, source)],
      ['getCountAtIndex(), addToCountAtIndex()', perSecondCase(addPublic, source)],
      ['the two `_counts` arrays, private min and max setters', perSecondCase(addPrivate, source)],
      ['the library\'s add()', perSecondCase((t, s) => t.add(s), source)]
    ]],
    ['subtract', 'addHistogram + subtractHistogram of that second, µs', 'us', [
      ['ours: getCountAtIndex(), into `_counts`, min and max from the bounds', perSecondCase((t, s) => { addHistogram(t, s); subtractHistogram(t, s) }, source)],
      ['getCountAtIndex(), addToCountAtIndex(), from the bounds (both)', perSecondCase((t, s) => { addPublic(t, s); subtractPublic(t, s) }, source)],
      ['the two `_counts` arrays, min and max across the range (both)', perSecondCase((t, s) => { addPrivate(t, s); subtractPrivate(t, s) }, source)],
      ['the library\'s add() + subtract()', perSecondCase((t, s) => { t.add(s); t.subtract(s) }, source)]
    ]],
    ['encode', 'encoding that second, µs', 'us', [
      ['ours: pack() (uncompressed V2)', perSecondCase((t, s) => pack(s), source)],
      ['ours: encode() (compressed base64)', perSecondCase((t, s) => encode(s), source)],
      ['the library\'s encodeIntoCompressedBase64', perSecondCase((t, s) => encodeIntoCompressedBase64(s), source)]
    ]],
    ['merge', 'merging a shard\'s encoded histogram (100,000 responses), µs', 'us', [
      ['ours: addEncoded()', perSecondCase((t) => addEncoded(t, encodedShard), null)],
      ['the library\'s decodeFromCompressedBase64 + add()', perSecondCase((t) => t.add(decodeFromCompressedBase64(encodedShard, 32, false)), null)]
    ]]
  ]

  const only = options.only ? options.only.split(',') : null
  const groups = all.filter(([key]) => !only || only.includes(key)).map(([, ...group]) => group)
  const firsts = { ours: [], library: [] }
  for (let r = 0; r < (!only || only.includes('encode') ? 3 : 0); r++) {
    firsts.ours.push(firstUse(false))
    firsts.library.push(firstUse(true))
  }

  console.log(`node ${process.version}, hdr-histogram-js ${require('hdr-histogram-js/package.json').version}; each group's variants interleaved for ${GROUP_MS / 1000} s in slices of ${SLICE_MS} ms: median per operation (10th percentile), and the median ratio to the group's first, slice by slice`)
  for (const [title, unit, list] of groups) {
    const samples = runGroup(list)
    console.log(`\n${title} (${samples[0].length} slices each)`)
    const width = Math.max(...list.map(([name]) => name.length))
    list.forEach(([name], k) => {
      const scale = unit === 'us' ? 1000 : 1
      const m = median(samples[k]) / scale
      const low = quantile(samples[k], 0.1) / scale
      const digits = unit === 'us' && m >= 10 ? 1 : 2
      const ratio = (median(samples[k].map((ns, i) => ns / samples[0][i])) - 1) * 100
      const against = k === 0 ? '' : `  ${ratio >= 0 ? '+' : ''}${ratio.toFixed(1)}%`
      console.log(`  ${name.padEnd(width)}  ${m.toFixed(digits).padStart(8)} ${unit === 'us' ? 'µs' : 'ns'}  (${low.toFixed(digits)})${against}`)
    })
  }
  if (firsts.ours.length === 0) return
  console.log('\nfirst call in a fresh process (the encoder\'s loading included), CPU ms: median of 3')
  console.log(`  ours: pack()                                ${median(firsts.ours).toFixed(2)} ms`)
  console.log(`  the library's encodeIntoCompressedBase64    ${median(firsts.library).toFixed(2)} ms`)
}

main()
