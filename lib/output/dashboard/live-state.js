'use strict'

// What the dashboard knows of the run so far, and the events it sends:
// the per-interval samples (kept for the run's length, so that a page
// opened late gets the history), the search's steps, the warnings, and
// at the end the report. The charts are the HTML report's own
// (lib/output/html/charts.js and search-charts.js), made from the samples
// as the report makes them from a result: 'state' is every chart whole,
// 'sample' the row each time chart gains and the percentile chart whole
// (it is of the whole run so far).

const { charts } = require('../html/charts')
const { searchCharts } = require('../html/search-charts')
const { stepTable } = require('../html/search-tables')
const { createLatencyHistogram, addEncoded } = require('../../results/histogram')
const { maskSecrets } = require('../../core/redact')

// A search's own display name, as the report names a run.
const NAME = 'run'
// The latency by percentile is sent at most this often.
const PERCENTILES_MS = 1000
const NO_LATENCY = createLatencyHistogram()

function decoded (encoded) {
  const h = createLatencyHistogram()
  addEncoded(h, encoded)
  return h
}

// `rated`: the run's latency is corrected for its plan, and its samples
// carry the service time too (uncorrectedP50, uncorrectedP99).
function emptySeries (interval, rated) {
  const series = { interval, time: [], requests: [], bytes: [], errors: [], latencyP50: [], latencyP99: [], loopDelayMax: [], connections: [], latency: [], ttfbMean: [], transferMean: [], timed: [] }
  if (rated) {
    series.uncorrectedP50 = []
    series.uncorrectedP99 = []
  }
  return series
}

function orNull (v) {
  return v === undefined ? null : v
}

function meanMs (sumUs, count) {
  return count === 0 ? 0 : Math.round(sumUs / count) / 1000
}

function push (series, s) {
  series.time.push(s.time)
  series.requests.push(s.requests)
  series.bytes.push(s.bytes)
  series.errors.push(s.errors)
  series.latencyP50.push(s.latencyP50)
  series.latencyP99.push(s.latencyP99)
  series.loopDelayMax.push(s.loopDelayMax)
  series.connections.push(s.connections)
  series.latency.push(s.latency)
  series.ttfbMean.push(meanMs(s.ttfbSum, s.timed))
  series.transferMean.push(meanMs(s.transferSum, s.timed))
  series.timed.push(s.timed)
  if (series.uncorrectedP50) {
    series.uncorrectedP50.push(orNull(s.uncorrectedP50))
    series.uncorrectedP99.push(orNull(s.uncorrectedP99))
  }
}

// The stage in force `elapsed` s into a staged run: "stage 2 of 3: to
// 500 req/s".
function stageAt (stages, field, elapsed) {
  if (!stages) return null
  let end = 0
  for (let i = 0; i < stages.length; i++) {
    end += stages[i].duration
    if (elapsed < end || i === stages.length - 1) {
      const unit = field === 'rate' ? ' req/s' : ' connections'
      return { index: i, count: stages.length, text: `stage ${i + 1} of ${stages.length}: to ${stages[i][field]}${unit}` }
    }
  }
  return null
}

function urlText (url) {
  return maskSecrets(Array.isArray(url) ? url.join(', ') : String(url === undefined ? '' : url))
}

class LiveState {
  // config: the run's (or, for a search, its runs') frozen config.
  constructor (config, { kind = 'run', slos } = {}) {
    this.config = config
    this.kind = kind
    // Under a rate (and not -C), latency is corrected for the plan and the
    // service time is measured beside it: both are drawn, as the report
    // draws them.
    this.rated = !!(config.overallRate || config.connectionRate || config.stages) && !config.ignoreCoordinatedOmission
    this.slos = slos
    this.meta = {
      kind,
      title: config.title === undefined ? null : maskSecrets(String(config.title)),
      url: urlText(config.url),
      duration: kind === 'run' && !config.amount && !config.forever ? config.duration : null,
      amount: config.amount || null,
      sampleInt: config.sampleInt,
      rate: config.overallRate || null
    }
    this.warnings = []
    this.searches = []
    this.current = null
    this.final = null
    // The round under way (-f: 1, 2…; 1 for any other run).
    this.round = 1
    this.reset()
  }

  // A new run (a round of -f, a search's next run): its samples only.
  reset () {
    this.series = emptySeries(this.config.sampleInt, this.rated)
    this.start = null
    this.latency = createLatencyHistogram()
    this.latencyUncorrected = this.rated ? createLatencyHistogram() : null
    this.numbers = null
    this.last = null
    this.percentilesAt = -Infinity
  }

  // A pseudo-result of the samples `series`, as charts.js reads one.
  result (series, latency = this.latency, latencyUncorrected = this.latencyUncorrected) {
    return {
      start: this.start,
      rate: this.config.overallRate || this.config.stages ? { target: this.config.overallRate } : undefined,
      latencyUncorrected: this.rated ? true : undefined,
      connectionStages: this.config.connectionStages,
      series,
      histograms: { latency, latencyUncorrected: this.rated ? latencyUncorrected : null }
    }
  }

