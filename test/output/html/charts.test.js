'use strict'

// What the report's charts draw (lib/output/html/charts.js), computed
// before the page hands it to uPlot: lines on one x array with nulls where
// a line has no point, a colour per result when there are several (their
// lines told apart by dashes), rates per second whatever the interval, and
// the connections chart only for a run that ramped them. Which lines the
// whole report draws: test/output/html/report/results.test.js.

const t = require('tap')
const { charts, chart, PALETTE } = require('../../../lib/output/html/charts')
const { resultOfLatencies } = require('../../helpers/synthetic-result')
const { createLatencyHistogram, encode } = require('../../../lib/results/histogram')

const byId = (drawn, id) => drawn.find((c) => c.id === id)

t.test('chart: the lines on one sorted x array, null where a line has no point', async (t) => {
  const c = chart({ id: 'x', title: 'X' }, [
    { label: 'a', color: 'red', points: [[3, 30], [1, 10]] },
    { label: 'b', dash: [6, 4], points: [[2, 20], [3, 31]] }
  ])
  t.same(c.series, [{ label: 'a', color: 'red' }, { label: 'b', dash: [6, 4] }], 'series without their points')
  t.same(c.data, [[1, 2, 3], [10, null, 30], [null, 20, 31]])
  t.equal(c.title, 'X')
})

t.test('charts of one result: a colour per line; of several: a colour per result', async (t) => {
  const a = resultOfLatencies({ perSecond: [[1000, 2000], [3000]] })
  const b = resultOfLatencies({ perSecond: [[5000]], start: Date.UTC(2024, 0, 2, 3, 4, 5) })
  const one = charts([{ name: 'a', result: a }])
  t.same(one.map((c) => c.id), ['latency-percentiles', 'requests-over-time', 'latency-over-time', 'timings-over-time'])
  const overTime = byId(one, 'latency-over-time')
  t.same(overTime.series.map((s) => s.color), [PALETTE[0], PALETTE[1], '#e69f00'])
  t.same(overTime.data, [[1, 2], [1, 3.001], [2, 3.001], [0, 0]], 'seconds since the start; p50, p99 and the longest pause per interval')
  const several = charts([{ name: 'a', result: a }, { name: 'b', result: b }])
  const lines = byId(several, 'latency-over-time').series
  t.same(lines.map((s) => s.label), ['a p50 (from send)', 'a p99 (from send)', 'a generator pause', 'b p50 (from send)', 'b p99 (from send)', 'b generator pause'], 'closed loops: latency from each send')
  t.same(lines.map((s) => s.color), [PALETTE[0], PALETTE[0], PALETTE[0], PALETTE[1], PALETTE[1], PALETTE[1]])
  t.same(lines.map((s) => s.dash), [undefined, [6, 4], [2, 3], undefined, [6, 4], [2, 3]])
})

