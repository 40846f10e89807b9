'use strict'

// The report of a capacity search, without a browser: the data of its two
// charts (max sustained rate by connections; step latency by offered rate
// with the SLO as a line), its tables, and reading searches back from
// files. Searches written by hand (helpers/synthetic-search.js), so that
// every number is known. The page in Chromium: report-html.test.js.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { renderHtml } = require('../../../../lib/output/html/report')
const { escapeHtml } = require('../../../../lib/output/html/tables')
const { searchCharts, latencySlos } = require('../../../../lib/output/html/search-charts')
const { readInputs, readResults, parseInputs, isSearch } = require('../../../../lib/results/saved-result')
const { searchA, searchB, search } = require('../../../helpers/synthetic-search')
const { resultOfLatencies } = require('../../../helpers/synthetic-result')

function reportData (html) {
  const m = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)
  return JSON.parse(m[1])
}

function chart (html, id) {
  return reportData(html).charts.find((c) => c.id === id)
}

// The cells of one table row, as text.
function rowCells (html, table, key) {
  const body = new RegExp(`<table id="${table}"[\\s\\S]*?</table>`).exec(html)[0]
  const row = new RegExp(`<tr data-key="${key}"[^>]*>([\\s\\S]*?)</tr>`).exec(body)[1]
  return [...row.matchAll(/<t[dh][^>]*>([\s\S]*?)<\/t[dh]>/g)].map((m) => m[1])
}

t.test('capacity chart: max sustained rate by connections, one line per search', async (t) => {
  const [capacity] = searchCharts([{ name: 'a', search: searchA() }, { name: 'b', search: searchB() }])
  t.equal(capacity.id, 'capacity')
  t.same(capacity.series.map((s) => s.label), ['a', 'b'])
  t.same(capacity.data, [[10, 100, 1000], [900, 1600, 1200], [600, 800, null]], 'x: connections; y: each search\'s best rate, none where no rate passed')
  t.equal(capacity.xLog, true, '10 to 1000 connections: a log axis')
  t.equal(capacity.xTicks, 'data', 'ticks at the connection counts measured')
  t.same(capacity.marks.map((m) => [m.x, m.y, m.label]), [
    [1000, 1200, 'generator-bound'],
    [1000, 0, 'below the low rate']
  ], 'what is not a found capacity is labelled on the chart')
  t.not(capacity.marks[0].color, capacity.marks[1].color, 'each mark in its line\'s colour')

  const narrow = searchA()
  narrow.searches = narrow.searches.slice(0, 1)
  t.equal(searchCharts([{ name: 'a', search: narrow }])[0].xLog, false, 'one connection count: linear')
})

