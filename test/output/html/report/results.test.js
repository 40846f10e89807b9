'use strict'

// The HTML report's pure parts, without a browser: the data it inlines,
// names, escaping (the percentile points it plots:
// test/output/html/percentiles.test.js). The page itself is tested in
// Chromium by test/e2e/report-html.test.js.

const t = require('tap')
const { WARNING_PREFIX } = require('../../../../lib/core/warnings')
const { percentileDistribution } = require('../../../../lib/output/html/percentiles')
const { renderHtml, scriptJson } = require('../../../../lib/output/html/report')
const { cliText } = require('../../../../lib/output/html/tables')
const { resultOfLatencies } = require('../../../helpers/synthetic-result')

// The data the page draws, read back out of the page.
function reportData (html) {
  const m = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)
  return JSON.parse(m[1])
}

function chart (html, id) {
  return reportData(html).charts.find((c) => c.id === id)
}

t.test('the latency chart has one line per file, and one more for each uncorrected latency', async (t) => {
  const a = resultOfLatencies({ perSecond: [[20000, 21000, 22000], [20000, 900000]] })
  const b = resultOfLatencies({ perSecond: [[30000, 31000], [32000]], uncorrected: (us) => us / 2 })
  const c = resultOfLatencies({ perSecond: [[40000], [41000, 42000]] })
  const html = renderHtml([a, b, c], { names: ['a.json', 'b.json', 'c.json'] })
  const latency = chart(html, 'latency-percentiles')
  t.same(latency.series.map((s) => s.label), ['a.json', 'b.json (corrected)', 'b.json (uncorrected)', 'c.json'])
  t.equal(latency.data.length, 5, 'x and four lines')
  for (const ys of latency.data) t.equal(ys.length, latency.data[0].length, 'aligned on one x array')
  // Each line's points are its own distribution; nulls where another file has a point.
  const own = (k) => latency.data[0].map((x, i) => [x, latency.data[k][i]]).filter(([, y]) => y !== null)
  const expected = (h) => percentileDistribution(h).map((p) => [Number(p.x.toPrecision(12)), Math.round(p.value) / 1000])
  t.same(own(1), expected(a.histograms.latency))
  t.same(own(2), expected(b.histograms.latency))
  t.same(own(3), expected(b.histograms.latencyUncorrected))
  t.same(own(4), expected(c.histograms.latency))
  t.equal(Math.max(...own(1).map(([, y]) => y)), a.latency.max, 'a\'s line reaches its max')

  const requests = chart(html, 'requests-over-time')
  t.same(requests.series.map((s) => s.label), ['a.json responses/s', 'a.json errors/s', 'b.json responses/s', 'b.json errors/s', 'c.json responses/s', 'c.json errors/s'])
  t.same(requests.data[0], [1, 2], 'x is seconds since each run\'s start')
  t.same(requests.data[1], [3, 2])
  const overTime = chart(html, 'latency-over-time')
  t.same(overTime.series.map((s) => s.label), ['a.json p50 (from send)', 'a.json p99 (from send)', 'a.json generator pause', 'b.json p50 (corrected)', 'b.json p99 (corrected)', 'b.json generator pause', 'c.json p50 (from send)', 'c.json p99 (from send)', 'c.json generator pause'])
  t.same(overTime.data[1], a.series.latencyP50)
})

t.test('one file: the lines are named by what they are', async (t) => {
  const r = resultOfLatencies({ perSecond: [[20000], [21000]], uncorrected: (us) => us })
  const html = renderHtml([r])
  t.same(chart(html, 'latency-percentiles').series.map((s) => s.label), ['Latency (corrected)', 'Latency (uncorrected)'])
  t.same(chart(html, 'requests-over-time').series.map((s) => s.label), ['Responses/s', 'Errors/s'])
  t.same(chart(html, 'latency-over-time').series.map((s) => s.label), ['p50 (corrected)', 'p99 (corrected)', 'generator pause (max)'])
  t.same(chart(html, 'latency-over-time').data[3], r.series.loopDelayMax, 'the generator\'s longest pause per interval')
  t.match(html, /<table id="generator"/, 'and its health in a table')
  t.ok(renderHtml(r).includes('<h1>'), 'a single result need not be in an array')
})

