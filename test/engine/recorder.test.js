'use strict'

// The recorder's counts and the latency histogram: integer microseconds
// in, milliseconds with decimals out; encoding and merging lose nothing.

const t = require('tap')
const { EventEmitter } = require('events')
const { Recorder } = require('../../lib/engine/recorder')
const { aggregateResult } = require('../../lib/results/result')
const { buildConfig } = require('../../lib/config/config')
const { Run } = require('../../lib/engine/run')
const {
  createLatencyHistogram, createCountHistogram, encode, decode, toStats, countAbove, PERCENTILE_KEYS
} = require('../../lib/results/histogram')

const HOUR_US = 3600 * 1e6

function resultOf (recorder, extra = {}) {
  recorder.sample(Date.UTC(2026, 0, 1, 0, 0, 1))
  return aggregateResult([recorder.snapshot({ start: Date.UTC(2026, 0, 1), finish: Date.UTC(2026, 0, 1, 0, 0, 1), ...extra })])
}

// Deterministic values from a few µs to a few seconds, with repeats.
function values (n, seed = 7) {
  const out = []
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31
    out.push(1 + (seed % 1000) * 2 ** (seed % 13))
  }
  return out
}

function histogramOf (list) {
  const h = createLatencyHistogram()
  for (const v of list) h.recordValue(v)
  return h
}

// Every non-empty bucket as [value, count].
function buckets (h) {
  const out = []
  for (let i = 0; i < h.countsArrayLength; i++) {
    const c = h.getCountAtIndex(i)
    if (c !== 0) out.push([h.valueFromIndex(i), c])
  }
  return out
}

t.test('a 250 µs latency reads 0.25 ms', async (t) => {
  const r = new Recorder()
  r.response(200, 100, 250)
  const { latency } = resultOf(r)
  t.equal(latency.totalCount, 1)
  for (const key of ['average', 'mean', 'min', 'max', 'p50', 'p99', 'p99_999', 'p0_001']) {
    t.equal(latency[key], 0.25, `${key} is 0.25 ms`)
  }
  t.equal(latency.stddev, 0)
})

t.test('sub-millisecond latencies keep their microseconds', async (t) => {
  const r = new Recorder()
  for (const us of [1, 7, 42, 999]) r.response(200, 1, us)
  const { latency } = resultOf(r)
  t.equal(latency.min, 0.001, '1 µs is 0.001 ms, not 0')
  t.equal(latency.max, 0.999)
  t.equal(latency.p50, 0.007, 'median of 1, 7, 42, 999 µs')
  t.equal(latency.p75, 0.042)
  t.equal(latency.average, 0.262, '(1 + 7 + 42 + 999) / 4 µs')
  for (const [, key] of PERCENTILE_KEYS) t.ok(latency[key] > 0, `${key} is not rounded to zero`)
})

t.test('latencies up to an hour (and beyond) are recorded', async (t) => {
  const r = new Recorder()
  r.response(200, 1, 500)
  r.response(200, 1, 60 * 1e6)
  r.response(200, 1, HOUR_US)
  const { latency } = resultOf(r)
  t.equal(latency.totalCount, 3)
  t.equal(latency.min, 0.5)
  t.ok(latency.max >= 3600000 && latency.max <= 3600000 * 1.001, `max ${latency.max} ms is an hour, to 3 significant digits`)
  t.ok(latency.p50 >= 60000 && latency.p50 <= 60000 * 1.001, `p50 ${latency.p50} ms is a minute`)
  t.equal(latency.p99, latency.max, 'the percentiles reach the max and do not pass it')

  const r2 = new Recorder()
  r2.response(200, 1, 2 * HOUR_US)
  r2.flushPartial()
  t.equal(r2.latency.totalCount, 1, 'two hours: the histogram grows rather than throw')
  const back = decode(encode(r2.latency))
  t.equal(back.totalCount, 1)
  t.ok(back.maxValue >= 2 * HOUR_US && back.maxValue <= 2 * HOUR_US * 1.001, 'and travels encoded')
})

