'use strict'

// compare(a, b) → whether b differs from a, metric by metric, with a test
// on the unit that is independent: the sample interval (a second by
// default), never the request. Requests of one second share its
// conditions; counting each as a sample (autocannon-compare's n =
// requests.total) makes almost any difference "significant".
//
// - Req/Sec: Mann–Whitney U over the per-interval rates.
// - Latency p50, p99, p99.9: block-bootstrap confidence interval of the
//   ratio b/a, resampling whole intervals' histograms.
// - Errors: Mann–Whitney U over the per-interval error rates (errors
//   cluster: one stall makes hundreds at once).
// - TTFB and transfer: Mann–Whitney U over the per-interval means, when
//   both sides timed them (results saved before phases were timed did not).
//
// A change is reported only when the test says so at `alpha` AND the
// change is significantly larger than `noise` (its interval lies beyond
// it, as criterion.rs decides); otherwise `~`. When the samples are too few for
// any outcome to reach alpha, the verdict says that instead of guessing.
//
// a and b are results (as autocannon() gives them or as -j saves them), or
// arrays of results: several runs of one side pool their intervals, which
// brings run-to-run variation into the test.

const { raise } = require('../core/errors')
const { round } = require('../core/format')
const { createLatencyHistogram, decode } = require('../results/histogram')
const { isResult, requireParts } = require('../results/saved-result')
const { mannWhitney } = require('../stats/mann-whitney')
const { Blocks, ratioIntervals } = require('../stats/block-bootstrap')
const { seededRandom } = require('../core/random')

const DEFAULTS = {
  alpha: 0.05,
  // Changes under 2% print `~` however significant. Back-to-back runs of
  // one server on a quiet machine differ by a percent or two (CPU
  // frequency, scheduling, what else runs): a difference no user acts on,
  // which a test with many intervals can still find. criterion uses 1%
  // for microbenchmarks, which vary less than a network stack does.
  // HdrHistogram's buckets (3 significant digits) resolve 0.1%.
  noise: 0.02,
  // 2000 replicates leave a dozen beyond each end of the interval even
  // when it is read at 0.57% (8 intervals a side).
  resamples: 2000,
  seed: 0x5eed
}

// A percentile rests on the responses above it: p99 of 300 responses is
// their third highest, all but noise. Require ten above the percentile in
// each run (1,000 responses for p99, 10,000 for p99.9).
const TAIL_RESPONSES = 10
// And those responses must come from this many intervals of each run:
// slow responses come in bursts (a stall delays every connection at
// once), and a tail held by one or two intervals is one or two events,
// whose resamples say only whether they were drawn.
const TAIL_BLOCKS = 3
// Fewer intervals than this leave a bootstrap a handful of distinct
// resamples, and its interval is too narrow to trust.
const MIN_BLOCKS = 4

const LATENCY = [
  { key: 'p50', label: 'Latency p50', percentile: 50 },
  { key: 'p99', label: 'Latency p99', percentile: 99 },
  { key: 'p99_9', label: 'Latency p99.9', percentile: 99.9 }
]

function compare (a, b, opts = {}) {
  const o = { ...DEFAULTS, ...opts }
  checkOptions(o)
  const runs = [runsOf(a, 'a'), runsOf(b, 'b')]
  const random = seededRandom(o.seed)
  return {
    alpha: o.alpha,
    noise: o.noise,
    confidence: 1 - o.alpha,
    resamples: o.resamples,
    names: o.names || ['a', 'b'],
    a: describe(runs[0]),
    b: describe(runs[1]),
    metrics: [
      requestRate(runs, o),
      ...latencyPercentiles(runs, o, random),
      errors(runs, o),
      ...phaseMeans(runs, o)
    ]
  }
}

function checkOptions (o) {
  const bad = (name, expected) => raise('AC_INVALID_OPTION', `compare: invalid option "${name}": ${o[name]} (expected ${expected})`)
  if (!(o.alpha > 0 && o.alpha < 1)) throw bad('alpha', 'a number between 0 and 1, such as 0.05')
  if (!(o.noise >= 0 && o.noise < 1)) throw bad('noise', 'a fraction from 0 to 1, such as 0.02 for 2%')
  if (!(Number.isInteger(o.resamples) && o.resamples >= 100)) throw bad('resamples', 'an integer of at least 100')
  if (!Number.isInteger(o.seed)) throw bad('seed', 'an integer')
  if (o.names !== undefined && !(Array.isArray(o.names) && o.names.length === 2)) throw bad('names', 'two names')
}

