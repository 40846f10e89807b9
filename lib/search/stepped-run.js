'use strict'

// One rated run of a capacity search, stepped from rate to rate on the same
// connections (a fresh process per rate would pay for reconnecting at every
// step), under the search's session.

const { performance, monitorEventLoopDelay } = require('perf_hooks')

// Each step: the requests still in flight are let finish (a backlog left
// by the step before drains only at the server's margin near capacity, and
// would fail a rate it sustains), the new rate, an unrecorded warm-up,
// then the measured window, cut out of the run with its own histograms.
// The generator's own load in the window goes with it, so that a saturated
// generator is not taken for a saturated server.
class SteppedRun {
  // `controls`: what the run is stepped with, drain, setRate and cut
  // (lib/engine/run.js, or lib/engine/workers.js across threads).
  constructor (session, controls, { threads = 1, drainMs = 5000 } = {}) {
    this.session = session
    this.controls = controls
    this.threads = threads
    this.drainMs = drainMs
    // Event-loop delay is this thread's: with workers it says nothing of
    // the threads that send.
    this.loop = threads === 1 ? monitorEventLoopDelay({ resolution: 10 }) : null
  }

  // → { raws, generator: { cpu, loopDelayP99 } }, or null when stopped.
  async step ({ rate, warmup, duration }) {
    const session = this.session
    const controls = this.controls
    await controls.drain(this.drainMs)
    if (session.stopped) return null
    controls.setRate(rate)
    await session.sleep(warmup * 1000)
    await controls.cut()
    if (this.loop) {
      this.loop.reset()
      this.loop.enable()
    }
    const cpu = process.cpuUsage()
    const from = performance.now()
    await session.sleep(duration * 1000)
    const raw = await controls.cut()
    if (this.loop) this.loop.disable()
    if (session.stopped) return null
    const wall = (performance.now() - from) * 1000
    const used = process.cpuUsage(cpu)
    return {
      raws: Array.isArray(raw) ? raw : [raw],
      generator: {
        cpu: Math.round((used.user + used.system) / wall / this.threads * 1000) / 1000,
        loopDelayP99: this.loop ? Math.round(this.loop.percentile(99) / 1e4) / 100 : undefined
      }
    }
  }

  close () {
    if (this.loop) this.loop.disable()
  }
}

module.exports = { SteppedRun }