t.test('latency is recorded as given, in integer microseconds', async (t) => {
  const r = new Recorder()
  r.response(200, 1, 1234)
  t.equal(r.intervalLatency.getCountAtValue(1234), 1, 'in the interval')
  r.flushPartial()
  t.equal(r.latency.getCountAtValue(1234), 1, '1234 µs in its own bucket (exact below 2048)')
  t.equal(r.latency.maxValue, 1234)
})

t.test('errors: excludeErrorStats keeps non-2xx out of latency and bytes, not out of counts', async (t) => {
  const r = new Recorder({ excludeErrorStats: true, trackUncorrected: true })
  r.response(200, 10, 100)
  r.response(500, 20, 900000)
  r.response(302, 30, 800000)
  r.uncorrected(200, 50)
  r.uncorrected(500, 700000)
  t.equal(r.latencyUncorrected.totalCount, 1)
  t.equal(r.bytes, 10)
  t.equal(r.counter, 3, 'every response counted')
  const snap = r.snapshot({ start: 0, finish: 1000 })
  t.equal(snap.latencies.totalCount, 1)
  t.equal(snap.latencies.maxValue, 100)
  t.equal(snap['2xx'], 1)
  t.equal(snap['3xx'], 1)
  t.equal(snap['5xx'], 1)
  t.equal(snap.non2xx, 2)

  const all = new Recorder()
  all.response(200, 10, 100)
  all.response(500, 20, 900000)
  t.equal(all.bytes, 30)
  t.equal(all.snapshot({ start: 0, finish: 1000 }).latencies.totalCount, 2, 'by default errors count in latency')
})

t.test('latencyUncorrected: only under a rate, and not with -C', async (t) => {
  const url = 'http://127.0.0.1:1'
  const runs = {
    'no rate': new Run(buildConfig({ url }), new EventEmitter(), { onDone () {} }),
    overallRate: new Run(buildConfig({ url, overallRate: 100 }), new EventEmitter(), { onDone () {} }),
    connectionRate: new Run(buildConfig({ url, connectionRate: 10 }), new EventEmitter(), { onDone () {} }),
    'overallRate with ignoreCoordinatedOmission': new Run(buildConfig({ url, overallRate: 100, ignoreCoordinatedOmission: true }), new EventEmitter(), { onDone () {} })
  }
  const expected = { 'no rate': false, overallRate: true, connectionRate: true, 'overallRate with ignoreCoordinatedOmission': false }
  for (const [name, run] of Object.entries(runs)) {
    const r = run.recorder
    r.response(200, 1, 300)
    if (r.latencyUncorrected !== null) r.uncorrected(200, 200)
    t.equal(r.latencyUncorrected !== null, expected[name], `${name}: tracked ${expected[name]}`)
    const snap = r.snapshot({ start: 0, finish: 1000, targetRate: run.scheduler ? run.scheduler.targetRate : 0 })
    t.equal(snap.latenciesUncorrected !== undefined, expected[name], `${name}: in the snapshot`)
    const result = aggregateResult([snap])
    t.equal('latencyUncorrected' in result, expected[name], `${name}: in the result`)
    if (expected[name]) {
      t.equal(result.latencyUncorrected.p50, 0.2, 'service time, 200 µs')
      t.equal(result.latency.p50, 0.3, 'beside the corrected latency, 300 µs')
      t.equal(result.latencyUncorrected.totalCount, 1)
    }
  }
})

