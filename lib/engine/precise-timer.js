'use strict'

// A one-shot timer that fires within tens of microseconds of its time.
// Node's timers count whole milliseconds (a delay under 1 ms is 1 ms, and
// a timer fires on the loop's millisecond clock), so sends planned closer
// than a millisecond apart would leave together on the same wake-up: at
// -R 500 of Poisson arrivals, the gaps a server sees are then far from
// exponential. Spinning until the due time would cost a core at such rates.
// Instead a helper thread sleeps on a futex until just before the due time
// (Atomics.wait takes fractional milliseconds) and posts a message, which
// wakes this thread's event loop at once. Between wake-ups both threads
// sleep.
//
// A wake-up takes time itself (the futex's timer slack, the message).
// Were the helper to wake at the due time, every send would leave that
// much late, and sends planned closer together than that would leave
// together. So the helper wakes earlier by the wake-up's own recent
// lateness (`lead`, their running median), and the little that is left, at
// most SPIN_MS, is waited out here by spinning on the clock; a time that
// close when armed is waited for the same way, after the current turn of
// the event loop (setImmediate) rather than through the helper.
//
// arm(at): fire once at performance.now() ms `at` (re-arming replaces the
// time); cancel(); close(). onFire runs on this thread, never before `at`.
// The helper takes some milliseconds to start: until it says it runs, and
// should it stop, an ordinary timer set for the same time fires instead.

const { Worker } = require('worker_threads')
const { performance } = require('perf_hooks')

// The helper thread. Shared state: ctl[0] a generation, bumped on every
// arm, cancel and close (the helper sleeps on it); ctl[1] set once closed;
// due[0] the due time, Infinity when disarmed. The due time is a float
// that two threads share: read between two reads of the same generation
// (a seqlock), it cannot be half of one write and half of another.
// performance.now() counts from the process's time origin in every thread.
const HELPER = `
const { workerData, parentPort } = require('worker_threads')
const { performance } = require('perf_hooks')
const ctl = new Int32Array(workerData, 0, 2)
const due = new Float64Array(workerData, 8, 1)
parentPort.postMessage(-1)
for (;;) {
  const gen = Atomics.load(ctl, 0)
  if (Atomics.load(ctl, 1) === 1) break
  const at = due[0]
  if (Atomics.load(ctl, 0) !== gen) continue
  const left = at - performance.now()
  if (at === Infinity) Atomics.wait(ctl, 0, gen)
  else if (left > 0) Atomics.wait(ctl, 0, gen, left)
  else {
    parentPort.postMessage(gen)
    // Fired: nothing more until the next arm.
    Atomics.wait(ctl, 0, gen)
  }
}
`

// The most this thread spins for a due time (ms), and the bounds of the
// helper's lead.
const SPIN_MS = 0.25
const MAX_LEAD_MS = 0.2
const FIRST_LEAD_MS = 0.05
const LEAD_STEP_MS = 0.002

class PreciseTimer {
  constructor (onFire) {
    this.onFire = onFire
    const shared = new SharedArrayBuffer(16)
    this.ctl = new Int32Array(shared, 0, 2)
    this.due = new Float64Array(shared, 8, 1)
    this.due[0] = Infinity
    this.at = Infinity
    this.fallback = null
    this.helped = false
    this.lead = FIRST_LEAD_MS
    // When the helper was asked to wake, and whether a setImmediate waits.
    this.wakeAt = Infinity
    this.immediate = null
    this.fire = () => this.fired()
    this.near = () => {
      this.immediate = null
      this.arrived()
    }
    this.worker = new Worker(HELPER, { eval: true, workerData: shared, stdout: true, stderr: true })
    this.worker.on('message', (gen) => {
      if (gen === -1) {
        this.helped = true
        this.clearFallback()
      } else if (gen === Atomics.load(this.ctl, 0) && this.at !== Infinity) {
        // The lead follows the median lateness of the wake-ups (a step
        // towards each): a busy turn of the loop that delays one message
        // moves it by a step, not by its whole delay.
        const late = performance.now() - this.wakeAt
        this.lead = Math.min(MAX_LEAD_MS, Math.max(0, this.lead + (late > this.lead ? LEAD_STEP_MS : -LEAD_STEP_MS)))
        this.arrived()
      }
    })
    // Without its helper the timer still fires, on the fallback alone.
    this.worker.on('error', () => {})
    this.worker.on('exit', () => {
      this.helped = false
      if (this.at !== Infinity) this.setFallback()
    })
    // The helper holds the process open only while armed, as a timer
    // does (unref'd after the listeners: a 'message' listener refs it).
    this.worker.unref()
    this.reffed = false
  }

  arm (at) {
    this.at = at
    if (!this.helped) {
      this.setFallback()
      this.wake(at)
      return
    }
    if (at - this.lead - performance.now() <= 0) {
      // Too close for the helper: after this turn of the loop.
      if (this.wakeAt !== Infinity) this.wake(Infinity)
      if (this.immediate === null) this.immediate = setImmediate(this.near)
      return
    }
    this.wake(at - this.lead)
  }

  // The helper's wake-up time (Infinity: none), and the process held open
  // while one is due.
  wake (at) {
    this.wakeAt = at
    this.due[0] = at
    this.bump()
    if (!this.reffed) {
      this.reffed = true
      this.worker.ref()
    }
  }

  // The helper woke, or an immediate ran: fire, after spinning out what
  // is left, or wait on when too much is.
  arrived () {
    const at = this.at
    if (at === Infinity) return
    if (at - performance.now() > SPIN_MS) return this.arm(at)
    while (performance.now() < at) { /* at most SPIN_MS */ }
    this.fired()
  }

  disarmed () {
    this.at = Infinity
    this.wakeAt = Infinity
    this.due[0] = Infinity
    this.clearFallback()
    if (this.immediate !== null) clearImmediate(this.immediate)
    this.immediate = null
    if (this.reffed) {
      this.reffed = false
      this.worker.unref()
    }
  }

  setFallback () {
    this.clearFallback()
    this.fallback = setTimeout(this.fire, Math.max(1, Math.ceil(this.at - performance.now())))
  }

  clearFallback () {
    if (this.fallback !== null) clearTimeout(this.fallback)
    this.fallback = null
  }

  fired () {
    if (this.at === Infinity) return
    // The fallback may wake before its time (Node's timers round); the
    // helper never does.
    if (performance.now() < this.at) {
      this.fallback = setTimeout(this.fire, 1)
      return
    }
    // Disarmed without waking the helper: having fired, it sleeps until
    // the next arm (and should the fallback have fired first, the helper's
    // late message finds nothing armed).
    this.disarmed()
    this.onFire()
  }

  cancel () {
    if (this.at === Infinity) return
    this.disarmed()
    this.bump()
  }

  bump () {
    Atomics.add(this.ctl, 0, 1)
    Atomics.notify(this.ctl, 0)
  }

  close () {
    this.cancel()
    Atomics.store(this.ctl, 1, 1)
    this.bump()
  }
}

module.exports = { PreciseTimer }
