'use strict'

// The results of one run's shards (--shard), as -j or --out saved
// them, merged into the result of the whole run. Each saved result is
// turned back into the raw form that workers hand over, and the same
// aggregateResult merges them: latency histograms added bucket by bucket,
// per-second samples summed per wall-clock second, counts summed.
//
// Req/Sec and Bytes/Sec are computed over those per-second sums, never by
// adding the shards' own Req/Sec histograms (histograms.requests). A
// shard's histogram counts that shard's seconds: four shards doing 1000
// req/s each add up to a histogram of four seconds at 1000, whose mean is
// 1000 req/s, where the service took 4000 in each of those seconds. Only
// the sum of each second across shards describes the service's rate (and
// its worst second, where one shard's dip may fall in another's peak).

const { aggregateResult } = require('../results/result')
const { raise } = require('../core/errors')
const { warning } = require('../core/warnings')
const { protocolNameOfResult } = require('../protocols/registry')

function time (value) {
  return value instanceof Date ? value.getTime() : new Date(value).getTime()
}

// The late requests by cause and the pauses split by cause, back in the
// snapshot's form (µs), from a result that has them.
function generatorOf (g) {
  if (!g) return {}
  const us = (p) => ({ count: p.count, us: Math.round(p.ms * 1000), maxUs: Math.round(p.max * 1000) })
  return {
    lateNoConnection: g.lateNoConnection || 0,
    lateOwn: g.lateOwn || 0,
    lateStarved: g.lateStarved || 0,
    pauses: g.pauses ? { own: us(g.pauses.own), starved: us(g.pauses.starved) } : null
  }
}

// A saved result → what recorder.snapshot() gives, histograms encoded.
function rawOf (result) {
  const s = result.series
  // Phase times travel as interval means and counts: back to sums (µs).
  const sum = (means, i) => means && s.timed ? Math.round(means[i] * 1000 * s.timed[i]) : 0
  const series = s.time.map((end, i) => [end, s.requests[i], s.bytes[i], s.errors ? s.errors[i] : 0, s.latency && s.latency[i] ? s.latency[i] : null,
    0, 0, s.loopDelayMax ? Math.round(s.loopDelayMax[i] * 1000) : 0, s.connections ? s.connections[i] : 0,
    sum(s.ttfbMean, i), sum(s.transferMean, i), s.timed ? s.timed[i] : 0])
  const h = result.histograms
  const rate = result.rate || {}
  return {
    latencies: h.latency,
    latenciesUncorrected: h.latencyUncorrected || undefined,
    lateness: h.lateness || undefined,
    loopDelay: h.loopDelay || undefined,
    timings: h.timings || undefined,
    busy: result.generator ? result.generator.cpu : 0,
    series,
    totalCompletedRequests: result.requests.total,
    totalRequests: result.requests.sent !== undefined ? result.requests.sent : result.requests.total + (result.errors || 0),
    totalBytes: result.throughput ? result.throughput.total : 0,
    inFlight: result.requests.inFlight || 0,
    samples: series.length,
    errors: result.errors || 0,
    timeouts: result.timeouts || 0,
    errorsByCause: result.errorsByCause || {},
    errorCodes: result.errorCodes || {},
    mismatches: result.mismatches || 0,
    non2xx: result.non2xx || 0,
    resets: result.resets || 0,
    resent: result.resent || 0,
    unexpectedResponses: result.unexpectedResponses || 0,
    targetRate: rate.target || 0,
    planned: rate.planned || 0,
    late: rate.late || 0,
    ...generatorOf(result.generator),
    '1xx': result['1xx'] || 0,
    '2xx': result['2xx'] || 0,
    '3xx': result['3xx'] || 0,
    '4xx': result['4xx'] || 0,
    '5xx': result['5xx'] || 0,
    statusCodeStats: result.statusCodeStats || {},
    duration: result.duration,
    start: time(result.start),
    finish: time(result.finish)
  }
}

// How the lines name a result: its shard index, or its place in the list.
function label (result) {
  return result.shard ? `shard ${result.shard.index}` : `result ${result[PLACE] + 1}`
}

function causes (result) {
  const byCause = Object.entries(result.errorsByCause || {}).filter(([, n]) => n > 0)
  return byCause.length ? `: ${byCause.map(([cause, n]) => `${n} ${cause}`).join(', ')}` : ''
}

