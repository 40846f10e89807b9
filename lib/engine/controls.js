'use strict'

// What a session steps a rated run with (lib/search/stepped-run.js: a
// capacity search's steps on the same connections): a new rate, a pause
// until nothing is in flight, a look at the window so far, and the window
// cut out with its own histograms. Across worker threads the same calls
// go by message (worker-controls.js); a worker's run answers them with these.

const { performance } = require('perf_hooks')
const { OWN, STARVED } = require('./loop-monitor')

const PAUSE_CAUSES = { 0: null, [OWN]: 'own', [STARVED]: 'starved' }

class Controls {
  // run: { recorder, scheduler (or null), connections, clock, loopMonitor,
  // ended() → whether the run is over }.
  constructor (run) {
    this.recorder = run.recorder
    this.scheduler = run.scheduler
    this.connections = run.connections
    this.clock = run.clock
    this.loopMonitor = run.loopMonitor
    this.ended = run.ended
    this.cutAt = 0
    // The rate plan's due count at the last cut (plannedSince).
    this.dueAtCut = 0
  }

  // A constant overall rate from now on.
  setRate (rate) {
    if (this.scheduler === null || this.ended()) return
    this.scheduler.setRate(rate)
  }

  // Sends nothing more until the next setRate, and resolves once no
  // request is in flight (true) or after `timeoutMs` (false): a step of a
  // search starts on a server with no backlog of the step before, as a
  // fresh run would, but on connections already open. Near capacity a
  // backlog drains at only the capacity's margin: left in, it would fail
  // a rate the server sustains.
  drain (timeoutMs) {
    if (this.scheduler === null || this.ended()) return Promise.resolve(true)
    this.scheduler.pause()
    const until = performance.now() + timeoutMs
    return new Promise((resolve) => {
      const check = () => {
        if (this.ended() || this.connections.inFlight() === 0) return resolve(true)
        if (performance.now() >= until) return resolve(false)
        setTimeout(check, 5)
      }
      check()
    })
  }

  // What was measured since the last cut (or the start), as a raw snapshot.
  cut () {
    const now = performance.now()
    const raw = this.recorder.cut(this.window(now, this.connections.inFlight(), this.loopMonitor.busy()))
    this.cutAt = now
    return raw
  }

  // The window so far, and the most requests it can end by its end,
  // `remainingMs` from now: those ended, those in flight, those the plan
  // owes and those it can still make due. What a search step's watch needs
  // to tell that its verdict is already settled. And whether the plan is
  // kept: the requests due that no connection has taken yet (owed), the ms
  // since this thread's last pause (the loop monitor's) and its cause
  // ('own', 'starved', or null: unknown).
  peek (limitsMs, remainingMs) {
    const figures = this.recorder.peek(limitsMs)
    const now = performance.now()
    const scheduler = this.scheduler
    const owed = scheduler === null ? 0 : scheduler.owed(now)
    const pending = scheduler === null ? Infinity : owed + scheduler.mostDueWithin(remainingMs)
    figures.mostEnded = figures.responses + figures.errors + this.connections.inFlight() + pending
    figures.owed = owed
    figures.sincePauseMs = now - this.loopMonitor.lastPauseAt
    figures.pauseCause = PAUSE_CAUSES[this.loopMonitor.lastPauseCause]
    return figures
  }

  // The window from the last cut (or the start) to `now`, as the
  // recorder's cut and snapshot take it.
  window (now, inFlight, busy) {
    const clock = this.clock
    return {
      start: clock.epochAt(this.cutAt || clock.beganAt),
      finish: clock.epochAt(now),
      inFlight,
      targetRate: this.scheduler ? this.scheduler.targetRate : 0,
      planned: this.plannedSince(now),
      busy
    }
  }

  // Requests the rate plan made due since the last cut (or the start).
  plannedSince (now) {
    if (this.scheduler === null) return 0
    const due = this.scheduler.dueBy(now)
    const planned = due - this.dueAtCut
    this.dueAtCut = due
    return planned
  }
}

module.exports = { Controls }
