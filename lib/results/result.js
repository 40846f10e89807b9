'use strict'

// aggregateResult and runResult: raw run data (from recorder.snapshot(),
// one per run, worker, process or machine) → autocannon's result object.
// Histograms are merged bucket by bucket, so percentiles of the merge
// equal those of one run that saw every request. Per-interval samples are
// aligned by time, not by arrival order: samples of runs that overlapped
// in time are summed (they were load on the server at once), samples of
// runs that did not are kept apart.

const { createCountHistogram, createLatencyHistogram, decode, encode, pack, isPacked, addEncoded, addHistogram, toStats, TIMINGS } = require('./histogram')
const { noErrorsByCause, raise } = require('../core/errors')
const { upstream } = require('../core/upstream-messages')
const { maskSecrets } = require('../core/redact')
const { DEFAULTS } = require('../core/options')
const { generatorHealth } = require('./generator-health')
const { protocolOfRun } = require('../protocols/registry')
const { lazy } = require('../core/lazy')
// Lazy: only a result held to thresholds needs them.
const thresholds = lazy(() => require('./thresholds'))
// Lazy: only raw results in autocannon's form, or its third argument.
const upstreamRaw = lazy(() => require('./upstream-raw'))
const upstreamStats = lazy(() => require('./upstream-stats'))

const COUNT_FIELDS = ['totalCompletedRequests', 'totalRequests', 'totalBytes', 'inFlight', 'errors', 'timeouts',
  'mismatches', 'non2xx', 'resets', 'resent', 'unexpectedResponses', 'late', 'planned', 'targetRate', '1xx', '2xx', '3xx', '4xx', '5xx']

function time (value) {
  return value instanceof Date ? value.getTime() : new Date(value).getTime()
}

function maskUrl (url) {
  return Array.isArray(url) ? url.map(maskSecrets) : maskSecrets(url)
}

// The most empty slots a gap between runs is filled with (fillGaps).
const MAX_FILLED = 100000

// Samples of all runs, one slot per interval: counts summed, latency
// histograms added (a slot's percentiles are those of every response the
// server sent in it, whichever run or machine saw it).
//
// fillGaps: an interval between the first and the last in which no run
// sent gets a slot of zeros, rather than none (a merge of shards, where
// such a second is part of the run).
function mergeSeries (raws, sampleInt, fillGaps = false) {
  let origin = Infinity
  for (const r of raws) origin = Math.min(origin, time(r.start))
  const slots = new Map()
  for (const r of raws) {
    for (const [end, requests, bytes, errors = 0, latency = null, , , loopDelay = 0, connections = 0, ttfb = 0, transfer = 0, timed = 0] of r.series || []) {
      const slot = Math.round((end - origin) / sampleInt)
      const acc = slots.get(slot)
      if (acc) {
        acc.requests += requests
        acc.bytes += bytes
        acc.errors += errors
        acc.connections += connections
        acc.ttfb += ttfb
        acc.transfer += transfer
        acc.timed += timed
        acc.time = Math.min(acc.time, end)
        acc.parts.push(latency)
        // The slowest thread's: a loop delay is one thread's, not a sum.
        acc.loopDelay = Math.max(acc.loopDelay, loopDelay)
      } else {
        slots.set(slot, { time: end, requests, bytes, errors, loopDelay, connections, ttfb, transfer, timed, parts: [latency] })
      }
    }
  }
  if (fillGaps && slots.size > 1) {
    const keys = [...slots.keys()]
    const last = Math.max(...keys)
    const first = Math.min(...keys)
    // Runs far apart (a forced merge of unrelated results) keep their
    // slots apart: a day of one-second zeros describes nothing.
    if (last - first > MAX_FILLED) return sorted(slots)
    for (let slot = first + 1; slot < last; slot++) {
      if (!slots.has(slot)) slots.set(slot, { time: origin + slot * sampleInt, requests: 0, bytes: 0, errors: 0, loopDelay: 0, connections: 0, parts: [null] })
    }
  }
  return sorted(slots)
}

function sorted (slots) {
  return [...slots.keys()].sort((a, b) => a - b).map((slot) => {
    const { parts, ...acc } = slots.get(slot)
    // Packed, as a single part already is: the result keeps the slots
    // until its series is first read, and a summed histogram's buckets
    // take far more memory than their packed counts.
    acc.latency = parts.length === 1 ? parts[0] : pack(addParts(parts))
    return acc
  })
}

// A slot's parts added up into a histogram.
function addParts (parts) {
  const sum = createLatencyHistogram()
  for (const part of parts) {
    if ((typeof part === 'string' && part !== '') || isPacked(part)) addEncoded(sum, part)
    else if (part) addHistogram(sum, part)
  }
  return sum
}

