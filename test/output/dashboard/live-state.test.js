'use strict'

// What the dashboard knows: each sample's numbers and the row each time
// chart gains (the report's charts, made by charts.js), the history
// whole for a page opened late, the stage in force, a search's steps and
// the one under way, and what it shows redacted.

const t = require('tap')
const { LiveState, stageAt } = require('../../../lib/output/dashboard/live-state')
const { createLatencyHistogram, pack, encode } = require('../../../lib/results/histogram')

const CONFIG = { url: 'http://user:secret@127.0.0.1:1/', sampleInt: 1000, duration: 10, amount: 0 }

function sample (k, requests) {
  const h = createLatencyHistogram()
  h.recordValue(1000 + k)
  return {
    elapsed: k,
    time: 100000 + k * 1000,
    interval: 1000,
    requests,
    bytes: requests,
    errors: 0,
    latencyP50: 1,
    latencyP99: 2,
    loopDelayMax: 0,
    connections: 3,
    ttfbSum: 1000 * requests,
    transferSum: 0,
    timed: requests,
    latency: pack(h),
    totals: { responses: requests * k, sent: requests * k, errors: 0, timeouts: 0, late: 0, statusCodes: { 200: requests * k } }
  }
}

t.test('samples: a row per interval, the history whole', async (t) => {
  const state = new LiveState(CONFIG)
  t.notMatch(JSON.stringify(state.state()), /secret/, 'the URL redacted')
  t.same(state.state().charts, [], 'no chart before a sample')
  state.sample(sample(1, 500))
  const first = state.sampleEvent()
  t.same(first.rows['requests-over-time'].row, [1, 500, 0], 'responses/s at 1 s')
  t.ok(first.rows['latency-percentiles'].whole, 'the percentile chart whole')
  t.equal(first.numbers.responsesPerSecond, 500)
  t.equal(first.numbers.elapsed, 1)
  state.sample(sample(2, 700))
  t.ok(state.sampleEvent().rows['latency-percentiles'], 'the percentile chart a second later')
  const charts = Object.fromEntries(state.state().charts.map((c) => [c.id, c]))
  t.same(charts['requests-over-time'].data, [[1, 2], [500, 700], [0, 0]], 'the history, as the report draws it')
  t.same(charts['latency-over-time'].data[2], [2, 2], 'p99 per interval')
  state.sample({ ...sample(3, 100), time: 102500 })
  t.notOk(state.sampleEvent().rows['latency-percentiles'], 'but at most once a second')
  // The end of the run: the chart whole, of the samples' histograms, or
  // of the result's when given (it holds what came after the last sample).
  const whole = Object.fromEntries(state.state().charts.map((c) => [c.id, c]))['latency-percentiles'].data
  const end = state.endEvent()
  t.same(Object.keys(end.rows), ['latency-percentiles'], 'the percentile chart alone')
  t.same(end.rows['latency-percentiles'].whole, whole, 'of every sample, as the state has it')
  const h = createLatencyHistogram()
  h.recordValue(40000)
  const top = (data) => Math.max(...data[1].filter((v) => v !== null))
  const ofResult = state.endEvent(encode(h)).rows['latency-percentiles'].whole
  t.ok(top(whole) < 40 && top(ofResult) >= 39.9, `of the result's histogram when given (top ${top(whole)}, then ${top(ofResult)} ms)`)
  state.reset()
  t.equal(state.endEvent(), null, 'nothing for a round without a sample')
  t.same(state.state().charts, [], 'a new round starts empty')
})

t.test('the stage in force', async (t) => {
  const stages = [{ duration: 2, rate: 100 }, { duration: 3, rate: 500 }]
  t.equal(stageAt(stages, 'rate', 1).text, 'stage 1 of 2: to 100 req/s')
  t.equal(stageAt(stages, 'rate', 2.5).text, 'stage 2 of 2: to 500 req/s')
  t.equal(stageAt(stages, 'rate', 9).index, 1, 'the last after the end')
  t.equal(stageAt(undefined, 'rate', 1), null, 'none')
})

