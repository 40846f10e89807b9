'use strict'

// The report's tables as HTML, one column per result. Every text that
// comes from a result (URL, title, codes, expressions, the CLI's tables)
// goes through escapeHtml. Rows carry a data-key so a reader (or a test)
// can find a number without depending on the layout.

const { stripVTControlCharacters } = require('util')
const printResult = require('../print-result')
const { noResponseLine } = require('../../results/no-response')
const { distortionLine } = require('../../results/generator-health')
const { thousands } = require('../../core/format')
const { CAUSES } = require('../../core/errors')
const { lazy } = require('../../core/lazy')
// Lazy: only a merged result needs it.
const merge = lazy(() => require('../../distributed/merge'))
const { protocolOfResult } = require('../../protocols/registry')

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

function escapeHtml (value) {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c])
}

// 12345 → "12,345"; a dash for what is not a number.
function integer (value) {
  return typeof value === 'number' && Number.isFinite(value) ? thousands(value) : '—'
}

function number (value, decimals = 3) {
  return typeof value === 'number' && Number.isFinite(value) ? thousands(value, decimals) : '—'
}

function date (value) {
  const d = new Date(value)
  if (Number.isNaN(d.getTime())) return '—'
  return d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC')
}

function row (key, label, cells) {
  return `<tr data-key="${escapeHtml(key)}"><th scope="row">${escapeHtml(label)}</th>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`
}

function table (id, caption, head, rows) {
  return `<table id="${id}"><caption>${escapeHtml(caption)}</caption>` +
    `<thead><tr><th></th>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead>` +
    `<tbody>${rows.join('')}</tbody></table>`
}

function urlOf (result) {
  return Array.isArray(result.url) ? result.url.join(', ') : (result.url || result.socketPath || '—')
}

function rateOf (result) {
  if (!result.rate) return 'none: as fast as answered'
  return `${integer(result.rate.target)} req/s target, ${number(result.rate.achieved, 2)} achieved`
}

function runTable (runs) {
  const names = runs.map((r) => r.name)
  const each = (fn) => runs.map(({ result }) => fn(result))
  return table('run', 'Run', names, [
    row('url', 'URL', each(urlOf)),
    row('start', 'Started', each((r) => date(r.start))),
    row('duration', 'Duration', each((r) => `${number(r.duration, 2)} s`)),
    row('connections', 'Connections', each((r) => r.connectionStages
      ? `ramped: ${r.connectionStages.map((s) => `${number(s.duration, 3)} s to ${integer(s.connections)}`).join(', ')}`
      : integer(r.connections))),
    row('protocol', 'Protocol', each((r) => protocolOfResult(r).label)),
    row('pipelining', 'Pipelining', each((r) => protocolOfResult(r).streams ? `${integer(r.pipelining)} streams per connection` : integer(r.pipelining))),
    row('workers', 'Worker threads', each((r) => r.workers ? integer(r.workers) : 'none')),
    row('rate', 'Rate', each(rateOf)),
    row('sampleInt', 'Sample interval', each((r) => `${integer(r.sampleInt || 1000)} ms`)),
    row('sent', 'Requests sent', each((r) => integer(r.requests.sent === undefined ? r.requests.total : r.requests.sent))),
    row('total', 'Responses', each((r) => integer(r.requests.total))),
    // Sent again on a new connection, counted once (not errors).
    row('resent', 'Resent (server closed first)', each((r) => integer(r.resent || 0))),
    // Why a run stopped before its end, when it did.
    row('stopped', 'Stopped early', each((r) => r.aborted
      ? `aborted at ${r.aborted.at} s: ${r.aborted.threshold}`
      : r.partial && r.partial.signal ? `by ${r.partial.signal}` : 'no')),
    // A merge's parts, and those missing (autocannon merge).
    ...(runs.some(({ result }) => result.merge)
      ? [row('merge', 'Merged from', each((r) => r.merge ? merge().mergeSummary(r.merge).replace(/^merged /, '') : 'one run'))]
      : [])
  ])
}

