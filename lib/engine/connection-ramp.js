'use strict'

// --connectionStages: how many connections are open at each moment of a
// run. Each stage ramps linearly from the count the previous one ended at
// (the first from 0) to its own; a stage of 0 s is a step. The whole
// run's count is rounded first and then split (shards, then workers), so
// that the parts of every thread add up to it at every moment.

const { share } = require('../core/share')

// stages: [{ duration (s), connections }]; shares: [[index, count], …].
function createConnectionRamp (stages, shares = []) {
  const segments = []
  let at = 0
  let from = 0
  for (const { duration, connections } of stages) {
    const ms = duration * 1000
    segments.push({ at, ms, from, to: connections })
    at += ms
    from = connections
  }
  return new ConnectionRamp(segments, at, shares)
}

class ConnectionRamp {
  constructor (segments, totalMs, shares) {
    this.segments = segments
    this.totalMs = totalMs
    this.shares = shares
  }

  // The whole run's count at `ms` from the start (after a step, its count).
  wholeAt (ms) {
    const segments = this.segments
    for (let s = 0; s < segments.length; s++) {
      const { at, ms: length, from, to } = segments[s]
      if (ms >= at + length) continue
      if (ms < at) break
      return Math.round(from + (to - from) * (ms - at) / length)
    }
    return segments[segments.length - 1].to
  }

  // This thread's part of it.
  at (ms) {
    let n = this.wholeAt(ms)
    for (const [index, count] of this.shares) n = share(n, count, index)
    return n
  }

  // The first moment after `ms` at which the whole count changes, or
  // Infinity: when the ramp's timer needs to wake up next.
  nextChange (ms) {
    const now = this.wholeAt(ms)
    for (const { at, ms: length, from, to } of this.segments) {
      const end = at + length
      if (end <= ms) continue
      if (length === 0 || from === to) {
        if (to !== now) return at
        continue
      }
      // The count rounds to the next whole number half-way to it (just
      // after: a count going down rounds half-way up).
      const start = Math.max(ms, at)
      const current = Math.round(from + (to - from) * (start - at) / length)
      if (current !== now) return start
      const next = to > from ? current + 0.5 : current - 0.5
      const t = at + (next - from) / (to - from) * length + 1e-6
      if (t < end) return Math.max(t, ms + 1e-6)
      if (to !== now) return end
    }
    return Infinity
  }
}

module.exports = { createConnectionRamp }
