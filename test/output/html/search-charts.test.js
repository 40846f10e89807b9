'use strict'

// The data of a capacity search's two charts (lib/output/html/search-charts.js):
// max sustained rate by connections, and step latency by offered rate
// with the SLO as a line. Searches written by hand
// (helpers/synthetic-search.js), so that every number is known.

const t = require('tap')
const { searchCharts, latencySlos } = require('../../../lib/output/html/search-charts')
const { searchA, searchB, search } = require('../../helpers/synthetic-search')

t.test('capacity chart: max sustained rate by connections, one line per search', async (t) => {
  const [capacity] = searchCharts([{ name: 'a', search: searchA() }, { name: 'b', search: searchB() }])
  t.equal(capacity.id, 'capacity')
  t.same(capacity.series.map((s) => s.label), ['a', 'b'])
  t.same(capacity.data, [[10, 100, 1000], [900, 1600, 1200], [600, 800, null]], 'x: connections; y: each search\'s best rate, none where no rate passed')
  t.equal(capacity.xLog, true, '10 to 1000 connections: a log axis')
  t.equal(capacity.xTicks, 'data', 'ticks at the connection counts measured')
  t.same(capacity.marks.map((m) => [m.x, m.y, m.label]), [
    [1000, 1200, 'generator-bound']
  ], 'what is not a found capacity is labelled on the chart; where no rate passed, no point and no mark (the table says why)')
  t.equal(capacity.marks[0].color, capacity.series[0].color, 'in its line\'s colour')

  const narrow = searchA()
  narrow.searches = narrow.searches.slice(0, 1)
  const one = searchCharts([{ name: 'a', search: narrow }])[0]
  t.equal(one.xLog, false, 'one connection count: linear')
  t.same(one.marks.map((m) => [m.x, m.y, m.label]), [[10, 900, '900 req/s at 10 connections']], 'its single point labelled')
  const both = searchA()
  both.searches = both.searches.slice(2)
  const other = searchB()
  other.searches = other.searches.slice(2)
  t.same(searchCharts([{ name: 'a', search: both }, { name: 'b', search: other }])[0].marks.map((m) => m.label),
    ['1,200 req/s at 1,000 connections, generator-bound'], 'a status and the rate; none for a search with no rate')
})

t.test('no rate passed anywhere: no capacity chart', async (t) => {
  const none = searchB()
  none.searches = none.searches.slice(2)
  const charts = searchCharts([{ name: 'b', search: none }])
  t.equal(charts[0], null, 'no empty axis')
  t.equal(charts[1].id, 'search-0', 'the steps are still drawn')
})

t.test('step chart: p50, p99 and p99.9 by offered rate, the SLO as a line', async (t) => {
  const charts = searchCharts([{ name: 'a', search: searchA() }])
  t.same(charts.map((c) => c.id), ['capacity', 'search-0', 'search-1', 'search-2'], 'one step chart per connection count')
  const steps = charts[1]
  t.equal(steps.kind, 'steps')
  t.match(steps.title, /^Latency by offered rate at 10 connections$/)
  t.same(steps.series.map((s) => s.label), ['p50', 'p99', 'p99.9', 'SLO p99<50ms'], 'errors<1% has no line on a latency chart')
  const colours = steps.series.slice(0, 3).map((s) => s.color)
  t.equal(new Set(colours).size, 3, 'each percentile its colour')
  t.notOk(colours.includes(steps.marks.find((m) => m.label).color), 'none the green of the answer')
  t.same(steps.series.slice(0, 3).map((s) => s.marker || 'dot'), ['dot', 'dot', 'square'], 'p99.9 its own marker: its points often sit on p99\'s')
  t.equal(steps.xLog, true, 'offered rates on a log axis')
  // Sorted by rate; 900 req/s ran twice (bisect, then confirm), in that order.
  t.same(steps.data[0], [90, 900, 900, 975, 1050, 1200])
  t.same(steps.data[1], [1, 2, 2, 4, 5, 30])
  t.same(steps.data[2], [5, 30, 35, 70, 120, 400])
  t.same(steps.data[3], [8, 45, 48, 90, 180, 600])
  t.same(steps.data[4], [50, 50, 50, 50, 50, 50], 'the SLO at its limit, at every rate')
  t.equal(steps.series[3].slo, true)
  t.same(steps.series[3].dash, [6, 4], 'dashed: a limit, not a measurement')
  t.equal(steps.yLog, true)
  // Failed steps ringed on the p99 line (the SLO's), the answer labelled.
  t.same(steps.marks.filter((m) => !m.label).map((m) => [m.x, m.y]), [[975, 70], [1050, 120], [1200, 400]])
  t.same(steps.marks.filter((m) => m.label).map((m) => [m.x, m.y, m.label]), [[900, 35, 'best 900 req/s']], 'the answer, on the confirmation that set it')

  const bound = charts[3]
  const ring = bound.marks.find((m) => m.x === 1500)
  t.ok(ring && ring.color !== steps.marks[0].color, 'a generator-bound step is ringed in a colour of its own')
})

t.test('SLO lines: every latency SLO, at its limit in ms; verdicts on its percentile', async (t) => {
  const s = searchA()
  s.slos = ['p50 < 5ms', 'p(99.9)<0.2s', 'non2xx<1%', 'avg<20ms']
  const steps = searchCharts([{ name: 'a', search: s }])[1]
  t.same(steps.series.slice(3).map((x) => x.label), ['SLO p50 < 5ms', 'SLO p(99.9)<0.2s', 'SLO avg<20ms'])
  t.same(steps.data.slice(4).map((ys) => ys[0]), [5, 200, 20], 'limits in ms')
  t.same(new Set(steps.series.slice(3).map((x) => x.color)).size, 3, 'each in its own colour')
  t.same(steps.marks.filter((m) => !m.label).map((m) => m.y), [4, 5, 30], 'rings on the p50 line, the first SLO\'s')
  t.same(latencySlos(['errors<1%', 'nonsense', 42]), [], 'what is not a latency SLO draws nothing')
})

t.test('a step at 0 ms (no response) has no point on the log axis', async (t) => {
  const s = { slos: ['p99<50ms'], precision: 0.02, searches: [search(5, 'below-low', [['low', 10, 'fail', 0, 0, 0]], { failed: 10, ceiling: 100, sentence: 'x' })] }
  const steps = searchCharts([{ name: 'z', search: s }])[1]
  t.same(steps.data.slice(1, 4), [[null], [null], [null]])
  t.same(steps.data[4], [50], 'the SLO is still drawn')
})