t.test('per-second series: [end, responses, bytes, errors, latency, p50, p99, longest loop delay] per sample', async (t) => {
  const r = new Recorder()
  r.response(200, 10, 100)
  r.response(200, 10, 3000)
  r.requestErrors(2, 'read', 'ECONNRESET')
  r.sample(1000)
  r.sample(2000) // an idle second is a sample of 0
  r.response(404, 5, 250)
  r.loopDelay(0)
  r.loopDelay(4000)
  r.sample(3000)
  r.response(200, 7, 100)
  r.flushPartial() // the partial last interval: totals only
  t.same(r.series.map((s) => s.slice(0, 4)), [[1000, 2, 20, 2], [2000, 0, 0, 0], [3000, 1, 5, 0]])
  t.same(r.series.map((s) => buckets(decode(s[4]))), [[[100, 1], [3000, 1]], [], [[250, 1]]],
    'each interval has its own latency histogram')
  t.same(r.series.map((s) => s.slice(5, 7)), [[100, 3001], [0, 0], [250, 250]], 'p50 and p99 of each interval (µs, bucket edges)')
  t.same(r.series.map((s) => s[7]), [0, 0, 4000], 'the event loop\'s longest delay in each interval (µs)')
  t.equal(r.loopDelays.totalCount, 2, 'and of the run')
  t.equal(r.intervalLatency.totalCount, 0, 'the partial interval is dropped from the series')
  t.equal(r.totalCompleted, 4)
  t.equal(r.totalBytes, 32)
  t.equal(r.counter, 0)
  t.equal(r.bytes, 0)
  t.same(r.takeTick(), { counter: 4, bytes: 32 }, 'the progress tick counts on its own')
  t.same(r.takeTick(), { counter: 0, bytes: 0 }, 'and restarts when taken')
  const snap = r.snapshot({ start: 0, finish: 3500 })
  t.equal(snap.samples, 3)
  t.not(snap.series, r.series, 'the snapshot has its own copy of the series')
  t.same(snap.series, r.series)
})

t.test('timings: each connection\'s steps once, each response\'s first byte and transfer per interval and in the run', async (t) => {
  const r = new Recorder({ excludeErrorStats: true })
  r.connected({ dns: 0, connect: 150, proxyConnect: -1, tls: -1 })
  r.connected({ dns: 2000, connect: 300, proxyConnect: 700, tls: 4000 })
  r.response(200, 10, 2800, 1000, 1800)
  r.response(200, 10, 1200, 1200, 0)
  r.response(500, 10, 9000, 9000, 0) // not counted in the stats, as its latency is not
  r.sample(1000)
  r.response(200, 10, 2000, 1500, 500)
  r.sample(2000)
  r.sample(3000)
  const counts = (name) => buckets(r.timings[name])
  t.same(counts('dns'), [[0, 1], [2000, 1]], 'a name that is an address takes no lookup: 0')
  t.same(counts('connect'), [[150, 1], [300, 1]])
  t.same(counts('proxyConnect'), [[700, 1]], 'only through a proxy\'s tunnel')
  t.same(counts('tls'), [[4000, 1]], 'only over TLS')
  t.same(counts('ttfb'), [[1000, 1], [1200, 1], [1500, 1]], 'per response, 2xx only with excludeErrorStats')
  t.same(counts('transfer'), [[0, 1], [500, 1], [1800, 1]])
  t.same(r.series.map((s) => s.slice(9)), [[2200, 1800, 2], [1500, 500, 1], [0, 0, 0]], 'each interval: ttfb and transfer sums (µs) and how many')
  const snap = r.snapshot({ start: 0, finish: 3000, form: 'encoded' })
  t.same(Object.keys(snap.timings), ['dns', 'connect', 'proxyConnect', 'tls', 'ttfb', 'transfer'])
  t.same(buckets(decode(snap.timings.ttfb)), [[1000, 1], [1200, 1], [1500, 1]], 'encoded when it leaves the thread')
  r.cut({ start: 0, finish: 3000 })
  t.same(Object.values(r.timings).map((h) => h.totalCount), [0, 0, 0, 0, 0, 0], 'a cut starts them afresh')
})

