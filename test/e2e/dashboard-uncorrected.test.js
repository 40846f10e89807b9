'use strict'

// Under a fixed rate the dashboard draws, as the report does, latency
// corrected for the plan (from each request's planned send time) and
// uncorrected (from its write), per interval and by percentile: read here
// off the dashboard's own event stream during real runs, in this thread
// and across two worker threads, against a server that holds every
// response now and then (so that requests queue behind the plan and the
// two latencies part). Timing-sensitive: run under the shared timing lock.

const t = require('tap')
const http = require('http')
const autocannon = require('../..')
const { httpServer } = require('../helpers/servers')
const { eachBlock } = require('../helpers/sse')
const { starvedReason } = require('../helpers/truth-guards')
const { charts } = require('../../lib/output/html/charts')
const { findChromium, notFound, launchChromium } = require('../helpers/browser')

t.setTimeout(120000)

// Every response waits while the server stalls: 100 ms of every second.
// At 500 req/s on 2 connections, the requests planned in a stall (a tenth
// of them) wait for a connection: their corrected latency counts the
// wait, over the run's p99; the uncorrected holds only the responses in
// flight as it began (2 a second, under its p99).
const PERIOD_MS = 1000
const STALL_MS = 100

function stallingHandler (req, res) {
  const phase = Date.now() % PERIOD_MS
  if (phase < STALL_MS) setTimeout(() => res.end('ok'), STALL_MS - phase)
  else res.end('ok')
}

// The charts as a page following the events has them: each 'state'
// whole, each 'sample' a row more (the percentile chart whole), and
// 'percentiles' that chart whole.
function follow (url) {
  const seen = { data: {}, labels: {}, states: 0, samples: 0, done: false }
  const finished = new Promise((resolve, reject) => {
    http.get(url + 'events', (res) => eachBlock(res, (block) => {
      const name = /^event: (.*)$/m.exec(block)[1]
      const data = JSON.parse(/^data: (.*)$/m.exec(block)[1])
      if (name === 'state' && !data.final) {
        seen.states++
        seen.data = {}
        for (const chart of data.charts) {
          seen.data[chart.id] = chart.data.map((column) => column.slice())
          seen.labels[chart.id] = chart.series.map((s) => s.label)
        }
      } else if (name === 'sample' || name === 'percentiles') {
        if (name === 'sample') seen.samples++
        for (const [id, r] of Object.entries(data.rows)) {
          if (r.whole) seen.data[id] = r.whole
          else seen.data[id].forEach((column, j) => column.push(r.row[j]))
        }
      } else if (name === 'done') {
        seen.done = true
        res.destroy()
        resolve(seen)
      }
    })).on('error', reject)
  })
  return { seen, finished }
}

function column (seen, id, label) {
  const k = seen.labels[id].indexOf(label)
  return k === -1 ? null : seen.data[id][k + 1]
}

for (const workers of [0, 2]) {
  t.test(`a rated run${workers ? `, ${workers} workers` : ''}: corrected and uncorrected latency live`, async (t) => {
    const target = await httpServer(t, stallingHandler)
    const instance = autocannon({ url: target, connections: 2, overallRate: 500, duration: 4, workers, dashboard: true })
    const { url } = await new Promise((resolve) => instance.once('dashboard', resolve))
    const { finished } = follow(url)
    const result = await instance
    const seen = await finished

    const id = 'latency-over-time'
    const corrected = { p50: column(seen, id, 'p50 (corrected)'), p99: column(seen, id, 'p99 (corrected)') }
    const uncorrected = { p50: column(seen, id, 'p50 (uncorrected)'), p99: column(seen, id, 'p99 (uncorrected)') }
    t.ok(uncorrected.p50 && uncorrected.p99, 'the uncorrected p50 and p99 per interval are drawn')
    if (!uncorrected.p50 || !uncorrected.p99) return
    const n = result.series.latencyP99.length
    t.ok(n >= 3, `${n} intervals`)
    t.equal(uncorrected.p99.length, n, 'one uncorrected point per interval')
    t.same(corrected.p50, result.series.latencyP50, 'the corrected p50 per interval is the result\'s')
    t.same(corrected.p99, result.series.latencyP99, 'the corrected p99 per interval is the result\'s')
    for (let k = 0; k < n; k++) {
      t.ok(typeof uncorrected.p99[k] === 'number' && uncorrected.p50[k] <= corrected.p50[k] && uncorrected.p99[k] <= corrected.p99[k],
        `interval ${k + 1}: uncorrected p50 ${uncorrected.p50[k]} ≤ ${corrected.p50[k]} ms, p99 ${uncorrected.p99[k]} ≤ ${corrected.p99[k]} ms`)
    }
    // The stalls made requests wait for a connection: their corrected
    // latency counts that wait, the uncorrected does not.
    // (Unless the machine held the generator off the CPU: its pauses
    // would be in both.)
    const parted = corrected.p99.filter((c, k) => c > uncorrected.p99[k] * 2 + 5).length
    const starved = starvedReason(result, 150)
    if (starved) t.skip(`how far the two latencies part not checked: ${starved}`)
    else t.ok(parted >= n - 1, `in ${parted} of ${n} intervals the corrected p99 is well above the uncorrected`)

    // At the end, the page's latency by percentile is the report's: the
    // same two curves, of the same histograms.
    const final = charts([{ name: 'run', result }]).find((c) => c.id === 'latency-percentiles')
    t.same(seen.labels['latency-percentiles'], ['Latency (corrected)', 'Latency (uncorrected)'], 'both curves, as the report has them')
    t.same(seen.data['latency-percentiles'], final.data, 'the live curves end as the result\'s')
    t.ok(result.latencyUncorrected.totalCount > 0 && result.latencyUncorrected.p99 < result.latency.p99, `uncorrected p99 ${result.latencyUncorrected.p99} ms < corrected ${result.latency.p99} ms`)
    t.ok(result.latencyUncorrected.max >= STALL_MS / 2, `a stall shows in the uncorrected latency too (max ${result.latencyUncorrected.max} ms)`)
  })
}

