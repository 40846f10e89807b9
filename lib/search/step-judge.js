'use strict'

// Whether one step of a capacity search passed: its achieved
// rate, its SLOs on corrected latency, its errors, enough requests for its
// percentiles, and whether our own process was the limit. Pure: a result
// in, a verdict with its reasons out.
//
// Lessons it keeps: trafficgen (judge the achieved rate, not the attempted
// one; a wrk2 run at -R 1100 that achieved 1045/s must not pass), MLPerf
// LoadGen (a percentile needs enough samples behind it).

const { parseThreshold } = require('../config/expressions')
const { evaluateThresholds } = require('../results/thresholds')
const { decode, countAbove } = require('../results/histogram')
const { rate, thousands, msBrief, percent } = require('../core/format')
const { trend } = require('./trend')
const { percentileInterval } = require('../stats/quantile-interval')
const { generatorCauses } = require('../results/generator-health')

const JUDGE_DEFAULTS = Object.freeze({
  minTailSamples: 10,
  // A Node process at 90% of its threads' time has no slack left for
  // timers: sends go late, responses are read late.
  maxGeneratorCpu: 0.9,
  // ms. A p99 event-loop delay of 50 ms delays 1% of sends or reads by
  // 50 ms or more: enough to break a typical p99 SLO on its own, and well
  // above the few ms GC pauses cost a healthy run.
  maxLoopDelay: 50,
  // An error is a request that got no response at all; without an errors
  // SLO, more than 1% of them means the server is not sustaining the rate,
  // whatever latency the answered requests saw. 1%, not 0: a long step at
  // a high rate meets a few resets that say nothing about capacity.
  impliedErrors: 'errors<1%',
  // 5xx is the server saying it did not serve the request. A server that
  // sheds load answers 503 in microseconds, so latency SLOs alone would
  // call any rate sustained. Without a non2xx SLO, 5xx responses are
  // bounded like errors. 3xx and 4xx are not: benchmarking a redirect or
  // a 404 page is legitimate.
  implied5xxPercent: 1,
  // A pN bound is judged on pN's confidence interval from the step's own
  // sample (order statistics, quantile-interval.js): a step whose
  // interval holds values on both sides of the bound is chance, not yet a
  // verdict. 99.9%: on a server whose pN sits exactly at its bound, about
  // 1 step in 1,000 looks clear of it by luck, so repeated searches give
  // the same answer; a p99 from 1,100 responses is still bounded above (by
  // the second slowest).
  confidence: 0.999
})

// A chance verdict whose interval spans this factor or more: the
// latency distribution has a step there (a slow few, a fast rest), and
// no step length makes pN settle on one side.
const STEP_RATIO = 3

// Achieved may fall short of the target by this much, or by 2 requests over
// the step (a step boundary can cut a send on either side), whichever is
// larger: sends follow an even plan, so a larger shortfall is the generator
// or the server falling behind (1045 of 1100 is 5% short).
const ACHIEVED_TOLERANCE = 0.01
const ACHIEVED_SLACK_REQUESTS = 2

// A step whose median latency rises interval after interval is a queue
// still building: held longer, the rate breaks its SLO. Judged on 4 or
// more intervals, when the rise is unlikely to be chance (Mann–Kendall,
// one-sided) and large enough to matter: at the step's slope, a step as
// long again would take an upper latency SLO past its limit (without one,
// would double the median).
const TREND_MIN_INTERVALS = 4
const TREND_ALPHA = 0.05
const TREND_MIN_RISE_MS = 1

function parseSlos (slos) {
  return (slos || []).map((s) => typeof s === 'string' ? parseThreshold(s) : s)
}

// What a step is held to: the user's SLOs, errors<1% when none bounds
// errors, and (checked apart, having no term of its own) 5xx<1% when none
// bounds non2xx. The judge and the early verdict (early-verdict.js) both
// hold steps to this.
function heldTo (userSlos) {
  const impliedErrors = userSlos.some((s) => s.metric === 'errors') ? null : parseThreshold(JUDGE_DEFAULTS.impliedErrors)
  return {
    list: impliedErrors ? [...userSlos, impliedErrors] : [...userSlos],
    impliedErrors,
    implied5xx: !userSlos.some((s) => s.metric === 'non2xx')
  }
}

function isUpperBound (slo) {
  return slo.operator === '<' || slo.operator === '<='
}

