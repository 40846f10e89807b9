'use strict'

// The HTML report in a real browser: headless Chromium (Debian's
// `chromium`, driven by puppeteer-core) opens reports of real runs, and of
// capacity searches, from file:// and checks that nothing fails, nothing is
// fetched, every chart drew its lines, and the tables show the result's
// numbers. The reports and their screenshots are kept in .tap/report-html/
// (not committed) for a person to look at.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { pathToFileURL } = require('url')
const autocannon = require('../..')
const { renderHtml } = require('../../lib/output/html/report')
const { readResults } = require('../../lib/results/saved-result')
const { writeOutputs } = require('../../lib/output/outputs')
const { childServer } = require('../helpers/servers')
const { findChromium, notFound, launchChromium } = require('../helpers/browser')
const { run } = require('../helpers/cli')
const { searchA, searchB, search: searchAt } = require('../helpers/synthetic-search')

const OUT = path.join(__dirname, '..', '..', '.tap', 'report-html')

// Real runs, and a real capacity search through the CLI, on a machine that
// may be loaded: more than the 180 s of .taprc.
t.setTimeout(600000)

const { found: chromium, candidates } = findChromium()
if (!chromium) t.skip(notFound(candidates))
else main()

function numberOf (text) {
  return Number(String(text).replace(/,/g, '').replace(/[^\d.-].*$/, ''))
}

async function openReport (t, browser, file) {
  const page = await browser.newPage()
  t.teardown(() => page.close().catch(() => {}))
  const url = pathToFileURL(file).href
  const problems = []
  const requests = []
  page.on('console', (msg) => { if (msg.type() === 'error' || msg.type() === 'warn') problems.push(`console ${msg.type()}: ${msg.text()}`) })
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`))
  await page.setRequestInterception(true)
  page.on('request', (req) => {
    requests.push(req.url())
    // Only the report itself may load; anything else is recorded and stopped.
    if (req.url() === url) req.continue()
    else req.abort()
  })
  await page.setViewport({ width: 1200, height: 900 })
  await page.goto(url, { waitUntil: 'load', timeout: 60000 })
  await page.waitForFunction('window.autocannonReport && window.autocannonReport.ready', { timeout: 30000 })
  return { page, problems, requests, url }
}

// What each chart drew: uPlot's series and data, the legend's text, and
// for each line, drawn alone, how many canvas pixels take its colour (lines
// of one file share a colour, so each is shown alone to count its own).
function drawn (page) {
  return page.evaluate(async () => {
    const settle = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))) // eslint-disable-line no-undef
    const near = (data, i, [r, g, b]) => Math.abs(data[i] - r) <= 48 && Math.abs(data[i + 1] - g) <= 48 && Math.abs(data[i + 2] - b) <= 48
    const pixels = (plot, colour) => {
      const canvas = plot.ctx.canvas
      const { data } = plot.ctx.getImageData(0, 0, canvas.width, canvas.height)
      let painted = 0
      let coloured = 0
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] === 0) continue
        painted++
        if (colour && near(data, i, colour)) coloured++
      }
      return { painted, coloured }
    }
    const out = {}
    for (const [id, plot] of Object.entries(window.autocannonReport.charts)) {
      const canvas = plot.ctx.canvas
      const colours = plot.series.slice(1).map((s) => s.stroke())
      const painted = pixels(plot).painted
      const alone = []
      for (let k = 1; k < plot.series.length; k++) {
        const rgb = [1, 3, 5].map((i) => parseInt(colours[k - 1].slice(i, i + 2), 16))
        for (let j = 1; j < plot.series.length; j++) plot.setSeries(j, { show: j === k })
        await settle()
        const shown = pixels(plot, rgb).coloured
        plot.setSeries(k, { show: false })
        await settle()
        alone.push(shown - pixels(plot, rgb).coloured)
      }
      for (let j = 1; j < plot.series.length; j++) plot.setSeries(j, { show: true })
      await settle()
      out[id] = {
        labels: plot.series.slice(1).map((s) => s.label),
        legend: [...document.querySelectorAll(`#chart-${id} .u-legend .u-series .u-label`)].map((e) => e.textContent),
        // A value box in the legend (uPlot's live legend): empty on a page
        // no cursor moves over.
        legendValues: document.querySelectorAll(`#chart-${id} .u-legend .u-value`).length,
        // Each axis: its scale, the ticks it drew and their labels.
        axes: plot.axes.map((a) => ({ scale: a.scale, ticks: a._splits, labels: a._values })),
        scales: Object.fromEntries(Object.entries(plot.scales).map(([k, sc]) => [k, [sc.min, sc.max, sc.distr]])),
        colours,
        alone,
        painted,
        size: [canvas.width, canvas.height],
        data: plot.data,
        xDistr: plot.scales.x.distr
      }
    }
    return out
  })
}