const PLACE = Symbol('place')

// What must be the same in every result of one run, each as its flag
// names it: the target(s), the protocol, the shard count, the start time,
// and the options that divide the load (config/shard.js's runOf, recorded
// by each shard; a result saved without them is held to the rest).
const RUN = [
  ['url', 'the target', (r) => r.url],
  ['protocol', 'the protocol', protocolNameOfResult],
  ['shards', 'the shard count', (r) => r.shard ? r.shard.count : undefined],
  ['startAt', '--startAt', (r) => r.shard ? (r.startAt ? new Date(r.startAt).toISOString() : 'none') : undefined],
  ['connections', '-c', (r) => run(r, 'connections')],
  ['amount', '-a', (r) => run(r, 'amount')],
  ['maxOverallRequests', '-O', (r) => run(r, 'maxOverallRequests')],
  ['overallRate', '-R', (r) => run(r, 'overallRate')],
  ['connectionRate', '-r', (r) => run(r, 'connectionRate')],
  ['duration', '-d', (r) => run(r, 'duration')],
  ['stages', '--stages', (r) => run(r, 'stages')],
  ['connectionStages', '--connectionStages', (r) => run(r, 'connectionStages')]
]

function run (result, key) {
  return result.shard && result.shard.run ? result.shard.run[key] : undefined
}

// Plain results (no --shard) record no run of their own: results of one
// run (the same command on several machines at once) have the same
// target, protocol and load per machine, and ran at the same time.
const PLAIN_RUN = [
  RUN[0],
  RUN[1],
  ['connections', '-c', (r) => r.connections],
  ['pipelining', '-p', (r) => r.pipelining],
  ['overallRate', '-R', (r) => r.rate ? r.rate.target : null]
]

function iso (value) {
  return new Date(time(value)).toISOString()
}

// Plain results with no moment in common: each one's span, or null when
// they overlap.
function apart (kept) {
  const starts = kept.map((r) => time(r.start))
  const finishes = kept.map((r) => time(r.finish))
  if (Math.max(...starts) < Math.min(...finishes)) return null
  return {
    option: 'time',
    flag: 'the time they ran',
    values: kept.map((r) => ({ value: `${iso(r.start)} to ${iso(r.finish)}`, results: [label(r)] }))
  }
}

function shown (value) {
  if (Array.isArray(value) && value.every((v) => v && typeof v === 'object')) {
    return value.map((stage) => Object.values(stage).join(':')).join(',')
  }
  return Array.isArray(value) ? value.join(' ') : value === null || value === 0 ? 'none' : String(value)
}

// Where the results disagree on what makes one run: [{ option, flag,
// values: [{ value, results: [labels] }] }]. A result that does not say
// (a plain result's shard count, an older shard's options) is not held
// to it.
function differences (kept) {
  const found = []
  const plain = kept.every((r) => !r.shard)
  for (const [option, flag, read] of plain ? PLAIN_RUN : RUN) {
    const groups = new Map()
    for (const r of kept) {
      const value = read(r)
      if (value === undefined) continue
      const key = JSON.stringify(value)
      if (!groups.has(key)) groups.set(key, { value, results: [] })
      groups.get(key).results.push(label(r))
    }
    if (groups.size > 1) found.push({ option, flag, values: [...groups.values()] })
  }
  const time = plain && kept.length > 1 ? apart(kept) : null
  if (time !== null) found.push(time)
  return found
}

function listed (labels) {
  const few = labels.length > 4 ? [...labels.slice(0, 3), `${labels.length - 3} more`] : labels
  return few.join(', ')
}

function differenceText ({ flag, values }) {
  return `${flag} ${values.map(({ value, results }) => `${shown(value)} (${listed(results)})`).join(' vs ')}`
}