// Requests a step needs for a pN bound to mean something: at least
// minTailSamples of them above the percentile, i.e. n >= k / (1 - N/100):
// 1,000 for p99, 10,000 for p99.9. With fewer, pN is (close to) the
// maximum, one slow request away from a different verdict. This is a point
// estimate with a tail big enough to be stable (±√10 ≈ ±30% of the tail
// count), not MLPerf's binomial claim that the true p99 is within the
// bound at 99% confidence: that one needs no over-bound request in 459,
// or few in thousands, and reports a lower rate for the same server. The
// confirmation step, at twice the length, is our guard against luck, and
// so is pN's two-sided interval (JUDGE_DEFAULTS.confidence): a step whose
// pN is within chance of its bound is measured again, longer.
function requiredSamples (percentile, minTailSamples = JUDGE_DEFAULTS.minTailSamples) {
  if (!(percentile < 100)) return Infinity
  // Rounded before ceil: 10 / (1 - 0.99) is 1000.0000000000009 in floats.
  return Math.ceil(Number((minTailSamples * 100 / (100 - percentile)).toFixed(6)))
}

// The most samples any SLO of the list needs (0 when none is a percentile).
function samplesNeeded (slos, minTailSamples = JUDGE_DEFAULTS.minTailSamples) {
  let need = 0
  for (const slo of parseSlos(slos)) {
    if (slo.kind === 'latency' && slo.percentile !== undefined && isUpperBound(slo)) {
      need = Math.max(need, requiredSamples(slo.percentile, minTailSamples))
    }
  }
  return need
}

function fmtLimit (slo) {
  if (slo.kind === 'latency') return `${msBrief(slo.limit)} ms`
  if (slo.unit === '%') return `${slo.limit}%`
  if (slo.unit === 'req/s') return `${rate(slo.limit)} req/s`
  return slo.unit ? `${thousands(slo.limit, 3)} ${slo.unit}` : thousands(slo.limit, 3)
}

// "p99 < 200 ms": an SLO as the sentence states it.
function sloText (slo) {
  return `${slo.metric} ${slo.operator} ${fmtLimit(slo)}`
}

// "p99 412 ms": what a check measured, in the SLO's unit.
function measuredText (slo, value) {
  if (slo.kind === 'latency') return `${slo.metric} ${msBrief(value)} ms`
  if (slo.unit === '%') return `${slo.metric} ${String(Number(value.toPrecision(3)))}%`
  if (slo.unit === 'req/s') return `${slo.metric} ${rate(value)} req/s`
  return `${slo.metric} ${thousands(value, 3)}${slo.unit ? ' ' + slo.unit : ''}`
}

function latencyOf (result, key) {
  return result.latency && typeof result.latency[key] === 'number' ? result.latency[key] : null
}

/**
 * Judges one step's result against its target rate and the SLOs.
 *
 * @param {object} result an autocannon result for the step (see lib/results/result.js),
 *   with its `generator: { cpu, loopDelay: { p99 } }` as the run measured it.
 * @param {object} opts
 * @param {number} [opts.target] the step's planned rate (req/s); result.rate.target if absent
 * @param {Array<string|object>} [opts.slos] SLO expressions or parseThreshold() objects
 * @param {number} [opts.minTailSamples=10] requests a pN bound needs above the percentile
 * @param {number} [opts.maxGeneratorCpu=0.9] generator CPU (fraction of its threads) taken as saturated
 * @param {number} [opts.maxLoopDelay=50] generator event-loop delay p99 (ms) taken as saturated
 * @param {{ owed: number, sincePauseMs: number, cause: string|null }|null} [opts.behind] the window
 *   opened behind its plan after a pause of the generator (lib/search/stepped-run.js)
 * @returns {{ verdict: 'pass'|'fail'|'inconclusive'|'generator-bound', reasons: string[],
 *   values: object, checks: object[], needSamples: number }}
 */
