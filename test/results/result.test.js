'use strict'

// aggregateResult: raw snapshots (one per run, worker or machine) into one
// result. Counts add up, histograms merge bucket by bucket, samples line
// up by time.

const t = require('tap')
const { Recorder } = require('../../lib/engine/recorder')
const { aggregateResult, runResult, mergeSeries } = require('../../lib/results/result')
const { buildConfig } = require('../../lib/config/config')
const { createLatencyHistogram, createCountHistogram, toStats } = require('../../lib/results/histogram')

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0)
const LATENCY = { scale: 1000, decimals: 3, bucketEdges: true }

// A rated run's recorder, filled as the clients and the run fill it:
// responses[s] is the list of [status, bytes, latencyUs] answered in
// second s; each second is sampled at its end.
function runSnapshot ({ start = T0, responses, lateness = [], late = 0, sent, inFlight = 0, targetRate = 0, sampleInt = 1000, encoded = false, errors = 0, extraMs = 0 }) {
  const r = new Recorder({ trackUncorrected: targetRate > 0 })
  if (targetRate > 0) r.lateness = createLatencyHistogram()
  for (const us of lateness) r.lateness.recordValue(us)
  r.late = late
  let n = 0
  responses.forEach((second, s) => {
    for (const [status, bytes, us] of second) {
      r.response(status, bytes, us)
      if (r.latencyUncorrected) r.uncorrected(status, Math.round(us / 2))
      n++
    }
    r.sample(start + (s + 1) * sampleInt)
  })
  r.sent = sent === undefined ? n + inFlight : sent
  r.errors = errors
  const finish = start + responses.length * sampleInt + extraMs
  return r.snapshot({ start, finish, inFlight, targetRate, form: encoded ? 'encoded' : 'histogram' })
}

function seconds (counts, status = 200, bytes = 100, latency = (i) => 100 + i * 37) {
  let i = 0
  return counts.map((c) => Array.from({ length: c }, () => [status, bytes, latency(i++)]))
}

function histogramOf (list) {
  const h = createLatencyHistogram()
  for (const v of list) h.recordValue(v)
  return h
}

function latencies (responses) {
  return responses.flat().map(([, , us]) => us)
}

t.test('two concurrent runs: counts add up, histograms merge losslessly', async (t) => {
  const ra = seconds([3, 5, 4], 200, 100, (i) => 150 + i * 91)
  const rb = seconds([2, 6, 1], 200, 40, (i) => 2000 + i * 1733)
  rb[1].push([404, 10, 123456], [500, 10, 777])
  const a = runSnapshot({ responses: ra, inFlight: 2, errors: 1 })
  const b = runSnapshot({ responses: rb, inFlight: 3, sent: 20 })
  const result = aggregateResult([a, b], { connections: 4 })

  t.equal(result.requests.total, 12 + 11, 'completed requests')
  t.equal(result.requests.sent, 14 + 20, 'sent requests')
  t.equal(result.requests.inFlight, 5, 'in flight at the end, summed')
  t.equal(result.throughput.total, 1200 + 9 * 40 + 20, 'bytes')
  t.equal(result.errors, 1)
  t.equal(result['2xx'], 21)
  t.equal(result['4xx'], 1)
  t.equal(result['5xx'], 1)
  t.equal(result.non2xx, 2)
  t.same(result.statusCodeStats, { 200: { count: 21 }, 404: { count: 1 }, 500: { count: 1 } })

  const all = histogramOf(latencies(ra).concat(latencies(rb)))
  const expected = toStats(all, LATENCY)
  expected.totalCount = 23
  t.same(result.latency, expected, 'latency: the stats of one histogram holding every value')
  t.equal(result.latency.max, 123.519, '123 456 µs reported as its bucket\'s top, in ms')
  t.equal(result.latency.min, 0.15)

  t.equal(result.samples, 3, 'the runs overlapped: second by second, summed')
  const req = createCountHistogram()
  for (const v of [5, 13, 5]) req.recordValue(v)
  t.same(
    (({ total, sent, inFlight, ...rest }) => rest)(result.requests),
    toStats(req),
    'Req/Sec: 3 + 2, 5 + 8, 4 + 1'
  )
  t.equal(result.duration, 3)
  t.same(result.start, new Date(T0))
  t.same(result.finish, new Date(T0 + 3000))
  t.equal(result.rate, undefined, 'no rate section without a target rate')
  t.equal(result.latencyUncorrected, undefined)
  t.equal(result.connections, 4)
})