// The seconds a result did not cover of the merged span: one that began
// late or ended early has its gap in the series, filled by the others'
// load alone (or by nothing).
function short (kept, sampleInt) {
  const spans = kept.map((r) => ({ r, first: r.series.time[0], last: r.series.time[r.series.time.length - 1] }))
    .filter((s) => s.first !== undefined)
  if (spans.length < 2) return []
  const first = Math.min(...spans.map((s) => s.first))
  const last = Math.max(...spans.map((s) => s.last))
  const lines = []
  for (const { r, first: a, last: b } of spans) {
    const late = Math.round((a - first) / sampleInt)
    const early = Math.round((last - b) / sampleInt)
    if (late < 1 && early < 1) continue
    const what = [late >= 1 ? `began ${late * sampleInt / 1000} s after the first` : '', early >= 1 ? `ended ${early * sampleInt / 1000} s before the last` : ''].filter(Boolean).join(' and ')
    lines.push(warning('AC_SHARD_GAP', `${label(r)} ${what}: the series has those seconds without its load${r.shard && !r.startAt ? ' (give every shard one --startAt)' : ''}`))
  }
  return lines
}

function same (values) {
  return values.every((v) => v === values[0])
}

// Which results to merge, and what is missing or doubled. A shard index
// seen twice is a restarted shard or a file given twice: the first is kept
// (merging both would count its load twice).
function account (results, expect) {
  const warnings = []
  const kept = []
  const seen = new Map()
  const duplicates = []
  for (const result of results) {
    const shard = result.shard
    if (!shard) {
      kept.push(result)
      continue
    }
    if (seen.has(shard.index)) {
      duplicates.push(shard.index)
      warnings.push(warning('AC_SHARD_DUPLICATE', `shard ${shard.index} has more than one result (a restarted shard, or a file given twice): only the first is merged`))
      continue
    }
    seen.set(shard.index, result)
    kept.push(result)
  }
  const sharded = kept.filter((r) => r.shard)
  const counts = [...new Set(sharded.map((r) => r.shard.count))]
  const expected = expect !== undefined ? expect : counts.length > 0 ? Math.max(...counts) : kept.length
  const missing = []
  if (sharded.length > 0) {
    for (let i = 0; i < expected; i++) if (!seen.has(i)) missing.push(i)
    for (const i of missing) {
      warnings.push(warning('AC_SHARD_MISSING', `shard ${i} of ${expected} is missing (no result with index ${i}): the merged numbers lack its load`))
    }
  } else if (kept.length < expected) {
    warnings.push(warning('AC_SHARD_MISSING', `${expected - kept.length} of the ${expected} expected results are missing`))
  }
  // A shard that measured nothing: its load is missing from the sums as
  // surely as a missing shard's, however many it sent.
  for (const r of kept.filter((r) => r.requests.total === 0)) {
    const errors = r.errors ? `${r.errors} errors${causes(r)}` : 'no errors either'
    warnings.push(warning('AC_SHARD_EMPTY', `${label(r)} had no responses (${errors}): the merged numbers lack its load`))
  }
  // A shard stopped by a signal (its pod deleted) still counts what it
  // measured, but its part of the load ended early.
  for (const r of kept.filter((r) => r.partial)) {
    const which = r.shard ? `shard ${r.shard.index}` : 'a result'
    warnings.push(warning('AC_SHARD_PARTIAL', `${which} was stopped early (${r.partial.signal || 'stopped'}) after ${r.duration} s: the merged numbers have less of its load`))
  }
  return { kept, expected, missing, duplicates, warnings }
}