function judgeStep (result, opts = {}) {
  const {
    slos = [],
    minTailSamples = JUDGE_DEFAULTS.minTailSamples,
    maxGeneratorCpu = JUDGE_DEFAULTS.maxGeneratorCpu,
    maxLoopDelay = JUDGE_DEFAULTS.maxLoopDelay,
    confidence = JUDGE_DEFAULTS.confidence
  } = opts
  const target = opts.target !== undefined ? opts.target : (result.rate ? result.rate.target : undefined)
  if (!(target > 0)) throw new TypeError('judgeStep needs the step\'s target rate')
  const userSlos = parseSlos(slos)

  const duration = result.duration > 0 ? result.duration : 0
  const responses = result.requests ? result.requests.total || 0 : 0
  const errors = result.errors || 0
  const ended = responses + errors
  const achieved = result.rate && typeof result.rate.achieved === 'number'
    ? result.rate.achieved
    : duration ? responses / duration : 0
  const histogram = result.histograms && result.histograms.latency ? decode(result.histograms.latency) : null
  const samples = result.latency && typeof result.latency.totalCount === 'number'
    ? result.latency.totalCount
    : histogram ? histogram.totalCount : responses
  const values = {
    target,
    achieved,
    p50: latencyOf(result, 'p50'),
    p99: latencyOf(result, 'p99'),
    p999: latencyOf(result, 'p99_9'),
    errors,
    errorRatio: ended ? errors / ended : 0,
    serverErrors: result['5xx'] || 0,
    samples,
    duration
  }

  const checks = []
  const check = (entry) => { checks.push(entry); return entry }

  // An errored request ended too: it is judged by the error bound, not a
  // second time as a shortfall, or a user's `errors<5%` would be overruled
  // by this 1%.
  const endedRate = achieved + (duration ? errors / duration : 0)
  // Held to what the plan made due in the window when the result says
  // (a Poisson plan draws n ± √n for a target of n), else to the target.
  const planned = result.rate && result.rate.planned > 0 && duration ? result.rate.planned / duration : target
  // What the server was offered is what the plan drew, which for Poisson
  // arrivals is chance (±1/√n): a pass is evidence for that rate, not for
  // the target, when the draw fell short of it.
  if (result.rate && result.rate.arrivals === 'poisson' && planned !== target) values.drawn = planned
  const allowed = Math.max(planned * ACHIEVED_TOLERANCE, duration ? ACHIEVED_SLACK_REQUESTS / duration : 0)
  const short = planned - endedRate > allowed
  const achievedText = `achieved ${rate(endedRate)} of ${rate(planned)} req/s${planned === target ? '' : ' planned'}`
  check({
    name: 'achieved',
    kind: 'achieved',
    ok: !short,
    value: endedRate,
    limit: planned,
    measured: achievedText,
    reason: achievedText
  })

  const { list, impliedErrors, implied5xx } = heldTo(userSlos)
  // The thresholds module decodes the histogram itself when given a string;
  // handing it the decoded one saves a second decode.
  const view = histogram ? { ...result, histograms: { ...result.histograms, latency: histogram } } : result
  const evaluated = evaluateThresholds(list, view)
  let needSamples = 0
  // Upper latency SLOs and their values: what a rising latency would break.
  const bounds = []
  let uncertain = null
  list.forEach((slo, i) => {
    const e = evaluated[i]
    if (slo.kind === 'latency' && isUpperBound(slo) && typeof e.value === 'number') bounds.push({ slo, value: e.value })
    const measured = measuredText(slo, e.value)
    const entry = { name: slo.expression, kind: slo.kind, metric: slo.metric, ok: e.ok, value: e.value, limit: slo.limit, measured, implied: slo === impliedErrors }
    entry.reason = e.ok
      ? `${measured} within ${slo.expression}`
      : `${measured} breaks ${sloText(slo)}${entry.implied ? ' (implied: no errors SLO given)' : ''}`
    if (slo.kind === 'latency' && slo.percentile !== undefined && isUpperBound(slo)) {
      const need = requiredSamples(slo.percentile, minTailSamples)
      if (samples < need) {
        // Too few to pass. A fail stands only on evidence of its own:
        // minTailSamples requests beyond the bound.
        const over = histogram ? countAbove(histogram, slo.limit) : 0
        if (e.ok || over < minTailSamples) {
          entry.ok = null
          needSamples = Math.max(needSamples, need)
          entry.reason = `${slo.metric} from ${thousands(samples, 3)} requests: ` +
            `${thousands(need, 3)} needed for ${minTailSamples} above ${slo.metric}`
        }
      }
      if (entry.ok !== null && histogram && histogram.totalCount > 0) {
        entry.interval = intervalOf(histogram, slo, confidence)
        if (straddles(slo, entry.interval)) {
          entry.ok = null
          entry.uncertain = chanceOf(histogram, slo, entry.interval, confidence)
          entry.reason = entry.uncertain.text
          if (uncertain === null) uncertain = entry.uncertain
        }
      }
    }
    check(entry)
  })

  if (implied5xx && responses > 0) {
    const bound = JUDGE_DEFAULTS.implied5xxPercent
    const ratio = values.serverErrors / responses
    const ok = ratio * 100 < bound
    const measured = `5xx ${percent(ratio)}`
    check({
      name: `5xx<${bound}%`,
      kind: 'count',
      metric: '5xx',
      ok,
      value: ratio * 100,
      limit: bound,
      measured,
      implied: true,
      reason: ok ? `${measured} within 5xx < ${bound}%` : `${measured} breaks 5xx < ${bound}% (implied: no non2xx SLO given)`
    })
  }

  const rising = risingCheck(result, bounds, duration)
  if (rising) check(rising)

  const failed = checks.filter((c) => c.ok === false)
  const unsure = checks.filter((c) => c.ok === null)
  let verdict = failed.length ? 'fail' : unsure.length ? 'inconclusive' : 'pass'
  const reasons = (failed.length ? failed : unsure).map((c) => c.reason)

  // A latency or rate miss while our own process is saturated, starved or
  // paused says nothing about the server: the requests were late leaving,
  // or the responses late being read. Errors alone are the server's (or
  // the network's), and so is the step when they fail it too: a late
  // generator does not make a server answer 503 (timeouts it may cause, by
  // reading late).
  const servers = failed.some((c) => c.kind === 'count' && c.metric !== 'timeouts')
  let generator = null
  if (verdict === 'fail' && !servers && failed.some((c) => c.kind === 'latency' || c.kind === 'achieved')) {
    const upper = new Set(list.filter((slo) => slo.kind === 'latency' && isUpperBound(slo)).map((slo) => slo.expression))
    generator = saturation(result, { maxGeneratorCpu, maxLoopDelay }) ||
      ownLateness(result, failed, histogram, { planned, duration, upper }) ||
      openedBehind(opts.behind, failed, upper)
    if (generator !== null) {
      verdict = 'generator-bound'
      reasons.unshift(generator.text)
    }
  }
  return {
    verdict,
    reasons,
    values,
    checks,
    needSamples: verdict === 'inconclusive' ? needSamples : 0,
    // A pN whose interval straddles its bound: to be measured longer, or
    // judged as chance (search.js). Null when every bound was clear.
    uncertain: verdict === 'inconclusive' ? uncertain : null,
    // The step is to be run longer, or to fail if it already was.
    rising: verdict === 'inconclusive' && rising !== null && rising.ok === null,
    // Why a generator-bound step was: { cause, text }, cause 'saturated'
    // (its thread busy at this rate: the same rate would busy it again),
    // 'loop' (its event loop late while the server's service time stayed
    // low), 'starved' or 'own' (its generator health names other processes
    // or its own work); null for any other verdict.
    generator
  }
}

