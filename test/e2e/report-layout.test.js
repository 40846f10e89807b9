'use strict'

// The report's page (and so the dashboard's, which draws the same charts)
// as read in Chromium at 1,280 px: no table wider than its place; with two
// runs, every line told apart by its colour and its dash, and the
// legend's swatches showing both; time axes ticking at whole samples from
// the first; the words over a search's points placed off its lines.
// Screenshots go to .tap/report-layout.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { pathToFileURL } = require('url')
const { renderHtml } = require('../../lib/output/html/report')
const { resultOfLatencies } = require('../helpers/synthetic-result')
const { searchA, searchB } = require('../helpers/synthetic-search')
const { findChromium, launchChromium } = require('../helpers/browser')

const OUT = path.join(__dirname, '..', '..', '.tap', 'report-layout')
const WIDTH = 1280

t.setTimeout(180000)
const { found: chromium, candidates } = findChromium()
if (!chromium) t.skip(`chromium not found: looked for ${candidates.join(', ')}`)
else main()

// A run whose samples end a moment after their grid points, as real ones
// do (1.002 s, 2.001 s…).
function run (title, scale) {
  const perSecond = [1, 2, 3, 4, 5, 6].map((k) => Array.from({ length: 50 }, (_, i) => (1000 + i * 40 * k) * scale))
  const result = JSON.parse(JSON.stringify(resultOfLatencies({ title, perSecond, uncorrected: (us) => us * 0.8 })))
  const start = new Date(result.start).getTime()
  result.series.time = result.series.time.map((x, i) => start + (i + 1) * 1000 + 2 - (i % 2))
  result.timings = result.timings || null
  return result
}

async function open (t, browser, name, html) {
  fs.mkdirSync(OUT, { recursive: true })
  const file = path.join(OUT, `${name}.html`)
  fs.writeFileSync(file, html)
  const page = await browser.newPage()
  t.teardown(() => page.close().catch(() => {}))
  const problems = []
  page.on('pageerror', (err) => problems.push(err.message))
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(msg.text()) })
  await page.setViewport({ width: WIDTH, height: 900 })
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' })
  await page.waitForFunction('window.autocannonReport && window.autocannonReport.ready')
  await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: true })
  t.same(problems, [], 'no error on the page')
  return page
}

// Every table (and its scrolling holder) no wider than its place, and the
// page no wider than the window.
async function checkNoOverflow (t, page) {
  const boxes = await page.evaluate(() => {
    const out = []
    for (const el of document.querySelectorAll('.wide, table')) {
      const holder = el.classList.contains('wide') ? el : el.parentElement
      out.push({ what: el.id || el.className || el.tagName, scroll: el.scrollWidth, client: holder.clientWidth })
    }
    out.push({ what: 'the page', scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth })
    return out
  })
  t.ok(boxes.length > 3, `${boxes.length} boxes measured`)
  for (const b of boxes) t.ok(b.scroll <= b.client, `${b.what}: ${b.scroll} px in ${b.client} px`)
}

function main () {
  t.test('at 1,280 px', async (t) => {
    const browser = await launchChromium(t, chromium)

    await t.test('two runs', async (t) => {
      const page = await open(t, browser, 'two-runs', renderHtml([run('before', 1), run('after', 1.5)]))
      await checkNoOverflow(t, page)
      const charts = await page.evaluate(() => {
        const out = {}
        for (const [id, plot] of Object.entries(window.autocannonReport.charts)) {
          out[id] = {
            swatches: [...plot.root.querySelectorAll('.u-legend .u-series canvas.swatch')].map((c) => `${c.dataset.color} ${c.dataset.dash || 'solid'}`),
            lines: plot.series.slice(1).map((s) => `${s.stroke()} ${s.dash ? s.dash.join(',') : 'solid'}`),
            first: plot.data[0][0],
            ticks: plot.axes[0]._splits
          }
        }
        return out
      })
      for (const id of ['latency-over-time', 'requests-over-time', 'latency-percentiles']) {
        const c = charts[id]
        t.equal(new Set(c.lines).size, c.lines.length, `${id}: each line its own colour and dash (${c.lines.join('; ')})`)
        t.same(c.swatches, c.lines, `${id}: the legend's swatches show each line's colour and dash`)
      }
      for (const id of ['requests-over-time', 'latency-over-time', 'timings-over-time-1', 'timings-over-time-2']) {
        const c = charts[id]
        t.ok(c, `${id} drawn`)
        t.ok(c.ticks.every((x) => Number.isInteger(x)), `${id}: ticks at whole seconds (${c.ticks.join(', ')})`)
        t.equal(c.ticks[0], Math.round(c.first), `${id}: the first sample has its tick`)
      }
    })

    await t.test('a search report', async (t) => {
      // Several SLOs, as a real search has them: the widest summary.
      const a = { ...searchA(), slos: ['p99<200ms', 'p99.9<500ms', 'p50<20ms', 'errors<0.1%', 'non2xx<1%'] }
      const page = await open(t, browser, 'search', renderHtml([a, searchB()], { names: ['http://server-a.internal.example.com:8080/api/v1/items?page=1', 'http://server-b.internal.example.com:8080/api/v1/items?page=1'] }))
      await checkNoOverflow(t, page)
      const labels = await page.evaluate(() => Object.entries(window.autocannonReport.charts)
        .filter(([id]) => id.startsWith('search-'))
        .flatMap(([id, plot]) => (plot.labels || []).map((l) => ({ id, ...l }))))
      t.ok(labels.some((l) => /^best /.test(l.label)), `the answer's word is drawn (${labels.length} words)`)
      for (const l of labels) t.equal(l.crossings, 0, `${l.id}: "${l.label}" crosses no line`)
    })
  })
}
