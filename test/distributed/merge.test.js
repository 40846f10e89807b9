'use strict'

// A synthetic large merge: 100 shard results of 1 M recorded latencies
// each (five seconds of 200 k), saved as files, merge into exactly the
// percentiles of one histogram of all 100 M values, in under 2 s.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { createLatencyHistogram, encode, decode, toStats } = require('../../lib/results/histogram')
const { aggregateResult } = require('../../lib/results/result')
const { readResults } = require('../../lib/results/saved-result')
const { mergeResults } = require('../../lib/distributed/merge')

const SHARDS = 100
const PER_SHARD = 1e6
const SECONDS = 5
const LATENCY = { scale: 1000, decimals: 3, bucketEdges: true }

// Latencies from a table (a long-tailed spread, 50 µs to ~10 s) picked by
// a fixed xorshift sequence. Counting the picks per table entry gives the
// reference cheaply and independently of the merge: recording a value n
// times or once with a count of n is the same histogram.
function table (size) {
  const values = new Float64Array(size)
  for (let i = 0; i < size; i++) values[i] = Math.round(50 * Math.exp((i / size) ** 3 * 12))
  return values
}

t.test('100 shards × 1 M latencies merge losslessly, in under 2 s', async (t) => {
  const dir = t.testdir({})
  const values = table(4096)
  const picks = new Float64Array(values.length)
  let x = 2463534242
  const start = Date.UTC(2030, 0, 1)
  const files = []
  for (let s = 0; s < SHARDS; s++) {
    const series = []
    const whole = createLatencyHistogram()
    for (let k = 0; k < SECONDS; k++) {
      const second = createLatencyHistogram()
      for (let i = 0; i < PER_SHARD / SECONDS; i++) {
        x ^= x << 13; x ^= x >>> 17; x ^= x << 5
        // Each shard leans a little slower or faster than the last.
        const pick = Math.min(values.length - 1, ((x >>> 20) + s * 7) & 4095)
        picks[pick]++
        second.recordValue(values[pick])
      }
      whole.add(second)
      series.push([start + (k + 1) * 1000, PER_SHARD / SECONDS, PER_SHARD / SECONDS * 120, 0, encode(second)])
    }
    const raw = {
      latencies: whole,
      series,
      totalCompletedRequests: PER_SHARD,
      totalRequests: PER_SHARD,
      totalBytes: PER_SHARD * 120,
      '2xx': PER_SHARD,
      statusCodeStats: { 200: { count: PER_SHARD } },
      duration: SECONDS,
      start: new Date(start + (s % 5)),
      finish: new Date(start + SECONDS * 1000 + 3)
    }
    const result = aggregateResult([raw], { connections: 10, shard: { index: s, count: SHARDS }, startAt: start })
    const file = path.join(dir, `shard-${s}.json`)
    fs.writeFileSync(file, JSON.stringify(result))
    files.push(file)
  }
  const reference = createLatencyHistogram()
  for (let i = 0; i < values.length; i++) if (picks[i]) reference.recordValueWithCount(values[i], picks[i])
  t.equal(reference.totalCount, SHARDS * PER_SHARD, '100 M values in the reference')

  const began = process.hrtime.bigint()
  const results = []
  for (const file of files) results.push(...readResults(file, { need: ['histograms', 'series'] }))
  const merged = mergeResults(results)
  const ms = Number(process.hrtime.bigint() - began) / 1e6
  t.comment(`merge of ${SHARDS} files: ${ms.toFixed(0)} ms`)

  const total = decode(merged.histograms.latency)
  t.equal(total.totalCount, SHARDS * PER_SHARD, 'every latency is in the merge')
  let same = true
  for (let i = 0; i < reference.countsArrayLength; i++) if (total.getCountAtIndex(i) !== reference.getCountAtIndex(i)) same = false
  t.ok(same, 'the merged histogram is the reference, bucket by bucket')
  const { totalCount, ...latency } = merged.latency
  t.same(latency, toStats(reference, LATENCY), 'percentiles, mean, min and max identical to one histogram of all values')
  t.equal(totalCount, SHARDS * PER_SHARD)
  t.same(merged.series.requests, Array(SECONDS).fill(SHARDS * PER_SHARD / SECONDS), 'each second holds every shard\'s requests')
  // (The Req/Sec histogram keeps 3 significant digits.)
  t.ok(Math.abs(merged.requests.average / (SHARDS * PER_SHARD / SECONDS) - 1) < 0.001,
    `Req/Sec ${merged.requests.average} from the sums per second, not one shard's ${PER_SHARD / SECONDS}`)
  t.same(merged.merge.missing, [])
  t.equal(merged.merge.shards, SHARDS)
  t.equal(merged.merge.startSkewMs, 4)
  t.ok(ms < 2000, `merged in ${ms.toFixed(0)} ms (< 2 s)`)
})