// A window that opened behind its plan, a pause of the generator's thread
// at its warm-up's end not caught up with (stepped-run.js), inherits the
// requests the pause held: they leave at once as it opens, and near the
// server's capacity their queue drains only at its margin, so the window's
// latency is that backlog's. A latency miss of such a window, its rate
// not short of the plan (the server answered all it was asked, and more:
// the backlog too), is the pause's ({ cause, text }). One short of its
// plan as well is the server's: it did not keep up.
function openedBehind (behind, failed, upper) {
  if (!behind) return null
  if (!failed.every((c) => c.kind === 'latency' && upper.has(c.name))) return null
  const cause = behind.cause === 'own' ? 'own' : 'starved'
  const who = cause === 'own' ? 'paused by its own work' : behind.cause === 'starved' ? 'starved' : 'paused'
  return {
    cause,
    text: `generator ${who} before the window: a pause of its thread ended ${msBrief(behind.sincePauseMs)} ms before the window opened, ` +
      `${thousands(behind.owed)} request${behind.owed === 1 ? '' : 's'} of the plan still unsent: the window measured that backlog`
  }
}

// A closed-loop probe is not late against any plan: what can make its
// ceiling the machine's rather than the server's is its thread not running
// (other processes had the CPU) for a share of it: its requests, sent
// again as each answer is read, were that much fewer. This share of the
// probe or more moves the ceiling, and with it the search's first rates,
// by as much.
const PROBE_STARVED_SHARE = 0.1

