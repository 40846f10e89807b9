'use strict'

// renderHtml(inputs, { title, names }) → one self-contained HTML page.
// For results: the run, latency by percentile on HdrHistogram's 1/(1−p)
// axis, requests, errors and latency over time, status codes, errors,
// thresholds and the CLI's tables, for one result or several side by side.
// For capacity searches (findMaxRate's outcome): the max sustained rate
// against connections, one line per search, and each connection count's
// steps, latency against offered rate with the SLO as a line. A renderer
// like print-result.js: inputs in, a string out; writing it is the
// caller's.
//
// The page must open from file:// with no network: uPlot (script and CSS)
// is inlined from node_modules, the data travels as JSON in the page, and
// a Content-Security-Policy forbids every fetch the page could try.

const fs = require('fs')
const path = require('path')
const { raise } = require('../../core/errors')
const { requireParts, isSearch } = require('../../results/saved-result')
const { charts } = require('./charts')
const { searchCharts } = require('./search-charts')
const { capacityTable, stepTable } = require('./search-tables')
const tables = require('./tables')
const { escapeHtml, integer } = tables
const { distortionLine } = require('../../results/generator-health')
const printResult = require('../print-result')
const { lazy } = require('../../core/lazy')
// Lazy: only a merged result needs it.
const merge = lazy(() => require('../../distributed/merge'))

// The tool's own name and version: autocannon has no HTML report.
const { name: NAME, version: VERSION } = require('../../../package.json')

function asset (file) {
  return fs.readFileSync(file, 'utf8')
}

const UPLOT_DIR = path.join(path.dirname(require.resolve('uplot/package.json')), 'dist')
let inlined = null

// Read once per process: a run that writes one report pays for it once.
function assets () {
  if (inlined === null) {
    inlined = {
      uplotJs: asset(path.join(UPLOT_DIR, 'uPlot.iife.min.js')),
      uplotCss: asset(path.join(UPLOT_DIR, 'uPlot.min.css')),
      pageJs: asset(path.join(__dirname, 'page.js')),
      pageCss: asset(path.join(__dirname, 'page.css'))
    }
  }
  return inlined
}

// Text inside <script> or <style> ends at the first "</script" or
// "</style", whatever the JavaScript around it means: split it there.
function inlineScript (code) {
  return code.replace(/<\/(script)/gi, '<\\/$1')
}

function inlineStyle (css) {
  return css.replace(/<\/(style)/gi, '<\\/$1')
}

// JSON that cannot end its <script> element nor open a comment in it
// ("</script>" or "<!--" in a URL or a title): <, > and & as \u escapes,
// which JSON.parse reads back as the same characters.
function scriptJson (value) {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
}

// A saved search's title: its runs', when they were given one.
function searchTitle (search) {
  for (const s of search.searches) for (const step of s.steps) if (step.result && step.result.title) return step.result.title
  return undefined
}

function searchUrl (search) {
  for (const s of search.searches) {
    for (const step of s.steps) {
      const url = step.result && step.result.url
      if (url) return Array.isArray(url) ? url.join(', ') : url
    }
  }
  return undefined
}

// Each input's display name: its title, else the file it came from, else
// (for a search, whose line in the capacity chart stands for a server) its
// URL, else its place; names that would repeat get their file or place
// added.
function nameRuns (inputs, names = []) {
  const runs = inputs.map((value, i) => {
    const search = isSearch(value)
    const place = search ? 'search' : 'run'
    const run = {
      kind: search ? 'search' : 'result',
      index: i,
      name: (search ? searchTitle(value) : value.title) || names[i] || (search && searchUrl(value)) ||
        (inputs.length > 1 ? `${place} ${i + 1}` : place),
      source: names[i] || `${place} ${i + 1}`
    }
    run[run.kind] = value
    return run
  })
  const seen = new Map()
  for (const run of runs) seen.set(run.name, (seen.get(run.name) || 0) + 1)
  for (const run of runs) {
    if (seen.get(run.name) > 1 && run.name !== run.source) run.name = `${run.name} (${run.source})`
  }
  return runs
}