t.test('timings: the time our event loop was busy inside each set-up step, summed with its longest, per step taken', async (t) => {
  const r = new Recorder()
  r.connected({ dns: 0, connect: 150, proxyConnect: -1, tls: -1, dnsDelay: 0, connectDelay: 4000, proxyConnectDelay: 0, tlsDelay: 0 })
  r.connected({ dns: 2000, connect: 300, proxyConnect: 700, tls: 900, dnsDelay: 100, connectDelay: 1000, proxyConnectDelay: 50, tlsDelay: 3000 })
  r.connected({ dns: 0, connect: 200, proxyConnect: -1, tls: -1 })
  t.same(r.snapshot({ start: 0, finish: 1000 }).setupDelay, {
    dns: { us: 100, maxUs: 100 },
    connect: { us: 5000, maxUs: 4000 },
    proxyConnect: { us: 50, maxUs: 50 },
    tls: { us: 3000, maxUs: 3000 }
  })
  r.cut({ start: 0, finish: 1000 })
  t.same(r.snapshot({ start: 0, finish: 1000 }).setupDelay.connect, { us: 0, maxUs: 0 }, 'a cut starts them afresh')
})

t.test('timings under a plan: each response\'s TTFB recorded as it comes (its latency counts from the plan)', async (t) => {
  const r = new Recorder({ trackUncorrected: true })
  r.response(200, 10, 1900, 400, 0)
  r.response(200, 10, 1700, 300, 500)
  r.sample(1000)
  t.same(buckets(r.timings.ttfb), [[300, 1], [400, 1]], 'not the corrected latency')
  t.same(buckets(r.timings.transfer), [[0, 1], [500, 1]])
  t.same(r.series[0].slice(9), [700, 500, 2])
  const open = new Recorder()
  open.response(200, 10, 900, 900, 0)
  open.flushPartial()
  t.same(buckets(open.timings.ttfb), [[900, 1]], 'a partial interval settles its responses into the run\'s too')
  t.same(buckets(open.timings.transfer), [[0, 1]])
})

