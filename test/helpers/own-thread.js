'use strict'

// What the test's own thread went through while a capacity search ran in
// it, step by step: event-loop delay (perf_hooks' monitor, not the
// generator's) and the process's CPU share. A search that calls a step
// generator-bound is believed only when these, measured by the test
// itself, show the thread starved or saturated in that step: never on
// the word of the verdict under test.

const { performance, monitorEventLoopDelay } = require('perf_hooks')

// A loop held up 20 ms at p99 delays 1% of sends or reads by as much:
// enough to move a p99 SLO of a few tens of ms. CPU: 90% of one thread.
const STARVED_LOOP_P99_MS = 20
const SATURATED_CPU = 0.9
const RESOLUTION_MS = 5

function watchOwnThread (search) {
  const loop = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
  loop.enable()
  let cpu = process.cpuUsage()
  let wall = performance.now()
  const steps = []
  // The closed-loop probe (all its tries) counts as a step of its own:
  // generator-bound when the search found it starved in each.
  search.on('probe', (probe) => seen({ target: `probe ${probe.ceiling}`, verdict: probe.starved ? 'generator-bound' : 'probe' }))
  search.on('step', (step) => seen(step))
  function seen (step) {
    const now = performance.now()
    const used = process.cpuUsage(cpu)
    steps.push({
      target: step.target,
      verdict: step.verdict,
      // Node counts the time between its checks: the delay is what
      // exceeds the resolution.
      loopP99: loop.count ? Math.max(0, loop.percentile(99) / 1e6 - RESOLUTION_MS) : 0,
      cpu: (used.user + used.system) / 1000 / (now - wall)
    })
    loop.reset()
    cpu = process.cpuUsage()
    wall = now
  }
  search.then(() => loop.disable(), () => loop.disable())
  return steps
}

// Why a search that ended generator-bound was bounded by this machine, as
// the test measured it, or null when some rate charged to the generator
// shows neither a held-up loop nor a saturated CPU in any of its tries (a
// rate the generator could not run as planned is tried again: one try
// seen starved by this test is enough, the others may have been starved
// for fewer requests than this test's p99 sees).
function starvedReason (own) {
  const bound = own.filter((s) => s.verdict === 'generator-bound')
  if (bound.length === 0) return null
  const shows = (s) => s.loopP99 >= STARVED_LOOP_P99_MS || s.cpu >= SATURATED_CPU
  const rates = new Set(bound.map((s) => s.target))
  const shown = [...rates].every((rate) => bound.some((s) => s.target === rate && shows(s)))
  if (!shown) return null
  return bound.map((s) => `${s.target} req/s: own loop delay p99 ${s.loopP99.toFixed(1)} ms, CPU ${Math.round(s.cpu * 100)}%`).join('; ')
}

function describe (own) {
  return own.map((s) => `${s.target} ${s.verdict} (loop p99 ${s.loopP99.toFixed(1)} ms, CPU ${Math.round(s.cpu * 100)}%)`).join(', ')
}

module.exports = { watchOwnThread, starvedReason, describe, STARVED_LOOP_P99_MS }