const PHASES = [
  ['dns', 'DNS lookup'], ['connect', 'TCP connect'], ['proxyConnect', 'Proxy CONNECT'],
  ['tls', 'TLS handshake'], ['ttfb', 'Time to first byte'], ['transfer', 'Transfer']
]
const PHASE_STATS = [['p50', 'p50'], ['p99', 'p99'], ['mean', 'mean'], ['max', 'max']]

// Where the time went: a row per phase some run took, its p50, p99, mean
// and max (ms) and how many were timed; per connection opened for the
// first four, per response for the last two.
function timingsTable (runs) {
  const timed = runs.filter(({ result }) => result.timings)
  if (timed.length === 0) return ''
  const several = timed.length > 1
  const heads = timed.flatMap(({ name }) => [...PHASE_STATS.map(([, label]) => several ? `${name} ${label}` : label), several ? `${name} count` : 'count'])
  const rows = PHASES.filter(([key]) => timed.some(({ result }) => result.timings[key] && result.timings[key].totalCount))
    .map(([key, label]) => row(`timing-${key}`, label, timed.flatMap(({ result }) => {
      const stats = result.timings[key] || {}
      return [...PHASE_STATS.map(([k]) => number(stats[k])), integer(stats.totalCount || 0)]
    })))
  return table('timings', 'Where the time went (ms): per connection opened, then per response', heads, rows)
}

const LATENCY_ROWS = [
  ['p50', 'p50'], ['p75', 'p75'], ['p90', 'p90'], ['p99', 'p99'], ['p99_9', 'p99.9'],
  ['p99_99', 'p99.99'], ['p99_999', 'p99.999'], ['max', 'max'], ['mean', 'mean'], ['stddev', 'stddev']
]

function latencyTable (runs) {
  const columns = []
  for (const { name, result } of runs) {
    columns.push({ head: runs.length > 1 ? name : 'Latency', stats: result.latency })
    if (result.latencyUncorrected) {
      columns.push({ head: runs.length > 1 ? `${name} (uncorrected)` : 'Latency (uncorrected)', stats: result.latencyUncorrected })
    }
  }
  return table('latency', 'Latency (ms)', columns.map((c) => c.head),
    LATENCY_ROWS.map(([key, label]) => row(`latency-${key}`, label, columns.map((c) => number(c.stats[key])))))
}

function statusTable (runs) {
  const codes = [...new Set(runs.flatMap(({ result }) => Object.keys(result.statusCodeStats || {})))].sort()
  const countOf = (result, code) => (result.statusCodeStats || {})[code] ? result.statusCodeStats[code].count : 0
  return table('status', 'Status codes', runs.map((r) => r.name), [
    ...codes.map((code) => row(`status-${code}`, code, runs.map(({ result }) => integer(countOf(result, code))))),
    row('non2xx', 'non-2xx', runs.map(({ result }) => integer(result.non2xx || 0))),
    row('responses', 'all responses', runs.map(({ result }) => integer(result.requests.total)))
  ])
}

function errorTable (runs) {
  const causes = [...new Set([...CAUSES, ...runs.flatMap(({ result }) => Object.keys(result.errorsByCause || {}))])]
  const codes = [...new Set(runs.flatMap(({ result }) => Object.keys(result.errorCodes || {})))].sort()
  const cells = (fn) => runs.map(({ result }) => integer(fn(result) || 0))
  return table('errors', 'Errors', runs.map((r) => r.name), [
    ...causes.map((cause) => row(`cause-${cause}`, `by cause: ${cause}`, cells((r) => (r.errorsByCause || {})[cause]))),
    ...codes.map((code) => row(`code-${code}`, `by code: ${code}`, cells((r) => (r.errorCodes || {})[code]))),
    row('errors', 'all errors', cells((r) => r.errors)),
    row('timeouts', 'of which timeouts', cells((r) => r.timeouts))
  ])
}

