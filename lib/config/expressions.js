'use strict'

// The grammar of thresholds (--threshold) and of a capacity search's SLOs
// (--slo), in the style of k6's thresholds: `p99 < 200ms`, `errors < 1%`,
// `rps > 5000`. Parsed here, so that the config refuses a malformed one
// before the run; lib/results/thresholds.js holds a result to them.
//
//   term     := latency | count | rate | generator
//   latency  := p<N> | p(<N>) | avg | mean | min | max | stddev   (ms, us, µs or s; ms if none)
//   count    := errors | non2xx | timeouts                          (a number, or N% of requests)
//   rate     := rps (req/s) | throughput (bytes/s: B, kB, MB, GB, KiB, MiB, GiB)
//   generator := generator.late (a number, or N% of requests sent)
//              | generator.lateOwn|lateStarved|lateNoConnection (the same, by cause)
//              | generator.pauses.own.max|pauses.starved.max (ms, us, µs or s)
//              | generator.loopDelay.p50|p99|max (ms, us, µs or s)
//              | generator.cpu (a fraction, or N%)
//   timing   := timings.<phase>.<latency term>  (ms, us, µs or s), phase one of
//               dns, connect, proxyConnect, tls, ttfb, transfer
//   operator := < | <= | > | >= | == | !=

const LATENCY_UNITS = { ms: 1, us: 0.001, µs: 0.001, s: 1000 }
const BYTE_UNITS = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 }
const STAT_KEYS = { avg: 'average', mean: 'average', min: 'min', max: 'max', stddev: 'stddev' }
const COUNTS = ['errors', 'non2xx', 'timeouts']

const GRAMMAR = /^\s*([a-z0-9_.()]+)\s*(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?)\s*([a-z\u00b5%]*(?:\/s)?)\s*$/i

const HINT = 'e.g. "p99 < 200ms", "errors < 1%", "rps > 5000" (terms: pN, avg, min, max, stddev, errors, non2xx, timeouts, rps, throughput, generator.late, generator.loopDelay.p99, generator.cpu, timings.ttfb.p99)'
const LOOP_DELAY_STATS = ['p50', 'p99', 'max']
// The late requests, all or by cause (lower case as written → the field).
const LATE_TERMS = {}
for (const field of ['late', 'lateOwn', 'lateStarved', 'lateNoConnection']) LATE_TERMS[`generator.${field.toLowerCase()}`] = `generator.${field}`

class ThresholdSyntaxError extends Error {
  constructor (expression, why) {
    super(`${JSON.stringify(String(expression))}: ${why}; ${HINT}`)
    this.expression = expression
    this.why = `${why}; ${HINT}`
  }
}

// One expression → { expression, metric, operator, limit, unit, kind, percentile? }.
// `limit` is in the metric's own unit: ms, a count, a percentage, req/s, bytes/s.
function parseThreshold (expression) {
  if (typeof expression !== 'string') throw new ThresholdSyntaxError(expression, 'not a string')
  const m = GRAMMAR.exec(expression)
  if (!m) throw new ThresholdSyntaxError(expression, 'not of the form <term> <operator> <value>')
  const [, term, operator, number, rawUnit] = m
  const name = term.toLowerCase().replace(/^latency\./, '')
  const value = Number(number)
  const unit = rawUnit.replace(/\/s$/i, '')
  const base = { expression: expression.trim(), operator }

  if (name.startsWith('generator.')) return parseGenerator(expression, name, value, unit, rawUnit, base)
  if (name.startsWith('timings.')) return parseTiming(expression, name, value, unit, rawUnit, base)
  const percentile = /^p(?:\((\d+(?:\.\d+)?)\)|(\d+(?:[._]\d+)?))$/.exec(name)
  if (percentile || STAT_KEYS[name]) {
    const scale = unit === '' ? 1 : LATENCY_UNITS[unit.toLowerCase() === 'µs' ? 'µs' : unit.toLowerCase()]
    if (scale === undefined) throw new ThresholdSyntaxError(expression, `"${rawUnit}" is not a latency unit (ms, us, s)`)
    const out = { ...base, kind: 'latency', limit: value * scale, unit: 'ms' }
    if (percentile) {
      const p = Number((percentile[1] || percentile[2]).replace('_', '.'))
      if (!(p > 0 && p <= 100)) throw new ThresholdSyntaxError(expression, `p${p} is not a percentile between 0 and 100`)
      return { ...out, metric: `p${p}`, percentile: p }
    }
    return { ...out, metric: name === 'mean' ? 'avg' : name }
  }
  if (COUNTS.includes(name)) {
    if (unit !== '' && unit !== '%') throw new ThresholdSyntaxError(expression, `${name} is a count or a percentage, not "${rawUnit}"`)
    return { ...base, kind: 'count', metric: name, limit: value, unit: unit === '%' ? '%' : '' }
  }
  if (name === 'rps') {
    if (unit !== '' && unit.toLowerCase() !== 'req') throw new ThresholdSyntaxError(expression, `rps is in requests per second, not "${rawUnit}"`)
    return { ...base, kind: 'rate', metric: 'rps', limit: value, unit: 'req/s' }
  }
  if (name === 'throughput') {
    const scale = unit === '' ? 1 : BYTE_UNITS[unit.toLowerCase()]
    if (scale === undefined) throw new ThresholdSyntaxError(expression, `"${rawUnit}" is not a byte unit (B, kB, MB, GB, KiB, MiB, GiB)`)
    return { ...base, kind: 'rate', metric: 'throughput', limit: value * scale, unit: 'B/s' }
  }
  throw new ThresholdSyntaxError(expression, `unknown term "${term}"`)
}