t.test('requests/s over time counts per second whatever the sample interval', async (t) => {
  const r = resultOfLatencies({ perSecond: [[1, 2, 3, 4]] })
  r.series.interval = 500
  t.same(chart(renderHtml([r]), 'requests-over-time').data[1], [8])
})

t.test('a title or URL holding </script> cannot end the data or inject markup', async (t) => {
  const evil = '</script><script>window.pwned=1</script><!--'
  const a = resultOfLatencies({ title: evil, url: `http://127.0.0.1:1/${evil}`, perSecond: [[20000]] })
  const b = resultOfLatencies({ title: 'b & "c"', perSecond: [[20000]] })
  const html = renderHtml([a, b], { title: `report ${evil}` })
  // Three scripts (data, uPlot, page), each closed once.
  t.equal(html.match(/<script/gi).length, 3)
  t.equal(html.match(/<\/script/gi).length, 3)
  t.notOk(html.includes('window.pwned=1</script>'), 'no script of the title\'s')
  t.ok(html.includes('<title>report &lt;/script&gt;&lt;script&gt;window.pwned=1&lt;/script&gt;&lt;!--</title>'))
  t.ok(html.includes('b &amp; &quot;c&quot;'))
  // The data still carries the exact text.
  t.same(chart(html, 'latency-percentiles').series.map((s) => s.label), [evil, 'b & "c"'])
  t.equal(scriptJson({ s: '</script>&<!--\u2028' }), '{"s":"\\u003c/script\\u003e\\u0026\\u003c!--\\u2028"}')
  t.same(JSON.parse(scriptJson({ s: '</script>&<!--\u2028' })), { s: '</script>&<!--\u2028' })
})

t.test('names: a result\'s title, else the file name, and never twice the same', async (t) => {
  const titled = resultOfLatencies({ title: 'checkout', perSecond: [[20000]] })
  const other = resultOfLatencies({ title: 'checkout', perSecond: [[20000]] })
  const untitled = resultOfLatencies({ perSecond: [[20000]] })
  const labels = (html) => chart(html, 'latency-percentiles').series.map((s) => s.label)
  t.same(labels(renderHtml([titled, untitled], { names: ['a.json', 'b.json'] })), ['checkout', 'b.json'])
  t.same(labels(renderHtml([titled, other], { names: ['a.json', 'b.json'] })), ['checkout (a.json)', 'checkout (b.json)'])
  t.same(labels(renderHtml([untitled, untitled])), ['run 1', 'run 2'])
})

t.test('no network: every asset is inlined and the page forbids fetching', async (t) => {
  const html = renderHtml([resultOfLatencies({ perSecond: [[20000]] })])
  t.notMatch(html, /<(script|link|img|iframe)[^>]+(src|href)=/i, 'no external script, style or image')
  t.match(html, /Content-Security-Policy" content="default-src 'none'/)
  t.match(html, /uPlot/, 'uPlot inlined')
  t.ok(html.length < 150 * 1024, `small (${html.length} bytes)`)
})