function runsOf (value, side) {
  const list = Array.isArray(value) ? value : [value]
  if (list.length === 0) throw raise('AC_NOT_A_RESULT', `compare: ${side} holds no result`)
  for (const result of list) {
    if (!isResult(result)) throw raise('AC_NOT_A_RESULT', `compare: ${side} is not an autocannon result`)
    requireParts(result, ['histograms', 'series'], side)
  }
  return list
}

function describe (runs) {
  return {
    runs: runs.length,
    intervals: sum(runs.map((r) => r.series.requests.length)),
    requests: sum(runs.map((r) => r.requests.total)),
    duration: sum(runs.map((r) => r.duration || 0))
  }
}

// Per-interval values of every run of a side, through `fn(series, i)`.
function perInterval (runs, fn) {
  const out = []
  for (const { series } of runs) {
    for (let i = 0; i < series.requests.length; i++) out.push(fn(series, i))
  }
  return out
}

function requestRate (runs, o) {
  // Rates, not counts, so runs with different sample intervals compare.
  const [x, y] = runs.map((side) => perInterval(side, (s, i) => s.requests[i] * 1000 / s.interval))
  const metric = { key: 'rps', label: 'Req/Sec', unit: 'req/s', higherIsBetter: true, a: median(x), b: median(y) }
  metric.change = relativeChange(metric.a, metric.b)
  return rankVerdict(metric, x, y, o, o.noise)
}

function errors (runs, o) {
  const [x, y] = runs.map((side) => perInterval(side, (s, i) => {
    const errs = (s.errors && s.errors[i]) || 0
    const all = s.requests[i] + errs
    return all === 0 ? 0 : errs / all
  }))
  const [a, b] = runs.map((side) => sum(side.map((r) => r.errors || 0)))
  const [rateA, rateB] = runs.map((side, k) => {
    const all = sum(side.map((r) => r.requests.total)) + [a, b][k]
    return all === 0 ? 0 : [a, b][k] / all
  })
  const metric = { key: 'errors', label: 'Errors', unit: 'errors', higherIsBetter: false, a, b, rateA, rateB }
  metric.change = relativeChange(rateA, rateB)
  if (a === 0 && b === 0) {
    return Object.assign(metric, { test: 'mann-whitney', p: 1, n: [x.length, y.length], significant: false, verdict: '~', note: 'no errors in either' })
  }
  // No noise threshold: errors appearing is news at any rate.
  return rankVerdict(metric, x, y, o, 0)
}

const PHASE_MEANS = [
  { key: 'ttfb', label: 'TTFB mean', field: 'ttfbMean' },
  { key: 'transfer', label: 'Transfer mean', field: 'transferMean' }
]

// Each interval's mean time to first byte and transfer, of the intervals
// that timed a response.
function phaseMeans (runs, o) {
  if (!runs.every((side) => side.every((r) => r.series.ttfbMean && r.series.timed))) return []
  return PHASE_MEANS.map(({ key, label, field }) => {
    const [x, y] = runs.map((side) => {
      const out = []
      for (const { series } of side) {
        for (let i = 0; i < series.timed.length; i++) if (series.timed[i] > 0) out.push(series[field][i])
      }
      return out
    })
    const metric = { key, label, unit: 'ms', higherIsBetter: false, a: median(x), b: median(y) }
    metric.change = relativeChange(metric.a, metric.b)
    return rankVerdict(metric, x, y, o, o.noise)
  })
}

// Significant when Mann–Whitney says so at alpha. A change (as criterion
// decides) only when it is significantly beyond the noise threshold too:
// the test run again with a's samples moved by the threshold towards b's
// must still find b beyond them. By test inversion, that is the interval
// of the ratio b/a lying wholly outside 1 ± noise, without forming the
// n1 × n2 pairwise ratios the interval itself would take.
function rankVerdict (metric, x, y, o, noise) {
  const test = mannWhitney(x, y)
  Object.assign(metric, { test: 'mann-whitney', p: test.p, minP: test.minP, n: test.n, method: test.method })
  if (test.minP >= o.alpha) {
    return Object.assign(metric, {
      significant: false,
      verdict: 'too few samples',
      note: `n = ${test.n[0]} + ${test.n[1]} intervals: the smallest p they could give is ${round(test.minP, 3)}, not below alpha ${o.alpha}`
    })
  }
  metric.significant = test.p < o.alpha
  if (!metric.significant) return Object.assign(metric, { verdict: '~', note: `not significant at alpha ${o.alpha}` })
  const up = test.u < test.n[0] * test.n[1] / 2
  if (noise > 0) {
    const moved = mannWhitney(x.map((v) => v * (up ? 1 + noise : 1 - noise)), y)
    const stillBeyond = moved.p < o.alpha && (moved.u < moved.n[0] * moved.n[1] / 2) === up
    if (!stillBeyond) return Object.assign(metric, { verdict: '~', note: `not clearly beyond the ±${round(noise * 100, 2)}% noise threshold` })
  }
  return Object.assign(metric, { verdict: direction(metric, up) })
}

