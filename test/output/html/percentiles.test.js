'use strict'

// The percentile points the HTML report plots
// (lib/output/html/percentiles.js): the lines of HdrHistogram's own
// outputPercentileDistribution.

const t = require('tap')
const { createLatencyHistogram, encode, decode } = require('../../../lib/results/histogram')
const { percentileDistribution } = require('../../../lib/output/html/percentiles')

// 1000 values from 1 ms to ~50 ms and a tail of 10 at ~1 s.
function sampleHistogram () {
  const h = createLatencyHistogram()
  for (let i = 0; i < 1000; i++) h.recordValue(1000 + i * i % 49000)
  for (let i = 0; i < 10; i++) h.recordValue(1000000 + i * 777)
  return h
}

t.test('percentile points are the lines of HdrHistogram\'s outputPercentileDistribution', async (t) => {
  const h = sampleHistogram()
  const text = decode(encode(h)).outputPercentileDistribution(5, 1000)
  const lines = text.split('\n').filter((l) => /^\s+\d/.test(l)).map((l) => l.trim().split(/\s+/).map(Number))
  const points = percentileDistribution(encode(h), { scale: 1000 })
  // Every line but the last (100%, whose 1/(1-p) is infinite).
  t.equal(points.length, lines.length - 1)
  t.equal(lines[lines.length - 1][1], 1, 'the line left out is the 100% one')
  // As the text shows them: values to 3 decimals, percentiles to 12, 1/(1-p) to 2.
  const shown = points.map((p) => [Number((p.value).toFixed(3)), Number((p.percentile / 100).toFixed(12)), p.count, Number(p.x.toFixed(2))])
  t.same(shown, lines.slice(0, -1))
  t.equal(points[0].percentile, 0)
  t.equal(points[points.length - 1].value, decode(encode(h)).maxValue / 1000, 'the maximum is on the last line plotted')
  // 5 ticks per half distance: 0%, 10%… 40%, then 50%, 55%… 70%.
  t.same(points.filter((p) => p.percentile < 50).map((p) => p.percentile), [0, 10, 20, 30, 40])
  t.equal(points.filter((p) => p.percentile >= 50 && p.percentile < 75).length, 5)
})

t.test('percentile points of an empty histogram: none', async (t) => {
  t.same(percentileDistribution(createLatencyHistogram()), [])
})
