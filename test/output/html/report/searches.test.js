'use strict'

// The report of a capacity search, without a browser: its page, tables
// and names (the data of its two charts: test/output/html/search-charts.test.js;
// reading searches back from files: test/results/saved-result.test.js).
// Searches written by hand (helpers/synthetic-search.js), so that every
// number is known. The page in Chromium: test/e2e/report-html.test.js.

const t = require('tap')
const { renderHtml } = require('../../../../lib/output/html/report')
const { escapeHtml } = require('../../../../lib/output/html/tables')
const { searchA, searchB } = require('../../../helpers/synthetic-search')
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

t.test('the page: capacity table, step tables, sentences, in the order of the charts', async (t) => {
  const a = searchA()
  const html = renderHtml([a, searchB()], { names: ['a', 'b'] })
  const data = reportData(html)
  t.same(data.charts.map((c) => c.id), ['capacity', 'search-0', 'search-1', 'search-2', 'search-3', 'search-4', 'search-5'])
  t.equal(chart(html, 'search-3').title, 'b: latency by offered rate at 10 connections', 'several files: each chart names its file')
  for (let k = 0; k < 6; k++) t.ok(html.includes(`<div class="chart" id="chart-search-${k}"></div>`), `a place for chart search-${k}`)
  t.match(html, /<title>cannonade: capacity of a vs b<\/title>/)

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
  t.same(ids, ['capacity', 'search-0', 'search-1', 'search-2', 'latency-percentiles', 'requests-over-time', 'latency-over-time', 'timings-over-time'])
  t.ok(html.indexOf('id="capacity"') < html.indexOf('id="run"'), 'the search before the runs')
  t.match(html, /<h2 class="part">Runs<\/h2>/)
  t.same(chart(html, 'capacity').series.map((s) => s.label), ['s'])
  t.same(chart(html, 'latency-percentiles').series.map((s) => s.label), ['Latency (from send)'], 'one result: its lines named by what they are, as alone')
  t.match(html, /<table id="run">.*<th scope="col">plain<\/th>/)
})

t.test('names: a search\'s title, else its file, else its URL', async (t) => {
  const withUrl = searchA()
  withUrl.searches[0].steps[0].result = { url: 'http://127.0.0.1:9/x', latency: {}, requests: { total: 1 } }
  const labels = (html) => chart(html, 'capacity').series.map((s) => s.label)
  t.same(labels(renderHtml([withUrl])), ['http://127.0.0.1:9/x'])
  t.match(renderHtml([withUrl]), /<title>cannonade: capacity of http:\/\/127\.0\.0\.1:9\/x<\/title>/)
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
