'use strict'

// The run's 'sample' event: each sample interval as it ends, for what
// watches a run while it goes (the dashboard, the terminal's progress
// line). Only a run with a 'sample' listener makes them: once per
// interval, never per request. Across worker threads, each worker's
// k-th sample is merged with the others' k-th as the result merges
// intervals (counts summed, latency histograms added, the longest loop
// delay of any thread), and emitted once every running worker has sent
// it.
//
// A sample: { elapsed (s since the start, at its end), time (epoch ms of
// its end), interval (ms), requests (responses in it), bytes, errors,
// latencyP50, latencyP99, loopDelayMax (ms), connections (open at its
// end), ttfbSum, transferSum (µs), timed, latency (its histogram,
// packed), totals: { responses, sent, errors, timeouts, late, statusCodes
// } (the run's so far) }. Under a rate with latency corrected for the
// plan, and only for the dashboard (which draws it: see run.js), the
// interval's service time beside it, measured from the write:
// uncorrectedP50, uncorrectedP99 (ms), latencyUncorrected (its histogram,
// packed); absent otherwise.

const { createLatencyHistogram, addEncoded, pack } = require('../results/histogram')

const MAX_STATUS = 1000

function ms (us) {
  return Math.round(us) / 1000
}

// The sample the recorder has just taken, `elapsedS` into the run.
function liveSample (recorder, elapsedS, intervalMs) {
  const [time, requests, bytes, errors, latency, p50, p99, loop, connections, ttfbSum, transferSum, timed] = recorder.series[recorder.series.length - 1]
  const statusCodes = {}
  const counts = recorder.statusCounts
  for (let code = 0; code < MAX_STATUS; code++) if (counts[code] !== 0) statusCodes[code] = counts[code]
  const sample = {
    elapsed: Math.round(elapsedS * 1000) / 1000,
    time,
    interval: intervalMs,
    requests,
    bytes,
    errors,
    latencyP50: ms(p50),
    latencyP99: ms(p99),
    loopDelayMax: ms(loop),
    connections,
    ttfbSum,
    transferSum,
    timed,
    latency,
    totals: {
      responses: recorder.totalCompleted + recorder.counter,
      sent: recorder.sent,
      errors: recorder.errors,
      timeouts: recorder.timeouts,
      late: recorder.late,
      statusCodes
    }
  }
  const uncorrected = recorder.lastUncorrected
  if (uncorrected !== null) {
    sample.uncorrectedP50 = ms(uncorrected[1])
    sample.uncorrectedP99 = ms(uncorrected[2])
    sample.latencyUncorrected = uncorrected[0]
  }
  return sample
}

const SUMMED = ['requests', 'bytes', 'errors', 'connections', 'ttfbSum', 'transferSum', 'timed']
const TOTALS = ['responses', 'sent', 'errors', 'timeouts', 'late']

// Several threads' samples of one interval → one.
function mergeSamples (samples) {
  const out = { ...samples[0], totals: { ...samples[0].totals, statusCodes: { ...samples[0].totals.statusCodes } } }
  for (let i = 1; i < samples.length; i++) {
    const s = samples[i]
    for (const key of SUMMED) out[key] += s[key]
    for (const key of TOTALS) out.totals[key] += s.totals[key]
    for (const [code, n] of Object.entries(s.totals.statusCodes)) out.totals.statusCodes[code] = (out.totals.statusCodes[code] || 0) + n
    out.loopDelayMax = Math.max(out.loopDelayMax, s.loopDelayMax)
    out.time = Math.min(out.time, s.time)
  }
  Object.assign(out, merged(samples, 'latency', 'latencyP50', 'latencyP99'))
  // The service time, as the latency: the threads' histograms added.
  if (samples.some((s) => s.latencyUncorrected !== undefined)) Object.assign(out, merged(samples, 'latencyUncorrected', 'uncorrectedP50', 'uncorrectedP99'))
  return out
}

// The threads' interval histograms under `key` added → it (packed) and
// its p50 and p99 (ms), under their keys.
function merged (samples, key, p50, p99) {
  const h = createLatencyHistogram()
  for (const s of samples) if (s[key] !== undefined) addEncoded(h, s[key])
  const empty = h.totalCount === 0
  return {
    [key]: pack(h),
    [p50]: empty ? 0 : ms(h.getValueAtPercentile(50)),
    [p99]: empty ? 0 : ms(h.getValueAtPercentile(99))
  }
}

// The main thread's side across `count` workers: add(i, sample) as
// worker i's come, finished(i) when it ends (the interval no longer waits
// for it); emit(sample) once per interval.
function sampleMerge (count, emit) {
  const queues = Array.from({ length: count }, () => [])
  const running = new Array(count).fill(true)
  const flush = () => {
    for (;;) {
      const waiting = queues.filter((q, j) => running[j] || q.length > 0)
      if (waiting.length === 0 || waiting.some((q) => q.length === 0)) return
      emit(mergeSamples(waiting.map((q) => q.shift())))
    }
  }
  return {
    add (i, sample) {
      queues[i].push(sample)
      flush()
    },
    finished (i) {
      running[i] = false
      flush()
    }
  }
}

module.exports = { liveSample, mergeSamples, sampleMerge }
