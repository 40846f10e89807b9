'use strict'

// The dashboard in a real browser (Debian's `chromium`, driven by
// puppeteer-core) during real runs against local servers: each interval
// adds one point to the page's responses/s, equal to the run's sample;
// a reload gets the history so far; at the end the page shows the report
// whose numbers are the result's; a search shows each step as it runs.
// Screenshots go to .tap/dashboard (the README's is made from one).

const t = require('tap')
const fs = require('fs')
const path = require('path')
const autocannon = require('../..')
const { findMaxRate } = autocannon
const { httpServer, childServer } = require('../helpers/servers')
const { findChromium, notFound, launchChromium } = require('../helpers/browser')

const OUT = path.join(__dirname, '..', '..', '.tap', 'dashboard')

t.setTimeout(300000)

const { found: chromium, candidates } = findChromium()
if (!chromium) t.skip(notFound(candidates))
else main()

// Resolves once `fn` (run in the page) is true, or rejects after `ms`.
function until (page, fn, arg, ms = 10000) {
  return page.waitForFunction(fn, { timeout: ms, polling: 50 }, arg)
}

// A screenshot for the docs, bounded: the page must still answer (a page
// whose script spins fails here), and a capture Chromium does not finish
// within the bound fails in 30 s rather than the protocol's 3 minutes.
async function screenshot (t, page, name, opts) {
  const answered = await Promise.race([page.evaluate(() => document.readyState), timeout(10000)])
  t.equal(answered, 'complete', `the page answers before its screenshot (${name})`)
  const file = path.join(OUT, name)
  const taken = await Promise.race([page.screenshot({ path: file, ...opts }).then(() => true), timeout(30000)])
  if (taken === true) t.ok(fs.statSync(file).size > 10000, `screenshot in ${path.relative(process.cwd(), file)}`)
  else t.fail(`screenshot ${name}: Chromium did not capture it within 30 s`)
}

function timeout (ms) {
  return new Promise((resolve) => setTimeout(() => resolve('timed out'), ms).unref())
}

