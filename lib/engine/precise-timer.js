'use strict'

// A one-shot timer that fires within tens of microseconds of its time.
// Node's timers count whole milliseconds (a delay under 1 ms is 1 ms, and
// a timer fires on the loop's millisecond clock), so sends planned closer
// than a millisecond apart would leave together on the same wake-up: at
// -R 500 of Poisson arrivals, the gaps a server sees are then far from
// exponential. Spinning until the due time would cost a core at such rates.
// Instead a helper thread sleeps on a futex until the due time
// (Atomics.wait takes fractional milliseconds) and posts a message, which
// wakes this thread's event loop at once. Its cost is one message per
// wake-up; between wake-ups both threads sleep.
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
    this.fire = () => this.fired()
    this.worker = new Worker(HELPER, { eval: true, workerData: shared, stdout: true, stderr: true })
    this.worker.on('message', (gen) => {
      if (gen === -1) {
        this.helped = true
        this.clearFallback()
      } else if (gen === Atomics.load(this.ctl, 0)) {
        this.fired()
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
    this.due[0] = at
    this.bump()
    if (!this.reffed) {
      this.reffed = true
      this.worker.ref()
    }
    if (!this.helped) this.setFallback()
  }

  disarmed () {
    this.at = Infinity
    this.due[0] = Infinity
    this.clearFallback()
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