t.test('snapshot shape', async (t) => {
  const r = new Recorder({ trackUncorrected: true })
  r.lateness = createLatencyHistogram() // as the scheduler's start() does
  r.lateness.recordValue(6000)
  r.late = 1
  r.response(200, 100, 1000)
  r.response(201, 100, 2000)
  r.response(101, 0, 10)
  r.response(404, 50, 500)
  r.response(503, 50, 500)
  r.response(1234, 0, 500) // beyond the table: counted in the last slot
  r.uncorrected(200, 900)
  r.sent = 9
  r.requestErrors(1, 'connect', 'ECONNREFUSED')
  r.requestErrors(1, 'timeout', 'AC_TIMEOUT')
  r.mismatches = 3
  r.resets = 4
  r.unexpectedResponse()
  r.unexpectedResponse()
  r.sample(1e12 + 1000)
  const start = 1e12
  const finish = 1e12 + 1234.4
  const snap = r.snapshot({ start, finish, inFlight: 1, targetRate: 50 })
  t.same(Object.keys(snap).sort(), [
    '1xx', '2xx', '3xx', '4xx', '5xx', 'busy', 'duration', 'errorCodes', 'errors', 'errorsByCause', 'finish', 'inFlight', 'late', 'latencies',
    'lateNoConnection', 'lateOwn', 'lateStarved', 'pauses',
    'latenciesUncorrected', 'lateness', 'loopDelay', 'mismatches', 'non2xx', 'planned', 'resent', 'resets', 'samples', 'series', 'setupDelay', 'start',
    'statusCodeStats', 'targetRate', 'timeouts', 'timings', 'totalBytes', 'totalCompletedRequests', 'totalRequests', 'unexpectedResponses'
  ].sort())
  t.equal(snap.latencies, r.latency, 'in-process: the histogram itself')
  t.equal(snap.latenciesUncorrected, r.latencyUncorrected)
  t.equal(snap.lateness, r.lateness)
  t.same(snap.series.map((s) => s.slice(0, 4)), [[1e12 + 1000, 6, 300, 2]])
  t.equal(decode(snap.series[0][4]).totalCount, 6)
  t.equal(snap.totalCompletedRequests, 6)
  t.equal(snap.totalRequests, 9)
  t.equal(snap.totalBytes, 300)
  t.equal(snap.unexpectedResponses, 2, 'responses to no request, apart from errors')
  t.equal(snap.inFlight, 1)
  t.equal(snap.samples, 1)
  t.equal(snap.errors, 2)
  t.equal(snap.timeouts, 1)
  t.same(snap.errorsByCause, { connect: 1, read: 0, write: 0, timeout: 1, parse: 0, hook: 0 })
  t.same(snap.errorCodes, { ECONNREFUSED: 1, AC_TIMEOUT: 1 })
  t.equal(snap.totalRequests, snap.totalCompletedRequests + snap.errors + snap.inFlight, 'sent = total + errors + inFlight')
  t.equal(snap.mismatches, 3)
  t.equal(snap.resets, 4)
  t.equal(snap.targetRate, 50)
  t.equal(snap.late, 1)
  t.equal(snap['1xx'], 1)
  t.equal(snap['2xx'], 2)
  t.equal(snap['3xx'], 0)
  t.equal(snap['4xx'], 1)
  t.equal(snap['5xx'], 1)
  t.equal(snap.non2xx, 3, '1xx + 3xx + 4xx + 5xx')
  t.same(snap.statusCodeStats, { 101: { count: 1 }, 200: { count: 1 }, 201: { count: 1 }, 404: { count: 1 }, 503: { count: 1 }, 999: { count: 1 } })
  t.equal(snap.duration, 1.234, 'seconds, from whole ms')
  t.ok(snap.start instanceof Date && snap.start.getTime() === start)
  t.ok(snap.finish instanceof Date && snap.finish.getTime() === 1e12 + 1234, 'a Date keeps whole ms')

  const enc = r.snapshot({ start, finish, form: 'encoded' })
  for (const key of ['latencies', 'latenciesUncorrected', 'lateness']) {
    t.type(enc[key], 'string', `${key} encoded`)
    t.match(enc[key], /^[A-Za-z0-9+/]+=*$/, `${key} is base64`)
  }
  t.same(buckets(decode(enc.latencies)), buckets(r.latency))
  t.same(buckets(decode(enc.lateness)), [[6000, 1]])
  t.equal(enc.targetRate, 0, 'targetRate defaults to 0')
  t.equal(enc.inFlight, 0)

  const plain = new Recorder().snapshot({ start, finish })
  t.equal(plain.latenciesUncorrected, undefined, 'no uncorrected histogram without a rate')
  t.equal(plain.lateness, undefined, 'no lateness without a scheduler')
  t.same(plain.statusCodeStats, {})
  t.same(plain.series, [])
})

t.test('histogram: encode → decode is lossless', async (t) => {
  const list = values(20000)
  list.push(HOUR_US, 1, 0)
  const h = histogramOf(list)
  const back = decode(encode(h))
  t.equal(back.totalCount, h.totalCount, 'count')
  t.same(buckets(back), buckets(h), 'every bucket and its count')
  const ps = [0, 0.001, 1, 2.5, 10, 25, 50, 75, 90, 97.5, 99, 99.9, 99.99, 99.999, 100]
  t.same(ps.map((p) => back.getValueAtPercentile(p)), ps.map((p) => h.getValueAtPercentile(p)), 'percentiles')
  t.equal(back.maxValue, h.highestEquivalentValue(h.maxValue), 'max, to its bucket')
  t.equal(back.minNonZeroValue, h.lowestEquivalentValue(h.minNonZeroValue), 'min, to its bucket')
  t.equal(back.mean, h.mean)
  t.equal(back.stdDeviation, h.stdDeviation)

  // What the result reports is the same either way.
  const opts = { scale: 1000, decimals: 3, bucketEdges: true }
  t.same(toStats(back, opts), toStats(h, opts), 'stats in ms: min, max, mean, every percentile')
  const viaResult = (latencies) => aggregateResult([{ latencies, start: 0, finish: 1000, duration: 1 }]).latency
  t.same(viaResult(encode(h)), viaResult(histogramOf(list)), 'the result: encoded or not')
  t.equal(decode(h), h, 'a histogram (not a string) is used as it is')
})