async function openPage (t, browser, url) {
  const page = await browser.newPage()
  t.teardown(() => page.close().catch(() => {}))
  const problems = []
  const requests = []
  page.on('console', (msg) => { if (msg.type() === 'error' || msg.type() === 'warn') problems.push(`console ${msg.type()}: ${msg.text()}`) })
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`))
  page.on('request', (req) => requests.push(req.url()))
  await page.setViewport({ width: 1280, height: 900 })
  await page.goto(url, { waitUntil: 'load', timeout: 30000 })
  return { page, problems, requests }
}

// The page's responses/s series (live).
function liveSeries (page) {
  return page.evaluate(() => {
    const d = window.cannonadeDashboard.data['requests-over-time']
    return d ? d[1].slice() : []
  })
}

function main () {
  t.test('dashboard', async (t) => {
    fs.mkdirSync(OUT, { recursive: true })
    const browser = await launchChromium(t, chromium)

    await t.test('a 6 s run, followed interval by interval, reloaded, then its report', async (t) => {
      const target = await httpServer(t, (req, res) => setTimeout(() => res.end('hello'), 1 + (Math.random() * 3 | 0)))
      // A credential in the URL: masked wherever the page shows it.
      const instance = autocannon({ url: target.replace('http://', 'http://user:s3cr3t@'), connections: 4, duration: 6, dashboard: true })
      const samples = []
      const pages = []
      let checks = Promise.resolve()
      let reloaded = null
      let page = null
      // From the first sample on (the page, opening, gets those it missed
      // as its history).
      const opening = new Promise((resolve) => instance.once('dashboard', resolve)).then(async ({ url }) => {
        t.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/, 'on loopback, a port of its own')
        const opened = await openPage(t, browser, url)
        pages.push(opened)
        page = opened.page
        return url
      })
      checks = opening
      instance.on('sample', (s) => {
        samples.push(s.requests)
        const k = samples.length
        const expected = samples.slice()
        checks = checks.then(async () => {
          await until(page, (n) => window.cannonadeDashboard.data['requests-over-time'] && window.cannonadeDashboard.data['requests-over-time'][1].length >= n, k)
          const series = await liveSeries(page)
          t.same(series.slice(0, k), expected, `after interval ${k}: ${k} points, the samples' figures`)
          if (k === 3) {
            // A second page, opened mid-run: the history so far.
            const late = await openPage(t, browser, await opening)
            pages.push(late)
            await until(late.page, (n) => window.cannonadeDashboard.data['requests-over-time'] && window.cannonadeDashboard.data['requests-over-time'][1].length >= n, k)
            t.same((await liveSeries(late.page)).slice(0, k), expected, 'a page opened late gets the history so far')
            await screenshot(t, page, 'dashboard-live.png', { fullPage: true })
            // And the first page reloaded.
            await page.reload({ waitUntil: 'load' })
            await until(page, (n) => window.cannonadeDashboard.data['requests-over-time'] && window.cannonadeDashboard.data['requests-over-time'][1].length >= n, k)
            reloaded = await liveSeries(page)
          }
        })
      })
      const result = await instance
      await checks
      const url = await opening
      t.ok(samples.length >= 5, `${samples.length} samples`)
      t.same(reloaded && reloaded.slice(0, 3), samples.slice(0, 3), 'a reload mid-run shows the history so far')
      t.same(samples, result.series.requests, 'the samples are the result\'s intervals')

      await until(page, () => window.cannonadeDashboard.reportLoaded === true)
      t.same(await liveSeries(page), result.series.requests, 'the live series ends as the result\'s')
      const report = await page.evaluate(() => {
        const doc = document.getElementById('report').contentDocument
        const rows = {}
        for (const tr of doc.querySelectorAll('#run tr[data-key]')) rows[tr.dataset.key] = tr.querySelector('td').textContent
        return {
          rows,
          requests: doc.defaultView.autocannonReport.charts['requests-over-time'].data[1],
          title: doc.title,
          download: document.getElementById('download').href,
          html: window.cannonadeDashboard.html
        }
      })
      t.equal(report.rows.total, result.requests.total.toLocaleString('en-US'), 'the report\'s responses are the result\'s')
      t.same(report.requests, result.series.requests, 'the report\'s chart is the result\'s')
      t.match(report.download, /^blob:/, 'a link to download it')
      const { renderHtml } = require('../../lib/output/html/report')
      t.equal(report.html, renderHtml([result]), 'the report is --html\'s, byte for byte')
      t.notMatch(report.html, /s3cr3t/, 'no credential in the report')
      t.notMatch(await page.content(), /s3cr3t/, 'nor in the page')
      for (const { problems } of pages) t.same(problems, [], 'no console error')
      for (const { requests } of pages) t.same(requests.filter((u) => !u.startsWith(url) && !u.startsWith('blob:')), [], 'nothing loaded from elsewhere')
    })

    await t.test('a search: each step as it runs, a point per step', async (t) => {
      const server = await childServer(t, 'capacity-server.js', ['queue', '400'])
      const search = findMaxRate({ url: server.url, connections: 4, slos: ['p50<20ms'], stepDuration: 1, probeDuration: 1, maxSteps: 3, dashboard: true })
      const { url } = await new Promise((resolve) => search.once('dashboard', resolve))
      const { page, problems } = await openPage(t, browser, url)
      let checks = Promise.resolve()
      let started = 0
      let ended = 0
      let progressed = 0
      search.on('stepProgress', () => { progressed++ })
      search.on('stepStart', (step) => {
        started++
        const k = started
        checks = checks.then(async () => {
          await until(page, (rate) => {
            const c = window.cannonadeDashboard.search && window.cannonadeDashboard.search.current
            return c && c.target === rate
          }, step.target)
          const line = await page.$eval('#current-step', (e) => e.textContent)
          t.match(line, `step ${k} at ${step.target.toLocaleString('en-US')} req/s`, `step ${k} shown as it starts`)
        })
      })
      search.on('step', () => {
        ended++
        const k = ended
        checks = checks.then(async () => {
          await until(page, (n) => window.cannonadeDashboard.plots['search-0'] && window.cannonadeDashboard.plots['search-0'].data[0].length === n, k)
          t.equal(await page.$$eval('#steps-0 tbody tr', (rows) => rows.length), k, `after step ${k}: ${k} rows, ${k} points`)
          if (k === 2) await screenshot(t, page, 'dashboard-search.png', { fullPage: true })
        })
      })
      const out = await search
      await checks
      t.ok(started >= 2 && ended === out.searches[0].steps.length, `${ended} steps shown`)
      t.ok(progressed > 0, 'the step\'s progress as it runs')
      await until(page, () => window.cannonadeDashboard.reportLoaded === true)
      const steps = await page.evaluate(() => document.getElementById('report').contentDocument.querySelectorAll('#steps-0 tbody tr').length)
      t.equal(steps, out.searches[0].steps.length, 'the report\'s steps are the search\'s')
      t.same(problems, [], 'no console error')
    })
  })

  t.test('workers: one sample per interval, the threads merged as the result merges them', async (t) => {
    const target = await httpServer(t)
    const instance = autocannon({ url: target, connections: 4, workers: 2, duration: 3 })
    const samples = []
    instance.on('sample', (s) => samples.push(s))
    const result = await instance
    t.same(samples.map((s) => s.requests), result.series.requests, 'responses per interval')
    t.same(samples.map((s) => s.errors), result.series.errors, 'errors per interval')
    t.same(samples.map((s) => s.latencyP99), result.series.latencyP99, 'p99 per interval, of the threads\' merged histogram')
    t.equal(samples[samples.length - 1].totals.responses, result.series.requests.reduce((a, b) => a + b, 0), 'the totals so far are the intervals\' sum')
  })
}
