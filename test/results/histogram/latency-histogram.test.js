'use strict'

// The latency histogram's own bucket lookup (clz32 and shifts) must put
// every value where the library's floating-point lookup puts it, and its
// own recordValue count what the library's would.

const t = require('tap')
const { createLatencyHistogram } = require('../../../lib/results/histogram/create')
const Int32Histogram = require('hdr-histogram-js/dist/Int32Histogram').default

t.test('same counts index as hdr-histogram-js for integer microseconds', async (t) => {
  const ours = createLatencyHistogram()
  const reference = new Int32Histogram(1, 3600 * 1e6, 3)
  reference.autoResize = true
  const values = [0, 1, 2, 1023, 1024, 2047, 2048, 2049, 4095, 4096, 65535, 65536, 999999, 3600 * 1e6, 2 ** 31 - 1]
  for (let shift = 0; shift < 31; shift++) {
    const v = 2 ** shift
    values.push(v - 1, v, v + 1)
  }
  let seed = 42
  for (let i = 0; i < 20000; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    values.push(seed >>> (seed % 31))
  }
  let mismatches = 0
  for (const v of values) {
    if (ours.countsArrayIndex(v) !== reference.countsArrayIndex(v)) mismatches++
  }
  t.equal(mismatches, 0, `${values.length} values, each in the library's bucket`)
})

t.test('values outside the fast path still land in the right bucket', async (t) => {
  const ours = createLatencyHistogram()
  const reference = new Int32Histogram(1, 3600 * 1e6, 3)
  reference.autoResize = true
  for (const v of [2 ** 31, 2 ** 40 + 3, 1.5, 250.75]) {
    t.equal(ours.countsArrayIndex(v), reference.countsArrayIndex(v), `value ${v}`)
  }
})

t.test('recorded values read back with the same percentiles', async (t) => {
  const ours = createLatencyHistogram()
  const reference = new Int32Histogram(1, 3600 * 1e6, 3)
  reference.autoResize = true
  for (let i = 1; i <= 100000; i++) {
    const v = (i * 7919) % 250000
    ours.recordValue(v)
    reference.recordValue(v)
  }
  ours.recordValue(7200 * 1e6) // beyond the hour: the histogram grows
  reference.recordValue(7200 * 1e6)
  for (const p of [1, 50, 90, 99, 99.9, 99.999, 100]) {
    t.equal(ours.getValueAtPercentile(p), reference.getValueAtPercentile(p), `p${p}`)
  }
  t.equal(ours.totalCount, reference.totalCount)
  t.equal(ours.minNonZeroValue, reference.minNonZeroValue)
  t.equal(ours.maxValue, reference.maxValue)
})

t.test('recordValue: the same counts, total, min and max as the library, bucket by bucket', async (t) => {
  const ours = createLatencyHistogram()
  const reference = new Int32Histogram(1, 3600 * 1e6, 3)
  reference.autoResize = true
  let seed = 11
  const values = [0, 0, 1, 2047, 2048, 3600 * 1e6, 2.5, 1e-3]
  for (let i = 0; i < 50000; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    values.push(seed >>> (seed % 31))
  }
  values.push(5 * 3600 * 1e6, 7, 2 ** 31 - 1) // grows, then the fast path again
  for (const v of values) {
    ours.recordValue(v)
    reference.recordValue(v)
  }
  t.equal(ours.countsArrayLength, reference.countsArrayLength)
  let differ = 0
  for (let i = 0; i < reference.countsArrayLength; i++) if (ours.getCountAtIndex(i) !== reference.getCountAtIndex(i)) differ++
  t.equal(differ, 0, `${values.length} values, every bucket`)
  t.equal(ours.totalCount, reference.totalCount)
  t.equal(ours.minNonZeroValue, reference.minNonZeroValue)
  t.equal(ours.maxValue, reference.maxValue)
  const first = createLatencyHistogram()
  first.recordValue(0)
  t.equal(first.minNonZeroValue, Number.MAX_SAFE_INTEGER, 'a 0 leaves the minimum above zero unset, as in the library')
  t.equal(first.maxValue, 0)
  for (const v of [900, 12, 300]) first.recordValue(v)
  t.same([first.minNonZeroValue, first.maxValue, first.totalCount], [12, 900, 4], 'min and max of the values recorded')
})
