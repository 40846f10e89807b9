'use strict'

// The load generator's own health in a result, and the rule for when it
// may have distorted the latency it reports. Under a rate, latency counts
// from each request's planned send time, so any pause of the sending
// thread is charged to the server: this is what tells the two apart, and
// names whose the pause was.

const { percent, msBrief, thousands } = require('../core/format')
const { warningLine } = require('../core/warnings')

// The rule docs/latency.md states. A loop that runs its timers more than 1 ms
// late at p99 delays at least 1% of the sends (or of the reads) by as much;
// 0.1% of requests or more leaving over 5 ms late (the scheduler's
// LATE_MS) moves p99.9.
const MAX_LOOP_DELAY_P99_MS = 1
const MAX_LATE_SHARE = 0.001
// A generator busy this share of its time or more is saturated: its own
// work is then its load, not a bug.
const SATURATED_CPU = 0.9
// A cause is named when it holds at least this share of the late
// requests (the first is named whatever its share).
const NAMED_SHARE = 0.1
// A pause of its own work this long is named whatever its share: nothing
// the generator does should hold its thread so long.
const OWN_NAMED_MS = 10

// raws: the snapshots merged; loopDelay and lateness: stats in ms (or null).
// loopDelay is every sending thread's samples together, cpu the busiest
// thread's event-loop utilisation; the late requests and the pauses are
// every thread's, summed (a pause's longest part: any thread's).
function generatorHealth (raws, loopDelay, late, lateness) {
  let busy = 0
  let lateNoConnection = 0
  let lateOwn = 0
  let lateStarved = 0
  let pauses = null
  for (const r of raws) {
    busy = Math.max(busy, r.busy || 0)
    lateNoConnection += r.lateNoConnection || 0
    lateOwn += r.lateOwn || 0
    lateStarved += r.lateStarved || 0
    if (!r.pauses) continue
    if (pauses === null) pauses = { own: { count: 0, us: 0, maxUs: 0 }, starved: { count: 0, us: 0, maxUs: 0 } }
    for (const cause of ['own', 'starved']) {
      const a = pauses[cause]
      const b = r.pauses[cause]
      a.count += b.count
      a.us += b.us
      a.maxUs = Math.max(a.maxUs, b.maxUs)
    }
  }
  const ms = (p) => ({ count: p.count, ms: Math.round(p.us) / 1000, max: Math.round(p.maxUs) / 1000 })
  return {
    loopDelay: loopDelay ? { p50: loopDelay.p50, p99: loopDelay.p99, max: loopDelay.max } : null,
    cpu: busy,
    late,
    lateness: lateness ? { p99: lateness.p99, max: lateness.max } : null,
    lateNoConnection,
    lateOwn,
    lateStarved,
    pauses: pauses && { own: ms(pauses.own), starved: ms(pauses.starved) }
  }
}

// Why the generator may have distorted a rated run's latency, its cause
// and what to do about it, or null.
function distortion (result) {
  const found = distorted(result)
  if (found === null) return null
  const { why, causes } = found
  return `the generator may have distorted the latency: ${why.join('; ')}` +
    (causes.length ? `; ${causes.length > 1 ? 'causes' : 'cause'}: ${causes.map((c) => c.text).join('; ')}` : '')
}

// The causes the rule names that are the generator's own, not the
// connections': 'starved' (other processes had the CPU) and 'own' (its own
// work), each { cause, share, text }, largest first; [] when it names none.
// A capacity search's step judged failed while one is named may have
// failed for them (lib/search/step-judge.js).
function generatorCauses (result) {
  const found = distorted(result)
  return found === null ? [] : found.causes.filter((c) => c.cause !== 'noConnection')
}

// → { why: [what was seen], causes: [{ cause, share, text }] }, or null.
function distorted (result) {
  const g = result.generator
  if (!g || !result.rate) return null
  const why = []
  const loopLate = !!g.loopDelay && g.loopDelay.p99 > MAX_LOOP_DELAY_P99_MS
  if (loopLate) {
    why.push(`its event loop ran ${msBrief(g.loopDelay.p99)} ms late at p99 (max ${msBrief(g.loopDelay.max)} ms)`)
  }
  const sent = result.requests.sent || 0
  const manyLate = sent > 0 && g.late / sent >= MAX_LATE_SHARE
  if (manyLate) {
    why.push(`${thousands(g.late)} of ${thousands(sent)} requests (${percent(g.late / sent)}) left over 5 ms after their planned time` +
      (g.lateness ? ` (max ${msBrief(g.lateness.max)} ms)` : ''))
  }
  if (!why.length) return null
  return { why, causes: causesOf(g, loopLate, manyLate) }
}

// Each cause with its remedy, the largest first. A cause's weight is its
// share of the late requests; the cause of most of the time paused, when
// the loop ran late, and a long pause of our own work are named even
// where few requests were late for them.
function causesOf (g, loopLate, manyLate) {
  const found = []
  const late = manyLate ? g.late : 0
  const share = (requests) => late > 0 ? (requests || 0) / late : 0
  const lateNoConnection = g.lateNoConnection || 0
  if (late > 0 && lateNoConnection > 0) {
    found.push({
      cause: 'noConnection',
      share: share(lateNoConnection),
      text: `every connection was busy when ${thousands(lateNoConnection)} of the late requests were due ` +
        '(the latency includes that wait): more connections (-c) would send them on time'
    })
  }
  const p = g.pauses || null
  if (p) {
    const pausedBy = loopLate && p.starved.ms + p.own.ms > 0 ? (p.starved.ms > p.own.ms ? 'starved' : 'own') : null
    const starved = Math.max(share(g.lateStarved), pausedBy === 'starved' ? NAMED_SHARE : 0)
    if (starved > 0) {
      found.push({
        cause: 'starved',
        share: starved,
        text: `other processes had the CPU (the thread was not running for ${thousands(p.starved.ms, 1)} ms of its pauses, the longest ${msBrief(p.starved.max)} ms` +
          `${lateCount(g.lateStarved, late)}): run fewer processes on this machine, or spread the load over threads (-w)`
      })
    }
    const own = Math.max(share(g.lateOwn), pausedBy === 'own' || p.own.max >= OWN_NAMED_MS ? NAMED_SHARE : 0)
    if (own > 0) {
      const what = `${thousands(p.own.ms, 1)} ms of its pauses, the longest ${msBrief(p.own.max)} ms${lateCount(g.lateOwn, late)}`
      found.push({
        cause: 'own',
        share: own,
        text: g.cpu >= SATURATED_CPU
          ? `its own work, the thread busy ${percent(g.cpu)} of the time (${what}): spread the load over threads (-w)`
          : `its own work (${what}): a pause of ours, a bug to report`
      })
    }
  }
  // Stable: on a tie, the order above.
  found.sort((a, b) => b.share - a.share)
  return found.filter((c, i) => i === 0 || c.share >= NAMED_SHARE)
}

// The line the CLI prints after the tables (and the HTML report shows),
// or null.
function distortionLine (result) {
  const why = distortion(result)
  return why === null ? null : warningLine({ code: 'AC_GENERATOR_DISTORTED', message: why })
}

function lateCount (count, late) {
  return late > 0 && count > 0 ? `, ${thousands(count)} late request${count === 1 ? '' : 's'}` : ''
}

module.exports = { generatorHealth, distortion, distortionLine, generatorCauses, MAX_LOOP_DELAY_P99_MS, MAX_LATE_SHARE }
