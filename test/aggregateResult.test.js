'use strict'

// require('autocannon/lib/aggregateResult'): raw results (one per run, or
// one per worker, as skipAggregateResult hands them) into one result, as
// autocannon's own aggregateResult does. (That it loads nothing of the
// run's side: test/printResult.test.js.)

const t = require('tap')
const aggregateResult = require('../lib/aggregateResult')
const { Recorder } = require('../lib/engine/recorder')

// `n` responses of `latencyUs` a second, for `seconds`, from `start`.
function raw ({ n, latencyUs, seconds, start, status = 200 }) {
  const recorder = new Recorder({})
  for (let s = 1; s <= seconds; s++) {
    for (let i = 0; i < n; i++) {
      recorder.started(1)
      recorder.response(status, 100, latencyUs)
    }
    recorder.sample(start + s * 1000)
  }
  return recorder.snapshot({ start, finish: start + seconds * 1000, form: 'encoded' })
}

t.test('two workers\' raw results become one result', async (t) => {
  const start = Date.UTC(2024, 0, 2, 3, 4, 5)
  const result = aggregateResult([raw({ n: 10, latencyUs: 1000, seconds: 2, start }), raw({ n: 30, latencyUs: 2000, seconds: 2, start, status: 500 })], { url: 'http://127.0.0.1:1', connections: 4 })
  t.equal(result.requests.total, 80)
  t.equal(result.requests.average, 40, '40 a second, both workers together')
  t.equal(result.non2xx, 60)
  t.equal(result['5xx'], 60)
  t.equal(result['2xx'], 20)
  t.equal(result.latency.min, 1)
  t.equal(result.latency.max, 2)
  t.equal(result.latency.p50, 2, 'three quarters of the responses took 2 ms')
  t.equal(result.throughput.total, 8000)
  t.equal(result.url, 'http://127.0.0.1:1')
  t.equal(result.connections, 4)
})

t.test('options may be left out, or null, as autocannon\'s', async (t) => {
  const start = Date.UTC(2024, 0, 2, 3, 4, 5)
  for (const opts of [undefined, null]) t.equal(aggregateResult([raw({ n: 5, latencyUs: 500, seconds: 1, start })], opts).requests.total, 5)
})

// autocannon's raw results: histograms made with its lib/histUtil, latency in ms.
function upstreamRaw (histUtil, { latenciesMs, perSample = [], bytes = [] }) {
  const h = histUtil.getHistograms()
  for (const ms of latenciesMs) h.latencies.recordValue(ms)
  for (const n of perSample) h.requests.recordValue(n)
  for (const n of bytes) h.throughput.recordValue(n)
  const total = latenciesMs.length
  const start = new Date(Date.UTC(2024, 0, 2, 3, 4, 5))
  return {
    histograms: h,
    raw: {
      latencies: histUtil.encodeHist(h.latencies),
      requests: histUtil.encodeHist(h.requests),
      throughput: histUtil.encodeHist(h.throughput),
      totalCompletedRequests: total,
      totalRequests: total,
      totalBytes: bytes.reduce((a, b) => a + b, 0),
      samples: perSample.length,
      errors: 0,
      timeouts: 0,
      mismatches: 0,
      non2xx: 0,
      statusCodeStats: { 200: { count: total } },
      resets: 0,
      duration: perSample.length,
      start,
      finish: new Date(start.getTime() + perSample.length * 1000),
      '1xx': 0,
      '2xx': total,
      '3xx': 0,
      '4xx': 0,
      '5xx': 0
    }
  }
}

const STATS = (s) => Object.fromEntries(['average', 'mean', 'stddev', 'min', 'max', 'p50', 'p90', 'p99', 'p99_999'].map((k) => [k, s[k]]))

t.test('autocannon\'s raw results (latency in ms) and its third argument, as its own aggregateResult takes them', async (t) => {
  const histUtil = require('../lib/compat/histUtil')
  const theirs = require('autocannon-upstream/lib/aggregateResult')
  const { raw, histograms } = upstreamRaw(histUtil, { latenciesMs: [5, 5, 7, 20], perSample: [10, 12], bytes: [100, 300] })
  const opts = { url: 'http://127.0.0.1:1', title: 't', connections: 3 }
  const mine = aggregateResult(raw, opts, histograms)
  const up = theirs(raw, opts, histograms)
  for (const key of ['latency', 'requests', 'throughput']) t.same(STATS(mine[key]), STATS(up[key]), key)
  t.equal(mine.latency.p50, 5, 'ms read as ms')
  t.equal(mine.latency.totalCount, 4)
  t.equal(mine.requests.average, 11, 'requests from the third argument')
  t.equal(mine.throughput.average, 200)
  t.equal(mine.requests.total, 4)
  t.equal(mine.requests.sent, 4)
  t.equal(mine.samples, up.samples)
  t.equal(mine.title, 't')
  t.equal(mine.connections, 3)

  const two = aggregateResult([raw, upstreamRaw(histUtil, { latenciesMs: [100] }).raw], opts)
  t.equal(two.latency.max, theirs([raw, upstreamRaw(histUtil, { latenciesMs: [100] }).raw], opts).latency.max, 'two merged as autocannon merges them')
  t.equal(two.latency.totalCount, 5)
  t.equal(two.requests.average, 0, 'without the third argument: no samples, as autocannon gives it')
})

t.test('our raw results in autocannon\'s form too: ms histograms for its lib/histUtil, µs ones for our merge', async (t) => {
  const histUtil = require('../lib/compat/histUtil')
  const { publicRaw } = require('../lib/results/upstream-raw')
  const start = Date.UTC(2024, 0, 2, 3, 4, 5)
  const ours = publicRaw(raw({ n: 10, latencyUs: 2500, seconds: 2, start }))
  t.equal(histUtil.decodeHist(ours.latencies).getValueAtPercentile(50), 2, '2.5 ms is 2 in autocannon\'s whole ms')
  t.same([histUtil.decodeHist(ours.requests).totalCount, histUtil.decodeHist(ours.requests).getValueAtPercentile(50)], [2, 10], 'one value per sample')
  t.equal(histUtil.decodeHist(ours.throughput).getValueAtPercentile(50), 1000)
  const merged = aggregateResult([ours, ours], { url: 'http://127.0.0.1:1' })
  const plain = raw({ n: 10, latencyUs: 2500, seconds: 2, start })
  t.same(merged.latency, aggregateResult([plain, plain], { url: 'http://127.0.0.1:1' }).latency, 'merged from the µs histogram: as our own raw results merge')
  t.ok(Math.abs(merged.latency.p50 - 2.5) < 0.005, `nothing lost: ${merged.latency.p50} ms`)
  t.equal(merged.requests.total, 40)
  t.equal(merged.requests.average, 20, 'per-sample counts from our series')
  const theirs = require('autocannon-upstream/lib/aggregateResult')(ours, { url: 'http://127.0.0.1:1' })
  t.equal(theirs.latency.p50, 2, 'autocannon\'s aggregateResult reads ours in ms')
  t.equal(theirs.requests.total, 20)
  const mixed = aggregateResult([ours, upstreamRaw(histUtil, { latenciesMs: [4] }).raw], { url: 'http://127.0.0.1:1' })
  t.equal(mixed.latency.totalCount, 21, 'ours and autocannon\'s merged')
  t.ok(Math.abs(mixed.latency.max - 4) < 0.005, `autocannon's 4 ms as 4 ms: ${mixed.latency.max}`)
})
