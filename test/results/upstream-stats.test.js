'use strict'

// Stats taken as autocannon's aggregateResult takes them
// (lib/results/upstream-stats.js), held to autocannon 9's own library.

const t = require('tap')
const { asUpstream, countsFrom } = require('../../lib/results/upstream-stats')
const histUtil = require('autocannon-upstream/lib/histUtil')

t.test('asUpstream: latency from autocannon\'s ms histograms, samples as they counted them', async (t) => {
  const a = histUtil.getHistograms().latencies
  const b = histUtil.getHistograms().latencies
  for (const ms of [1, 2, 2, 9]) a.recordValue(ms)
  b.recordValue(30)
  const result = { latency: null, samples: 0 }
  asUpstream(result, [{ latencies: histUtil.encodeHist(a), samples: 2 }, { latencies: histUtil.encodeHist(b), samples: 3 }, { samples: 1 }])
  a.add(b)
  const expected = histUtil.addPercentiles(a, histUtil.histAsObj(a))
  t.same({ ...result.latency, totalCount: undefined }, { ...expected, totalCount: undefined })
  t.equal(result.latency.totalCount, 5)
  t.equal(result.latency.max, 30)
  t.equal(result.samples, 6)
})

t.test('countsFrom: requests and throughput from the histograms given (empty when left out), totals kept', async (t) => {
  const h = histUtil.getHistograms()
  for (const n of [4, 6]) h.requests.recordValue(n)
  const result = { requests: { total: 10, sent: 11, inFlight: 1 }, throughput: { total: 0 } }
  countsFrom(result, { requests: h.requests })
  t.equal(result.requests.average, 5)
  t.same([result.requests.total, result.requests.sent, result.requests.inFlight], [10, 11, 1])
  t.same(Object.keys(result.requests).slice(-3), ['total', 'sent', 'inFlight'], 'our key order')
  t.equal(result.throughput.average, 0, 'no throughput histogram: zeros')
  t.equal(result.throughput.min, 0, 'an empty histogram\'s min is 0, as autocannon shows it')
  t.equal(result.throughput.total, 0)
})
