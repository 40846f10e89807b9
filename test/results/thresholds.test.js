'use strict'

// Thresholds: the grammar and the values they are held to. The CI gate
// end to end (exit 0 when met, 99 when not, 1 for a malformed
// expression): test/e2e/thresholds-gate.test.js.

const t = require('tap')
const { parseThreshold, evaluateThresholds } = require('../../lib/results/thresholds')
const { createLatencyHistogram, encode } = require('../../lib/results/histogram')

t.test('the grammar', async (t) => {
  const p = (e) => {
    const { metric, operator, limit, unit, kind, percentile } = parseThreshold(e)
    return { metric, operator, limit, unit, kind, percentile }
  }
  t.same(p('p99<200ms'), { metric: 'p99', operator: '<', limit: 200, unit: 'ms', kind: 'latency', percentile: 99 })
  t.same(p(' p(99.9) <= 1.5s '), { metric: 'p99.9', operator: '<=', limit: 1500, unit: 'ms', kind: 'latency', percentile: 99.9 })
  t.same(p('p99_9 < 900us').limit, 0.9, 'autocannon-style key, microseconds')
  t.same(p('p50<2µs').limit, 0.002)
  t.same(p('latency.p95 < 20').limit, 20, 'ms when no unit')
  t.same(p('avg<10ms').metric, 'avg')
  t.same(p('mean<10ms').metric, 'avg', 'mean is avg')
  t.same(p('max < 1s').limit, 1000)
  t.same(p('errors<1%'), { metric: 'errors', operator: '<', limit: 1, unit: '%', kind: 'count', percentile: undefined })
  t.same(p('errors == 0').unit, '', 'a count')
  t.same(p('non2xx<=10').metric, 'non2xx')
  t.same(p('timeouts<0.1%').limit, 0.1)
  t.same(p('rps>5000'), { metric: 'rps', operator: '>', limit: 5000, unit: 'req/s', kind: 'rate', percentile: undefined })
  t.same(p('throughput >= 10MB/s').limit, 10e6)
  t.same(p('throughput > 1KiB').limit, 1024)
  for (const bad of ['p99<', 'p99 200ms', '<200ms', 'p99<200parsecs', 'p101<1s', 'p0<1s', 'latency<1s',
    'errors<5ms', 'rps>5MB', 'throughput>5ms', 'p99<<1', '', 'p99 ≤ 1s']) {
    t.throws(() => parseThreshold(bad), /not|unknown|percentile|unit|count|requests/, `refused: ${JSON.stringify(bad)}`)
  }
})

t.test('values they are held to', async (t) => {
  const h = createLatencyHistogram()
  for (let i = 1; i <= 1000; i++) h.recordValue(i * 1000) // 1..1000 ms
  const result = {
    duration: 10,
    latency: { average: 500.5, min: 1, max: 1000, stddev: 288.7, p99: 990 },
    requests: { total: 1000 },
    throughput: { total: 5e6 },
    errors: 10,
    timeouts: 4,
    non2xx: 50,
    histograms: { latency: encode(h) }
  }
  const out = evaluateThresholds(['p95<1s', 'p99.9 < 999ms', 'avg<=500.5ms', 'errors<1%', 'non2xx<=5%', 'timeouts==4',
    'rps>=100', 'throughput<500kB/s'], result)
  const by = Object.fromEntries(out.map((r) => [r.expression, r]))
  t.equal(by['p95<1s'].value, 950.271, 'p95 from the histogram (bucket edge), in ms')
  t.equal(by['p95<1s'].ok, true)
  t.equal(by['p99.9 < 999ms'].value, 999.423)
  t.equal(by['p99.9 < 999ms'].ok, false)
  t.equal(by['avg<=500.5ms'].ok, true)
  t.equal(by['errors<1%'].value, 0.9901, 'errors among requests that ended: 10 / 1010')
  t.equal(by['errors<1%'].ok, true)
  t.equal(by['non2xx<=5%'].value, 5, 'non-2xx among responses')
  t.equal(by['timeouts==4'].ok, true)
  t.equal(by['rps>=100'].value, 100, 'responses per second of the run')
  t.equal(by['throughput<500kB/s'].value, 500000)
  t.equal(by['throughput<500kB/s'].ok, false)
  t.same(Object.keys(out[0]).sort(), ['expression', 'limit', 'metric', 'ok', 'operator', 'unit', 'value'])

  // Under a rate, rps is the achieved rate the result reports.
  t.equal(evaluateThresholds(['rps>1'], { ...result, rate: { achieved: 98.5 } })[0].value, 98.5)
  // A result saved without histograms: autocannon's own percentiles only.
  const old = { ...result, histograms: undefined }
  t.equal(evaluateThresholds(['p99<1s'], old)[0].value, 990)
  t.throws(() => evaluateThresholds(['p95<1s'], old), /no histogram/)
})