t.test('timings: phase histograms added, each interval\'s means weighted by its responses', async (t) => {
  const { resultOfLatencies } = require('../helpers/synthetic-result')
  // Two shards of the same seconds: 40% of each latency is its TTFB.
  const a = JSON.parse(JSON.stringify(resultOfLatencies({ perSecond: [[1000, 1000, 1000], [1500]] })))
  const b = JSON.parse(JSON.stringify(resultOfLatencies({ perSecond: [[2000], [1500]] })))
  const merged = mergeResults([a, b])
  t.equal(merged.timings.ttfb.totalCount, 6)
  t.equal(merged.timings.tls.totalCount, 4, 'each shard\'s two connections')
  const both = createLatencyHistogram()
  for (const us of [400, 400, 400, 600, 800, 600]) both.recordValue(us)
  t.same(merged.timings.ttfb, { ...toStats(both, LATENCY), totalCount: 6 }, 'as one histogram of every TTFB')
  t.same(merged.series.timed, [4, 2])
  t.same(merged.series.ttfbMean, [0.5, 0.6], '(3 × 0.4 + 0.8) / 4 ms in the first second')
  t.same(merged.series.transferMean, [0.75, 0.9])
  t.ok(merged.histograms.timings.ttfb, 'saved again, for the next merge')
  const old = JSON.parse(JSON.stringify(a))
  delete old.timings
  delete old.histograms.timings
  delete old.series.ttfbMean
  delete old.series.transferMean
  delete old.series.timed
  t.equal(mergeResults([old]).timings, undefined, 'results saved before phases were timed: none')
  t.equal(mergeResults([old, b]).timings.ttfb.totalCount, 2, 'with one that has them: its own')
})

// A saved shard of 2 s at 10 req/s, with the run it says it is part of.
function shardOf (index, count, run, extra = {}) {
  const start = Date.UTC(2030, 0, 1)
  const series = [1, 2].map((k) => [start + k * 1000, 10, 1000, 0, encode(createLatencyHistogram())])
  const latencies = createLatencyHistogram()
  latencies.recordValueWithCount(1000, 20)
  const result = aggregateResult([{ latencies, series, totalCompletedRequests: 20, totalRequests: 20, duration: 2, start: new Date(start), finish: new Date(start + 2000) }],
    { url: 'http://svc.test/', connections: 1, shard: { index, count, run }, ...extra })
  return JSON.parse(JSON.stringify(result))
}

const RUN = { connections: 8, amount: 0, maxOverallRequests: 0, overallRate: 0, connectionRate: 0, duration: 5, stages: null, connectionStages: null }