// → null, or { cause: 'starved', text } when the generator's thread was
// not running for PROBE_STARVED_SHARE of the probe or more.
function judgeProbe (result) {
  const g = result.generator
  const p = g && g.pauses
  const ms = result.duration > 0 ? result.duration * 1000 : 0
  if (!p || !(ms > 0) || p.starved.ms / ms < PROBE_STARVED_SHARE) return null
  return {
    cause: 'starved',
    text: `generator starved: the thread was not running for ${thousands(p.starved.ms, 1)} ms of the ${msBrief(result.duration)} s probe ` +
      `(${percent(p.starved.ms / ms)}), the longest ${msBrief(p.starved.max)} ms: other processes had the CPU`
  }
}

// pN's interval in ms: the values of the order statistics that bound it
// (the histogram holds µs).
function intervalOf (histogram, slo, confidence) {
  const { low, high } = percentileInterval(histogram, slo.percentile, confidence)
  return { low: Math.round(low) / 1000, high: high === Infinity ? null : Math.round(high) / 1000, confidence }
}

function holds (slo, value) {
  return slo.operator === '<' ? value < slo.limit : value <= slo.limit
}

// Values on both sides of the bound: the pN measured is chance.
function straddles (slo, interval) {
  return holds(slo, interval.low) && (interval.high === null || !holds(slo, interval.high))
}

// "2–80", or "49.9–50.1" where the brief form would not tell them apart.
function rangeText (low, high) {
  if (high === null) return `${msBrief(low)}–∞`
  if (msBrief(low) !== msBrief(high)) return `${msBrief(low)}–${msBrief(high)}`
  const digits = (v) => String(Number(v.toPrecision(4)))
  return `${digits(low)}–${digits(high)}`
}

// What a chance verdict says of the step: the share of responses beyond
// the bound and how slow they are, and the interval it leaves pN in.
function chanceOf (histogram, slo, interval, confidence) {
  const n = histogram.totalCount
  const above = countAbove(histogram, slo.limit)
  const at = (rank) => Math.round(histogram.getValueAtPercentile(Math.max(1, rank) / n * 100)) / 1000
  // The median of the responses beyond the bound, and the slowest below it.
  const slowMs = above > 0 ? at(n - Math.floor((above - 1) / 2)) : null
  const restMs = above < n ? at(n - above) : null
  const step = above > 0 && (interval.high === null || interval.high >= STEP_RATIO * Math.max(interval.low, 0.001))
  const level = `${+(confidence * 100).toPrecision(3)}% confidence`
  const range = `${slo.metric} ${rangeText(interval.low, interval.high)} ms at ${level} over ${thousands(n, 3)} requests`
  const text = step
    ? `${slo.metric} sits on a step of the latency distribution: ${percent(above / n)} of responses take ~${msBrief(slowMs)} ms` +
      `${restMs !== null ? `, the rest ${msBrief(restMs)} ms or less` : ''}, so whether ${sloText(slo)} holds is chance (${range})`
    : `${slo.metric} is within chance of ${msBrief(slo.limit)} ms (${range})`
  return {
    expression: slo.expression,
    metric: slo.metric,
    limit: slo.limit,
    low: interval.low,
    high: interval.high,
    confidence,
    samples: n,
    aboveShare: above / n,
    slowMs,
    restMs,
    step,
    text
  }
}

// The trend check, or null when there is too little to judge (fewer than
// TREND_MIN_INTERVALS intervals with responses). ok: true, or null (not
// yet a pass: rising).
function risingCheck (result, bounds, duration) {
  const series = result.series
  if (!series || !Array.isArray(series.latencyP50) || !(duration > 0)) return null
  const t = trend(series.latencyP50)
  if (t.n < TREND_MIN_INTERVALS) return null
  const intervalS = (series.interval || 1000) / 1000
  const perSecond = t.slope / intervalS
  // Where the step's latency would be after as long again at this pace.
  const ahead = perSecond * duration
  const breaks = bounds.find(({ slo, value }) => value + ahead > slo.limit)
  const p50 = latencyOf(result, 'p50') || 0
  const material = ahead >= TREND_MIN_RISE_MS && (bounds.length ? breaks !== undefined : ahead > p50)
  const isRising = t.p < TREND_ALPHA && material
  const measured = `p50 ${perSecond >= 0 ? '+' : ''}${msBrief(perSecond)} ms/s over ${t.n} intervals`
  return {
    name: 'trend',
    kind: 'trend',
    ok: isRising ? null : true,
    value: perSecond,
    p: t.p,
    measured,
    reason: isRising
      ? `p50 rising ${msBrief(perSecond)} ms/s over the step (a queue still building): ` +
        (breaks ? `${duration} s more would take ${breaks.slo.metric} past ${msBrief(breaks.slo.limit)} ms` : `${duration} s more would double it`)
      : `${measured}: no queue building`
  }
}