t.test('thresholds: a table when the result has them, none otherwise', async (t) => {
  const r = resultOfLatencies({ perSecond: [[20000]] })
  t.notMatch(renderHtml([r]), /id="thresholds-/)
  r.thresholds = [
    { expression: 'p99 < 200ms', metric: 'p99', operator: '<', limit: 200, value: 20.5, ok: true },
    { expression: 'rps > 5000 <b>', metric: 'rps', operator: '>', limit: 5000, value: 1, ok: false }
  ]
  const html = renderHtml([r])
  t.match(html, /<tr data-key="threshold-0" class="pass"><th scope="row">p99 &lt; 200ms<\/th><td>20.5<\/td><td>✔ pass<\/td><\/tr>/)
  t.match(html, /<tr data-key="threshold-1" class="fail"><th scope="row">rps &gt; 5000 &lt;b&gt;<\/th><td>1<\/td><td>✗ fail<\/td><\/tr>/)
})

t.test('a result without histograms or series is refused with one line', async (t) => {
  const r = resultOfLatencies({ perSecond: [[20000]] })
  delete r.histograms
  t.throws(() => renderHtml([r], { names: ['old.json'] }), { code: 'AC_NOT_A_RESULT', message: /old\.json has no latency histograms/ })
  t.throws(() => renderHtml([]), { code: 'AC_INVALID_ARGUMENT', message: 'renderHtml needs at least one result or search' })
})

t.test('a result read back from JSON renders as the live one', async (t) => {
  const r = resultOfLatencies({ perSecond: [[20000], [30000]], uncorrected: (us) => us })
  const saved = JSON.parse(JSON.stringify(r))
  t.equal(renderHtml([saved]), renderHtml([r]))
})

t.test('a run without a response: the page says why, as the CLI does', async (t) => {
  const r = resultOfLatencies({ perSecond: [[], []] })
  t.match(cliText(r), /no response from http:\/\/127\.0\.0\.1:1\/: no request was sent in 2s$/)
  t.same(chart(renderHtml([r]), 'latency-percentiles').data, [[], []], 'an empty distribution, drawn as empty axes')
})

t.test('the run table says what was resent and why a run stopped early', async (t) => {
  const plain = resultOfLatencies({ perSecond: [[1000, 2000]] })
  const aborted = { ...resultOfLatencies({ perSecond: [[1000, 900000]] }), resent: 12, aborted: { threshold: 'p99<100ms', at: 3, value: 801.79, unit: 'ms' } }
  const signalled = { ...resultOfLatencies({ perSecond: [[1000]] }), partial: { signal: 'SIGTERM' } }
  const html = renderHtml([plain, aborted, signalled], { names: ['plain', 'aborted', 'signalled'] })
  const cells = (key) => {
    const m = new RegExp(`<tr data-key="${key}"><th scope="row">[^<]*</th>(.*?)</tr>`).exec(html)
    return m ? [...m[1].matchAll(/<td>(.*?)<\/td>/g)].map((c) => c[1]) : null
  }
  t.same(cells('resent'), ['0', '12', '0'])
  t.same(cells('stopped'), ['no', 'aborted at 3 s: p99&lt;100ms', 'by SIGTERM'])
})

t.test('the generator\'s verdict: the line the CLI prints, on the run page and after its tables', async (t) => {
  const calm = resultOfLatencies({ perSecond: [[20000, 21000]], uncorrected: (us) => us / 2 })
  const distorted = resultOfLatencies({ perSecond: [[20000, 21000]], uncorrected: (us) => us / 2 })
  distorted.generator = { ...distorted.generator, loopDelay: { p50: 0, p99: 4, max: 12 }, pauses: { own: { count: 0, ms: 0.5, max: 0.5 }, starved: { count: 3, ms: 30, max: 12 } } }
  const line = `${WARNING_PREFIX}the generator may have distorted the latency: its event loop ran 4 ms late at p99 (max 12 ms); ` +
    'cause: other processes had the CPU (the thread was not running for 30 ms of its pauses, the longest 12 ms): run fewer processes on this machine, or spread the load over threads (-w)'
  const one = renderHtml([distorted])
  t.match(one, `<p class="sentence verdict" id="generator-verdict-0">${line}</p>`, 'on the run page')
  t.match(cliText(distorted), new RegExp(`\\n${line.replace(/[()]/g, '\\$&')}$`), 'after the tables, as the CLI prints it')
  const both = renderHtml([calm, distorted], { names: ['calm.json', 'loaded.json'] })
  t.notMatch(both, /id="generator-verdict-0"/, 'a calm run has none')
  t.match(both, `<p class="sentence verdict" id="generator-verdict-1">loaded.json: ${line}</p>`, 'named, beside other runs')
  t.notMatch(cliText(calm), /distorted/)
})

t.test('the page names this tool and its version, not autocannon (which has no HTML report)', async (t) => {
  const { name, version } = require('../../../../package.json')
  const result = resultOfLatencies({ perSecond: [[20000]] })
  const html = renderHtml([{ ...result, url: 'http://127.0.0.1:9/x' }])
  t.ok(html.includes('<title>cannonade: http://127.0.0.1:9/x</title>'), 'the title')
  t.ok(html.includes(`<meta name="generator" content="${name} ${version}">`), 'the generator')
  t.ok(html.includes(`<p class="meta">Written by ${name} ${version}</p>`), 'the footer')
  t.equal(name, 'cannonade')
  t.notOk(/autocannon/.test(/<head>[^]*<\/head>/.exec(html)[0].replace(/<style>[^]*?<\/style>/g, '')), 'no autocannon in the head')
})
