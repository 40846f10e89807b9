'use strict'

// The report's tables (lib/output/html/tables.js), without a browser: one
// column per result, rows found by their data-key, every text from a
// result escaped, dashes for what a result does not have.

const t = require('tap')
const { escapeHtml, integer, number, runTable, statusTable, errorTable, generatorTable, cliText, timingsTable } = require('../../../lib/output/html/tables')
const { resultOfLatencies } = require('../../helpers/synthetic-result')

// The cells of the row with this data-key, as text.
function cells (html, key) {
  const m = new RegExp(`<tr data-key="${key}"><th scope="row">([^<]*)</th>(.*?)</tr>`).exec(html)
  return m && [m[1], ...[...m[2].matchAll(/<td>(.*?)<\/td>/g)].map((c) => c[1])]
}

t.test('escapeHtml, integer, number', async (t) => {
  t.equal(escapeHtml('<a href="x">Tom & Jerry\'s</a>'), '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;')
  t.equal(escapeHtml(42), '42')
  t.equal(integer(1234567), '1,234,567')
  t.equal(integer(NaN), '—')
  t.equal(integer(undefined), '—')
  t.equal(number(1234.56789), '1,234.568', 'three decimals by default')
  t.equal(number(2.5, 0), '3')
  t.equal(number(Infinity), '—')
})

t.test('the run table: a column per result, what each was asked and did', async (t) => {
  const plain = resultOfLatencies({ title: 'plain', url: 'http://127.0.0.1:1/<x>', perSecond: [[1000], [1000]] })
  const h2 = { ...resultOfLatencies({ perSecond: [[1000]] }), protocol: 'h2', pipelining: 10, workers: 2, rate: { target: 1000, achieved: 998.123 }, connectionStages: [{ duration: 0.5, connections: 3 }] }
  const html = runTable([{ name: 'a <1>', result: plain }, { name: 'b', result: h2 }])
  t.match(html, /^<table id="run"><caption>Run<\/caption><thead><tr><th><\/th><th scope="col">a &lt;1&gt;<\/th><th scope="col">b<\/th><\/tr><\/thead>/)
  t.same(cells(html, 'url'), ['URL', 'http://127.0.0.1:1/&lt;x&gt;', 'http://127.0.0.1:1/'])
  t.same(cells(html, 'start'), ['Started', '2024-01-02 03:04:05 UTC', '2024-01-02 03:04:05 UTC'])
  t.same(cells(html, 'duration'), ['Duration', '2 s', '1 s'])
  t.same(cells(html, 'connections'), ['Connections', '10', 'ramped: 0.5 s to 3'])
  t.same(cells(html, 'protocol'), ['Protocol', 'HTTP/1.1', 'HTTP/2'])
  t.same(cells(html, 'pipelining'), ['Pipelining', '1', '10 streams per connection'])
  t.same(cells(html, 'workers'), ['Worker threads', 'none', '2'])
  t.same(cells(html, 'rate'), ['Rate', 'none: as fast as answered', '1,000 req/s target, 998.12 achieved'])
  t.same(cells(html, 'total'), ['Responses', '2', '1'])
})

