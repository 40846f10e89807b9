'use strict'

// A rate plan that changes over time: load stages, each ramping linearly
// from the rate the previous one ended at to its own target. Request i is
// due when the planned count of requests, the integral of the rate,
// reaches i, so sends stay evenly spaced within a ramp and latency can
// still be measured from each request's intended time.

// stages: [{ duration (s), rate (req/s) }]; startRate: the rate at t = 0.
function createStagePlan (stages, startRate = 0) {
  const segments = []
  let at = 0 // ms from the plan's start
  let count = 0 // requests planned before the segment
  let from = startRate / 1000 // req/ms
  for (const { duration, rate } of stages) {
    const ms = duration * 1000
    const to = rate / 1000
    const planned = (from + to) / 2 * ms
    segments.push({ at, ms, from, to, count, planned })
    at += ms
    count += planned
    from = to
  }
  return new StagePlan(segments, at)
}

class StagePlan {
  constructor (segments, totalMs) {
    this.segments = segments
    this.totalMs = totalMs
    // Requests are asked for in order (give-backs step back by a few), so
    // the segment search starts where the last one ended.
    this.cursor = 0
  }

  // ms from the plan's start at which request i is due; Infinity when the
  // plan ends before it.
  offsetOf (i) {
    const segments = this.segments
    let s = this.cursor
    while (s > 0 && i < segments[s].count) s--
    while (s < segments.length && i >= segments[s].count + segments[s].planned) s++
    if (s === segments.length) return Infinity
    this.cursor = s
    const { at, ms, from, to, count } = segments[s]
    const k = i - count
    if (from === to) return at + k / from
    // k = from·τ + (to − from)·τ² / (2·ms), solved for τ.
    const a = (to - from) / (2 * ms)
    return at + (Math.sqrt(from * from + 4 * a * k) - from) / (2 * a)
  }

  // Requests planned in [fromMs, toMs) of the plan: what a test holds the
  // arrivals to.
  countBetween (fromMs, toMs) {
    return this.countAt(toMs) - this.countAt(fromMs)
  }

  countAt (ms) {
    let total = 0
    for (const { at, ms: length, from, to, planned } of this.segments) {
      if (ms >= at + length) {
        total += planned
        continue
      }
      if (ms > at) {
        const tau = ms - at
        total += from * tau + (to - from) * tau * tau / (2 * length)
      }
      break
    }
    return total
  }
}

module.exports = { createStagePlan }