t.test('step chart: p50, p99 and p99.9 by offered rate, the SLO as a line', async (t) => {
  const charts = searchCharts([{ name: 'a', search: searchA() }])
  t.same(charts.map((c) => c.id), ['capacity', 'search-0', 'search-1', 'search-2'], 'one step chart per connection count')
  const steps = charts[1]
  t.equal(steps.kind, 'steps')
  t.match(steps.title, /^Latency by offered rate at 10 connections$/)
  t.same(steps.series.map((s) => s.label), ['p50', 'p99', 'p99.9', 'SLO p99<50ms'], 'errors<1% has no line on a latency chart')
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

t.test('the page: capacity table, step tables, sentences, in the order of the charts', async (t) => {
  const a = searchA()
  const html = renderHtml([a, searchB()], { names: ['a', 'b'] })
  const data = reportData(html)
  t.same(data.charts.map((c) => c.id), ['capacity', 'search-0', 'search-1', 'search-2', 'search-3', 'search-4', 'search-5'])
  t.equal(chart(html, 'search-3').title, 'b: latency by offered rate at 10 connections', 'several files: each chart names its file')
  for (let k = 0; k < 6; k++) t.ok(html.includes(`<div class="chart" id="chart-search-${k}"></div>`), `a place for chart search-${k}`)
  t.match(html, /<title>autocannon: capacity of a vs b<\/title>/)

  // The capacity table: name, connections, best, status, failed, probe, steps, wall, SLOs.
  t.same(rowCells(html, 'capacity', 'capacity-0'), ['a', '10', '900 req/s', 'found', '975 req/s (p99 70 ms)', '1,200 req/s', '6', '18 s', 'p99&lt;50ms, errors&lt;1%'])
  t.same(rowCells(html, 'capacity', 'capacity-2').slice(0, 4), ['a', '1,000', '1,200 req/s', 'generator-bound: the most this generator could measure: use -w or more machines'])
  t.same(rowCells(html, 'capacity', 'capacity-5').slice(0, 4), ['b', '1,000', '—', 'below the low rate: no rate passed, not even the low check'])
  t.match(html, /<tr data-key="capacity-2" data-status="generator-bound" class="not-found">/)
  t.match(html, /<tr data-key="capacity-0" data-status="found" class="found">/)

  // Steps in the order they ran, as the CLI's live table has them.
  t.same(rowCells(html, 'steps-0', 'step-1'), ['2', 'upper', '1,200 req/s', '1,200 req/s', '30 ms', '400 ms', '600 ms', '0', 'fail', 'p99 400 ms breaks p99 &lt; 50 ms'])
  t.same(rowCells(html, 'steps-0', 'step-5').slice(0, 2), ['6', 'confirm'])
  t.match(html, /<tr data-key="step-1" data-verdict="generator-bound" class="verdict-generator-bound">/)
  t.equal((/<table id="steps-5"[\s\S]*?<\/table>/.exec(html)[0].match(/<tr data-key="step-/g) || []).length, 1)
  t.ok(html.includes(`<p class="sentence" id="sentence-0">${escapeHtml(a.searches[0].sentence)}</p>`), 'the closing sentence')
  t.notMatch(html, /id="run"/, 'no run table: there is no result')
})

t.test('a search and a result on one page: searches first, chart ids apart', async (t) => {
  const result = resultOfLatencies({ title: 'plain', perSecond: [[20000], [21000]] })
  const html = renderHtml([result, searchA()], { names: ['r', 's'] })
  const ids = reportData(html).charts.map((c) => c.id)
  t.same(ids, ['capacity', 'search-0', 'search-1', 'search-2', 'latency-percentiles', 'requests-over-time', 'latency-over-time'])
  t.ok(html.indexOf('id="capacity"') < html.indexOf('id="run"'), 'the search before the runs')
  t.match(html, /<h2 class="part">Runs<\/h2>/)
  t.same(chart(html, 'capacity').series.map((s) => s.label), ['s'])
  t.same(chart(html, 'latency-percentiles').series.map((s) => s.label), ['Latency'], 'one result: its lines named by what they are, as alone')
  t.match(html, /<table id="run">.*<th scope="col">plain<\/th>/)
})

t.test('names: a search\'s title, else its file, else its URL', async (t) => {
  const withUrl = searchA()
  withUrl.searches[0].steps[0].result = { url: 'http://127.0.0.1:9/x', latency: {}, requests: { total: 1 } }
  const labels = (html) => chart(html, 'capacity').series.map((s) => s.label)
  t.same(labels(renderHtml([withUrl])), ['http://127.0.0.1:9/x'])
  t.match(renderHtml([withUrl]), /<title>autocannon: capacity of http:\/\/127\.0\.0\.1:9\/x<\/title>/)
  t.same(labels(renderHtml([withUrl], { names: ['server-a'] })), ['server-a'])
  withUrl.searches[0].steps[0].result.title = 'checkout'
  t.same(labels(renderHtml([withUrl], { names: ['server-a'] })), ['checkout'])
  t.same(labels(renderHtml([searchA(), searchB()])), ['search 1', 'search 2'])
  t.same(labels(renderHtml(searchA())), ['search'], 'a single search need not be in an array')
})

t.test('text from a search cannot end the data or inject markup', async (t) => {
  const evil = '</script><script>window.pwned=1</script><!--'
  const s = searchA()
  s.searches[0].sentence = evil
  s.searches[0].steps[1].reasons = [evil]
  s.slos = [evil, 'p99<50ms']
  const html = renderHtml([s], { names: [evil] })
  t.equal(html.match(/<script/gi).length, 3)
  t.equal(html.match(/<\/script/gi).length, 3)
  t.notOk(html.includes('window.pwned=1</script>'))
  t.same(chart(html, 'capacity').series.map((x) => x.label), [evil], 'the data still carries the exact text')
})

t.test('saved searches read back: JSON, NDJSON beside results, and what is neither', async (t) => {
  const result = resultOfLatencies({ perSecond: [[20000], [21000]] })
  const a = searchA()
  a.searches[0].steps[0].result = JSON.parse(JSON.stringify(result))
  const dir = t.testdir({
    'search.json': JSON.stringify(a) + '\n',
    'mixed.ndjson': `Running a search\n${JSON.stringify(result)}\nlog line\n${JSON.stringify(searchB())}\n`,
    'notes.json': '{"searches": "no"}',
    'empty-search.json': '{"slos": [], "searches": []}',
    'broken.json': JSON.stringify({ slos: [], searches: [{ connections: 1, steps: [{ kind: 'low' }] }] })
  })
  const [one] = readInputs(path.join(dir, 'search.json'))
  t.equal(one.kind, 'search')
  t.same(one.value.searches.map((s) => s.best && s.best.rate), [900, 1600, 1200])
  t.type(one.value.searches[0].steps[0].result.start, Date, 'the steps\' results get their dates back')
  t.same(readInputs(path.join(dir, 'mixed.ndjson')).map((i) => i.kind), ['result', 'search'])
  t.ok(isSearch(searchB()))
  t.notOk(isSearch(result))

  t.throws(() => readInputs(path.join(dir, 'notes.json')), { code: 'AC_NOT_A_RESULT', message: /notes\.json is not an autocannon result or capacity search: its JSON has no requests and latency/ })
  t.throws(() => readInputs(path.join(dir, 'empty-search.json')), { code: 'AC_NOT_A_RESULT' })
  t.throws(() => readInputs(path.join(dir, 'broken.json')), { code: 'AC_NOT_A_RESULT', message: /broken\.json has a search step without its target rate and latency \(at 1 connections\)/ })
  t.throws(() => parseInputs('', 'stdin'), { message: /stdin is not an autocannon result or capacity search: it is empty/ })

  // What reads only results says what the file is, in one line.
  t.throws(() => readResults(path.join(dir, 'search.json')), { code: 'AC_NOT_A_RESULT', message: /search\.json is a capacity search \(--findMaxRate -j\), not a result/ })
  t.equal(readResults(path.join(dir, 'mixed.ndjson')).length, 1, 'beside results, a search line is passed over')
  t.throws(() => readResults(path.join(dir, 'notes.json')), { message: /notes\.json is not an autocannon result: its JSON has no requests and latency \(save one with -j > file\.json\)$/ })
  t.ok(fs.existsSync(dir))
})
