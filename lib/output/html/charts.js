'use strict'

// What the report's charts draw, computed here so that the page only hands
// it to uPlot: each chart is a title, its series (label, colour, dash,
// scale) and uPlot's aligned data [x, y1, y2…]. Several results share one
// x array; a result has null where another has a point (uPlot skips those
// and, with spanGaps, joins its line across them).

const { percentileDistribution } = require('./percentiles')
const { decode, valueSum } = require('../../results/histogram')

// Distinct on white and for the common colour-vision deficiencies
// (Okabe–Ito), in the order lines are added.
const PALETTE = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#e69f00', '#56b4e9', '#000000', '#f0e442']
const DASHED = [6, 4]
const DOTTED = [2, 3]
const LONG_DASHED = [12, 4]
const DASH_DOTTED = [8, 3, 2, 3]

function colour (i) {
  return PALETTE[i % PALETTE.length]
}

// 12 significant digits are exact for every x 1/(1−p) the iterator makes
// and keep the JSON short.
function short (x) {
  return Number(x.toPrecision(12))
}

// Lines of [x, y] pairs → uPlot's aligned data.
function align (lines) {
  const xs = [...new Set(lines.flatMap((line) => line.points.map(([x]) => x)))].sort((a, b) => a - b)
  const at = new Map(xs.map((x, i) => [x, i]))
  const data = [xs]
  for (const line of lines) {
    const ys = new Array(xs.length).fill(null)
    for (const [x, y] of line.points) ys[at.get(x)] = y
    data.push(ys)
  }
  return data
}

function chart (spec, lines) {
  return {
    ...spec,
    series: lines.map(({ points, ...series }) => series),
    data: align(lines)
  }
}

// One colour per result when there are several (its lines told apart by
// dashes); one colour per line when there is one.
function styler (runs) {
  return (run, k) => runs.length > 1 ? colour(run) : colour(k)
}

function ms (us) {
  return Math.round(us) / 1000
}

// Which latency a run's main histogram and per-interval percentiles hold:
// under a fixed rate, counted from each request's intended send time
// (corrected); else from when it was sent (a closed loop, or -C).
function latencyKind (run) {
  return run.result.latencyUncorrected ? 'corrected' : 'from send'
}

// The sample interval of the runs, in seconds: the time axes tick at its
// multiples, never between two samples.
function step (runs) {
  return Math.min(...runs.map((run) => (run.result.series.interval || 1000) / 1000))
}

function latencyPercentiles (runs) {
  const pick = styler(runs)
  const several = runs.length > 1
  const lines = []
  runs.forEach((run, i) => {
    const { latency, latencyUncorrected } = run.result.histograms
    const points = (histogram) => percentileDistribution(histogram).map((p) => [short(p.x), ms(p.value)])
    const which = latencyKind(run)
    // Beside other files, a name alone is a closed loop's latency.
    lines.push({ label: several ? (latencyUncorrected ? `${run.name} (corrected)` : run.name) : `Latency (${which})`, color: pick(i, 0), points: points(latency) })
    if (latencyUncorrected) {
      lines.push({
        label: several ? `${run.name} (uncorrected)` : 'Latency (uncorrected)',
        color: pick(i, 1),
        dash: DASHED,
        points: points(latencyUncorrected)
      })
    }
  })
  return chart({
    id: 'latency-percentiles',
    kind: 'percentiles',
    title: 'Latency by percentile',
    xLabel: 'percentile',
    yLabel: 'latency (ms)'
  }, lines)
}

// Seconds since the run's start at the end of each interval.
function seconds (run) {
  const start = new Date(run.result.start).getTime()
  return run.result.series.time.map((t) => Math.round(t - start) / 1000)
}

function perSecond (run, counts) {
  const perSec = 1000 / (run.result.series.interval || 1000)
  return counts.map((n) => Math.round(n * perSec * 100) / 100)
}

function zip (xs, ys) {
  return xs.map((x, i) => [x, ys[i]])
}

function requestsOverTime (runs) {
  const pick = styler(runs)
  const several = runs.length > 1
  const lines = []
  runs.forEach((run, i) => {
    const xs = seconds(run)
    const { requests, errors } = run.result.series
    // series.requests counts responses (each request that ended in one).
    lines.push({ label: several ? `${run.name} responses/s` : 'Responses/s', color: pick(i, 0), scale: 'y', points: zip(xs, perSecond(run, requests)) })
    lines.push({ label: several ? `${run.name} errors/s` : 'Errors/s', color: several ? colour(i) : '#cc0000', dash: DASHED, scale: 'errors', points: zip(xs, perSecond(run, errors)) })
  })
  return chart({
    id: 'requests-over-time',
    kind: 'time',
    title: 'Responses and errors per second',
    xLabel: 'seconds since start',
    xStep: step(runs),
    yLabel: 'responses/s',
    y2Label: 'errors/s',
    // Errors are counted: whole numbers on their axis, 0 to 1 at least.
    y2Integer: true
  }, lines)
}