// { data-key: [cell texts] } of one table.
function tableRows (page, id) {
  return page.evaluate((id) => {
    const rows = {}
    for (const tr of document.querySelectorAll(`#${id} tbody tr`)) {
      rows[tr.dataset.key] = [...tr.querySelectorAll('td')].map((td) => td.textContent)
    }
    return rows
  }, id)
}

function checkCharts (t, charts, expected) {
  t.same(Object.keys(charts).sort(), Object.keys(expected).sort(), 'the charts')
  for (const [id, labels] of Object.entries(expected)) {
    const c = charts[id]
    t.same(c.labels, labels, `${id}: series`)
    t.same(c.legend, labels, `${id}: legend`)
    t.equal(c.legendValues, 0, `${id}: a static legend, no value boxes`)
    t.ok(c.size[0] > 300 && c.size[1] > 100, `${id}: canvas ${c.size.join('×')}`)
    t.ok(c.painted > 5000, `${id}: canvas drawn (${c.painted} pixels)`)
    c.labels.forEach((label, k) => t.ok(c.alone[k] > 20, `${id}: the line "${label}" is on the canvas (${c.alone[k]} pixels of ${c.colours[k]} drawn alone)`))
  }
}

async function checkTables (t, page, runs) {
  const run = await tableRows(page, 'run')
  const latency = await tableRows(page, 'latency')
  const status = await tableRows(page, 'status')
  const errors = await tableRows(page, 'errors')
  runs.forEach(({ result }, i) => {
    t.equal(run.url[i], result.url, 'URL')
    t.equal(numberOf(run.connections[i]), result.connections, 'connections')
    t.equal(numberOf(run.sent[i]), result.requests.sent, 'requests sent')
    t.equal(numberOf(run.total[i]), result.requests.total, 'responses')
    t.equal(numberOf(run.resent[i]), result.resent || 0, 'resent')
    t.equal(numberOf(run.duration[i]), Math.round(result.duration * 100) / 100, 'duration')
    if (result.rate) t.match(run.rate[i], new RegExp(`^${result.rate.target} req/s target, ${result.rate.achieved} achieved`), 'rate')
    t.equal(run.start[i], new Date(result.start).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'), 'start')
    for (const code of Object.keys(result.statusCodeStats)) {
      t.equal(numberOf(status[`status-${code}`][i]), result.statusCodeStats[code].count, `status ${code}`)
    }
    t.equal(numberOf(status.responses[i]), result.requests.total, 'all responses')
    for (const cause of Object.keys(result.errorsByCause)) {
      t.equal(numberOf(errors[`cause-${cause}`][i]), result.errorsByCause[cause], `errors by cause: ${cause}`)
    }
    t.equal(numberOf(errors.errors[i]), result.errors, 'errors')
  })
  // Latency columns: each run, then its uncorrected latency when it has one.
  const columns = runs.flatMap(({ result }) => [result.latency, result.latencyUncorrected].filter(Boolean))
  columns.forEach((stats, k) => {
    for (const key of ['p50', 'p90', 'p99', 'p99_9', 'max', 'mean']) {
      t.equal(numberOf(latency[`latency-${key}`][k]), stats[key], `latency ${key}, column ${k + 1}`)
    }
  })
  const cli = await page.evaluate(() => [...document.querySelectorAll('pre[id^="cli-"]')].map((e) => e.textContent))
  // What the CLI writes on stderr for the result: its tables, and the
  // generator's line after them when it has one.
  const printed = runs.map(({ result }) => {
    const err = []
    const streams = { stdout: { write () {} }, stderr: { write: (s) => err.push(s) } }
    writeOutputs(result, { renderResultsTable: true }, { streams })
    return err.join('').replace(/\u001b\[[0-9;]*m/g, '').trim() // eslint-disable-line no-control-regex
  })
  t.same(cli, printed, 'the CLI tables, and its line after them, as the CLI prints them')
}

// A search page's charts: the capacity chart with one line per file, and
// for each connection count p50, p99, p99.9 and each latency SLO as a line
// at its limit. Lines with no point (no rate passed) are not looked for.
function checkSearchCharts (t, charts, files) {
  // No rate passed in any file: no capacity chart at all.
  const expected = files.some(({ search }) => search.searches.some((s) => s.best)) ? { capacity: files.map((f) => f.name) } : {}
  const slos = []
  let k = 0
  for (const { search } of files) {
    for (let i = 0; i < search.searches.length; i++) {
      const latencySlos = search.slos.filter((x) => /^p/.test(x))
      expected[`search-${k}`] = ['p50', 'p99', 'p99.9', ...latencySlos.map((x) => `SLO ${x}`)]
      slos.push(latencySlos)
      k++
    }
  }
  t.same(Object.keys(charts).sort(), Object.keys(expected).sort(), 'the capacity chart and one chart per connection count')
  for (const [id, labels] of Object.entries(expected)) {
    const c = charts[id]
    t.same(c.labels, labels, `${id}: series`)
    t.same(c.legend, labels, `${id}: legend`)
    t.equal(c.legendValues, 0, `${id}: a static legend, no value boxes`)
    t.ok(c.size[0] > 300 && c.size[1] > 100, `${id}: canvas ${c.size.join('×')}`)
    t.ok(c.painted > 5000, `${id}: canvas drawn (${c.painted} pixels)`)
    c.labels.forEach((label, k) => {
      if (c.data[k + 1].every((v) => v === null)) return
      t.ok(c.alone[k] > 20, `${id}: the line "${label}" is on the canvas (${c.alone[k]} pixels of ${c.colours[k]} drawn alone)`)
    })
  }
  // The SLO at its limit at every offered rate, across the plot.
  k = 0
  for (const { search } of files) {
    for (const s of search.searches) {
      const c = charts[`search-${k}`]
      t.same(c.data[0], s.steps.map((x) => x.target).sort((a, b) => a - b), `search-${k}: x is each step's offered rate`)
      slos[k].forEach((slo, j) => {
        const limit = Number(/(\d+(?:\.\d+)?)ms$/.exec(slo)[1])
        t.ok(c.data[4 + j].every((v) => v === limit), `search-${k}: ${slo} drawn at ${limit} ms`)
      })
      k++
    }
  }
}

// The capacity table has each search's best rate; each connection count
// its sentence and its steps with their verdicts.
async function checkSearchTables (t, page, files) {
  const capacity = await tableRows(page, 'capacity')
  let k = 0
  for (const { search } of files) {
    for (const s of search.searches) {
      const [connections, best, status] = capacity[`capacity-${k}`]
      t.equal(numberOf(connections), s.connections, `capacity-${k}: connections`)
      if (s.best) t.equal(numberOf(best), s.best.rate, `capacity-${k}: the best rate is the search's, ${s.best.rate} req/s`)
      else t.equal(best, '—', `capacity-${k}: no rate passed`)
      if (s.status !== 'found') t.match(status, s.status === 'below-low' ? /below the low rate/ : s.status, `capacity-${k}: ${s.status} marked`)
      const sentence = await page.evaluate((k) => document.getElementById(`sentence-${k}`).textContent, k)
      t.equal(sentence, s.sentence, `sentence-${k}: the closing sentence`)
      const steps = await page.evaluate((k) => [...document.querySelectorAll(`#steps-${k} tbody tr`)].map((tr) => tr.dataset.verdict), k)
      t.same(steps, s.steps.map((x) => x.verdict), `steps-${k}: every step with its verdict`)
      k++
    }
  }
}

async function screenshot (t, page, name) {
  const file = path.join(OUT, name)
  await page.screenshot({ path: file, fullPage: true })
  t.ok(fs.statSync(file).size > 10000, `screenshot in ${path.relative(process.cwd(), file)}`)
}

function main () {
  t.test('reports of real runs, in Chromium', async (t) => {
    fs.mkdirSync(OUT, { recursive: true })
    const dir = t.testdir()

    // A 20 ms server that freezes once for 1 s, under a fixed rate: the
    // corrected latency shows the stall as ~100 requests that waited up to
    // a second, the uncorrected one only the few that were in flight.
    const slow = await childServer(t, 'delay-server.js', ['20'])
    await slow.ask({ stall: 1000, after: 2000 })
    const stalled = await autocannon({ url: slow.url, connections: 10, overallRate: 100, duration: 5, title: 'stall' })
    stalled.thresholds = [
      { expression: 'p99 < 2000ms', metric: 'p99', operator: '<', limit: 2000, value: stalled.latency.p99, ok: stalled.latency.p99 < 2000 },
      { expression: 'p99 < 100ms', metric: 'p99', operator: '<', limit: 100, value: stalled.latency.p99, ok: stalled.latency.p99 < 100 }
    ]
    t.ok(stalled.latencyUncorrected, 'the rate run has an uncorrected latency')
    t.ok(stalled.latency.max >= 500, `the stall is in the corrected latency (max ${stalled.latency.max} ms)`)

    // Without a rate: no uncorrected line.
    const steady = await childServer(t, 'delay-server.js', ['20'])
    const plain = await autocannon({ url: steady.url, connections: 5, duration: 2 })

    // As `autocannon report` will: saved with -j, read back, named by file.
    const files = [['stall.json', stalled], ['steady.json', plain]].map(([name, result]) => {
      const file = path.join(dir, name)
      fs.writeFileSync(file, JSON.stringify(result))
      return file
    })
    const saved = files.map((f) => readResults(f, { need: ['histograms', 'series'] })[0])

    const browser = await launchChromium(t, chromium)

    await t.test('one run: corrected and uncorrected latency', async (t) => {
      const file = path.join(OUT, 'report-one.html')
      fs.writeFileSync(file, renderHtml([saved[0]]))
      const size = fs.statSync(file).size
      t.ok(size < 120 * 1024, `the report is small (${size} bytes)`)
      t.comment(`report: ${path.relative(process.cwd(), file)}, ${size} bytes`)

      const { page, problems, requests, url } = await openReport(t, browser, file)
      t.same(problems, [], 'no console errors or warnings')
      t.same(requests.filter((u) => u !== url), [], 'no request but the file itself')
      t.same(await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name)), [], 'no resource loaded')

      const charts = await drawn(page)
      checkCharts(t, charts, {
        'latency-percentiles': ['Latency (corrected)', 'Latency (uncorrected)'],
        'requests-over-time': ['Responses/s', 'Errors/s'],
        'latency-over-time': ['p50 (corrected)', 'p99 (corrected)', 'generator pause (max)'],
        'timings-over-time': ['Transfer (mean)', 'Time to first byte (mean)', 'Wait before send (mean)']
      })
      const distribution = charts['latency-percentiles']
      t.equal(distribution.xDistr, 3, 'percentiles on a log axis')
      t.equal(distribution.data[0][0], 1, 'starting at 0% (1/(1-0) = 1)')
      t.equal(Math.max(...distribution.data[1].filter((v) => v !== null)), saved[0].latency.max, 'the corrected line ends at the max')
      t.equal(Math.max(...distribution.data[2].filter((v) => v !== null)), saved[0].latencyUncorrected.max, 'the uncorrected line ends at its max')
      const start = new Date(saved[0].start).getTime()
      t.same(charts['requests-over-time'].data[0], saved[0].series.time.map((x) => Math.round(x - start) / 1000), 'x: seconds since start')
      t.same(charts['requests-over-time'].data[1], saved[0].series.requests, 'requests/s per interval')
      t.same(charts['latency-over-time'].data[2], saved[0].series.latencyP99, 'p99 per interval')
      t.same(charts['latency-over-time'].data[3], saved[0].series.loopDelayMax, 'the generator\'s longest pause per interval')
      const generator = await tableRows(page, 'generator')
      t.equal(numberOf(generator['loop-p99'][0]), saved[0].generator.loopDelay.p99, 'the generator\'s health in its table')
      t.equal(numberOf(generator.late[0]), saved[0].generator.late)

      await checkTables(t, page, [{ result: saved[0] }])
      const thresholds = await tableRows(page, 'thresholds-0')
      t.same(Object.keys(thresholds), ['threshold-0', 'threshold-1'])
      t.equal(numberOf(thresholds['threshold-0'][0]), saved[0].latency.p99)
      t.equal(thresholds['threshold-0'][1], saved[0].thresholds[0].ok ? '✔ pass' : '✗ fail')
      t.equal(thresholds['threshold-1'][1], saved[0].thresholds[1].ok ? '✔ pass' : '✗ fail')
      await screenshot(t, page, 'report-one.png')
    })

    await t.test('two files: one line per file', async (t) => {
      const file = path.join(OUT, 'report-two.html')
      fs.writeFileSync(file, renderHtml(saved, { names: files.map((f) => path.basename(f)) }))
      const { page, problems, requests, url } = await openReport(t, browser, file)
      t.same(problems, [], 'no console errors or warnings')
      t.same(requests.filter((u) => u !== url), [], 'no request but the file itself')
      checkCharts(t, await drawn(page), {
        'latency-percentiles': ['stall (corrected)', 'stall (uncorrected)', 'steady.json'],
        'requests-over-time': ['stall responses/s', 'stall errors/s', 'steady.json responses/s', 'steady.json errors/s'],
        'latency-over-time': ['stall p50 (corrected)', 'stall p99 (corrected)', 'stall generator pause', 'steady.json p50 (from send)', 'steady.json p99 (from send)', 'steady.json generator pause'],
        'timings-over-time-1': ['Transfer (mean)', 'Time to first byte (mean)', 'Wait before send (mean)'],
        'timings-over-time-2': ['Transfer (mean)', 'Time to first byte (mean)']
      })
      await checkTables(t, page, [{ result: saved[0] }, { result: saved[1] }])
      await screenshot(t, page, 'report-two.png')
    })

    await t.test('search report: two searches written by hand', async (t) => {
      const files = [{ name: 'a', search: searchA() }, { name: 'b', search: searchB() }]
      const file = path.join(OUT, 'report-search.html')
      fs.writeFileSync(file, renderHtml(files.map((f) => f.search), { names: files.map((f) => f.name) }))
      const { page, problems, requests, url } = await openReport(t, browser, file)
      t.same(problems, [], 'no console errors or warnings')
      t.same(requests.filter((u) => u !== url), [], 'no request but the file itself')
      t.same(await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name)), [], 'no resource loaded')
      const charts = await drawn(page)
      checkSearchCharts(t, charts, files)
      t.same(charts.capacity.data, [[10, 100, 1000], [900, 1600, 1200], [600, 800, null]], 'capacity: best rate by connections, per file')
      t.equal(charts.capacity.xDistr, 3, '10 to 1000 connections on a log axis')
      await checkSearchTables(t, page, files)
      await screenshot(t, page, 'report-search.png')
    })

    await t.test('what the page draws, read from the page: a run with no errors', async (t) => {
      const result = saved[1]
      t.equal(result.errors, 0, 'the closed-loop run had no error')
      const file = path.join(OUT, 'report-no-errors.html')
      fs.writeFileSync(file, renderHtml([result]))
      const { page, problems } = await openReport(t, browser, file)
      t.same(problems, [], 'no console errors or warnings')
      const charts = await drawn(page)
      const requests = charts['requests-over-time']
      t.same(requests.legend, ['Responses/s', 'Errors/s'], 'it counts responses, and says so')
      t.equal(await page.evaluate(() => document.querySelector('#chart-requests-over-time .u-title').textContent), 'Responses and errors per second')
      t.same(charts['latency-over-time'].legend, ['p50 (from send)', 'p99 (from send)', 'generator pause (max)'], 'which latency: from each send (no rate to correct for)')
      t.same(charts['latency-percentiles'].legend, ['Latency (from send)'])
      const errorsAxis = requests.axes.find((a) => a.scale === 'errors')
      t.same(requests.scales.errors.slice(0, 2), [0, 1], 'no errors: the errors axis runs 0 to 1')
      t.same(errorsAxis.ticks, [0, 1], 'with whole-number ticks only')
      for (const id of ['requests-over-time', 'latency-over-time']) {
        const x = charts[id].axes.find((a) => a.scale === 'x').ticks
        // (A 2 s run's samples end near 1 s and at 2 s: one tick or two.)
        t.ok(x.length >= 1 && x.every((v) => Number.isInteger(v)), `${id}: x ticks at whole seconds (${x.join(', ')}) for 1 s samples`)
      }
      const legends = await page.evaluate(() => [...document.querySelectorAll('.u-legend')].map((e) => e.textContent).join(' '))
      t.notMatch(legends, /—/, 'no empty value boxes in any legend')
      const cli = await page.evaluate(() => {
        const pre = document.getElementById('cli-0')
        const figure = pre.closest('figure')
        const heading = figure.previousElementSibling
        return { heading: heading.tagName + ' ' + heading.textContent, captions: figure.querySelectorAll('figcaption').length }
      })
      t.same(cli, { heading: 'H2 As the CLI prints it', captions: 0 }, 'one heading over the CLI\'s tables')
      await screenshot(t, page, 'report-no-errors.png')
    })

    await t.test('what the page draws, read from the page: a search with no answer, at one connection count', async (t) => {
      const rows = [[500, 90], [600, 95], [800, 99], [1000, 120], [1200, 150], [1500, 190], [3000, 300], [6000, 900]]
      const none = {
        slos: ['p99<50ms'],
        precision: 0.02,
        searches: [searchAt(4, 'below-low', rows.map(([rate, p99]) => ['low', rate, 'fail', 20, p99, p99 + 5]), { failed: 500, ceiling: 6000, sentence: 'Misses its SLOs even at the low rate, 500 req/s at 4 connections (p99 90 ms): no sustainable rate at this connection count.' })]
      }
      const file = path.join(OUT, 'report-search-none.html')
      fs.writeFileSync(file, renderHtml([none]))
      const { page, problems } = await openReport(t, browser, file)
      t.same(problems, [], 'no console errors or warnings')
      const charts = await drawn(page)
      t.same(Object.keys(charts), ['search-0'], 'no capacity chart: no rate passed')
      t.equal(await page.evaluate(() => document.getElementById('chart-capacity')), null)
      t.match(await page.evaluate(() => document.getElementById('no-capacity').textContent), /No rate passed at any connection count/)
      const steps = charts['search-0']
      t.same(steps.legend, ['p50', 'p99', 'p99.9', 'SLO p99<50ms'])
      t.equal(steps.scales.x[2], 3, 'offered rate on a log axis')
      t.same(steps.axes.find((a) => a.scale === 'x').labels, ['500', '1,000', '2,000', '5,000'], 'labelled at 1, 2, 5 × 10^n')
      const [p50, p99, p999] = steps.colours
      t.equal(new Set([p50, p99, p999]).size, 3, 'each percentile its colour')
      t.notOk(['#007a3d', '#009e73'].includes(p999), `p99.9 (${p999}) is not the answer's green`)
      t.ok(await page.evaluate(() => { const s = window.autocannonReport.charts['search-0'].series; return s[3].points.paths !== s[2].points.paths }), 'p99.9 drawn with its own marker, not p99\'s')
      t.ok(steps.alone[2] > 20, 'p99.9 on the canvas')
      await page.setViewport({ width: 700, height: 900 })
      // The charts follow the window's width on its resize event.
      await page.waitForFunction(() => document.querySelector('#chart-search-0 canvas').getBoundingClientRect().width <= 700, { timeout: 10000 })
      const width = await page.evaluate(() => document.documentElement.scrollWidth)
      t.ok(width <= 700, `at 700 px the page is ${width} px wide: the tables fit or scroll in place`)
      await screenshot(t, page, 'report-search-none-700.png')

      const rate = (r, verdict, p99) => ['bisect', r, verdict, 3, p99, p99 + 3]
      const one = {
        slos: ['p99<50ms'],
        precision: 0.02,
        searches: [searchAt(4, 'found', [['low', 500, 'pass', 2, 10, 12], rate(6000, 'fail', 300), rate(1500, 'pass', 40), rate(2000, 'fail', 55), ['confirm', 1800, 'pass', 4, 44, 47], rate(1800, 'pass', 45)], { best: 1800, failed: 2000, ceiling: 6000, sentence: 'Sustains 1,800 req/s at 4 connections.' })]
      }
      const oneFile = path.join(OUT, 'report-search-one.html')
      fs.writeFileSync(oneFile, renderHtml([one]))
      const opened = await openReport(t, browser, oneFile)
      t.same(opened.problems, [], 'no console errors or warnings')
      const capacity = (await drawn(opened.page)).capacity
      t.same(capacity.data, [[4], [1800]], 'one connection count: one point')
      const marks = await opened.page.evaluate(() => JSON.parse(document.getElementById('report-data').textContent).charts.find((c) => c.id === 'capacity').marks)
      t.same(marks.map((m) => [m.x, m.y, m.label]), [[4, 1800, '1,800 req/s at 4 connections']], 'and it is labelled')
      t.same(capacity.axes.find((a) => a.scale === 'x').labels, ['4'], 'the x axis names the connection count')
      await screenshot(t, opened.page, 'report-search-one.png')
    })

    await t.test('search report of a real search: --findMaxRate --html, then report', async (t) => {
      const server = await childServer(t, 'capacity-server.js', ['errors', '300'])
      const html = path.join(OUT, 'report-search-cli.html')
      const out = await run(['--findMaxRate', '--slo', 'non2xx<1%', '--stepDuration', '1', '-c', '4', '-j', '--html', html, server.url], { timeout: 300000 })
      t.ok(out.code === 0 || out.code === 99, `the search ran (exit ${out.code}) ${out.stderr.split('\n').slice(-2).join(' ')}`)
      const search = JSON.parse(out.stdout)
      t.comment(search.searches[0].sentence)
      t.equal(search.searches[0].connections, 4)
      t.ok(search.searches[0].steps.length >= 2, `${search.searches[0].steps.length} steps`)

      const cli = await openReport(t, browser, html)
      t.same(cli.problems, [], 'no console errors or warnings')
      t.same(cli.requests.filter((u) => u !== cli.url), [], 'no request but the file itself')
      const files = [{ name: server.url, search }]
      checkSearchCharts(t, await drawn(cli.page), files)
      await checkSearchTables(t, cli.page, files)
      t.match(await cli.page.title(), `cannonade: capacity of ${server.url}`)
      await screenshot(t, cli.page, 'report-search-cli.png')

      // As saved with -j, beside a search written by hand: one line each.
      const saved = path.join(dir, 'real.json')
      fs.writeFileSync(saved, out.stdout)
      const other = path.join(dir, 'by-hand.json')
      fs.writeFileSync(other, JSON.stringify(searchB()))
      const two = path.join(OUT, 'report-search-two.html')
      const rep = await run(['report', saved, other, '-o', two])
      t.equal(rep.code, 0, rep.stderr)
      const both = await openReport(t, browser, two)
      t.same(both.problems, [], 'no console errors or warnings')
      const charts = await drawn(both.page)
      t.same(charts.capacity.labels, ['real', 'by-hand'], 'max rate against connections: one line per file, named after it')
      checkSearchCharts(t, charts, [{ name: 'real', search }, { name: 'by-hand', search: searchB() }])
    })
  })
}
