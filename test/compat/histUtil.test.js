'use strict'

// require('autocannon/lib/histUtil'): autocannon's histograms of a raw
// result (how they and lib/aggregateResult read our raw results and
// autocannon's: test/aggregateResult.test.js, and against autocannon 9's
// runs, test/e2e/dropin/deep-paths.test.js).

const t = require('tap')
const ours = require('../../lib/compat/histUtil')
const theirs = require('autocannon-upstream/lib/histUtil')

t.test('autocannon 9\'s exports', async (t) => {
  t.same(Object.keys(ours), Object.keys(theirs))
  for (const key of Object.keys(theirs)) t.equal(typeof ours[key], typeof theirs[key], key)
  t.same(ours.percentiles, theirs.percentiles)
})

t.test('getHistograms: autocannon\'s three layouts, or the ones given', async (t) => {
  const mine = ours.getHistograms()
  const up = theirs.getHistograms()
  for (const name of ['latencies', 'requests', 'throughput']) {
    for (const key of ['lowestDiscernibleValue', 'highestTrackableValue', 'numberOfSignificantValueDigits', 'autoResize']) {
      t.equal(mine[name][key], up[name][key], `${name}.${key}`)
    }
  }
  const given = ours.getHistograms({ requests: mine.latencies })
  t.equal(given.requests, mine.latencies, 'a histogram given is used')
})

t.test('encodeHist and decodeHist: what one writes the other (and autocannon\'s) reads', async (t) => {
  const h = ours.getHistograms().latencies
  for (const v of [1, 5, 5, 20, 300]) h.recordValue(v)
  const encoded = ours.encodeHist(h)
  t.equal(typeof encoded, 'string')
  t.equal(encoded, theirs.encodeHist(h), 'the same text as autocannon\'s')
  for (const decode of [ours.decodeHist, theirs.decodeHist]) {
    const back = decode(encoded)
    t.equal(back.totalCount, 5)
    t.equal(back.getValueAtPercentile(50), 5)
    t.equal(back.maxValue, 300)
  }
  t.equal(ours.decodeHist(''), null)
  t.equal(ours.decodeHist(undefined), null)
  t.equal(ours.encodeHist({ __custom: true }), null, 'a stand-in histogram is not encoded')
})

t.test('histAsObj and addPercentiles: autocannon\'s stats of a histogram', async (t) => {
  const h = ours.getHistograms().requests
  for (const v of [10, 12, 14]) h.recordValue(v)
  const stats = ours.addPercentiles(h, ours.histAsObj(h, 36))
  t.same(stats, theirs.addPercentiles(h, theirs.histAsObj(h, 36)))
  t.equal(stats.total, 36)
  t.equal(stats.average, 12)
})