function latencyOverTime (runs) {
  const pick = styler(runs)
  const several = runs.length > 1
  const lines = []
  runs.forEach((run, i) => {
    const xs = seconds(run)
    const { latencyP50, latencyP99, loopDelayMax } = run.result.series
    const which = latencyKind(run)
    lines.push({ label: several ? `${run.name} p50 (${which})` : `p50 (${which})`, color: pick(i, 0), points: zip(xs, latencyP50) })
    lines.push({ label: several ? `${run.name} p99 (${which})` : `p99 (${which})`, color: pick(i, 1), dash: DASHED, points: zip(xs, latencyP99) })
    // Under a rate, the service time per interval beside it, when the
    // series has it (the dashboard's does: its samples carry it).
    const { uncorrectedP50, uncorrectedP99 } = run.result.series
    if (uncorrectedP50 && uncorrectedP99) {
      lines.push({ label: several ? `${run.name} p50 (uncorrected)` : 'p50 (uncorrected)', color: pick(i, 2), dash: LONG_DASHED, points: zip(xs, uncorrectedP50) })
      lines.push({ label: several ? `${run.name} p99 (uncorrected)` : 'p99 (uncorrected)', color: pick(i, 3), dash: DASH_DOTTED, points: zip(xs, uncorrectedP99) })
    }
    // The generator's longest pause in the interval, on the same axis: a
    // latency peak that it matches may be ours, not the server's.
    if (loopDelayMax) lines.push({ label: several ? `${run.name} generator pause` : 'generator pause (max)', color: several ? colour(i) : '#e69f00', dash: DOTTED, points: zip(xs, loopDelayMax) })
  })
  return chart({
    id: 'latency-over-time',
    kind: 'time',
    title: 'Latency p50 and p99 per interval',
    xLabel: 'seconds since start',
    xStep: step(runs),
    yLabel: 'latency (ms)'
  }, lines)
}

// Where each interval's time went, one chart per run that timed it: the
// mean time to first byte and transfer of its responses, stacked (each
// line is the sum of the phases up to it, filled below), and under a fixed
// rate the wait before the write under them: the rest of the mean
// corrected latency. Means, as means add up where percentiles do not.
function timingsOverTime (runs) {
  const drawn = []
  runs.forEach((run, i) => {
    const s = run.result.series
    if (!s || !s.ttfbMean || !s.timed) return
    const xs = seconds(run)
    const wait = run.result.rate ? s.timed.map((n, k) => Math.max(0, round3(meanLatency(s.latency && s.latency[k]) - s.ttfbMean[k] - s.transferMean[k]))) : null
    const base = (k) => wait ? wait[k] : 0
    const ttfbTop = s.ttfbMean.map((v, k) => round3(base(k) + v))
    const transferTop = s.transferMean.map((v, k) => round3(ttfbTop[k] + v))
    // Drawn top first: each lower area is filled over the one above it,
    // in an opaque pale shade of its line's colour, so each band shows
    // its own.
    const lines = [
      { label: 'Transfer (mean)', color: '#009e73', fill: '#bfe7dc', points: zip(xs, transferTop) },
      { label: 'Time to first byte (mean)', color: '#0072b2', fill: '#bfdcec', points: zip(xs, ttfbTop) }
    ]
    if (wait) lines.push({ label: 'Wait before send (mean)', color: '#e69f00', fill: '#f9e7bf', points: zip(xs, wait) })
    const several = runs.length > 1
    drawn.push(chart({
      id: several ? `timings-over-time-${i + 1}` : 'timings-over-time',
      kind: 'time',
      stacked: true,
      title: several ? `Where the time went per interval: ${run.name}` : 'Where the time went per interval',
      xLabel: 'seconds since start',
      xStep: step([run]),
      yLabel: 'mean time (ms), stacked'
    }, lines))
  })
  return drawn
}

function meanLatency (encoded) {
  if (!encoded) return 0
  const h = decode(encoded)
  return h.totalCount === 0 ? 0 : valueSum(h) / h.totalCount / 1000
}

function round3 (v) {
  return Math.round(v * 1000) / 1000
}

// --connectionStages: the connections each interval ended with, beside
// the requests and latency charts on the same time axis.
function connectionsOverTime (runs) {
  const lines = []
  runs.forEach((run, i) => {
    const { connections } = run.result.series
    if (!connections) return
    lines.push({ label: runs.length > 1 ? `${run.name} connections` : 'Connections open', color: colour(runs.length > 1 ? i : 2), points: zip(seconds(run), connections) })
  })
  return chart({
    id: 'connections-over-time',
    kind: 'time',
    title: 'Connections open per interval',
    xLabel: 'seconds since start',
    xStep: step(runs),
    yLabel: 'connections'
  }, lines)
}

// runs: [{ name, result }]
function charts (runs) {
  const drawn = [latencyPercentiles(runs), requestsOverTime(runs)]
  if (runs.some((run) => run.result.connectionStages)) drawn.push(connectionsOverTime(runs))
  drawn.push(latencyOverTime(runs))
  drawn.push(...timingsOverTime(runs))
  return drawn
}

module.exports = { charts, chart, PALETTE }