// The generator's own health (result.generator): held like any other
// term, so that a CI job can refuse a run whose generator was the limit.
function parseGenerator (expression, name, value, unit, rawUnit, base) {
  const late = LATE_TERMS[name]
  if (late) {
    if (unit !== '' && unit !== '%') throw new ThresholdSyntaxError(expression, `${late} is a count or a percentage, not "${rawUnit}"`)
    return { ...base, kind: 'generator', metric: late, field: late.slice('generator.'.length), limit: value, unit: unit === '%' ? '%' : '' }
  }
  if (name === 'generator.cpu') {
    if (unit !== '' && unit !== '%') throw new ThresholdSyntaxError(expression, `generator.cpu is a fraction or a percentage, not "${rawUnit}"`)
    return { ...base, kind: 'generator', metric: 'generator.cpu', limit: unit === '%' ? value / 100 : value, unit: '' }
  }
  const stat = /^generator\.loopdelay\.(\w+)$/.exec(name)
  const pause = /^generator\.pauses\.(own|starved)\.max$/.exec(name)
  if ((stat && LOOP_DELAY_STATS.includes(stat[1])) || pause) {
    const scale = unit === '' ? 1 : LATENCY_UNITS[unit.toLowerCase() === 'µs' ? 'µs' : unit.toLowerCase()]
    if (scale === undefined) throw new ThresholdSyntaxError(expression, `"${rawUnit}" is not a latency unit (ms, us, s)`)
    if (pause) return { ...base, kind: 'generator', metric: `generator.pauses.${pause[1]}.max`, pause: pause[1], limit: value * scale, unit: 'ms' }
    return { ...base, kind: 'generator', metric: `generator.loopDelay.${stat[1]}`, stat: stat[1], limit: value * scale, unit: 'ms' }
  }
  throw new ThresholdSyntaxError(expression, `unknown term "${name}" (generator terms: generator.late, .lateOwn, .lateStarved, .lateNoConnection, generator.loopDelay.p50, .p99, .max, generator.pauses.own.max, .starved.max, generator.cpu)`)
}

// A phase of result.timings, held as latency is: `timings.ttfb.p99 < 20ms`.
const PHASES = { dns: 'dns', connect: 'connect', proxyconnect: 'proxyConnect', tls: 'tls', ttfb: 'ttfb', transfer: 'transfer' }

function parseTiming (expression, name, value, unit, rawUnit, base) {
  const m = /^timings\.([a-z]+)\.(.+)$/.exec(name)
  const phase = m && PHASES[m[1]]
  if (!phase) throw new ThresholdSyntaxError(expression, `unknown term "${name}" (timing terms: timings.<phase>.<pN|avg|min|max|stddev>, phase one of ${Object.values(PHASES).join(', ')})`)
  const stat = parseThreshold(`${m[2]} ${base.operator} ${value}${rawUnit}`)
  if (stat.kind !== 'latency') throw new ThresholdSyntaxError(expression, `"${m[2]}" is not a statistic of a phase's times (pN, avg, min, max, stddev)`)
  return { ...stat, ...base, kind: 'timing', phase, metric: `timings.${phase}.${stat.metric}` }
}

module.exports = { parseThreshold, STAT_KEYS }