t.test('what differs is named by its flag, each value with the results that had it', async (t) => {
  const staged = { ...RUN, stages: [{ duration: 2, rate: 100 }, { duration: 3, rate: 0 }] }
  const six = [0, 1, 2, 3, 4].map((i) => shardOf(i, 6, RUN)).concat(shardOf(5, 6, staged))
  t.throws(() => mergeResults(six), {
    code: 'AC_DIFFERENT_RUNS',
    message: 'The results are not of one run: --stages none (shard 0, shard 1, shard 2, 2 more) vs 2:100,3:0 (shard 5): merge the shards of one run (or add --force to merge them anyway)'
  })
  const forced = mergeResults(six, { force: true })
  t.same(forced.merge.differences, [{ option: 'stages', flag: '--stages', values: [{ value: null, results: ['shard 0', 'shard 1', 'shard 2', 'shard 3', 'shard 4'] }, { value: staged.stages, results: ['shard 5'] }] }])
  t.equal(forced.requests.total, 120, 'merged all the same')

  // Plain results (no --shard): held to the target and protocol, named by
  // their place in the list.
  const a = shardOf(0, 1, RUN)
  const b = { ...shardOf(0, 1, RUN), url: 'http://other.test/' }
  delete a.shard
  delete b.shard
  t.throws(() => mergeResults([a, b]), { message: /the target http:\/\/svc\.test\/ \(result 1\) vs http:\/\/other\.test\/ \(result 2\)/ })
  t.same(mergeResults([a, b], { force: true }).url, ['http://svc.test/', 'http://other.test/'])
  t.equal(mergeResults([a, { ...a }]).merge.differences.length, 0, 'the same target twice: one run')

  // Saved before shards recorded their run: held to the rest.
  const old = shardOf(1, 2, undefined)
  t.equal(old.shard.run, undefined)
  t.same(mergeResults([shardOf(0, 2, RUN), old]).merge.differences, [])
})

t.test('plain results: held to -c, -p, -R and a moment in common; summed results are called results', async (t) => {
  const { mergeSummary } = require('../../lib/distributed/merge')
  const plain = (extra = {}, shiftMs = 0) => {
    const r = shardOf(0, 1, RUN, extra)
    delete r.shard
    r.start = new Date(Date.parse(r.start) + shiftMs).toISOString()
    r.finish = new Date(Date.parse(r.finish) + shiftMs).toISOString()
    r.series.time = r.series.time.map((x) => x + shiftMs)
    return r
  }
  t.throws(() => mergeResults([plain(), plain({ connections: 3, pipelining: 4 })]), {
    code: 'AC_DIFFERENT_RUNS',
    message: 'The results are not of one run: -c 1 (result 1) vs 3 (result 2); -p 1 (result 1) vs 4 (result 2): merge the results of one run (or add --force to merge them anyway)'
  })
  t.throws(() => mergeResults([plain(), plain({}, 2000)]), {
    message: 'The results are not of one run: the time they ran 2030-01-01T00:00:00.000Z to 2030-01-01T00:00:02.000Z (result 1) vs 2030-01-01T00:00:02.000Z to 2030-01-01T00:00:04.000Z (result 2): merge the results of one run (or add --force to merge them anyway)'
  }, 'one after the other: no moment in common')
  const overlapping = mergeResults([plain(), plain({}, 1000)])
  t.same(overlapping.merge.differences, [], 'a second in common: one run, its gaps warned about')
  t.same(overlapping.merge.warnings.map((w) => w.code), ['AC_SHARD_GAP', 'AC_SHARD_GAP'])
  t.equal(overlapping.merge.shards, 0, 'no shards')
  t.equal(mergeSummary(overlapping.merge), 'merged 2 results (no --shard), start skew 1000 ms')
  t.equal(mergeSummary(mergeResults([plain(), plain()], { expect: 3 }).merge), 'merged 2 results (no --shard), 1 of 3 expected results missing, start skew 0 ms')
})

t.test('the summary names the missing shards', async (t) => {
  const { mergeSummary, missingText } = require('../../lib/distributed/merge')
  const all = mergeResults([shardOf(0, 2, RUN), shardOf(1, 2, RUN)])
  t.equal(mergeSummary(all.merge), 'merged 2 of 2 shards, start skew 0 ms')
  t.equal(missingText(all.merge), null)
  const one = mergeResults([shardOf(1, 2, RUN)])
  t.equal(mergeSummary(one.merge), 'merged 1 of 2 shards (missing: shard 0), start skew 0 ms')
  const three = mergeResults([shardOf(1, 5, RUN), shardOf(3, 5, RUN)])
  t.equal(missingText(three.merge), 'shards 0, 2 and 4')
})