function latencyPercentiles (runs, o, random) {
  const whole = runs.map((side) => mergedHistogram(side))
  const blocks = runs.map((side) => new Blocks(perInterval(side, (s, i) => s.latency && s.latency[i] ? decode(s.latency[i]) : null)))
  const metrics = LATENCY.map(({ key, label, percentile }) => {
    const [a, b] = whole.map((h) => h.totalCount === 0 ? NaN : h.getValueAtPercentile(percentile) / 1000)
    return { key, label, unit: 'ms', higherIsBetter: false, percentile, a, b, change: relativeChange(a, b), test: 'block-bootstrap', n: blocks.map((x) => x.length) }
  })
  const decidable = metrics.filter((m) => !markTooFew(m, whole, blocks))
  if (decidable.length > 0) {
    const intervals = ratioIntervals(blocks[0], blocks[1], decidable.map((m) => m.percentile), {
      resamples: o.resamples, alpha: o.alpha, random
    })
    decidable.forEach((m, i) => intervalVerdict(m, intervals[i], o))
  }
  return metrics
}

// Marks the metric undecidable (and says why) when the runs hold too few
// intervals or responses for its percentile.
function markTooFew (metric, whole, blocks) {
  const undecided = (note) => {
    Object.assign(metric, { significant: false, verdict: 'too few samples', note })
    return true
  }
  if (Math.min(blocks[0].length, blocks[1].length) < MIN_BLOCKS) {
    return undecided(`n = ${blocks[0].length} + ${blocks[1].length} intervals: a bootstrap needs ${MIN_BLOCKS} in each`)
  }
  const needed = Math.round(TAIL_RESPONSES / (1 - metric.percentile / 100))
  const fewest = Math.min(whole[0].totalCount, whole[1].totalCount, blocks[0].total, blocks[1].total)
  if (fewest < needed) return undecided(`p${metric.percentile} needs ${needed} responses in each run, one has ${fewest}`)
  if (metric.percentile < 100) {
    const events = Math.min(blocks[0].blocksAbove(metric.percentile), blocks[1].blocksAbove(metric.percentile))
    if (events < TAIL_BLOCKS) return undecided(`the responses at or above p${metric.percentile} of one run fall in ${events} of its intervals; it needs ${TAIL_BLOCKS}`)
  }
  return false
}

// As criterion: significant when the interval of the change excludes 0;
// a change only when the whole interval is beyond the noise threshold.
function intervalVerdict (metric, { lo, hi }, o) {
  metric.ci = [lo - 1, hi - 1]
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
    return Object.assign(metric, { significant: false, verdict: 'too few samples', note: 'no resample held responses of both runs' })
  }
  metric.significant = lo > 1 || hi < 1
  if (!metric.significant) return Object.assign(metric, { verdict: '~', note: `the ${round((1 - o.alpha) * 100, 2)}% interval includes 0 (no change)` })
  if (lo - 1 > o.noise || hi - 1 < -o.noise) return Object.assign(metric, { verdict: direction(metric, lo > 1) })
  return Object.assign(metric, { verdict: '~', note: `not clearly beyond the ±${round(o.noise * 100, 2)}% noise threshold: the interval reaches inside it` })
}

function direction (metric, increased) {
  return increased === metric.higherIsBetter ? 'better' : 'worse'
}

function mergedHistogram (runs) {
  if (runs.length === 1) return decode(runs[0].histograms.latency)
  const merged = createLatencyHistogram()
  for (const r of runs) merged.add(decode(r.histograms.latency))
  return merged
}

function relativeChange (a, b) {
  if (a === b) return 0
  return a === 0 ? (b > 0 ? Infinity : -Infinity) : b / a - 1
}

function median (values) {
  if (values.length === 0) return NaN
  const sorted = [...values].sort((x, y) => x - y)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

function sum (values) {
  return values.reduce((s, v) => s + v, 0)
}

module.exports = { compare, formatComparison: (cmp) => require('../output/compare-table').formatComparison(cmp), DEFAULTS }