// The per-interval series of the result: what a report plots and a merge
// sums, with each interval's latency histogram for merging across machines.
function seriesOf (slots, sampleInt) {
  const series = { interval: sampleInt, time: [], requests: [], bytes: [], errors: [], latencyP50: [], latencyP99: [], loopDelayMax: [], connections: [], latency: [], ttfbMean: [], transferMean: [], timed: [] }
  // An interval's mean phase times (ms), from the sums its parts kept.
  const mean = (sum, count) => count === 0 ? 0 : Math.round(sum / count) / 1000
  for (const slot of slots) {
    const h = slot.latency ? decode(slot.latency) : null
    const at = (p) => h && h.totalCount ? Math.round(h.getValueAtPercentile(p)) / 1000 : 0
    series.time.push(slot.time)
    series.requests.push(slot.requests)
    series.bytes.push(slot.bytes)
    series.errors.push(slot.errors)
    series.latencyP50.push(at(50))
    series.latencyP99.push(at(99))
    series.loopDelayMax.push(Math.round(slot.loopDelay) / 1000)
    series.connections.push(slot.connections)
    series.ttfbMean.push(mean(slot.ttfb, slot.timed))
    series.transferMean.push(mean(slot.transfer, slot.timed))
    series.timed.push(slot.timed)
    series.latency.push(!slot.latency ? '' : typeof slot.latency === 'string' ? slot.latency : encode(slot.latency))
  }
  return series
}

// Into a new histogram: in-process snapshots hand over the recorder's own
// histograms, which must not grow with every aggregation. `pick` finds
// the histogram in a raw result.
function mergeHistograms (raws, field, pick = (r) => r[field]) {
  let merged = null
  for (const r of raws) {
    const h = pick(r)
    if (!h) continue
    if (merged === null) merged = createLatencyHistogram()
    if (typeof h === 'string' || isPacked(h)) addEncoded(merged, h)
    else addHistogram(merged, h)
  }
  return merged
}

// Where the time went, phase by phase, in ms as latency is: each phase's
// stats with its count (a phase never taken, such as tls over plain TCP,
// has a count of 0). A result saved without phase timings has none.
function timingsOf (raws) {
  if (!raws.some((r) => r.timings)) return null
  const histograms = {}
  const stats = {}
  for (const name of TIMINGS) {
    const h = mergeHistograms(raws, name, (r) => r.timings && r.timings[name]) || createLatencyHistogram()
    histograms[name] = h
    stats[name] = toStats(h, LATENCY_STATS)
    stats[name].totalCount = h.totalCount
    const delay = setupDelayOf(raws, name, h.totalCount)
    if (delay !== null) stats[name].generatorDelay = delay
  }
  return { histograms, stats }
}

// A step of opening connections: how long, on average and at most, our
// own event loop was busy inside it (ms): up to that much of the step is
// not the network's (lib/transport/connection.js): { avg, max }, or null for a step no
// connection took, or raws without it (results read back from a file).
function setupDelayOf (raws, name, count) {
  let us = 0
  let maxUs = 0
  let seen = false
  for (const r of raws) {
    const d = r.setupDelay && r.setupDelay[name]
    if (!d) continue
    seen = true
    us += d.us
    if (d.maxUs > maxUs) maxUs = d.maxUs
  }
  if (!seen || count === 0) return null
  return { avg: Math.round(us / count) / 1000, max: maxUs / 1000 }
}

// min and max at their bucket's edges, as the percentiles are: the same
// whether the histogram was encoded on the way (decoding keeps buckets,
// not the exact extremes) or not.
const LATENCY_STATS = { scale: 1000, decimals: 3, bucketEdges: true }

// `key` of `object` computed on first read, as a plain enumerable field to
// everyone else (JSON.stringify, spread, structuredClone, deep equality
// read it alike); assigning replaces it. Encoding a result's histograms
// and series loads zlib, packs and compresses each one: a real part of a
// short run's start-up, for outputs the tables do not need.
function whenRead (object, key, compute) {
  let value
  let computed = false
  Object.defineProperty(object, key, {
    enumerable: true,
    configurable: true,
    get () {
      if (!computed) {
        value = compute()
        computed = true
      }
      return value
    },
    set (v) {
      value = v
      computed = true
    }
  })
}

function encodeAll (histograms) {
  const out = {}
  for (const name of TIMINGS) out[name] = encode(histograms[name])
  return out
}