t.test('a search: the step under way, then each step', async (t) => {
  const state = new LiveState(CONFIG, { kind: 'search', slos: ['p99<50ms'] })
  state.probe({ connections: 4, ceiling: 1000 })
  let data = state.stepStart({ connections: 4, index: 1, kind: 'low', target: 100, warmup: 1, duration: 2 })
  t.equal(data.current.target, 100, 'the step under way')
  data = state.stepProgress({ elapsed: 0.5, responses: 50, errors: 0, verdict: null })
  t.equal(data.current.responses, 50, 'its progress')
  data = state.step({ connections: 4, kind: 'low', target: 100, verdict: 'pass', values: { p50: 1, p99: 2, p999: 3 }, reasons: [], result: { errors: 0, requests: { total: 200 }, duration: 2, latency: {} } })
  t.equal(data.current, null, 'none under way between steps')
  t.equal(data.parts.length, 1, 'one connection count')
  t.same(data.parts[0].chart.data[0], [100], 'a point per step')
  t.match(data.parts[0].table, /<table id="steps-0"/, 'its table, as the report has it')
  t.match(state.warning('a warning at http://u:pw@h/').text, /u:\*\*\*@h/, 'warnings redacted')
})

t.test('the end', async (t) => {
  const state = new LiveState(CONFIG)
  state.done('<html></html>')
  t.same(state.state().final, { html: '<html></html>' }, 'a page opened after the end gets the report')
})

// A rated run's sample: its latency corrected for the plan, and its
// service time (from the write) beside it.
function ratedSample (k, corrected, uncorrected) {
  const h = createLatencyHistogram()
  h.recordValue(corrected)
  const u = createLatencyHistogram()
  u.recordValue(uncorrected)
  return { ...sample(k, 100), latencyP50: corrected / 1000, latencyP99: corrected / 1000, latency: pack(h), uncorrectedP50: uncorrected / 1000, uncorrectedP99: uncorrected / 1000, latencyUncorrected: pack(u) }
}

t.test('under a rate: corrected and uncorrected latency, per interval and by percentile', async (t) => {
  const state = new LiveState({ ...CONFIG, overallRate: 100 })
  state.sample(ratedSample(1, 8000, 2000))
  const first = state.sampleEvent()
  t.same(first.rows['latency-over-time'].row, [1, 8, 8, 2, 2, 0], 'the interval\'s p50 and p99, corrected then uncorrected (then the generator\'s pause)')
  t.equal(first.numbers.uncorrectedP50, 2, 'the uncorrected p50 in the numbers')
  t.equal(first.numbers.uncorrectedP99, 2, 'and its p99')
  state.sample(ratedSample(2, 16000, 4000))
  const charts = Object.fromEntries(state.state().charts.map((c) => [c.id, c]))
  const over = charts['latency-over-time']
  t.same(over.series.map((s) => s.label), ['p50 (corrected)', 'p99 (corrected)', 'p50 (uncorrected)', 'p99 (uncorrected)', 'generator pause (max)'], 'four lines, and the generator\'s pause')
  t.same(over.data, [[1, 2], [8, 16], [8, 16], [2, 4], [2, 4], [0, 0]], 'the history of both')
  const percentiles = charts['latency-percentiles']
  t.same(percentiles.series.map((s) => s.label), ['Latency (corrected)', 'Latency (uncorrected)'], 'the curve of each')
  const top = (column) => Math.max(...percentiles.data[column].filter((v) => v !== null))
  t.ok(Math.abs(top(1) - 16) < 0.02, `the corrected curve tops at the slowest corrected latency (${top(1)} ms)`)
  t.ok(Math.abs(top(2) - 4) < 0.01, `the uncorrected at the slowest uncorrected (${top(2)} ms)`)
  t.equal(state.latencyUncorrected.totalCount, 2, 'both intervals\' service times, added')
  state.reset()
  t.equal(state.latencyUncorrected.totalCount, 0, 'a new round starts empty')
})

t.test('without a rate, or with -C: no uncorrected line', async (t) => {
  for (const config of [CONFIG, { ...CONFIG, overallRate: 100, ignoreCoordinatedOmission: true }]) {
    const state = new LiveState(config)
    state.sample(sample(1, 100))
    const over = state.state().charts.find((c) => c.id === 'latency-over-time')
    t.equal(over.series.filter((s) => /uncorrected/.test(s.label)).length, 0, 'none per interval')
    t.equal(state.sampleEvent().numbers.uncorrectedP50, null, 'none in the numbers')
  }
})
