'use strict'

// renderHtml(results, { title, names }) → one self-contained HTML page:
// the run, latency by percentile on HdrHistogram's 1/(1−p) axis, requests,
// errors and latency over time, status codes, errors, thresholds and the
// CLI's tables, for one result or several side by side. A renderer like
// print-result.js: results in, a string out; writing it is the caller's.
//
// The page must open from file:// with no network: uPlot (script and CSS)
// is inlined from node_modules, the data travels as JSON in the page, and
// a Content-Security-Policy forbids every fetch the page could try.

const fs = require('fs')
const path = require('path')
const { requireParts } = require('./saved-result')
const { charts } = require('./report/charts')
const tables = require('./report/tables')
const { escapeHtml } = tables

const VERSION = require('../package.json').version

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
      pageJs: asset(path.join(__dirname, 'report', 'page.js')),
      pageCss: asset(path.join(__dirname, 'report', 'page.css'))
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

// A result's display name: its title, else the file it came from, else its
// place; names that would repeat get their file or place added.
function nameRuns (results, names = []) {
  const runs = results.map((result, i) => ({
    result,
    name: result.title || names[i] || (results.length > 1 ? `run ${i + 1}` : 'run'),
    source: names[i] || `run ${i + 1}`
  }))
  const seen = new Map()
  for (const run of runs) seen.set(run.name, (seen.get(run.name) || 0) + 1)
  for (const run of runs) {
    if (seen.get(run.name) > 1 && run.name !== run.source) run.name = `${run.name} (${run.source})`
  }
  return runs
}

function pageTitle (runs, title) {
  if (title) return title
  if (runs.length > 1) return `autocannon: ${runs.map((r) => r.name).join(' vs ')}`
  const { result } = runs[0]
  const url = Array.isArray(result.url) ? result.url.join(', ') : result.url
  return `autocannon: ${result.title || url || runs[0].name}`
}

function chartSection (chart, note) {
  return `<h2>${escapeHtml(chart.title)}</h2>\n<p class="note">${escapeHtml(note)}</p>\n<div class="chart" id="chart-${chart.id}"></div>`
}

const NOTES = {
  'latency-percentiles': 'Latency at each percentile, on HdrHistogram\'s axis: each "nine" (90%, 99%, 99.9%…) takes the same width. Under a fixed rate, latency counts from when each request should have been sent (corrected for coordinated omission); the uncorrected line counts from when it was.',
  'requests-over-time': 'Responses and errors in each sample interval, per second, at the end of the interval.',
  'latency-over-time': 'Median and 99th percentile of the responses received in each sample interval.'
}

function renderHtml (results, { title, names } = {}) {
  if (!Array.isArray(results)) results = [results]
  if (results.length === 0) throw new TypeError('renderHtml needs at least one result')
  const runs = nameRuns(results, names)
  runs.forEach((run, i) => requireParts(run.result, ['histograms', 'series'], names && names[i] ? names[i] : run.name))

  const { uplotJs, uplotCss, pageJs, pageCss } = assets()
  const heading = pageTitle(runs, title)
  const drawn = charts(runs)
  const data = { version: VERSION, charts: drawn }
  const thresholds = tables.thresholdTables(runs)

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="autocannon ${escapeHtml(VERSION)}">
<title>${escapeHtml(heading)}</title>
<style>${inlineStyle(uplotCss)}</style>
<style>${inlineStyle(pageCss)}</style>
</head>
<body>
<h1>${escapeHtml(heading)}</h1>
<p class="meta">Written by autocannon ${escapeHtml(VERSION)}</p>
${tables.runTable(runs)}
${thresholds ? `<h2>Thresholds</h2>\n${thresholds}` : ''}
${drawn.map((chart) => chartSection(chart, NOTES[chart.id])).join('\n')}
<h2>Latency, status codes and errors</h2>
${tables.latencyTable(runs)}
${tables.statusTable(runs)}
${tables.errorTable(runs)}
<h2>As the CLI prints it</h2>
${tables.cliTables(runs)}
<script type="application/json" id="report-data">${scriptJson(data)}</script>
<script>${inlineScript(uplotJs)}</script>
<script>${inlineScript(pageJs)}</script>
</body>
</html>
`
}

module.exports = { renderHtml, scriptJson, nameRuns }
