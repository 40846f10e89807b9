'use strict'

// One rated run of a capacity search, stepped from rate to rate on the same
// connections (a fresh process per rate would pay for reconnecting at every
// step), under the search's session.

// Each step: the requests still in flight are let finish (a backlog left
// by the step before drains only at the server's margin near capacity, and
// would fail a rate it sustains), the new rate, an unrecorded warm-up,
// then the measured window, cut out of the run with its own histograms.
// The generator's own health in the window goes with it (each sending
// thread's event-loop delay and busy share, lib/engine/loop-monitor.js),
// so that a saturated generator is not taken for a saturated server.
class SteppedRun {
  // `controls`: what the run is stepped with, drain, setRate and cut
  // (lib/engine/run.js, or lib/engine/workers.js across threads).
  constructor (session, controls, { drainMs = 5000 } = {}) {
    this.session = session
    this.controls = controls
    this.drainMs = drainMs
  }

  // → { raws }, or null when stopped.
  async step ({ rate, warmup, duration }) {
    const session = this.session
    const controls = this.controls
    await controls.drain(this.drainMs)
    if (session.stopped) return null
    controls.setRate(rate)
    await session.sleep(warmup * 1000)
    await controls.cut()
    await session.sleep(duration * 1000)
    const raw = await controls.cut()
    if (session.stopped) return null
    return { raws: Array.isArray(raw) ? raw : [raw] }
  }
}

module.exports = { SteppedRun }