t.test('histogram: extremes that are not bucket boundaries survive encoding in the result', async (t) => {
  // 123 456 µs lies inside a 64 µs bucket: the exact max is lost by
  // encoding, so the result reports the bucket's top in both cases.
  const list = [2100, 5000, 123456]
  const plain = aggregateResult([{ latencies: histogramOf(list), start: 0, finish: 1000, duration: 1 }]).latency
  const coded = aggregateResult([{ latencies: encode(histogramOf(list)), start: 0, finish: 1000, duration: 1 }]).latency
  t.equal(plain.max, coded.max, `max ${plain.max} either way`)
  t.equal(plain.min, coded.min, `min ${plain.min} either way`)
  t.equal(plain.max, plain.p99_999, 'the max is where the top percentile is')
  t.ok(plain.max >= 123.456 && plain.max <= 123.456 * 1.001, 'within 0.1% of the value recorded')
  t.ok(plain.min <= 2.1 && plain.min >= 2.1 / 1.001)
})

t.test('histogram: merging two encoded histograms equals recording all values in one', async (t) => {
  const a = values(5000, 1)
  const b = values(7000, 2).map((v) => v * 3) // another range, so buckets differ
  b.push(HOUR_US)
  const one = histogramOf(a.concat(b))
  const merged = decode(encode(histogramOf(a)))
  merged.add(decode(encode(histogramOf(b))))
  t.equal(merged.totalCount, 12001)
  t.same(buckets(merged), buckets(one), 'bucket by bucket')
  const opts = { scale: 1000, decimals: 3, bucketEdges: true }
  t.same(toStats(merged, opts), toStats(one, opts))
  const ps = [50, 90, 99, 99.9, 99.999]
  t.same(ps.map((p) => merged.getValueAtPercentile(p)), ps.map((p) => one.getValueAtPercentile(p)))
})

t.test('count histogram: 64-bit, for bytes per sample beyond 2^31', async (t) => {
  const h = createCountHistogram()
  h.recordValue(5e9)
  h.recordValue(5e9)
  h.recordValue(0)
  const s = toStats(h)
  t.equal(s.min, 0, 'a sample of 0 is the min')
  t.equal(s.max, 5e9)
  t.ok(Math.abs(s.p50 - 5e9) / 5e9 < 0.001)
})

t.test('toStats with bucketEdges agrees with the library\'s getters', async (t) => {
  const { toStatsReference } = require('../helpers/stats-reference')
  const h = histogramOf(values(3000, 5).concat([HOUR_US, 123456]))
  const opts = { scale: 1000, decimals: 3, bucketEdges: true }
  t.same(toStats(h, opts), toStatsReference(h, opts))
  t.equal(toStats(h, opts).max, +(h.highestEquivalentValue(h.maxValue) / 1000).toFixed(3))
  t.equal(toStats(h).max, HOUR_US, 'without it, the max as recorded')
})

// The recorder owns its counts: no other module writes them, so every
// count has one place where it changes (and one shape to merge).
t.test('only the recorder changes its counts', async (t) => {
  const fs = require('fs')
  const path = require('path')
  const dir = path.join(__dirname, '..', '..', 'lib')
  const files = fs.readdirSync(dir, { recursive: true })
    .filter((f) => f.endsWith('.js') && path.basename(f) !== 'recorder.js')
  t.ok(files.length > 40, `${files.length} files of lib/ read`)
  const write = /\brecorder\.[A-Za-z_]\w*(\[[^\]]*\])?\s*(\+\+|--|[-+*/]?=(?!=))/
  for (const file of files) {
    const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n')
    lines.forEach((line, i) => t.notMatch(line, write, `${file}:${i + 1} does not write a count`))
  }
  t.ok(write.test('this.recorder.sent += n'), 'the pattern finds a write')
  t.ok(write.test('recorder.late++'), 'and an increment')
  t.notOk(write.test('if (recorder.sent === 0)'), 'not a comparison')
})

