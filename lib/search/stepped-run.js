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
// While the window runs, a watch (early-verdict.js) looks at it every
// PEEK_MS: once its failure is settled, the window is cut there.

const { performance } = require('perf_hooks')

const PEEK_MS = 250
// The window's end is a timer too, and fires late by as much as the event
// loop lags: a bound on what the window can still end allows for this.
const CUT_SLACK_MS = 250

class SteppedRun {
  // `controls`: what the run is stepped with, drain, setRate, peek and cut
  // (lib/engine/run.js with controls.js, or lib/engine/workers.js across
  // threads).
  constructor (session, controls, { drainMs = 5000 } = {}) {
    this.session = session
    this.controls = controls
    this.drainMs = drainMs
    // The run's failure (a worker that died, a hook that ended it): the
    // step under way ends with it at once, not at its window's end.
    this.failure = null
  }

  fail (err) {
    if (this.failure !== null) return
    this.failure = err
    this.session.wake()
  }

  checkFailure () {
    if (this.failure !== null) throw this.failure
  }

  // → { raws, settled }, or null when stopped. settled: null, or
  // { at: seconds into the window, reason } when `watch` (createEarlyVerdict)
  // found the step failed before its end.
  async step ({ rate, warmup, duration }, watch = null) {
    const session = this.session
    const controls = this.controls
    this.checkFailure()
    await controls.drain(this.drainMs)
    this.checkFailure()
    if (session.stopped) return null
    controls.setRate(rate)
    await session.sleep(warmup * 1000)
    this.checkFailure()
    await controls.cut()
    const settled = await this.measure(duration * 1000, watch)
    this.checkFailure()
    const raw = await controls.cut()
    if (session.stopped) return null
    return { raws: Array.isArray(raw) ? raw : [raw], settled }
  }

  async measure (windowMs, watch) {
    const session = this.session
    const start = performance.now()
    const end = start + windowMs
    if (watch === null) {
      await session.sleep(windowMs)
      return null
    }
    for (;;) {
      const left = end - performance.now()
      if (left <= 0 || session.stopped || this.failure !== null) return null
      await session.sleep(Math.min(PEEK_MS, left))
      if (session.stopped || this.failure !== null) return null
      const now = performance.now()
      // Less than a peek's interval left: stopping would spare nothing.
      if (end - now < PEEK_MS) continue
      const reason = watch.settle(await this.controls.peek(watch.limitsMs, end - now + CUT_SLACK_MS))
      if (reason !== null) return { at: Math.round((performance.now() - start) / 100) / 10, reason }
    }
  }
}

module.exports = { SteppedRun }
