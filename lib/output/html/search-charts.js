'use strict'

// The charts of a capacity search, as data for the page (the same shape
// as charts.js makes): the max sustained rate against connections with one
// line per saved search (one server each), as users plot a sweep of wrk2
// runs by hand; and for
// each connection count, the latency every step measured against the rate
// it offered, with each latency SLO drawn at its limit. `marks` are rings
// (and words) the page draws over points: a chart alone must not pass a
// generator's limit or a failed step off as an ordinary point.

const { rate, thousands } = require('../../core/format')
const { parseThreshold } = require('../../results/thresholds')
const { PALETTE, chart } = require('./charts')

const DASHED = [6, 4]
// Each percentile its colour (none of them the green of the answer) and
// p99.9 its own marker and dash: its points often sit on p99's.
const LATENCIES = [
  ['p50', 'p50', { color: '#0072b2' }],
  ['p99', 'p99', { color: '#d55e00' }],
  ['p999', 'p99.9', { color: '#6a3d9a', marker: 'square', dash: [2, 3] }]
]
const SLO_COLOURS = ['#cc0000', '#000000', '#56b4e9']
const VERDICT_COLOURS = { fail: '#cc0000', 'generator-bound': '#e69f00', inconclusive: '#888888' }
const BEST_COLOUR = '#007a3d'

// What a search's status means for the number the capacity chart plots.
const STATUS_WORDS = {
  found: 'found',
  'below-low': 'below the low rate',
  'generator-bound': 'generator-bound',
  'at-ceiling': 'at least (maxRate)',
  unconfirmed: 'unconfirmed',
  'max-steps': 'maxSteps, not converged'
}

function statusWord (search) {
  if (search.status) return STATUS_WORDS[search.status] || String(search.status)
  return search.stopped ? 'stopped' : 'unfinished'
}

// The latency SLOs among a search's, parsed; the others (errors, non2xx)
// have no line on a latency chart, and the verdicts show them.
function latencySlos (slos) {
  const out = []
  for (const slo of Array.isArray(slos) ? slos : []) {
    let parsed
    try {
      parsed = parseThreshold(slo)
    } catch {
      continue
    }
    if (parsed.kind === 'latency') out.push(parsed)
  }
  return out
}

// A step's latency (ms) as the judge saw it, else as its result has it.
function stepLatency (step) {
  const v = step.values || {}
  const l = (step.result && step.result.latency) || {}
  const pick = (a, b) => typeof a === 'number' ? a : typeof b === 'number' ? b : null
  return { p50: pick(v.p50, l.p50), p99: pick(v.p99, l.p99), p999: pick(v.p999, l.p99_9) }
}

// A log axis has no place for 0 ms (a step with no response).
function positive (value) {
  return typeof value === 'number' && value > 0 ? value : null
}

// The line a step's verdict is marked on: the first latency SLO's, when
// the chart draws that percentile.
function markedLine (slos) {
  for (const slo of slos) {
    const line = { p50: 'p50', p99: 'p99', 'p99.9': 'p999' }[slo.metric]
    if (line) return line
  }
  return 'p99'
}

