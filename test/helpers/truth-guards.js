'use strict'

// What the truth guards hold a run to, whatever the machine's load: the
// generator's own work never paused it long (its CPU time tells its own
// pauses from the ones where other processes had the core, result.generator
// .pauses), and what a guard allows for pauses grows with the machine's
// (starved) pauses and the server's, never with the generator's own.
// Each guard is a function of what a run measured → a list of failures
// (empty: it holds), so that a test asserts it on a real run and a
// mutation test shows it reports a 19 ms pause of ours
// (pause-injector.js).

const { PERIOD_MS, GRANULARITY_MS } = require('../../lib/engine/loop-monitor')

// The longest pause of its own work a generator may take, on any machine:
// an interval's housekeeping (a GC, a sample) takes a few ms at most under
// load; the first-use pause this guards against took 19.
const OWN_PAUSE_MAX_MS = 10

// The generator's own work paused it less than OWN_PAUSE_MAX_MS.
function ownPauseFailures (result) {
  const p = result.generator && result.generator.pauses
  if (!p) return ['the result does not split the generator\'s pauses (no thread CPU clock)']
  if (p.own.max < OWN_PAUSE_MAX_MS) return []
  return [`the generator's own work paused it ${p.own.max} ms (limit ${OWN_PAUSE_MAX_MS} ms; ${p.own.count} pauses mostly its own, ${p.own.ms} ms of its own work in all)`]
}

// The longest pause the machine imposed on the generator, as it may have
// been: the monitor sees a pause up to one period (and a timer's
// millisecond) shorter than it was, when it began before a sample was due.
function starvedMs (result) {
  const p = result.generator.pauses
  return p && p.starved.max > 0 ? p.starved.max + PERIOD_MS + GRANULARITY_MS : 0
}

// Why a run's timing checks say nothing of the generator, measured, or
// null: the machine held it off the CPU for `overMs` or more in all.
function starvedReason (result, overMs) {
  const p = result.generator.pauses
  if (!p || p.starved.ms < overMs) return null
  return `the machine held the generator off the CPU for ${p.starved.ms} ms in ${p.starved.count} pauses (longest ${p.starved.max} ms)`
}

// Why a run's timing (when requests arrived) says nothing of the
// generator, measured, or null: the machine held it off the CPU for 150 ms
// or more in all (pauses in a row add up), or the server's answers held
// every connection (a queue that no one pause bounds). Its own pauses are
// held small all the same.
function loadedReason (result) {
  const why = []
  const starved = starvedReason(result, 150)
  if (starved) why.push(starved)
  const g = result.generator
  if (g.lateNoConnection > 0) why.push(`every connection was busy (the server's answers) when ${g.lateNoConnection} requests were due`)
  return why.length ? why.join('; ') : null
}

module.exports = { OWN_PAUSE_MAX_MS, ownPauseFailures, starvedMs, starvedReason, loadedReason }