// aggregateResult(results[, opts[, histograms]]), autocannon's: opts are
// the caller's own (autocannon's users pass theirs; merge its sums), which
// may leave out any option. Those the result reports take the table's
// default here, once, read as autocannon's users have passed them:
// sampleInt as a number (a numeric string too; 0 or none is the default),
// arrivals '' as none; connections and pipelining as given unless
// undefined.
//
// Raw results may be ours or autocannon's (upstream-raw.js): latencies of
// autocannon's are in ms. `histograms`, autocannon's third argument, holds
// the run's per-sample requests and throughput (hdr-histogram-js
// histograms, as autocannon's lib/histUtil builds them): those stats then
// come from it, as autocannon takes them; without it they come from our
// series. When every raw result is autocannon's, latency and samples are
// taken as autocannon takes them too.
function aggregateResult (results, opts, histograms) {
  opts = opts || {}
  const list = Array.isArray(results) ? results : [results]
  const upstreamOnly = list.length > 0 && list.every(isUpstreamRaw)
  const own = list.some((r) => isUpstreamRaw(r) || (r !== null && typeof r === 'object' && r.latenciesUs !== undefined))
    ? list.map(upstreamRaw().ownRaw)
    : results
  const result = runResult(own, {
    ...opts,
    sampleInt: Number(opts.sampleInt) || DEFAULTS.sampleInt,
    connections: opts.connections === undefined ? DEFAULTS.connections : opts.connections,
    pipelining: opts.pipelining === undefined ? DEFAULTS.pipelining : opts.pipelining,
    arrivals: opts.arrivals || DEFAULTS.arrivals
  })
  if (upstreamOnly) upstreamStats().asUpstream(result, list)
  if (histograms) upstreamStats().countsFrom(result, histograms)
  return result
}

// autocannon's raw result: neither our latenciesUs nor our series, and
// its latencies not in our histogram's layout (a raw result made by hand
// from our histograms is ours).
function isUpstreamRaw (raw) {
  return raw !== null && typeof raw === 'object' && raw.latenciesUs === undefined && !Array.isArray(raw.series) &&
    !upstreamRaw().inOwnLayout(raw.latencies)
}