  // The report's charts of `series`; without `percentiles`, not the
  // latency by percentile (left out of the rows).
  drawn (series, percentiles = true) {
    if (this.kind !== 'run') return []
    // An empty histogram walks no percentile.
    const result = percentiles ? this.result(series) : this.result(series, NO_LATENCY, NO_LATENCY)
    const drawn = charts([{ name: NAME, result }])
    return percentiles ? drawn : drawn.filter((chart) => chart.kind !== 'percentiles')
  }

  // One sample, kept (once per interval, on the dashboard's thread);
  // sampleEvent() makes what a page is sent of it, only when a page is
  // there to take it.
  sample (s) {
    if (this.start === null) this.start = s.time - s.elapsed * 1000
    push(this.series, s)
    addEncoded(this.latency, s.latency)
    if (this.latencyUncorrected !== null && s.latencyUncorrected !== undefined) addEncoded(this.latencyUncorrected, s.latencyUncorrected)
    const perSecond = 1000 / (s.interval || this.config.sampleInt)
    const elapsed = Math.round((s.time - this.start) / 10) / 100
    this.numbers = {
      elapsed,
      responsesPerSecond: Math.round(s.requests * perSecond * 100) / 100,
      p50: s.latencyP50,
      p99: s.latencyP99,
      uncorrectedP50: orNull(s.uncorrectedP50),
      uncorrectedP99: orNull(s.uncorrectedP99),
      responses: s.totals.responses,
      sent: s.totals.sent,
      errors: s.totals.errors,
      timeouts: s.totals.timeouts,
      late: s.totals.late,
      statusCodes: s.totals.statusCodes,
      connections: s.connections,
      stage: stageAt(this.config.stages, 'rate', elapsed) || stageAt(this.config.connectionStages, 'connections', elapsed)
    }
    this.last = s
  }

  // The 'sample' event of the last sample: the row each time chart gains,
  // and the percentile chart whole, at most once a second (a walk over
  // the run's whole histogram).
  sampleEvent () {
    const one = emptySeries(this.series.interval, this.rated)
    push(one, this.last)
    const rows = {}
    const percentiles = this.last.time - this.percentilesAt >= PERCENTILES_MS
    if (percentiles) this.percentilesAt = this.last.time
    for (const chart of this.drawn(one, percentiles)) rows[chart.id] = chart.kind === 'percentiles' ? { whole: chart.data } : { row: chart.data.map((column) => column[0]) }
    return { numbers: this.numbers, rows }
  }

  // At the end of a run, the percentile chart whole, of the result's own
  // histograms (encoded) when it has them: the samples leave out what a
  // run records after its last one (a tail too short to be a sample), and
  // the chart is drawn at most once a second. The page's last picture is
  // then the report's. Null for a search, or a round without a sample.
  endEvent (latency, latencyUncorrected) {
    if (this.last === null) return null
    if (latency) {
      this.latency = decoded(latency)
      if (this.rated && latencyUncorrected) this.latencyUncorrected = decoded(latencyUncorrected)
    }
    const one = emptySeries(this.series.interval, this.rated)
    push(one, this.last)
    const rows = {}
    for (const chart of this.drawn(one)) if (chart.kind === 'percentiles') rows[chart.id] = { whole: chart.data }
    return Object.keys(rows).length ? { rows } : null
  }

  warning (line) {
    const text = maskSecrets(String(line))
    this.warnings.push(text)
    return { text }
  }

  // --- a search ---

  probe ({ connections, ceiling }) {
    this.searches.push({ connections, ceiling, steps: [] })
    this.current = null
    return this.searchData()
  }

  stepStart (step) {
    this.current = { ...step, elapsed: 0, responses: 0, errors: 0, verdict: null }
    return this.searchData()
  }

  stepProgress (progress) {
    if (this.current !== null) Object.assign(this.current, progress)
    return this.searchData()
  }

  step (entry) {
    const search = this.searches[this.searches.length - 1]
    if (search) search.steps.push(entry)
    this.current = null
    return this.searchData()
  }

  // The search so far: the step under way, each connection count's step
  // chart and table, as the report draws them.
  searchData () {
    const searches = this.searches.filter((s) => s.steps.length > 0)
    const drawn = searches.length ? searchCharts([{ name: NAME, search: { slos: this.slos, searches } }]).slice(1) : []
    return {
      current: this.current,
      probes: this.searches.map(({ connections, ceiling }) => ({ connections, ceiling })),
      parts: searches.map((s, k) => ({
        connections: s.connections,
        chart: drawn[k],
        table: stepTable(s, k, `Steps at ${s.connections} connection${s.connections === 1 ? '' : 's'}`)
      }))
    }
  }

  // --- the end ---

  done (html) {
    this.final = { html }
    return this.final
  }

  // Everything, for a page opened now (or one that fell behind).
  state () {
    return {
      meta: this.meta,
      numbers: this.numbers,
      round: this.round,
      charts: this.start === null ? [] : this.drawn(this.series),
      search: this.kind === 'search' ? this.searchData() : null,
      warnings: this.warnings,
      final: this.final
    }
  }
}

module.exports = { LiveState, stageAt }