function pageTitle (runs, title) {
  if (title) return title
  const searchesOnly = runs.every((r) => r.kind === 'search')
  if (runs.length > 1) return `${NAME}: ${searchesOnly ? 'capacity of ' : ''}${runs.map((r) => r.name).join(' vs ')}`
  const [run] = runs
  if (run.kind === 'search') return `${NAME}: capacity of ${searchUrl(run.search) || run.name}`
  const { result } = run
  const url = Array.isArray(result.url) ? result.url.join(', ') : result.url
  return `${NAME}: ${result.title || url || run.name}`
}

function chartSection (chart, note) {
  return `<h2>${escapeHtml(chart.title)}</h2>\n<p class="note">${escapeHtml(note)}</p>\n<div class="chart" id="chart-${chart.id}"></div>`
}

const NOTES = {
  'latency-percentiles': 'Latency at each percentile, on HdrHistogram\'s axis: each "nine" (90%, 99%, 99.9%…) takes the same width. Under a fixed rate, latency counts from when each request should have been sent (corrected for coordinated omission); the uncorrected line counts from when it was.',
  'requests-over-time': 'Responses (requests answered, whatever their status) and errors in each sample interval, per second, at the end of the interval; errors on the right-hand axis.',
  'connections-over-time': 'The connections open at the end of each sample interval, as the connection stages ramped them (closed as soon as their requests were answered, going down).',
  'timings-over-time': 'Where the time of each sample interval\'s responses went, as means (they add up; percentiles do not), stacked: time to first byte (from the write of the request to the first byte of the response), then transfer (the rest of the response); under a fixed rate, beneath them, the wait from each request\'s planned send time to its write, so that the top line is the mean corrected latency. The connection steps (DNS, connect, TLS) are in the table below.',
  'latency-over-time': 'Median and 99th percentile of the responses received in each sample interval (corrected under a fixed rate: from each request\'s intended send time; else from when it was sent, as the legend says), and the generator\'s longest event-loop delay in it (a pause of ours that a latency peak matches may be in that peak).',
  capacity: 'The highest rate at which every SLO held, at each connection count: one line per saved search. A point that is not a found capacity is labelled with why (generator-bound, unconfirmed…); no point: no rate passed.',
  noCapacity: 'No rate passed at any connection count: there is no sustained rate to plot (each step\'s latency is below).',
  steps: 'Latency each step measured (corrected: from each request\'s intended send time) against the rate it offered, both on log scales: p50 blue, p99 vermilion, p99.9 purple squares (dotted); the dashed line is the SLO\'s limit. Rings: red failed, orange generator-bound, grey inconclusive; green, the answer.'
}

// The search part: the answer per connection count, the plot of max rate
// against connections that users otherwise draw by hand from a sweep of
// wrk2 runs, then each connection count's steps.
function searchPart (runs) {
  const [capacity, ...steps] = searchCharts(runs.map(({ name, search }) => ({ name, search })))
  const drawn = capacity === null ? steps : [capacity, ...steps]
  const html = [
    '<h2>Max sustained rate</h2>',
    `<div class="wide">${capacityTable(runs)}</div>`,
    capacity === null
      ? `<p class="note" id="no-capacity">${escapeHtml(NOTES.noCapacity)}</p>`
      : `<p class="note">${escapeHtml(NOTES.capacity)}</p>\n<div class="chart" id="chart-${capacity.id}"></div>`
  ]
  let k = 0
  for (const run of runs) {
    for (const search of run.search.searches) {
      const chart = steps[k]
      const where = `${integer(search.connections)} connection${search.connections === 1 ? '' : 's'}`
      const heading = runs.length > 1 ? `${run.name}, ${where}` : where
      html.push(`<h2>${escapeHtml(heading)}</h2>`)
      if (search.sentence) html.push(`<p class="sentence" id="sentence-${k}">${escapeHtml(search.sentence)}</p>`)
      html.push(`<p class="note">${escapeHtml(NOTES.steps)}</p>`, `<div class="chart" id="chart-${chart.id}"></div>`)
      html.push(`<div class="wide">${stepTable(search, k, `Steps at ${where}`)}</div>`)
      k++
    }
  }
  return { html: html.join('\n'), charts: drawn }
}