t.test('timings.<phase>.<stat>: a phase of result.timings, held as latency is', async (t) => {
  const p = (e) => {
    const { metric, operator, limit, unit, kind, percentile, phase } = parseThreshold(e)
    return { metric, operator, limit, unit, kind, percentile, phase }
  }
  t.same(p('timings.ttfb.p99<20ms'), { metric: 'timings.ttfb.p99', operator: '<', limit: 20, unit: 'ms', kind: 'timing', percentile: 99, phase: 'ttfb' })
  t.same(p('timings.proxyConnect.avg <= 2'), { metric: 'timings.proxyConnect.avg', operator: '<=', limit: 2, unit: 'ms', kind: 'timing', percentile: undefined, phase: 'proxyConnect' })
  t.same(p('TIMINGS.TLS.max < 1s').limit, 1000, 'any case, any latency unit')
  t.same(p('timings.dns.p(99.9) < 500us').limit, 0.5)
  t.same(p('timings.transfer.mean<3').metric, 'timings.transfer.avg')
  for (const bad of ['timings.ttfb<1ms', 'timings.wait.p99<1ms', 'timings.ttfb.errors<1', 'timings.ttfb.p99<1MB', 'timings..p99<1']) {
    t.throws(() => parseThreshold(bad), /timing terms|not a statistic|not a latency unit/, `refused: ${JSON.stringify(bad)}`)
  }

  const ttfb = createLatencyHistogram()
  for (let i = 1; i <= 100; i++) ttfb.recordValue(i * 100) // 0.1..10 ms
  const stats = { average: 5.05, min: 0.1, max: 10, stddev: 2.9, p50: 5, p99: 9.9, totalCount: 100 }
  const result = { timings: { ttfb: stats, tls: { average: 0, max: 0, totalCount: 0 } }, histograms: { timings: { ttfb: encode(ttfb), tls: encode(createLatencyHistogram()) } } }
  const out = evaluateThresholds(['timings.ttfb.p95 < 9ms', 'timings.ttfb.avg < 5ms', 'timings.ttfb.max <= 10', 'timings.tls.p99 == 0', 'timings.tls.max == 0'], result)
  t.same(out.map((r) => [r.value, r.ok]), [[9.503, false], [5.05, false], [10, true], [0, true], [0, true]], 'percentiles from the histogram, the rest from the stats; a phase not taken is 0')
  const saved = { timings: result.timings }
  t.same(evaluateThresholds(['timings.ttfb.p99 < 10'], saved).map((r) => r.value), [9.9], 'without histograms: the stats\' percentiles')
  t.throws(() => evaluateThresholds(['timings.ttfb.p95 < 10'], saved), /no histogram to take p95 from/)
  t.throws(() => evaluateThresholds(['timings.ttfb.p99 < 10'], {}), /this result has no timings/)
})

t.test('the generator\'s late requests by cause, and its pauses by cause', async (t) => {
  const result = {
    requests: { sent: 2000 },
    generator: {
      loopDelay: { p50: 0, p99: 3, max: 40 },
      cpu: 0.2,
      late: 40,
      lateNoConnection: 10,
      lateOwn: 4,
      lateStarved: 26,
      pauses: { own: { count: 1, ms: 12, max: 9.5 }, starved: { count: 5, ms: 200, max: 38 } }
    }
  }
  const values = evaluateThresholds(['generator.lateOwn < 1', 'generator.lateStarved < 1%', 'generator.lateNoConnection == 10',
    'generator.pauses.own.max < 10ms', 'generator.pauses.starved.max < 30ms', 'generator.late < 50'].map(parseThreshold), result)
  t.same(values.map((v) => [v.value, v.ok]), [[4, false], [1.3, false], [10, true], [9.5, true], [38, false], [40, true]])
  // A result saved before the split: nothing of either cause.
  const old = { requests: { sent: 2000 }, generator: { loopDelay: null, cpu: 0.1, late: 3 } }
  t.same(evaluateThresholds(['generator.lateOwn < 1', 'generator.pauses.own.max < 1'].map(parseThreshold), old).map((v) => v.value), [0, 0])
})
