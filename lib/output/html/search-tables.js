'use strict'

// A capacity search's tables as HTML: the answer for every connection
// count of every saved search, and each search's steps as the CLI's live
// table prints them (target, achieved, p50, p99, p99.9, errors, verdict
// and why). Rows carry a data-key, and the status and verdict their raw
// value as a data attribute, so a reader (or a test) need not parse text.

const format = require('../../core/format')
const { escapeHtml, integer, number } = require('./tables')
const { stepLatency, statusWord } = require('./search-charts')

// What a status other than 'found' says about the number beside it.
const STATUS_NOTES = {
  'below-low': 'no rate passed, not even the low check',
  'generator-bound': 'the most this generator could measure: use -w or more machines',
  'at-ceiling': 'passed at maxRate; no higher rate tried',
  unconfirmed: 'passed once, failed its confirmations',
  'max-steps': 'the search stopped at maxSteps before converging'
}

function rate (value) {
  return typeof value === 'number' ? `${format.rate(value)} req/s` : '—'
}

function ms (value) {
  return typeof value === 'number' ? `${number(value, value >= 100 ? 0 : 2)} ms` : '—'
}

function cell (text, cls) {
  return `<td${cls ? ` class="${cls}"` : ''}>${escapeHtml(text)}</td>`
}

function head (columns) {
  return `<thead><tr>${columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('')}</tr></thead>`
}

function statusText (search) {
  const note = STATUS_NOTES[search.status]
  return note ? `${statusWord(search)}: ${note}` : statusWord(search)
}

function bestText (best) {
  if (!best) return '—'
  return `${rate(best.rate)}${best.confirmed ? '' : ' (not confirmed)'}`
}

// runs: [{ name, search }]; rows numbered as the step charts are.
function capacityTable (runs) {
  const rows = []
  let k = 0
  for (const run of runs) {
    const slos = Array.isArray(run.search.slos) ? run.search.slos.join(', ') : '—'
    for (const s of run.search.searches) {
      const found = s.status === 'found'
      rows.push(`<tr data-key="capacity-${k}" data-status="${escapeHtml(s.status || 'unfinished')}" class="${found ? 'found' : 'not-found'}">` +
        `<th scope="row">${escapeHtml(run.name)}</th>` +
        cell(integer(s.connections)) +
        cell(bestText(s.best), 'best') +
        cell(statusText(s), 'status') +
        cell(s.failed ? `${rate(s.failed.rate)} (${s.failed.reason})` : '—') +
        cell(rate(s.ceiling)) +
        cell(integer(s.steps.length)) +
        cell(typeof s.wallSeconds === 'number' ? `${number(s.wallSeconds, 1)} s` : '—') +
        cell(slos, 'slos') +
        '</tr>')
      k++
    }
  }
  return '<table id="capacity">' +
    head(['', 'Connections', 'Max sustained rate', 'Status', 'Lowest failing rate', 'Closed-loop probe', 'Steps', 'Wall time', 'SLOs']) +
    `<tbody>${rows.join('')}</tbody></table>`
}

function achievedOf (step) {
  if (step.values && typeof step.values.achieved === 'number') return step.values.achieved
  const r = step.result
  if (r && r.rate && typeof r.rate.achieved === 'number') return r.rate.achieved
  return r && r.duration ? r.requests.total / r.duration : null
}

function errorsOf (step) {
  const v = step.values || {}
  const n = typeof v.errors === 'number' ? v.errors : step.result ? step.result.errors || 0 : 0
  if (!n) return '0'
  return typeof v.errorRatio === 'number' ? `${integer(n)} (${number(v.errorRatio * 100, 2)}%)` : integer(n)
}

// One connection count's steps, in the order they ran.
function stepTable (search, k, caption) {
  const rows = search.steps.map((step, i) => {
    const latency = stepLatency(step)
    const verdict = String(step.verdict || '—')
    return `<tr data-key="step-${i}" data-verdict="${escapeHtml(verdict)}" class="verdict-${escapeHtml(verdict)}">` +
      `<th scope="row">${i + 1}</th>` +
      cell(step.kind || '—') +
      cell(rate(step.target)) +
      cell(rate(achievedOf(step))) +
      cell(ms(latency.p50)) +
      cell(ms(latency.p99)) +
      cell(ms(latency.p999)) +
      cell(errorsOf(step)) +
      cell(verdict, 'verdict') +
      cell(Array.isArray(step.reasons) ? step.reasons.join('; ') : '', 'why') +
      '</tr>'
  })
  return `<table id="steps-${k}" class="steps"><caption>${escapeHtml(caption)}</caption>` +
    head(['step', 'kind', 'target', 'achieved', 'p50', 'p99', 'p99.9', 'errors', 'verdict', 'why']) +
    `<tbody>${rows.join('')}</tbody></table>`
}

module.exports = { capacityTable, stepTable }