// The page itself, in Chromium, mid-run: the four lines per interval (each
// its own colour and dash in the legend), both percentile curves, and the
// uncorrected figures among the numbers.
t.test('the page under a rate, in Chromium', async (t) => {
  const { found: chromium, candidates } = findChromium()
  if (!chromium) return t.skip(notFound(candidates))
  const browser = await launchChromium(t, chromium)
  const target = await httpServer(t, stallingHandler)
  const instance = autocannon({ url: target, connections: 2, overallRate: 500, duration: 4, dashboard: true })
  const { url } = await new Promise((resolve) => instance.once('dashboard', resolve))
  const samples = []
  instance.on('sample', (s) => samples.push(s))
  const page = await browser.newPage()
  t.teardown(() => page.close().catch(() => {}))
  const problems = []
  page.on('console', (msg) => { if (msg.type() === 'error' || msg.type() === 'warn') problems.push(`console ${msg.type()}: ${msg.text()}`) })
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`))
  await page.setViewport({ width: 1280, height: 900 })
  await page.goto(url, { waitUntil: 'load', timeout: 30000 })
  await page.waitForFunction(() => {
    const d = window.cannonadeDashboard.data['latency-over-time']
    return d && d[0].length >= 2
  }, { timeout: 20000, polling: 50 })
  const seen = await page.evaluate(() => {
    const live = window.cannonadeDashboard
    const plot = live.plots['latency-over-time']
    const swatches = [...document.querySelectorAll('#chart-latency-over-time canvas.swatch')]
    return {
      labels: plot.series.slice(1).map((s) => s.label),
      colours: swatches.map((c) => c.dataset.color),
      data: live.data['latency-over-time'].map((c) => c.slice(0, 2)),
      curves: live.plots['latency-percentiles'].series.slice(1).map((s) => s.label),
      legend: swatches.map((c) => c.dataset.dash),
      numbers: Object.fromEntries([...document.querySelectorAll('#live-numbers tr[data-key]')].map((tr) => [tr.dataset.key, tr.querySelector('td').textContent]))
    }
  })
  t.same(seen.labels.slice(0, 4), ['p50 (corrected)', 'p99 (corrected)', 'p50 (uncorrected)', 'p99 (uncorrected)'], 'four latency lines per interval')
  t.equal(new Set(seen.colours.slice(0, 4)).size, 4, 'each its own colour')
  t.equal(new Set(seen.legend.slice(0, 4)).size, 4, `each its own dash in the legend (${seen.legend.slice(0, 4).join(' | ')})`)
  t.same(seen.data[3], samples.slice(0, 2).map((s) => s.uncorrectedP50), 'the uncorrected p50 points, the samples\' figures')
  t.same(seen.data[4], samples.slice(0, 2).map((s) => s.uncorrectedP99), 'the uncorrected p99 points, the samples\' figures')
  t.same(seen.curves, ['Latency (corrected)', 'Latency (uncorrected)'], 'both curves by percentile')
  t.match(seen.numbers['p99-uncorrected'] || '', / ms$/, `the last interval's uncorrected p99 among the numbers (${seen.numbers['p99-uncorrected']})`)
  await instance
  t.same(problems, [], 'no console error')
})
