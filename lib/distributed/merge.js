'use strict'

// lib/distributed: one run spread over several processes or machines (each
// shard sends its part of the load, split by lib/config/split.js): the
// Kubernetes Indexed Job that starts them together (kube-job.js), and this
// file, which merges their results back into the run's.
//
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

function time (value) {
  return value instanceof Date ? value.getTime() : new Date(value).getTime()
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
    targetRate: rate.target || 0,
    planned: rate.planned || 0,
    late: rate.late || 0,
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
  if (counts.length > 1) {
    warnings.push(warning('AC_SHARD_MISMATCH', `the results are shards of runs of different sizes (${counts.join(', ')} shards): they may come from different runs`))
  }
  const starts = [...new Set(sharded.filter((r) => r.startAt).map((r) => time(r.startAt)))]
  if (starts.length > 1) {
    warnings.push(warning('AC_SHARD_MISMATCH', `the shards were given different start times (${starts.map((t) => new Date(t).toISOString()).join(', ')}): they may come from different runs`))
  }
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
function mergeResults (results, { expect, thresholds } = {}) {
  if (!Array.isArray(results) || results.length === 0) throw raise('AC_INVALID_ARGUMENT', 'mergeResults needs at least one result')
  const { kept, expected, missing, duplicates, warnings } = account(results, expect)
  const intervals = [...new Set(kept.map((r) => r.series.interval))]
  if (intervals.length > 1) {
    throw raise('AC_CANNOT_MERGE', `The results were sampled at different intervals (${intervals.join(' ms, ')} ms): their samples cannot be added second by second (run every shard with the same -L)`)
  }
  const urls = [...new Set(kept.flatMap((r) => [].concat(r.url)))]
  const merged = aggregateResult(kept.map(rawOf), {
    sampleInt: intervals[0],
    title: same(kept.map((r) => r.title)) ? kept[0].title : undefined,
    url: urls.length === 1 ? urls[0] : urls,
    socketPath: same(kept.map((r) => r.socketPath)) ? kept[0].socketPath : undefined,
    connections: kept.reduce((sum, r) => sum + (r.connections || 0), 0),
    pipelining: kept[0].pipelining,
    // HTTP/2 when every part spoke it.
    http2: kept.every((r) => r.protocol === 'h2'),
    // The whole run's ramp, the same in every shard's result.
    connectionStages: kept[0].connectionStages,
    // Shards of one run share these (each draws its own gaps from the seed).
    arrivals: same(kept.map((r) => r.rate && r.rate.arrivals)) ? kept[0].rate && kept[0].rate.arrivals : 'mixed',
    seed: same(kept.map((r) => r.rate && r.rate.seed)) && kept[0].rate ? kept[0].rate.seed : undefined,
    thresholds
  })
  const starts = kept.map((r) => time(r.start))
  merged.merge = {
    results: kept.length,
    shards: kept.filter((r) => r.shard).length || kept.length,
    expected,
    missing,
    duplicates,
    // As each machine's clock read it: offsets between the clocks are not
    // seen here (hence NTP), only how late each shard got going.
    startSkewMs: Math.round(Math.max(...starts) - Math.min(...starts)),
    warnings
  }
  const partial = kept.filter((r) => r.partial)
  if (partial.length > 0) {
    merged.partial = { results: partial.length, shards: partial.filter((r) => r.shard).map((r) => r.shard.index), signals: [...new Set(partial.map((r) => r.partial.signal))] }
  }
  return merged
}

module.exports = { mergeResults }