// runs: [{ name, search }]
function capacityChart (runs) {
  const lines = []
  const marks = []
  runs.forEach((run, i) => {
    const color = PALETTE[i % PALETTE.length]
    const points = run.search.searches.map((s) => [s.connections, s.best ? s.best.rate : null])
    lines.push({ label: run.name, color, points })
    for (const s of run.search.searches) {
      // No rate passed: no point to mark (the table says so).
      if (!s.best) continue
      if (s.status === 'found') continue
      marks.push({ x: s.connections, y: s.best.rate, color, label: statusWord(s) })
    }
  })
  const connections = runs.flatMap((run) => run.search.searches.map((s) => s.connections))
  // A single connection count is a single point per line: labelled with
  // its rate and connections, which no line or second tick tells.
  if (new Set(connections).size === 1) {
    runs.forEach((run, i) => {
      for (const s of run.search.searches) {
        if (!s.best) continue
        const mark = marks.find((m) => m.x === s.connections && m.color === PALETTE[i % PALETTE.length])
        const text = `${rate(s.best.rate)} req/s at ${thousands(s.connections)} connection${s.connections === 1 ? '' : 's'}`
        if (mark) mark.label = `${text}, ${mark.label}`
        else marks.push({ x: s.connections, y: s.best.rate, color: PALETTE[i % PALETTE.length], label: runs.length > 1 ? `${run.name}: ${text}` : text })
      }
    })
  }
  const min = Math.min(...connections)
  const max = Math.max(...connections)
  return chart({
    id: 'capacity',
    kind: 'capacity',
    title: 'Max sustained rate by connections',
    xLabel: 'connections',
    yLabel: 'max sustained rate (req/s)',
    xUnit: ' connections',
    yUnit: ' req/s',
    // Connection counts such as 100,1000,10000 are a decade apart.
    xLog: max / min >= 10,
    xTicks: 'data',
    points: true,
    marks
  }, lines)
}

// One connection count's steps: x is the rate each step offered, sorted,
// a rate run twice (a confirmation, a longer rerun) twice.
function stepChart (run, search, slos, { id, several }) {
  const order = search.steps.map((step, i) => ({ step, i, latency: stepLatency(step) }))
    .sort((a, b) => a.step.target - b.step.target || a.i - b.i)
  const xs = order.map((o) => o.step.target)
  const series = []
  const data = [xs]
  for (const [key, label, style] of LATENCIES) {
    series.push({ label, ...style })
    data.push(order.map((o) => positive(o.latency[key])))
  }
  latencySlos(slos).forEach((slo, k) => {
    series.push({ label: `SLO ${slo.expression}`, color: SLO_COLOURS[k % SLO_COLOURS.length], dash: DASHED, slo: true })
    data.push(xs.map(() => slo.limit))
  })

  const line = markedLine(latencySlos(slos))
  const marks = []
  for (const o of order) {
    const color = VERDICT_COLOURS[o.step.verdict]
    if (color) marks.push({ x: o.step.target, y: positive(o.latency[line]), color })
  }
  // The answer, on the last step that passed at its rate.
  if (search.best) {
    const target = search.best.target !== undefined ? search.best.target : search.best.rate
    const at = order.filter((o) => o.step.target === target && o.step.verdict === 'pass').pop()
    if (at) marks.push({ x: at.step.target, y: positive(at.latency[line]), color: BEST_COLOUR, label: `best ${rate(search.best.rate)} req/s`, below: true })
  }
  return {
    id,
    kind: 'steps',
    title: `${several ? `${run.name}: latency` : 'Latency'} by offered rate at ${thousands(search.connections)} connection${search.connections === 1 ? '' : 's'}`,
    xLabel: 'offered rate (req/s)',
    yLabel: 'latency (ms)',
    xUnit: ' req/s',
    yLog: true,
    // Searches double their way up, then bisect: a log axis gives the
    // steps near the answer their room (500 to 6,000 linear would crowd them).
    xLog: true,
    points: true,
    series,
    data,
    marks
  }
}

// runs: [{ name, search }] → the capacity chart, then one step chart per
// connection count of each search, numbered in that order (search-0, …).
//
// No rate passed anywhere: no capacity chart (null), which would be an
// empty axis.
function searchCharts (runs) {
  const several = runs.length > 1
  const passed = runs.some((run) => run.search.searches.some((s) => s.best))
  const charts = [passed ? capacityChart(runs) : null]
  let k = 0
  for (const run of runs) {
    for (const search of run.search.searches) {
      charts.push(stepChart(run, search, run.search.slos, { id: `search-${k++}`, several }))
    }
  }
  return charts
}

module.exports = { searchCharts, latencySlos, stepLatency, statusWord }
