'use strict'

// The 'sample' event's samples: read off a recorder as it takes each
// sample, and across workers merged per interval as the result merges
// intervals, emitted once every running worker has sent its own.

const t = require('tap')
const { Recorder } = require('../../lib/engine/recorder')
const { liveSample, mergeSamples, sampleMerge } = require('../../lib/engine/live-samples')
const { createLatencyHistogram, pack, decode } = require('../../lib/results/histogram')

function sample ({ requests = 10, errors = 0, latencies = [1000], loop = 0, time = 1000 } = {}) {
  const h = createLatencyHistogram()
  for (const us of latencies) h.recordValue(us)
  return {
    elapsed: 1,
    time,
    interval: 1000,
    requests,
    bytes: requests * 10,
    errors,
    latencyP50: h.getValueAtPercentile(50) / 1000,
    latencyP99: h.getValueAtPercentile(99) / 1000,
    loopDelayMax: loop,
    connections: 2,
    ttfbSum: 100,
    transferSum: 10,
    timed: requests,
    latency: pack(h),
    totals: { responses: requests, sent: requests, errors, timeouts: 0, late: 1, statusCodes: { 200: requests } }
  }
}

t.test('a recorder\'s sample', async (t) => {
  const recorder = new Recorder()
  recorder.intervalLatency.recordValue(2000)
  recorder.intervalLatency.recordValue(4000)
  recorder.counter = 2
  recorder.bytes = 20
  recorder.sent = 3
  recorder.statusCounts[200] = 2
  recorder.sample(12345, 4)
  const s = liveSample(recorder, 1.0004, 1000)
  t.equal(s.time, 12345, 'its end')
  t.equal(s.elapsed, 1, 'seconds into the run, to the ms')
  t.equal(s.requests, 2, 'its responses')
  t.equal(s.connections, 4, 'its connections')
  t.equal(s.interval, 1000, 'the interval')
  t.ok(Math.abs(s.latencyP99 - 4) < 0.01, `its p99 in ms (${s.latencyP99})`)
  t.equal(decode(s.latency).totalCount, 2, 'its histogram, packed')
  t.same(s.totals, { responses: 2, sent: 3, errors: 0, timeouts: 0, late: 0, statusCodes: { 200: 2 } }, 'the run\'s so far')
})

t.test('threads merged', async (t) => {
  const a = sample({ requests: 10, latencies: [1000, 1000], loop: 3, time: 1001 })
  const b = sample({ requests: 5, errors: 2, latencies: [9000, 9000], loop: 7, time: 1000 })
  const m = mergeSamples([a, b])
  t.equal(m.requests, 15, 'responses summed')
  t.equal(m.errors, 2, 'errors summed')
  t.equal(m.loopDelayMax, 7, 'the slowest thread\'s pause')
  t.equal(m.time, 1000, 'the earliest end')
  t.equal(m.totals.responses, 15, 'totals summed')
  t.same(m.totals.statusCodes, { 200: 15 }, 'status codes summed')
  t.equal(decode(m.latency).totalCount, 4, 'histograms added')
  t.ok(m.latencyP99 > 8.9, `p99 of the merged histogram (${m.latencyP99})`)
  t.equal(a.requests, 10, 'the parts are left as they were')
})

t.test('per interval, once every running worker has sent it', async (t) => {
  const out = []
  const merge = sampleMerge(2, (s) => out.push(s.requests))
  merge.add(0, sample({ requests: 1 }))
  merge.add(0, sample({ requests: 2 }))
  t.same(out, [], 'waits for the other worker')
  merge.add(1, sample({ requests: 10 }))
  t.same(out, [11], 'the first interval')
  merge.add(1, sample({ requests: 20 }))
  t.same(out, [11, 22], 'the second')
  merge.add(1, sample({ requests: 30 }))
  merge.finished(0)
  t.same(out, [11, 22, 30], 'a worker that ended is not waited for')
})

t.test('under a rate, watched by the dashboard: the interval\'s service time too', async (t) => {
  const recorder = new Recorder({ trackUncorrected: true, liveUncorrected: true })
  recorder.intervalLatency.recordValue(9000)
  recorder.uncorrected(200, 1000)
  recorder.uncorrected(200, 3000)
  recorder.counter = 2
  recorder.sample(1000, 1)
  const s = liveSample(recorder, 1, 1000)
  t.ok(Math.abs(s.uncorrectedP99 - 3) < 0.01, `its uncorrected p99 in ms (${s.uncorrectedP99})`)
  t.ok(Math.abs(s.uncorrectedP50 - 1) < 0.01, `its uncorrected p50 (${s.uncorrectedP50})`)
  t.equal(decode(s.latencyUncorrected).totalCount, 2, 'its histogram, packed')
  t.equal(recorder.latencyUncorrected.totalCount, 2, 'added into the run\'s at the interval\'s end')
  recorder.uncorrected(200, 5000)
  recorder.sample(2000, 1)
  t.equal(decode(liveSample(recorder, 2, 1000).latencyUncorrected).totalCount, 1, 'the next interval\'s own')
  recorder.uncorrected(500, 7000)
  const snap = recorder.snapshot({ start: 0, finish: 3000 })
  t.equal(snap.latenciesUncorrected.totalCount, 4, 'the run\'s, the last partial interval included')
})

t.test('not watched by the dashboard, or not under a rate: nothing more', async (t) => {
  const recorder = new Recorder({ trackUncorrected: true })
  recorder.uncorrected(200, 1000)
  t.equal(recorder.intervalUncorrected, null, 'no interval histogram')
  t.equal(recorder.latencyUncorrected.totalCount, 1, 'recorded into the run\'s at once')
  recorder.sample(1000, 1)
  t.notOk('uncorrectedP50' in liveSample(recorder, 1, 1000), 'the sample has none')
  t.equal(new Recorder({ liveUncorrected: true }).intervalUncorrected, null, 'none without a rate')
})

t.test('threads merged: their service times too', async (t) => {
  const histogram = (us) => {
    const h = createLatencyHistogram()
    for (const v of us) h.recordValue(v)
    return pack(h)
  }
  const a = { ...sample({ latencies: [1000] }), uncorrectedP50: 1, uncorrectedP99: 1, latencyUncorrected: histogram([1000, 1000]) }
  const b = { ...sample({ latencies: [2000] }), uncorrectedP50: 9, uncorrectedP99: 9, latencyUncorrected: histogram([9000, 9000, 9000]) }
  const m = mergeSamples([a, b])
  t.equal(decode(m.latencyUncorrected).totalCount, 5, 'histograms added')
  t.ok(Math.abs(m.uncorrectedP50 - 9) < 0.01, `p50 of the merged histogram (${m.uncorrectedP50})`)
  t.ok(Math.abs(m.uncorrectedP99 - 9) < 0.01, `p99 of the merged histogram (${m.uncorrectedP99})`)
  t.notOk('latencyUncorrected' in mergeSamples([sample(), sample()]), 'none when the threads had none')
})