// The result of raw results under options in which each option a result
// reports (sampleInt, connections, pipelining, arrivals) is set: a run's
// config, whose defaults buildConfig has decided, or aggregateResult's.
function runResult (results, opts) {
  // One raw result alone is taken as a list of one.
  if (!Array.isArray(results) && (results === null || typeof results !== 'object')) throw raise('AC_INVALID_ARGUMENT', upstream('results'))
  const raws = Array.isArray(results) ? results : [results]
  if (raws.length === 0) throw raise('AC_INVALID_ARGUMENT', 'aggregateResult needs at least one result')
  const sampleInt = opts.sampleInt

  const totals = {}
  for (const f of COUNT_FIELDS) totals[f] = 0
  const statusCodeStats = {}
  const errorsByCause = noErrorsByCause()
  const errorCodes = {}
  let start = Infinity
  let finish = -Infinity
  for (const r of raws) {
    for (const f of COUNT_FIELDS) totals[f] += r[f] || 0
    for (const code of Object.keys(r.statusCodeStats || {})) {
      statusCodeStats[code] = { count: (statusCodeStats[code] ? statusCodeStats[code].count : 0) + r.statusCodeStats[code].count }
    }
    for (const cause of Object.keys(r.errorsByCause || {})) {
      errorsByCause[cause] = (errorsByCause[cause] || 0) + r.errorsByCause[cause]
    }
    for (const code of Object.keys(r.errorCodes || {})) {
      errorCodes[code] = (errorCodes[code] || 0) + r.errorCodes[code]
    }
    start = Math.min(start, time(r.start))
    finish = Math.max(finish, time(r.finish))
  }

  const series = mergeSeries(raws, sampleInt, opts.fillGaps)
  const requestsHist = createCountHistogram()
  const throughputHist = createCountHistogram()
  for (const slot of series) {
    requestsHist.recordValue(slot.requests)
    throughputHist.recordValue(slot.bytes)
  }

  const latencyHist = mergeHistograms(raws, 'latencies') || createLatencyHistogram()
  const latency = toStats(latencyHist, LATENCY_STATS)
  latency.totalCount = latencyHist.totalCount

  const requests = toStats(requestsHist)
  requests.total = totals.totalCompletedRequests
  requests.sent = totals.totalRequests
  requests.inFlight = totals.inFlight

  const throughput = toStats(throughputHist)
  throughput.total = totals.totalBytes

  const result = {
    title: opts.title,
    url: maskUrl(opts.url),
    socketPath: opts.socketPath,
    // Set only with --proxy ("env", or the URL with its credentials masked):
    // the figures are those of the target behind that proxy.
    proxy: opts.proxy ? maskSecrets(opts.proxy) : undefined,
    connections: opts.connections,
    sampleInt,
    pipelining: opts.pipelining,
    // Set only over HTTP/2, so HTTP/1.1's results keep autocannon's shape.
    protocol: protocolOfRun(opts).resultName,
    // As given, 0 too (autocannon's command gives 0); none when not given.
    workers: opts.workers,
    duration: raws.length === 1 ? raws[0].duration : Math.round(finish - start) / 1000,
    samples: series.length,
    start: new Date(start),
    finish: new Date(finish),
    errors: totals.errors,
    timeouts: totals.timeouts,
    errorsByCause,
    errorCodes,
    mismatches: totals.mismatches,
    non2xx: totals.non2xx,
    resets: totals.resets,
    resent: totals.resent,
    unexpectedResponses: totals.unexpectedResponses,
    '1xx': totals['1xx'],
    '2xx': totals['2xx'],
    '3xx': totals['3xx'],
    '4xx': totals['4xx'],
    '5xx': totals['5xx'],
    statusCodeStats,
    latency,
    requests,
    throughput
  }

  // What the run's protocol adds (gRPC: its calls by status).
  const protocol = protocolOfRun(opts)
  if (protocol.resultFields) Object.assign(result, protocol.resultFields(result))

  const uncorrected = mergeHistograms(raws, 'latenciesUncorrected')
  if (uncorrected) {
    result.latencyUncorrected = toStats(uncorrected, LATENCY_STATS)
    result.latencyUncorrected.totalCount = uncorrected.totalCount
  }
  const lateness = totals.targetRate ? mergeHistograms(raws, 'lateness') : null
  if (totals.targetRate) {
    // Under a fixed rate: what was asked, what was done, and how far the
    // requests that could not go on time fell behind the plan.
    result.rate = {
      target: totals.targetRate,
      achieved: result.duration > 0 ? Math.round(totals.totalCompletedRequests / result.duration * 100) / 100 : 0,
      // Requests the plan made due in the run (or window): what achieved
      // is held to, exactly, whatever the arrival process drew.
      planned: totals.planned,
      late: totals.late,
      lateness: lateness ? toStats(lateness, LATENCY_STATS) : undefined,
      // How the sends were spaced, and for random gaps the seed that
      // replays them (--seed).
      arrivals: opts.arrivals,
      seed: opts.arrivals === 'poisson' ? opts.seed : undefined
    }
  }
  const loopDelay = mergeHistograms(raws, 'loopDelay')
  result.generator = generatorHealth(raws, loopDelay && toStats(loopDelay, LATENCY_STATS), totals.late, result.rate && result.rate.lateness)
  const timings = timingsOf(raws)
  if (timings) result.timings = timings.stats
  // Added last, after every field autocannon's result has.
  // What a saved result needs to be drawn, compared or merged again:
  // histograms travel encoded (lossless), as between workers. Encoded when
  // first read, a run shown as tables never reads them; the histograms
  // are this call's own (merged into new ones), so nothing changes them
  // meanwhile, and they are let go once encoded.
  let histograms = { latencyHist, uncorrected, lateness, loopDelay, requestsHist, throughputHist, timings: timings && timings.histograms }
  whenRead(result, 'histograms', () => {
    const h = histograms
    histograms = null
    return {
      latency: encode(h.latencyHist),
      latencyUncorrected: h.uncorrected ? encode(h.uncorrected) : undefined,
      lateness: h.lateness ? encode(h.lateness) : undefined,
      loopDelay: h.loopDelay ? encode(h.loopDelay) : undefined,
      requests: encode(h.requestsHist),
      throughput: encode(h.throughputHist),
      timings: h.timings ? encodeAll(h.timings) : undefined
    }
  })
  whenRead(result, 'series', () => seriesOf(series, sampleInt))
  // --connectionStages: the ramp the run followed (series.connections
  // shows the connections it held, interval by interval).
  if (opts.connectionStages) result.connectionStages = opts.connectionStages.map((stage) => ({ ...stage }))
  // --abortOnFail stopped the run: which threshold, when, at what value.
  const aborted = raws.find((r) => r.aborted)
  if (aborted) result.aborted = { ...aborted.aborted }
  if (opts.thresholds && opts.thresholds.length) {
    result.thresholds = thresholds().evaluateThresholds(opts.thresholds, result)
  }
  // Which part of a sharded run this is, and the start time the shards
  // shared: what `autocannon merge` counts and checks.
  if (opts.shard) {
    result.shard = { index: opts.shard.index, count: opts.shard.count }
    // The whole run's load, for merge to hold the shards to (shard.js).
    if (opts.shard.run) result.shard.run = JSON.parse(JSON.stringify(opts.shard.run))
  }
  if (opts.startAt !== undefined) result.startAt = new Date(opts.startAt)
  return result
}

module.exports = { aggregateResult, runResult, mergeSeries }
