'use strict'

// .hgrm export: the text hdr-histogram-js prints for the same histogram,
// readable back as HdrHistogram's plotter reads it, from saved results.
// From a real run, and --hgrm FILE: test/e2e/hgrm-real-run.test.js.

const t = require('tap')
const hdr = require('hdr-histogram-js')
const { createLatencyHistogram, encode, decode } = require('../../lib/results/histogram')
const { renderHgrm } = require('../../lib/output/hgrm')
const { parseHgrm } = require('../helpers/hgrm-reader')
const { seededRandom } = require('../../lib/core/random')

// The reference: the library's own histogram with our latency layout
// (1 µs to an hour, 3 significant digits), not our subclass.
function referenceHistogram () {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3600 * 1e6, numberOfSignificantValueDigits: 3, bitBucketSize: 32, autoResize: true, useWebAssembly: false })
}

// The same values into ours and the reference; a result holding ours
// encoded, as -j saves it.
function pair (values) {
  const ours = createLatencyHistogram()
  const ref = referenceHistogram()
  for (const v of values) {
    ours.recordValue(v)
    ref.recordValue(v)
  }
  return { result: { histograms: { latency: encode(ours) } }, ref }
}

function values (count, draw) {
  const random = seededRandom(42)
  return Array.from({ length: count }, () => draw(random))
}

t.test('equal to hdr-histogram-js\'s outputPercentileDistribution for the same histogram', async (t) => {
  // Below 2048 µs every value has a bucket of its own: the encoded
  // histogram keeps them exactly, max included.
  const { result, ref } = pair(values(5000, (r) => 100 + Math.floor(r() * 1900)))
  const text = renderHgrm(result)
  t.equal(text, ref.outputPercentileDistribution(5, 1000), 'byte for byte')

  const lines = text.split('\n')
  t.equal(lines[0], '       Value     Percentile TotalCount 1/(1-Percentile)', 'Java\'s %12s %14s %10s %14s header')
  t.equal(lines[1], '', 'then an empty line')
  t.match(lines[2], /^ {7}0\.\d{3} 0\.000000000000 +\d+ {11}1\.00$/, 'rows: %12.3f %2.12f %10d %14.2f, in ms')
  t.equal(lines[2].length, 12 + 1 + 14 + 1 + 10 + 1 + 14, 'each column its width')
  t.match(text, /\n {7}\d\.\d{3} 1\.000000000000 {7}5000\n#\[Mean/, 'the 100% row has no fourth column')
  t.match(text, /#\[Mean {4}= +\d+\.\d{3}, StdDeviation {3}= +\d+\.\d{3}\]\n#\[Max {5}= +1\.99\d, Total count {4}= {9}5000\]\n#\[Buckets = +\d+, SubBuckets {5}= {9}2048\]\n$/, 'the footer')
})

t.test('wide latencies: the same rows; max is its bucket\'s top, as Java reports it', async (t) => {
  // 0.2 ms to 4 s: values share buckets, and the encoding keeps counts only.
  const { result, ref } = pair(values(20000, (r) => Math.round(200 * Math.exp(10 * r()))))
  const text = renderHgrm(result).split('\n')
  const want = ref.outputPercentileDistribution(5, 1000).split('\n')
  t.equal(text.length, want.length)
  const maxLine = (lines) => lines.findIndex((l) => l.startsWith('#[Max'))
  t.same(text.filter((l, i) => i !== maxLine(text)), want.filter((l, i) => i !== maxLine(want)), 'every row, mean, stddev and buckets equal')
  const top = ref.highestEquivalentValue(ref.maxValue) / 1000
  t.match(text[maxLine(text)], new RegExp(`^#\\[Max {5}= +${top.toFixed(3).replace('.', '\\.')}, Total count {4}= +20000\\]$`),
    `max ${top} ms: the highest value of the max's bucket (Java's getMaxValue)`)
})

t.test('parsed back, as HdrHistogram\'s plotter reads it: the percentiles', async (t) => {
  const { result } = pair(values(20000, (r) => Math.round(200 * Math.exp(6 * r()))))
  const text = renderHgrm(result)
  const rows = parseHgrm(text)
  const dataLines = text.split('\n').filter((l) => /^ +\d/.test(l))
  t.equal(rows.length, dataLines.length - 1, 'every row but the 100% one (three fields: the plotter skips it too)')
  const histogram = decode(result.histograms.latency)
  t.same(rows[0], { value: histogram.getValueAtPercentile(0) / 1000, percentile: 0, totalCount: histogram.getCountAtIndex(histogram.countsArrayIndex(histogram.minNonZeroValue)), inverse: 1 },
    'the first row: the lowest bucket')
  for (const row of rows) {
    if (Math.abs(row.value - histogram.getValueAtPercentile(row.percentile * 100) / 1000) > 1e-9 ||
      Math.abs(row.inverse - Math.round(100 / (1 - row.percentile)) / 100) > 1e-9) {
      t.fail(`row ${JSON.stringify(row)} is not the histogram's`)
    }
  }
  // 5 ticks per half distance: 0, 10%, …, 50%, then 55, 60, …, 75, then 77.5 …
  t.same(rows.slice(0, 8).map((r) => r.percentile), [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.55, 0.6])
  t.same(rows.slice(10, 12).map((r) => r.percentile), [0.75, 0.775])
  for (let i = 1; i < rows.length; i++) {
    if (!(rows[i].percentile > rows[i - 1].percentile && rows[i].totalCount >= rows[i - 1].totalCount && rows[i].value >= rows[i - 1].value)) {
      t.fail(`row ${i} goes backwards`)
    }
  }
  const p50 = rows.find((r) => r.percentile === 0.5)
  t.equal(p50.value, histogram.getValueAtPercentile(50) / 1000, 'p50 where the plotter puts it (x = 2)')
  t.equal(p50.inverse, 2)
})

t.test('parseHgrm skips what the plotter skips', async (t) => {
  const text = [
    '       Value     Percentile TotalCount 1/(1-Percentile)',
    '',
    '       1.000 0.000000000000          1           1.00',
    '#[Mean    =        1.000, StdDeviation   =        0.000]',
    '# a comment with four words',
    '\t2.000\t0.5\t2\t2.00',
    '       3.000 0.900000000000          9          10.00  ',
    '       4.000 1.000000000000         10'
  ].join('\n')
  t.same(parseHgrm(text), [
    { value: 1, percentile: 0, totalCount: 1, inverse: 1 },
    { value: 3, percentile: 0.9, totalCount: 9, inverse: 10 }
  ], 'header, # lines, tab-separated and three-field rows are not rows')
  t.same(parseHgrm(''), [])
})

t.test('corrected by default; the uncorrected latency when asked, or the only one a run has', async (t) => {
  const slow = pair(values(100, () => 1500)).result.histograms.latency
  const fast = pair(values(100, () => 1000)).result.histograms.latency
  const rated = { histograms: { latency: slow, latencyUncorrected: fast } }
  t.match(renderHgrm(rated), /#\[Max {5}= +1\.500/)
  t.match(renderHgrm(rated, { corrected: false }), /#\[Max {5}= +1\.000/)
  t.equal(renderHgrm({ histograms: { latency: slow } }, { corrected: false }), renderHgrm({ histograms: { latency: slow } }),
    'a run without a rate plan measured latency from the write only')
  t.throws(() => renderHgrm({ latency: {}, requests: { total: 1 } }), { code: 'AC_NOT_A_RESULT' })
})