// The generator's own health (docs/latency.md, Generator health): whether its
// pauses may be in the latency above. A result saved before it was
// measured shows dashes.
function generatorTable (runs) {
  const dash = '–'
  const ms = (fn) => runs.map(({ result }) => {
    const v = result.generator ? fn(result.generator) : null
    return typeof v === 'number' ? number(v) : dash
  })
  const count = (fn) => runs.map(({ result }) => {
    const v = result.generator ? fn(result.generator) : undefined
    return typeof v === 'number' ? integer(v) : dash
  })
  const ms2 = (fn) => runs.map(({ result }) => {
    const p = result.generator ? fn(result.generator) : null
    return p ? `${number(p.ms)}, ${number(p.max)}` : dash
  })
  return table('generator', 'Generator health', runs.map((r) => r.name), [
    row('loop-p50', 'event-loop delay p50 (ms)', ms((g) => g.loopDelay && g.loopDelay.p50)),
    row('loop-p99', 'event-loop delay p99 (ms)', ms((g) => g.loopDelay && g.loopDelay.p99)),
    row('loop-max', 'event-loop delay max (ms)', ms((g) => g.loopDelay && g.loopDelay.max)),
    row('cpu', 'busiest thread busy', runs.map(({ result }) => result.generator ? `${Math.round(result.generator.cpu * 100)}%` : dash)),
    row('late', 'requests over 5 ms late', runs.map(({ result }) => result.generator ? integer(result.generator.late) : dash)),
    row('late-no-connection', 'of which: no connection free', count((g) => g.lateNoConnection)),
    row('late-own', 'of which: its own work', count((g) => g.lateOwn)),
    row('late-starved', 'of which: not running (other processes had the CPU)', count((g) => g.lateStarved)),
    row('pause-own', 'pauses, its own work: all, longest (ms)', ms2((g) => g.pauses && g.pauses.own)),
    row('pause-starved', 'pauses, not running: all, longest (ms)', ms2((g) => g.pauses && g.pauses.starved)),
    row('lateness-p99', 'lateness p99 (ms)', ms((g) => g.lateness && g.lateness.p99)),
    row('lateness-max', 'lateness max (ms)', ms((g) => g.lateness && g.lateness.max))
  ])
}

function thresholdTables (runs) {
  return runs.filter(({ result }) => Array.isArray(result.thresholds) && result.thresholds.length > 0)
    .map(({ name, result }, i) => {
      const rows = result.thresholds.map((th, k) =>
        `<tr data-key="threshold-${k}" class="${th.ok ? 'pass' : 'fail'}"><th scope="row">${escapeHtml(th.expression)}</th>` +
        `<td>${escapeHtml(typeof th.value === 'number' ? number(th.value) : th.value)}</td>` +
        `<td>${th.ok ? '✔ pass' : '✗ fail'}</td></tr>`)
      // One result: the section's heading says it all.
      const caption = runs.length > 1 ? `<caption>${escapeHtml(name)}</caption>` : ''
      return `<table id="thresholds-${i}" class="thresholds">${caption}` +
        '<thead><tr><th scope="col">Threshold</th><th scope="col">Measured</th><th scope="col">Result</th></tr></thead>' +
        `<tbody>${rows.join('')}</tbody></table>`
    }).join('\n')
}

// printResult's colours are decided from the environment (FORCE_COLOR),
// not only from the stream: whatever it decides, no escape codes in a page.

// Blank lines around it are the terminal's spacing, not the page's (and an
// HTML parser drops a <pre>'s first newline anyway).
function cliText (result) {
  let text = printResult(result, { outputStream: { isTTY: false } })
  // Without a response the CLI says why after the summary: so does the page.
  if (result.requests && result.requests.total === 0) text += noResponseLine(result)
  text = stripVTControlCharacters(text).replace(/^\n+|\n+$/g, '')
  // The generator's verdict follows the tables, as in the terminal.
  const verdict = result.generator ? distortionLine(result) : null
  return verdict === null ? text : `${text}\n${verdict}`
}

// Under the section's heading: a caption names each run only when there
// are several.
function cliTables (runs) {
  return runs.map(({ name, result }, i) =>
    '<figure class="cli">' + (runs.length > 1 ? `<figcaption>${escapeHtml(name)}</figcaption>` : '') +
    `<pre id="cli-${i}">${escapeHtml(cliText(result))}</pre></figure>`).join('\n')
}

module.exports = { escapeHtml, integer, number, runTable, latencyTable, statusTable, errorTable, generatorTable, thresholdTables, cliTables, cliText }
module.exports.timingsTable = timingsTable