// The generator's verdict on each run that has one (the line the CLI
// prints after its tables), where the run is described.
function generatorVerdicts (runs) {
  return runs.map(({ name, result }, i) => {
    const line = result.generator ? distortionLine(result) : null
    if (line === null) return ''
    const who = runs.length > 1 ? `${escapeHtml(name)}: ` : ''
    return `<p class="sentence verdict" id="generator-verdict-${i}">${who}${escapeHtml(line)}</p>`
  }).filter(Boolean).join('\n')
}

// A merge with shards missing says so where the run is described, in the
// words of the CLI's line after its tables.
function missingVerdicts (runs) {
  return runs.map(({ name, result }, i) => {
    const missing = result.merge ? merge().missingText(result.merge) : null
    if (missing === null) return ''
    const who = runs.length > 1 ? `${escapeHtml(name)}: ` : ''
    return `<p class="sentence verdict" id="merge-missing-${i}">${who}${escapeHtml(printResult.missingLine(missing))}</p>`
  }).filter(Boolean).join('\n')
}

function resultPart (runs) {
  const drawn = charts(runs)
  const thresholds = tables.thresholdTables(runs)
  const verdicts = [missingVerdicts(runs), generatorVerdicts(runs)].filter(Boolean).join('\n')
  const html = `${tables.runTable(runs)}
${verdicts}
${thresholds ? `<h2>Thresholds</h2>\n${thresholds}` : ''}
${drawn.map((chart) => chartSection(chart, NOTES[chart.id] || NOTES[chart.id.replace(/-\d+$/, '')])).join('\n')}
<h2>Latency, status codes and errors</h2>
${tables.latencyTable(runs)}
${tables.statusTable(runs)}
${tables.errorTable(runs)}
${tables.generatorTable(runs)}
${tables.timingsTable(runs)}
<h2>As the CLI prints it</h2>
${tables.cliTables(runs)}`
  return { html, charts: drawn }
}

// inputs: results and capacity searches (as findMaxRate resolves, or as
// read back from -j), in any mix; searches come first on the page.
function renderHtml (inputs, { title, names } = {}) {
  if (!Array.isArray(inputs)) inputs = [inputs]
  if (inputs.length === 0) throw raise('AC_INVALID_ARGUMENT', 'renderHtml needs at least one result or search')
  const all = nameRuns(inputs, names)
  const runs = all.filter((r) => r.kind === 'result')
  const searches = all.filter((r) => r.kind === 'search')
  runs.forEach((run) => requireParts(run.result, ['histograms', 'series'], names && names[run.index] ? names[run.index] : run.name))

  const parts = []
  if (searches.length) parts.push(searchPart(searches))
  if (runs.length) {
    const part = resultPart(runs)
    // On a page that is mostly about searches, say where the runs begin.
    if (searches.length) part.html = `<h2 class="part">Runs</h2>\n${part.html}`
    parts.push(part)
  }
  return page({
    heading: pageTitle(all, title),
    body: parts.map((p) => p.html).join('\n'),
    charts: parts.flatMap((p) => p.charts)
  })
}

// The page around any body: charset, the policy that forbids fetching,
// uPlot and the page's script and style inlined, the data as JSON.
function page ({ heading, body, charts }) {
  const { uplotJs, uplotCss, pageJs, pageCss } = assets()
  const data = { version: VERSION, charts }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${escapeHtml(NAME)} ${escapeHtml(VERSION)}">
<title>${escapeHtml(heading)}</title>
<style>${inlineStyle(uplotCss)}</style>
<style>${inlineStyle(pageCss)}</style>
</head>
<body>
<h1>${escapeHtml(heading)}</h1>
<p class="meta">Written by ${escapeHtml(NAME)} ${escapeHtml(VERSION)}</p>
${body}
<script type="application/json" id="report-data">${scriptJson(data)}</script>
<script>${inlineScript(uplotJs)}</script>
<script>${inlineScript(pageJs)}</script>
</body>
</html>
`
}

module.exports = { renderHtml, scriptJson }