t.test('the counting methods', async (t) => {
  const { Recorder } = require('../../lib/engine/recorder')
  const r = new Recorder()
  r.started(5)
  r.unstarted(2)
  r.sequenceReset()
  r.mismatch()
  r.mismatch()
  r.trackLateness()
  r.planned(1.5, false)
  r.planned(7, true)
  t.equal(r.sent, 3)
  t.equal(r.resets, 1)
  t.equal(r.mismatches, 2)
  t.equal(r.late, 1)
  t.equal(r.lateness.totalCount, 2)
  t.equal(r.lateness.maxValue >= 6990, true, 'lateness in µs')
})

t.test('late requests by cause, and pauses split by cause', async (t) => {
  const { OWN, STARVED } = require('../../lib/engine/loop-monitor')
  const r = new Recorder()
  r.trackLateness()
  r.planned(9, true, true)
  r.planned(9, true, false)
  r.planned(9, true, false)
  t.same([r.late, r.lateNoConnection, r.lateHeld], [3, 1, 2], 'the thread\'s wait for the monitor\'s next sample')
  r.loopDelay(0, null, 0)
  t.equal(r.lateHeld, 2, 'a sample that cannot tell (no CPU clock) charges nothing')
  t.equal(r.snapshot({ start: 0, finish: 1 }).pauses, null, 'nor splits a pause')
  r.loopDelay(20000, 15000, OWN)
  t.same([r.lateOwn, r.lateStarved, r.lateHeld], [2, 0, 0], 'to the pause\'s cause')
  r.planned(9, true, false)
  r.loopDelay(300, null, STARVED)
  t.same([r.lateOwn, r.lateStarved], [2, 1], 'or to the cause the monitor gives a sample that is no pause')
  r.loopDelay(30000, 1000, STARVED)
  t.same(r.snapshot({ start: 0, finish: 1 }).pauses, {
    own: { count: 1, us: 16000, maxUs: 15000 },
    starved: { count: 1, us: 34000, maxUs: 29000 }
  }, 'each pause counted once, by its larger part; each part summed, and its longest')
  r.cut({ start: 0, finish: 1 })
  t.same([r.late, r.lateNoConnection, r.lateOwn, r.lateStarved, r.lateHeld], [0, 0, 0, 0, 0], 'a cut starts the counts over')
  t.same(r.snapshot({ start: 0, finish: 1 }).pauses, { own: { count: 0, us: 0, maxUs: 0 }, starved: { count: 0, us: 0, maxUs: 0 } })
})

t.test('peek: the window so far, counted as its snapshot will count it', async (t) => {
  const r = new Recorder()
  for (const [status, us] of [[200, 1000], [201, 60000], [304, 70000], [404, 2000], [503, 80000], [503, 3000], [700, 90000]]) r.response(status, 10, us)
  r.requestErrors(2, 'timeout', 'ETIMEDOUT')
  r.requestErrors(1, 'connect', 'ECONNREFUSED')
  const peek = r.peek([50, 75])
  const result = resultOf(r)
  t.same(peek, { responses: 7, errors: 3, timeouts: 2, non2xx: 4, serverErrors: 2, above: [4, 2] })
  t.equal(peek.non2xx, result.non2xx, 'non2xx as the result counts it (1xx, 3xx, 4xx, 5xx)')
  t.equal(peek.serverErrors, result['5xx'])
  t.same([peek.responses, peek.errors, peek.timeouts], [result.requests.total, result.errors, result.timeouts])
  r.cut({ start: 0, finish: 1 })
  t.same(r.peek([50]), { responses: 0, errors: 0, timeouts: 0, non2xx: 0, serverErrors: 0, above: [0] }, 'a cut starts the next window at zero')
})