t.test('where the time went: each interval\'s mean TTFB and transfer stacked, the wait before the write beneath them under a rate', async (t) => {
  // synthetic-result's responses take 40% of their latency to the first byte.
  const plain = resultOfLatencies({ perSecond: [[1000, 2000], [1500]] })
  const [one] = charts([{ name: 'p', result: plain }]).filter((c) => c.kind === 'time' && c.stacked)
  t.equal(one.id, 'timings-over-time')
  t.same(one.series.map((s) => s.label), ['Transfer (mean)', 'Time to first byte (mean)'])
  t.ok(one.series.every((s) => /^#[0-9a-f]{6}$/.test(s.fill)), 'opaque fills, each band its own colour')
  t.same(one.data, [[1, 2], [1.5, 1.5], [0.6, 0.6]], 'the top line the sum of both, the lower one TTFB alone (ms)')

  // Under a rate the latency counts from the plan: 0.8 ms more than the
  // phases in the first interval, 0.4 ms in the second.
  const rated = resultOfLatencies({ perSecond: [[1000], [1000]], uncorrected: (us) => us })
  rated.series.ttfbMean = [0.5, 0.5]
  rated.series.transferMean = [0.5, 0.3]
  const encoded = (us) => { const h = createLatencyHistogram(); h.recordValue(us); return encode(h) }
  rated.series.latency = [encoded(1800), encoded(1200)]
  const [stacked] = charts([{ name: 'r', result: rated }]).filter((c) => c.stacked)
  t.same(stacked.series.map((s) => s.label), ['Transfer (mean)', 'Time to first byte (mean)', 'Wait before send (mean)'])
  t.same(stacked.data.slice(1), [[1.8, 1.2], [1.3, 0.9], [0.8, 0.4]], 'wait = mean latency − TTFB − transfer, beneath them')

  const several = charts([{ name: 'a', result: plain }, { name: 'b', result: rated }]).filter((c) => c.stacked)
  t.same(several.map((c) => [c.id, c.title]), [['timings-over-time-1', 'Where the time went per interval: a'], ['timings-over-time-2', 'Where the time went per interval: b']], 'one chart per run')
  const old = resultOfLatencies({ perSecond: [[1000]] })
  delete old.series.ttfbMean
  t.same(charts([{ name: 'o', result: old }]).filter((c) => c.stacked), [], 'none for a result saved before phases were timed')
})

t.test('responses and errors per second, whatever the sample interval', async (t) => {
  const r = resultOfLatencies({ perSecond: [[1000, 1000, 1000], [1000]] })
  r.series.interval = 250
  r.series.errors = [1, 0]
  const requests = byId(charts([{ name: 'r', result: r }]), 'requests-over-time')
  t.equal(requests.title, 'Responses and errors per second', 'what the series counts: responses')
  t.same(requests.series.map((s) => [s.label, s.scale]), [['Responses/s', 'y'], ['Errors/s', 'errors']])
  t.same(requests.data.slice(1), [[12, 4], [4, 0]], 'counts of a quarter second, times four')
  t.equal(requests.y2Integer, true, 'errors: whole-number ticks')
  t.equal(requests.xStep, 0.25, 'the time axis ticks at multiples of the sample interval')
  t.equal(byId(charts([{ name: 'r', result: resultOfLatencies({ perSecond: [[1000]] }) }]), 'latency-over-time').xStep, 1, 'of 1 s by default')
})

t.test('which latency the legends say: corrected under a rate, from send otherwise', async (t) => {
  const rated = resultOfLatencies({ perSecond: [[1000], [2000]] })
  rated.latencyUncorrected = rated.latency
  rated.histograms.latencyUncorrected = rated.histograms.latency
  const drawn = charts([{ name: 'r', result: rated }])
  t.same(byId(drawn, 'latency-over-time').series.map((s) => s.label), ['p50 (corrected)', 'p99 (corrected)', 'generator pause (max)'])
  t.same(byId(drawn, 'latency-percentiles').series.map((s) => s.label), ['Latency (corrected)', 'Latency (uncorrected)'])
  const closed = charts([{ name: 'c', result: resultOfLatencies({ perSecond: [[1000]] }) }])
  t.same(byId(closed, 'latency-over-time').series.map((s) => s.label).slice(0, 2), ['p50 (from send)', 'p99 (from send)'])
})

t.test('connections over time: only for a run whose connections were ramped', async (t) => {
  const ramped = { ...resultOfLatencies({ perSecond: [[1000], [1000]] }), connectionStages: [{ duration: 2, connections: 4 }] }
  ramped.series.connections = [2, 4]
  const drawn = charts([{ name: 'r', result: ramped }])
  t.same(drawn.map((c) => c.id), ['latency-percentiles', 'requests-over-time', 'connections-over-time', 'latency-over-time', 'timings-over-time'], 'beside requests, on the same time axis')
  t.same(byId(drawn, 'connections-over-time').data, [[1, 2], [2, 4]])
  t.notOk(byId(charts([{ name: 'p', result: resultOfLatencies({ perSecond: [[1000]] }) }]), 'connections-over-time'))
})