t.test('encoded snapshots (as workers send them, through JSON) give the same result', async (t) => {
  const ra = seconds([4, 4], 200, 10)
  const rb = seconds([1, 7], 200, 10, (i) => 5000 + i * 2999)
  const opts = { targetRate: 50, lateness: [0, 1500, 7000], late: 1 }
  const plain = aggregateResult([runSnapshot({ responses: ra, ...opts }), runSnapshot({ responses: rb, ...opts })])
  const wire = [runSnapshot({ responses: ra, ...opts, encoded: true }), runSnapshot({ responses: rb, ...opts, encoded: true })]
  const coded = aggregateResult(JSON.parse(JSON.stringify(wire)))
  t.type(wire[0].latencies, 'string')
  t.same(coded, plain)
})

t.test('aggregating does not change the snapshots: twice gives the same result', async (t) => {
  const a = runSnapshot({ responses: seconds([3, 3]), targetRate: 10, lateness: [100, 200] })
  const b = runSnapshot({ responses: seconds([2, 2]), targetRate: 10, lateness: [300] })
  const countA = a.latencies.totalCount
  const first = aggregateResult([a, b])
  const second = aggregateResult([a, b])
  t.same(second, first)
  t.equal(first.latency.totalCount, 10)
  t.equal(a.latencies.totalCount, countA, 'the first run\'s histogram is not merged into')
  t.equal(a.lateness.totalCount, 2)
  t.equal(a.latenciesUncorrected.totalCount, 6)
  t.equal(aggregateResult([a]).latency.totalCount, 6, 'and still reads as itself')
})

t.test('runs apart in time: Req/Sec holds both runs\' samples', async (t) => {
  const a = runSnapshot({ responses: seconds([10, 20, 30]) })
  const b = runSnapshot({ start: T0 + 60000, responses: seconds([1, 2]) })
  const result = aggregateResult([a, b])
  t.equal(result.samples, 5, '3 + 2 samples, none summed')
  const req = createCountHistogram()
  for (const v of [10, 20, 30, 1, 2]) req.recordValue(v)
  const expected = toStats(req)
  for (const key of Object.keys(expected)) t.equal(result.requests[key], expected[key], `requests.${key}`)
  t.equal(result.requests.min, 1)
  t.equal(result.requests.max, 30)
  t.equal(result.requests.average, 12.6)
  t.equal(result.throughput.max, 3000)
  t.equal(result.throughput.min, 100)
  t.equal(result.requests.total, 63)
  t.equal(result.duration, 62, 'from the first start to the last finish')
})

t.test('mergeSeries aligns samples by time from the earliest start', async (t) => {
  const raw = (start, ends) => ({ start: new Date(start), series: ends.map((e, i) => [start + e, i + 1, 10 * (i + 1)]) })
  // b starts 2.3 s after a; its samples fall in a's 3rd, 4th, 5th seconds.
  const a = raw(T0, [1000, 2000, 3000, 4000])
  const b = raw(T0 + 2300, [1000, 2000, 3000])
  const counts = (slots) => slots.map((s) => [s.requests, s.bytes])
  t.same(counts(mergeSeries([a, b], 1000)), [[1, 10], [2, 20], [3 + 1, 30 + 10], [4 + 2, 40 + 20], [3, 30]])
  t.same(mergeSeries([b, a], 1000), mergeSeries([a, b], 1000), 'whatever the order of the runs')
  // Timers fire a little late: a sample at +1004 ms is still the first.
  const late = raw(T0, [1004, 2003, 2999])
  t.same(counts(mergeSeries([late, raw(T0, [1000, 2000, 3000])], 1000)), [[2, 20], [4, 40], [6, 60]])
  // Other sample intervals; start as an ISO string (a raw result through JSON).
  const c = { start: new Date(T0 + 250).toISOString(), series: [[T0 + 750, 5, 50], [T0 + 1250, 6, 60]] }
  const d = raw(T0, [500, 1000, 1500])
  t.same(counts(mergeSeries([c, d], 500)), [[1, 10], [2 + 5, 20 + 50], [3 + 6, 30 + 60]])
  t.same(mergeSeries([{ start: T0 }], 1000), [], 'no samples, no series')
  // In aggregateResult, the sample interval comes from the options.
  const e = runSnapshot({ responses: seconds([1, 2, 3, 4]), sampleInt: 250 })
  const f = runSnapshot({ start: T0 + 500, responses: seconds([10, 10]), sampleInt: 250 })
  const r = aggregateResult([e, f], { sampleInt: 250 })
  t.equal(r.samples, 4)
  t.equal(r.requests.max, 14, '4 + 10 in the 4th quarter second')
  t.equal(r.sampleInt, 250)
})