t.test('a response is recorded once: the run\'s latency is its intervals added up', async (t) => {
  const r = new Recorder()
  const direct = createLatencyHistogram()
  const next = require('../../lib/core/random').seededRandom(7)
  let second = 0
  for (let k = 0; k < 5000; k++) {
    // Mostly sub-ms to seconds, now and then beyond the hour the histogram
    // starts with (it grows).
    const us = k === 4000 ? 2 * HOUR_US : Math.floor(next() ** 4 * 3e6) + 1
    r.response(200, 1, us)
    direct.recordValue(us)
    if (k % 700 === 699) r.sample(++second * 1000)
    if (k === 2500) {
      const peek = r.peek([1000, 2000])
      t.same(peek.above, [1000, 2000].map((ms) => countAbove(direct, ms)), 'mid-interval, peek counts the run and its open interval')
      t.ok(peek.above[0] > 0)
    }
  }
  t.ok(r.intervalLatency.totalCount > 0, 'an interval is still open')
  const snap = r.snapshot({ start: 0, finish: second * 1000 + 500 })
  t.same(buckets(snap.latencies), buckets(direct), 'same buckets as one histogram of every latency')
  t.equal(snap.latencies.totalCount, direct.totalCount)
  t.equal(snap.latencies.minNonZeroValue, direct.minNonZeroValue)
  t.equal(snap.latencies.maxValue, direct.maxValue)
  t.same(snap.series.map((s) => decode(s[4]).totalCount), new Array(second).fill(700), 'each interval still has its own')
})

t.test('the progress tick goes on across a cut', async (t) => {
  const r = new Recorder()
  r.response(200, 10, 100)
  r.response(200, 10, 100)
  t.same(r.takeTick(), { counter: 2, bytes: 20 })
  r.response(200, 10, 100)
  r.sample(1000)
  r.response(200, 5, 100)
  r.cut({ start: 0, finish: 1500 })
  r.response(200, 1, 100)
  t.same(r.takeTick(), { counter: 3, bytes: 16 }, 'what came before the cut and after it')
  t.same(r.takeTick(), { counter: 0, bytes: 0 })
})

t.test('a cut sets the window\'s counts as a new recorder has them, on the same fields', async (t) => {
  const { OWN, STARVED } = require('../../lib/engine/loop-monitor')
  const counts = (r) => ({
    totalCompleted: r.totalCompleted,
    totalBytes: r.totalBytes,
    sent: r.sent,
    errors: r.errors,
    timeouts: r.timeouts,
    errorsByCause: { ...r.errorsByCause },
    errorCodes: { ...r.errorCodes },
    mismatches: r.mismatches,
    resets: r.resets,
    resent: r.resent,
    late: r.late,
    lateNoConnection: r.lateNoConnection,
    lateOwn: r.lateOwn,
    lateStarved: r.lateStarved,
    lateHeld: r.lateHeld
  })
  const fresh = new Recorder()
  const r = new Recorder()
  r.trackLateness()
  r.started(6)
  r.response(200, 10, 100)
  r.requestErrors(2, 'timeout', 'ETIMEDOUT')
  r.mismatch()
  r.sequenceReset()
  r.resend(1)
  r.planned(20, true, true)
  r.planned(20, true, false)
  r.loopDelay(30000, 20000, OWN)
  r.planned(20, true, false)
  r.loopDelay(30000, 1000, STARVED)
  r.planned(20, true, false)
  r.sample(1000)
  const before = counts(r)
  for (const [name, value] of Object.entries(counts(fresh))) t.not(JSON.stringify(before[name]), JSON.stringify(value), `${name} counted before the cut`)
  r.cut({ start: 0, finish: 1000 })
  t.same(counts(r), counts(fresh), 'each count as it starts')
  t.same(Object.keys(r), Object.keys(fresh), 'the same fields, in the same order')
})