// results: saved results (readResults gives them). expect: the number of
// shards there should be, when the results do not say it (or to check).
// thresholds: expressions held to the merged result.
// force: merge results of different runs all the same, with a warning
// naming each difference (else they are refused).
function mergeResults (results, { expect, thresholds, force = false } = {}) {
  if (!Array.isArray(results) || results.length === 0) throw raise('AC_INVALID_ARGUMENT', 'mergeResults needs at least one result')
  // Labelled by their place in the list given (a symbol: not saved).
  results = results.map((r, i) => Object.defineProperty({ ...r }, PLACE, { value: i }))
  const { kept, expected, missing, duplicates, warnings } = account(results, expect)
  const intervals = [...new Set(kept.map((r) => r.series.interval))]
  if (intervals.length > 1) {
    throw raise('AC_CANNOT_MERGE', `The results were sampled at different intervals (${intervals.join(' ms, ')} ms): their samples cannot be added second by second (run every shard with the same -L)`)
  }
  const differ = differences(kept)
  if (differ.length > 0 && !force) {
    const of = kept.some((r) => r.shard) ? 'the shards' : 'the results'
    throw raise('AC_DIFFERENT_RUNS', `The results are not of one run: ${differ.map(differenceText).join('; ')}: merge ${of} of one run (or add --force to merge them anyway)`)
  }
  // First: what matters most about the sums.
  warnings.unshift(...differ.map((d) => warning('AC_SHARD_MISMATCH', `merged with --force, though the results differ in ${differenceText(d)}: the sums mix different runs`)))
  warnings.push(...short(kept, intervals[0]))
  const protocols = new Set(kept.map(protocolNameOfResult))
  const urls = [...new Set(kept.flatMap((r) => [].concat(r.url)))]
  const merged = aggregateResult(kept.map(rawOf), {
    sampleInt: intervals[0],
    title: same(kept.map((r) => r.title)) ? kept[0].title : undefined,
    url: urls.length === 1 ? urls[0] : urls,
    socketPath: same(kept.map((r) => r.socketPath)) ? kept[0].socketPath : undefined,
    connections: kept.reduce((sum, r) => sum + (r.connections || 0), 0),
    pipelining: kept[0].pipelining,
    // The protocol every part spoke ('mixed' is set below).
    protocolName: protocols.size === 1 ? [...protocols][0] : undefined,
    // Seconds in which no shard sent stay in the series, as zeros: Req/Sec
    // then counts the run's every second, as rate.achieved does.
    fillGaps: true,
    // The whole run's ramp, the same in every shard's result.
    connectionStages: kept[0].connectionStages,
    // Shards of one run share these (each draws its own gaps from the seed).
    arrivals: same(kept.map((r) => r.rate && r.rate.arrivals)) ? kept[0].rate && kept[0].rate.arrivals : 'mixed',
    seed: same(kept.map((r) => r.rate && r.rate.seed)) && kept[0].rate ? kept[0].rate.seed : undefined,
    thresholds
  })
  // Forced over shards of both protocols: neither one alone.
  if (protocols.size > 1) merged.protocol = 'mixed'
  const starts = kept.map((r) => time(r.start))
  merged.merge = {
    results: kept.length,
    // 0 for plain results (no --shard): they are not shards.
    shards: kept.filter((r) => r.shard).length,
    expected,
    missing,
    duplicates,
    // As each machine's clock read it: offsets between the clocks are not
    // seen here (hence NTP), only how late each shard got going.
    startSkewMs: Math.round(Math.max(...starts) - Math.min(...starts)),
    // What the results disagreed on (merged only with force).
    differences: differ.map(({ option, flag, values }) => ({ option, flag, values })),
    warnings
  }
  const partial = kept.filter((r) => r.partial)
  if (partial.length > 0) {
    merged.partial = { results: partial.length, shards: partial.filter((r) => r.shard).map((r) => r.shard.index), signals: [...new Set(partial.map((r) => r.partial.signal))] }
  }
  return merged
}

// The shards (or, for plain results, the results) missing from a merge,
// as its lines name them: 'shard 1', 'shards 1 and 3', '1 of 3 expected
// results'; null when none is.
function missingText (merge) {
  if (merge.shards > 0) {
    if (merge.missing.length === 0) return null
    const list = merge.missing.length > 1 ? `${merge.missing.slice(0, -1).join(', ')} and ${merge.missing[merge.missing.length - 1]}` : String(merge.missing[0])
    return `shard${merge.missing.length > 1 ? 's' : ''} ${list}`
  }
  const short = merge.expected - merge.results
  return short > 0 ? `${short} of ${merge.expected} expected results` : null
}

// What was merged, in one line (the command's first, the report's):
// "merged 2 of 3 shards (missing: shard 1), start skew 4 ms".
function mergeSummary (merge) {
  const { results, shards, expected, startSkewMs } = merge
  const missing = missingText(merge)
  const of = shards === 0
    ? `${results} results (no --shard)${missing ? `, ${missing} missing` : ''}`
    : `${shards === results ? '' : `${results} results (`}${shards} of ${expected} shards${shards === results ? '' : ')'}${missing ? ` (missing: ${missing})` : ''}`
  return `merged ${of}, start skew ${startSkewMs} ms`
}

module.exports = { mergeResults, mergeSummary, missingText }
