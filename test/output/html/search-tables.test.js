'use strict'

// A capacity search's tables in the report
// (lib/output/html/search-tables.js): one capacity row per connection
// count of every search, and a search's steps as the CLI's live table
// prints them (milliseconds to at most two decimals, whole from 100), with
// the raw status and verdict as data attributes and every text escaped.
// Searches written by hand (helpers/synthetic-search.js). The page around
// them: test/output/html/report/searches.test.js.

const t = require('tap')
const { capacityTable, stepTable } = require('../../../lib/output/html/search-tables')
const { search } = require('../../helpers/synthetic-search')

// The text of each cell of the row with this data-key.
function row (html, key) {
  const m = new RegExp(`<tr data-key="${key}"([^>]*)>(.*?)</tr>`).exec(html)
  return m && { attrs: m[1], cells: [...m[2].matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) => c[1]) }
}

t.test('capacity: a row per connection count, numbered across searches', async (t) => {
  const found = search(10, 'found', [['low', 90, 'pass', 1, 5, 8], ['bisect', 1200, 'fail', 30, 400, 600], ['confirm', 900, 'pass', 2, 35, 48]], { best: 900, failed: 1200, ceiling: 1500 })
  const low = search(1000, 'below-low', [['low', 70, 'fail', 20, 90, 130]], { failed: 70, ceiling: 700 })
  const html = capacityTable([{ name: 'a <b>', search: { slos: ['p99<50ms', 'errors<1%'], searches: [found] } }, { name: 'b', search: { searches: [low] } }])
  t.match(html, /^<table id="capacity"><thead><tr><th scope="col"><\/th><th scope="col">Connections<\/th>/)
  const first = row(html, 'capacity-0')
  t.equal(first.attrs, ' data-status="found" class="found"')
  t.same(first.cells, ['a &lt;b&gt;', '10', '900 req/s', 'found', '1,200 req/s (p99 400 ms)', '1,500 req/s', '3', '9 s', 'p99&lt;50ms, errors&lt;1%'])
  const second = row(html, 'capacity-1')
  t.equal(second.attrs, ' data-status="below-low" class="not-found"')
  t.same(second.cells.slice(0, 4), ['b', '1,000', '—', 'below the low rate: no rate passed, not even the low check'])
  t.equal(second.cells[8], '—', 'no SLOs said')
  const unconfirmed = search(10, 'unconfirmed', [['bisect', 500, 'pass', 1, 2, 3]], { best: 500, ceiling: 600 })
  t.equal(row(capacityTable([{ name: 'c', search: { searches: [unconfirmed] } }]), 'capacity-0').cells[2], '500 req/s (not confirmed)')
})

t.test('steps: in the order they ran, as the CLI prints them', async (t) => {
  const s = search(10, 'found', [['low', 90, 'pass', 1, 5, 8], ['upper', 1200, 'fail', 30, 400, 600]], { best: 90, failed: 1200, ceiling: 1200 })
  s.steps[1].values.errors = 12
  s.steps[1].values.errorRatio = 0.005
  const html = stepTable(s, 3, 'at 10 <connections>')
  t.match(html, /^<table id="steps-3" class="steps"><caption>at 10 &lt;connections&gt;<\/caption>/)
  t.same(row(html, 'step-0').cells, ['1', 'low', '90 req/s', '90 req/s', '1 ms', '5 ms', '8 ms', '0', 'pass', ''])
  const failed = row(html, 'step-1')
  t.equal(failed.attrs, ' data-verdict="fail" class="verdict-fail"')
  t.same(failed.cells, ['2', 'upper', '1,200 req/s', '1,200 req/s', '30 ms', '400 ms', '600 ms', '12 (0.5%)', 'fail', 'p99 400 ms breaks p99 &lt; 50 ms'])
  // A step read back from a result rather than the judge's values.
  const fromResult = { kind: 'low', target: 100, verdict: 'inconclusive', result: { duration: 4, requests: { total: 398 }, errors: 3, latency: { p50: 0.5, p99: 150.4, p99_9: 200 } } }
  t.same(row(stepTable({ steps: [fromResult] }, 0, ''), 'step-0').cells, ['1', 'low', '100 req/s', '100 req/s', '0.5 ms', '150 ms', '200 ms', '3', 'inconclusive', ''])
})