// Why the generator counts as saturated ({ cause, text }), or null. CPU
// near all of its threads' time is saturation by itself. A late event loop
// is saturation when the server's own service time (uncorrected latency:
// from the actual send) is less than half the corrected latency: most of
// the time was spent before requests left us. An overloaded server queues
// requests after they are sent, which raises both.
function saturation (result, { maxGeneratorCpu, maxLoopDelay }) {
  const g = result.generator
  if (!g) return null
  if (typeof g.cpu === 'number' && g.cpu >= maxGeneratorCpu) {
    return { cause: 'saturated', text: `generator saturated: CPU ${percent(g.cpu)} of its threads` }
  }
  const loopDelayP99 = g.loopDelay ? g.loopDelay.p99 : null
  if (typeof loopDelayP99 === 'number' && loopDelayP99 > maxLoopDelay) {
    const service = result.latencyUncorrected ? result.latencyUncorrected.p50 : null
    const corrected = latencyOf(result, 'p50')
    if (service === null || corrected === null) {
      return { cause: 'loop', text: `generator saturated: event-loop delay p99 ${msBrief(loopDelayP99)} ms` }
    }
    if (service < corrected / 2) {
      return {
        cause: 'loop',
        text: `generator saturated: event-loop delay p99 ${msBrief(loopDelayP99)} ms ` +
          `while service time p50 is ${msBrief(service)} ms of ${msBrief(corrected)} ms`
      }
    }
  }
  return null
}

// The generator's own lateness as its health names it (starvation or its
// own work: lib/results/generator-health.js), when its pauses can account
// for every check the step failed ({ cause, text }), or null. A health that
// names them for a few requests must not excuse a server that failed on
// its own: a pause can add to a response's latency at most its length
// twice (one holding the send, one the read), can push past a bound at
// most the responses due while it lasted and one in flight per connection
// at its start, and can leave unsent at most the requests due while it
// lasted.
function ownLateness (result, failed, histogram, { planned, duration, upper }) {
  const causes = generatorCauses(result)
  if (!causes.length) return null
  const g = result.generator
  const longest = g.loopDelay && typeof g.loopDelay.max === 'number' ? g.loopDelay.max : 0
  const p = g.pauses || { own: { count: 0, ms: 0 }, starved: { count: 0, ms: 0 } }
  const pausedMs = p.own.ms + p.starved.ms
  const heldAtMost = planned * pausedMs / 1000 + (p.own.count + p.starved.count) * (result.connections || 1)
  for (const c of failed) {
    if (c.kind === 'latency') {
      // A lower bound missed is latency too low: no pause makes it so.
      if (!upper.has(c.name)) return null
      if (!(typeof c.value === 'number' && c.value - 2 * longest <= c.limit)) return null
      if (c.metric !== 'max' && /^p\d/.test(c.metric) && histogram !== null && countAbove(histogram, c.limit) > heldAtMost) return null
    } else if (c.kind === 'achieved') {
      const missing = (c.limit - c.value) * duration
      if (missing > planned * pausedMs / 1000 + ACHIEVED_SLACK_REQUESTS) return null
    } else if (!(c.kind === 'count' && c.metric === 'timeouts')) {
      return null
    }
  }
  const [first] = causes
  const head = first.cause === 'starved' ? 'generator starved' : 'generator paused by its own work'
  const loop = g.loopDelay ? `event-loop delay p99 ${msBrief(g.loopDelay.p99)} ms, max ${msBrief(longest)} ms` : null
  return { cause: first.cause, text: `${head}${loop ? ` (${loop})` : ''}: ${causes.map((c) => c.text).join('; ')}` }
}

module.exports = {
  judgeStep,
  judgeProbe,
  PROBE_STARVED_SHARE,
  heldTo,
  requiredSamples,
  samplesNeeded,
  parseSlos,
  sloText,
  measuredText,
  JUDGE_DEFAULTS
}
