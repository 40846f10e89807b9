'use strict'

// The load generator's own health in a result, and the rule for when it
// may have distorted the latency it reports. Under a rate, latency counts
// from each request's planned send time, so any pause of the sending
// thread is charged to the server: this is what tells the two apart.

const { percent, msBrief, thousands } = require('../core/format')

// The rule the README states. A loop that runs its timers more than 1 ms
// late at p99 delays at least 1% of the sends (or of the reads) by as much;
// more than 0.1% of requests leaving over 5 ms late (the scheduler's
// LATE_MS) moves p99.9.
const MAX_LOOP_DELAY_P99_MS = 1
const MAX_LATE_SHARE = 0.001

// raws: the snapshots merged; loopDelay and lateness: stats in ms (or null).
// loopDelay is every sending thread's samples together, cpu the busiest
// thread's event-loop utilisation.
function generatorHealth (raws, loopDelay, late, lateness) {
  let busy = 0
  for (const r of raws) busy = Math.max(busy, r.busy || 0)
  return {
    loopDelay: loopDelay ? { p50: loopDelay.p50, p99: loopDelay.p99, max: loopDelay.max } : null,
    cpu: busy,
    late,
    lateness: lateness ? { p99: lateness.p99, max: lateness.max } : null
  }
}

// Why the generator may have distorted a rated run's latency, or null.
function distortion (result) {
  const g = result.generator
  if (!g || !result.rate) return null
  const why = []
  if (g.loopDelay && g.loopDelay.p99 > MAX_LOOP_DELAY_P99_MS) {
    why.push(`its event loop ran ${msBrief(g.loopDelay.p99)} ms late at p99 (max ${msBrief(g.loopDelay.max)} ms)`)
  }
  const sent = result.requests.sent || 0
  if (sent > 0 && g.late / sent > MAX_LATE_SHARE) {
    why.push(`${thousands(g.late)} of ${thousands(sent)} requests (${percent(g.late / sent)}) left over 5 ms after their planned time` +
      (g.lateness ? ` (max ${msBrief(g.lateness.max)} ms)` : ''))
  }
  return why.length ? `the generator may have distorted the latency: ${why.join('; ')}` : null
}

module.exports = { generatorHealth, distortion, MAX_LOOP_DELAY_P99_MS, MAX_LATE_SHARE }
