'use strict'

// Raw results in autocannon's form beside ours (lib/results/upstream-raw.js):
// what skipAggregateResult hands the user, and how aggregateResult reads
// autocannon's (merged: test/aggregateResult.test.js).

const t = require('tap')
const { publicRaw, ownRaw, inOwnLayout, decodeMs } = require('../../lib/results/upstream-raw')
const { createLatencyHistogram, encode } = require('../../lib/results/histogram')
const { Recorder } = require('../../lib/engine/recorder')
const { decode } = require('../../lib/results/histogram')
const histUtil = require('autocannon-upstream/lib/histUtil')

function snapshot (latenciesUs) {
  const recorder = new Recorder({})
  for (const [i, second] of latenciesUs.entries()) {
    for (const us of second) {
      recorder.started(1)
      recorder.response(200, 50, us)
    }
    recorder.sample(1000 * (i + 1))
  }
  return recorder.snapshot({ start: 0, finish: 1000 * latenciesUs.length, form: 'encoded' })
}

t.test('publicRaw: autocannon\'s latencies (whole ms), requests and throughput, and ours as latenciesUs', async (t) => {
  const raw = snapshot([[999, 1000, 20975], [250]])
  const out = publicRaw(raw)
  t.equal(out.latenciesUs, raw.latencies, 'ours kept as it was')
  t.equal(out.series, raw.series)
  const ms = histUtil.decodeHist(out.latencies)
  t.equal(ms.totalCount, 4)
  t.same([0, 25, 50, 75, 100].map((p) => ms.getValueAtPercentile(p)), [0, 0, 0, 1, 20], 'floored as autocannon\'s ms are: 999 µs is 0, 20975 µs 20')
  const requests = histUtil.decodeHist(out.requests)
  t.same([requests.totalCount, requests.minNonZeroValue, requests.maxValue], [2, 1, 3], 'a value per sample: 3 then 1')
  const throughput = histUtil.decodeHist(out.throughput)
  t.same([throughput.minNonZeroValue, throughput.maxValue], [50, 150])
  t.equal(decode(out.latenciesUs).totalCount, 4)
})

t.test('ownRaw: ours as it is (latenciesUs preferred), autocannon\'s in µs', async (t) => {
  const raw = snapshot([[1500]])
  t.equal(ownRaw(raw), raw, 'an internal snapshot is ours')
  const pub = publicRaw(raw)
  t.equal(ownRaw(pub).latencies, raw.latencies, 'our public form: the µs histogram')
  const h = histUtil.getHistograms().latencies
  h.recordValue(3)
  h.recordValue(40)
  const theirs = ownRaw({ latencies: histUtil.encodeHist(h), totalCompletedRequests: 2 })
  t.equal(theirs.latencies.totalCount, 2)
  t.ok(Math.abs(theirs.latencies.getValueAtPercentile(100) - 40000) <= 40, 'ms as µs')
  t.ok(Math.abs(theirs.latencies.getValueAtPercentile(50) - 3000) <= 3)
  t.equal(ownRaw({ totalCompletedRequests: 0 }).latencies, null, 'no latencies: none')
  t.equal(ownRaw(null), null)
})

t.test('decodeMs: an encoded histogram, one already decoded, or none', async (t) => {
  const h = histUtil.getHistograms().latencies
  h.recordValue(7)
  t.equal(decodeMs(histUtil.encodeHist(h)).getValueAtPercentile(50), 7)
  t.equal(decodeMs(h), h)
  t.equal(decodeMs(''), null)
  t.equal(decodeMs(undefined), null)
})

t.test('inOwnLayout: whose latencies, by the histogram\'s layout, encoded or not', async (t) => {
  const ours = createLatencyHistogram()
  ours.recordValue(123456)
  const theirs = histUtil.getHistograms().latencies
  theirs.recordValue(123)
  t.ok(inOwnLayout(ours), 'ours, decoded')
  t.ok(inOwnLayout(encode(ours)), 'ours, encoded')
  t.notOk(inOwnLayout(theirs), 'autocannon\'s, decoded')
  t.notOk(inOwnLayout(histUtil.encodeHist(theirs)), 'autocannon\'s, encoded')
  t.notOk(inOwnLayout(undefined), 'none')
  // A raw result made by hand from our histogram, without a series: µs.
  const byHand = { latencies: encode(ours), start: 0, finish: 1000, duration: 1 }
  t.equal(ownRaw(byHand), byHand, 'ours by hand: as it is')
  t.equal(decode(ownRaw({ latencies: histUtil.encodeHist(theirs) }).latencies).maxValue >= 123000, true, 'autocannon\'s: ms to µs')
})
