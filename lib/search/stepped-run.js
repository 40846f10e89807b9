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
// The window opens only once the warm-up has kept its plan: a thread that
// paused in it (its loop monitor saw a pause long enough to hold a request
// late: other processes had the core, or its own work) must have sent what
// came due meanwhile and run this long since the pause, so that the burst
// of requests sent at once after it, answered at once, is the warm-up's.
// Opened on that burst, a window counts the warm-up's requests as its own
// (achieved above its target) and their wait as its latency, and a short
// one is settled failed on them. Checked this often, for at most
// SETTLE_MAX_MS more than the warm-up (then the window opens anyway, and
// the judge reads its generator's health).
const SETTLE_MS = 100
const SETTLE_MAX_MS = 2000
// The window's end is a timer too, and fires late by as much as the event
// loop lags: a bound on what the window can still end allows for this.
const CUT_SLACK_MS = 250

class SteppedRun {
  // `controls`: what the run is stepped with, drain, setRate, peek and cut
  // (lib/engine/run.js with controls.js, or lib/engine/workers.js across
  // threads).
  // onPeek(figures, elapsedS, reason): each peek of the window, for
  // what shows the step as it runs (reason: its settled failure, or null).
  constructor (session, controls, { drainMs = 5000, onPeek = null } = {}) {
    this.session = session
    this.controls = controls
    this.drainMs = drainMs
    this.onPeek = onPeek
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

  // → { raws, settled, behind }, or null when stopped. settled: null, or
  // { at: seconds into the window, reason } when `watch` (createEarlyVerdict)
  // found the step failed before its end. behind: null, or what held the
  // window's start when it opened behind its plan (settle).
  // pause: seconds to wait after the drain, sending nothing (a step run
  // again because the generator could not run it as planned).
  async step ({ rate, warmup, duration, pause = 0 }, watch = null) {
    const session = this.session
    const controls = this.controls
    this.checkFailure()
    await controls.drain(this.drainMs)
    this.checkFailure()
    if (session.stopped) return null
    if (pause > 0) {
      await session.sleep(pause * 1000)
      this.checkFailure()
      if (session.stopped) return null
    }
    controls.setRate(rate)
    const rated = performance.now()
    await session.sleep(warmup * 1000)
    this.checkFailure()
    const behind = await this.settle(rated)
    this.checkFailure()
    await controls.cut()
    const settled = await this.measure(duration * 1000, watch)
    this.checkFailure()
    const raw = await controls.cut()
    if (session.stopped) return null
    return { raws: Array.isArray(raw) ? raw : [raw], settled, behind }
  }

  // Waits, after the warm-up begun at `rated`, until no sending thread
  // paused in it, or each that did has caught up with its plan and run
  // SETTLE_MS since (see SETTLE_MS). → null, or when it had not after
  // SETTLE_MAX_MS, what held it: { owed, sincePauseMs, cause } of the
  // thread furthest behind (cause 'own', 'starved' or null).
  async settle (rated) {
    const session = this.session
    const until = performance.now() + SETTLE_MAX_MS
    for (;;) {
      if (session.stopped || this.failure !== null) return null
      const behind = behindOf(await this.controls.peek([], 0), performance.now() - rated)
      if (behind === null) return null
      if (performance.now() >= until) return behind
      await session.sleep(SETTLE_MS)
    }
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
      const figures = await this.controls.peek(watch.limitsMs, end - now + CUT_SLACK_MS)
      const reason = watch.settle(figures)
      if (this.onPeek !== null) this.onPeek(figures, (performance.now() - start) / 1000, reason)
      if (reason !== null) return { at: Math.round((performance.now() - start) / 100) / 10, reason }
    }
  }
}

// figures: one thread's peek, or each worker's (a missing one: no
// figures, no wait). warmedMs: how long the warm-up has run. → null when
// every thread has caught up, else the one furthest behind.
function behindOf (figures, warmedMs) {
  const list = Array.isArray(figures) ? figures : [figures]
  let worst = null
  for (const f of list) {
    if (!f || typeof f.sincePauseMs !== 'number') continue
    if (f.sincePauseMs >= warmedMs) continue
    if (f.sincePauseMs >= SETTLE_MS && !(f.owed > 0)) continue
    if (worst === null || f.owed > worst.owed) worst = { owed: f.owed || 0, sincePauseMs: Math.round(f.sincePauseMs), cause: f.pauseCause || null }
  }
  return worst
}

module.exports = { SteppedRun, SETTLE_MS, SETTLE_MAX_MS }