t.test('rate: target, achieved, late and lateness', async (t) => {
  const a = runSnapshot({ responses: seconds([100, 100]), targetRate: 100, lateness: [0, 10, 20, 6000, 9000], late: 2 })
  const b = runSnapshot({ responses: seconds([98, 99]), targetRate: 100, lateness: [30, 40000], late: 1, extraMs: 0 })
  const result = aggregateResult([a, b])
  t.same(Object.keys(result.rate).sort(), ['achieved', 'arrivals', 'late', 'lateness', 'planned', 'seed', 'target'])
  t.equal(result.rate.arrivals, 'uniform', 'evenly spaced unless told otherwise')
  t.equal(result.rate.seed, undefined, 'no seed for even spacing')
  const poisson = aggregateResult([a, b], { arrivals: 'poisson', seed: 42 })
  t.same([poisson.rate.arrivals, poisson.rate.seed], ['poisson', 42])
  t.equal(result.rate.target, 200, 'concurrent runs: their targets add up')
  t.equal(result.rate.achieved, 198.5, '397 responses in 2 s')
  t.equal(result.rate.late, 3)
  const expected = toStats(histogramOf([0, 10, 20, 6000, 9000, 30, 40000]), LATENCY)
  t.same(result.rate.lateness, expected, 'lateness: both runs, in ms')
  t.equal(result.rate.lateness.max, 40.031, '40 000 µs, to the top of its 32 µs bucket')
  t.equal(result.rate.lateness.p50, 0.03, 'the 4th of 7 values: 30 µs')
  t.ok(result.latencyUncorrected, 'uncorrected latency merged too')
  t.equal(result.latencyUncorrected.totalCount, 397)

  const one = aggregateResult([runSnapshot({ responses: seconds([30, 30, 31]), targetRate: 30, extraMs: 33 })])
  t.equal(one.rate.target, 30)
  t.equal(one.duration, 3.033, 'one run: its own duration')
  t.equal(one.rate.achieved, 30, '91 / 3.033 s, to 2 decimals')
  t.equal(one.rate.late, 0)
  t.equal(one.rate.lateness.totalCount, undefined, 'lateness is stats, without a count field')
  t.equal(one.rate.lateness.max, 0, 'nothing late: an empty lateness histogram reads 0')

  const noLateness = aggregateResult([{ ...runSnapshot({ responses: seconds([1]) }), targetRate: 5 }])
  t.equal(noLateness.rate.lateness, undefined, 'a raw result without a lateness histogram')
  t.equal(noLateness.rate.target, 5)
})

t.test('edge cases: one result not in an array, no responses, no results', async (t) => {
  const a = runSnapshot({ responses: seconds([2]) })
  t.same(aggregateResult(a), aggregateResult([a]), 'a single raw result')
  const empty = aggregateResult([runSnapshot({ responses: [[]] })])
  t.equal(empty.latency.totalCount, 0)
  t.equal(empty.latency.max, 0)
  t.equal(empty.latency.p99, 0)
  t.equal(empty.requests.max, 0, 'an idle second is a sample of 0')
  t.equal(empty.samples, 1)
  t.throws(() => aggregateResult([]), { code: 'AC_INVALID_ARGUMENT', message: 'aggregateResult needs at least one result' })
})

t.test('the options a result reports: the caller\'s, each left out the table\'s default; a run\'s config as set', async (t) => {
  const a = runSnapshot({ responses: seconds([2, 3]), targetRate: 5 })
  const reported = (r) => [r.connections, r.pipelining, r.sampleInt, r.rate.arrivals, r.rate.seed]
  t.strictSame(reported(aggregateResult([a])), [10, 1, 1000, 'uniform', undefined], 'none given: the defaults')
  t.strictSame(reported(aggregateResult([a], { connections: 0, pipelining: 4, sampleInt: '1000', arrivals: 'poisson', seed: 3 })),
    [0, 4, 1000, 'poisson', 3], 'each as given (0 connections too), sampleInt as a number')
  t.strictSame(reported(aggregateResult([a], { connections: null, sampleInt: 0, arrivals: '' })),
    [null, 1, 1000, 'uniform', undefined], 'sampleInt 0 and arrivals \'\' count as not given; connections only when undefined')
  const config = buildConfig({ url: 'http://127.0.0.1:1', connections: 3, pipelining: 2, overallRate: 5 })
  const ofRun = runResult([a], config)
  t.strictSame(reported(ofRun), [3, 2, 1000, 'uniform', undefined], 'a run\'s config: as buildConfig set them')
  t.same(ofRun, aggregateResult([a], config), 'the same result as aggregateResult gives for that config')
})