t.test('status, errors and the generator: every cause, codes sorted, dashes where unmeasured', async (t) => {
  const a = { ...resultOfLatencies({ perSecond: [[1000, 1000]] }), errors: 3, timeouts: 1, errorsByCause: { read: 2, timeout: 1 }, errorCodes: { ECONNRESET: 2, AC_TIMEOUT: 1 } }
  const b = { ...resultOfLatencies({ perSecond: [[1000]], status: 503 }) }
  delete b.generator
  const runs = [{ name: 'a', result: a }, { name: 'b', result: b }]
  const status = statusTable(runs)
  t.same(cells(status, 'status-200'), ['200', '2', '0'])
  t.same(cells(status, 'status-503'), ['503', '0', '1'])
  t.same(cells(status, 'non2xx'), ['non-2xx', '0', '1'])
  const errors = errorTable(runs)
  t.same(['connect', 'read', 'write', 'timeout', 'parse', 'hook'].map((c) => cells(errors, `cause-${c}`)[1]), ['0', '2', '0', '1', '0', '0'], 'every cause, 0 where none')
  t.same([...errors.matchAll(/data-key="code-([^"]+)"/g)].map((m) => m[1]), ['AC_TIMEOUT', 'ECONNRESET'])
  t.same(cells(errors, 'errors'), ['all errors', '3', '0'])
  t.same(cells(errors, 'timeouts'), ['of which timeouts', '1', '0'])
  const generator = generatorTable(runs)
  t.same(cells(generator, 'cpu').slice(2), ['–'], 'a result saved before the generator was measured')
  t.match(cells(generator, 'cpu')[1], /^\d+%$/)
  // The late requests and the pauses by cause.
  a.generator = { ...a.generator, late: 12, lateNoConnection: 2, lateOwn: 3, lateStarved: 7, pauses: { own: { count: 1, ms: 4.5, max: 4 }, starved: { count: 2, ms: 30.25, max: 20 } } }
  const split = generatorTable(runs)
  t.same(cells(split, 'late-no-connection'), ['of which: no connection free', '2', '–'])
  t.same(cells(split, 'late-own'), ['of which: its own work', '3', '–'])
  t.same(cells(split, 'late-starved'), ['of which: not running (other processes had the CPU)', '7', '–'])
  t.same(cells(split, 'pause-own'), ['pauses, its own work: all, longest (ms)', '4.5, 4', '–'])
  t.same(cells(split, 'pause-starved'), ['pauses, not running: all, longest (ms)', '30.25, 20', '–'])
})

t.test('where the time went: a row per phase some run took, p50, p99, mean, max and count per run', async (t) => {
  // synthetic-result: two connections (dns 300 and 500 µs, connect half,
  // TLS four times), each response's first byte at 40% of its latency.
  const a = resultOfLatencies({ perSecond: [[1000, 2000]] })
  const html = timingsTable([{ name: 'a', result: a }])
  const rows = [...html.matchAll(/<tr data-key="([^"]+)"><th scope="row">([^<]+)<\/th>((?:<td>[^<]*<\/td>)*)<\/tr>/g)]
    .map(([, key, label, cells]) => [key, label, [...cells.matchAll(/<td>([^<]*)<\/td>/g)].map((m) => m[1])])
  t.same(rows, [
    ['timing-dns', 'DNS lookup', ['0.3', '0.5', '0.4', '0.5', '2']],
    ['timing-connect', 'TCP connect', ['0.15', '0.25', '0.2', '0.25', '2']],
    ['timing-tls', 'TLS handshake', ['1.2', '2', '1.6', '2', '2']],
    ['timing-ttfb', 'Time to first byte', ['0.4', '0.8', '0.6', '0.8', '2']],
    ['timing-transfer', 'Transfer', ['0.6', '1.2', '0.9', '1.2', '2']]
  ], 'no proxy row: no connection took one')
  t.match(html, /<th scope="col">p50<\/th><th scope="col">p99<\/th><th scope="col">mean<\/th><th scope="col">max<\/th><th scope="col">count<\/th>/)
  const two = timingsTable([{ name: 'a', result: a }, { name: 'b<', result: a }])
  t.match(two, /<th scope="col">b&lt; p50<\/th>/, 'a column group per run, names escaped')
  const old = { ...a }
  delete old.timings
  t.equal(timingsTable([{ name: 'o', result: old }]), '', 'nothing for results saved before phases were timed')
})

t.test('the CLI tables, without colour even when colour is forced', async (t) => {
  const r = resultOfLatencies({ perSecond: [[20000, 25000]] })
  const saved = process.env.FORCE_COLOR
  process.env.FORCE_COLOR = '1'
  t.teardown(() => { if (saved === undefined) delete process.env.FORCE_COLOR; else process.env.FORCE_COLOR = saved })
  const text = cliText(r)
  t.notMatch(text, /\u001b/) // eslint-disable-line no-control-regex
  t.match(text, /Latency/)
})