t.test('a result keeps its histograms (encoded) and its per-second series', async (t) => {
  const { decode } = require('../../lib/results/histogram')
  const ra = seconds([3, 5, 4], 200, 100, (i) => 150 + i * 91)
  const rb = seconds([2, 6], 200, 40, (i) => 20000 + i * 1733)
  const a = runSnapshot({ responses: ra, targetRate: 10 })
  const b = runSnapshot({ responses: rb, encoded: true, targetRate: 10 })
  const result = aggregateResult([a, b], { connections: 4 })

  const latency = decode(result.histograms.latency)
  t.same(toStats(latency, LATENCY), toStats(histogramOf([...latencies(ra), ...latencies(rb)]), LATENCY),
    'the encoded latency histogram holds every response of both runs')
  t.equal(decode(result.histograms.latencyUncorrected).totalCount, 20)
  const requests = decode(result.histograms.requests, 64)
  t.same([requests.totalCount, requests.minNonZeroValue, requests.maxValue], [3, 4, 11], 'Req/Sec: one sample per second of summed counts')
  t.equal(decode(result.histograms.throughput, 64).maxValue, 5 * 100 + 6 * 40)

  const s = result.series
  t.equal(s.interval, 1000)
  t.same(s.time, [T0 + 1000, T0 + 2000, T0 + 3000])
  t.same(s.requests, [5, 11, 4])
  t.same(s.bytes, [3 * 100 + 2 * 40, 5 * 100 + 6 * 40, 4 * 100])
  t.same(s.errors, [0, 0, 0])
  t.equal(s.latency.length, 3)
  for (let i = 0; i < 3; i++) {
    const own = [...ra[i] || [], ...rb[i] || []].map(([, , us]) => us)
    const h = decode(s.latency[i])
    t.same(buckets(h), buckets(histogramOf(own)), `second ${i + 1}: both runs' responses in one histogram`)
    t.equal(s.latencyP50[i], Math.round(h.getValueAtPercentile(50)) / 1000)
    t.equal(s.latencyP99[i], Math.round(h.getValueAtPercentile(99)) / 1000)
  }
  t.ok(s.latencyP99[1] > 20, `p99 of the 2nd second (${s.latencyP99[1]} ms) is b's`)
  t.ok(s.latencyP50[2] < 2, `the 3rd second had a's responses only (${s.latencyP50[2]} ms)`)

  const saved = JSON.parse(JSON.stringify(result))
  t.same(saved.series, s, 'the series survives JSON as it is')
  t.same(buckets(decode(saved.histograms.latency)), buckets(latency))
})

function buckets (h) {
  const out = []
  for (let i = 0; i < h.countsArrayLength; i++) {
    const c = h.getCountAtIndex(i)
    if (c !== 0) out.push([h.valueFromIndex(i), c])
  }
  return out
}

t.test('timings: each set-up step\'s generator delay, over threads, per connection that took it', async (t) => {
  const a = new Recorder()
  a.connected({ dns: 0, connect: 150, proxyConnect: -1, tls: 400, dnsDelay: 0, connectDelay: 3000, proxyConnectDelay: 0, tlsDelay: 1000 })
  a.connected({ dns: 0, connect: 250, proxyConnect: -1, tls: 600, dnsDelay: 0, connectDelay: 1000, proxyConnectDelay: 0, tlsDelay: 0 })
  const b = new Recorder()
  b.connected({ dns: 0, connect: 200, proxyConnect: -1, tls: 500, dnsDelay: 0, connectDelay: 5000, proxyConnectDelay: 0, tlsDelay: 500 })
  const snap = (r) => r.snapshot({ start: T0, finish: T0 + 1000 })
  const { timings } = aggregateResult([snap(a), snap(b)])
  t.same(timings.connect.generatorDelay, { avg: 3, max: 5 }, 'ms, the mean over the 3 connections and the longest')
  t.same(timings.tls.generatorDelay, { avg: 0.5, max: 1 })
  t.same(timings.dns.generatorDelay, { avg: 0, max: 0 })
  t.equal(timings.proxyConnect.generatorDelay, undefined, 'a step no connection took: none')
  t.equal(timings.ttfb.generatorDelay, undefined, 'only the set-up steps')
  const old = snap(a)
  delete old.setupDelay
  t.equal(aggregateResult([old]).timings.connect.generatorDelay, undefined, 'a raw result without it (read back from a file): none')
})
