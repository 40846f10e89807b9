'use strict'

// When the requests of a rate plan are meant to go, in units of the plan's
// mean gap: the scheduler turns a unit time x into milliseconds (x times
// the interval, or through a stage plan, which rescales time so that a
// ramp keeps the process's shape).
//
// uniform: request i at x = i, evenly spaced (wrk2's model). The scheduler
// uses i itself: no stream, nothing per request.
// poisson: the gaps are exponential with mean 1, so arrivals form a Poisson
// process (open-model users arriving independently, as vegeta's and k6's
// arrival-rate executors approximate). The gaps come from a seeded
// generator: the same seed gives the same send times.

const { seededRandom } = require('../core/random')

// The scheduler asks for times in order: request i, then i + 1, … and the
// next one it will wait for. Times this far behind the latest asked for
// are kept; older ones may be dropped.
const KEEP = 64

class PoissonArrivals {
  constructor (seed) {
    this.random = seededRandom(seed)
    // A ring of the drawn times, indices [low, count); it grows when the
    // draws run ahead of what has been taken (dueBy, under a backlog).
    this.times = new Float64Array(2 * KEEP)
    this.mask = this.times.length - 1
    this.count = 0
    this.last = 0
    this.low = 0
    this.due = 0 // dueBy's cursor: requests due so far
  }

  draw () {
    if (this.count - this.low > this.mask) this.grow()
    // 1 - u is in (0, 1]: the gap is finite.
    this.last -= Math.log(1 - this.random())
    this.times[this.count & this.mask] = this.last
    this.count++
  }

  grow () {
    const old = this.times
    const oldMask = this.mask
    this.times = new Float64Array(old.length * 2)
    this.mask = this.times.length - 1
    for (let i = this.low; i < this.count; i++) this.times[i & this.mask] = old[i & oldMask]
  }

  // Unit time of request i: the sum of i + 1 exponential gaps (the first
  // request comes one gap after the plan's start, as in a Poisson process).
  at (i) {
    while (this.count <= i) this.draw()
    if (i < this.low) throw new Error(`arrival ${i} was asked for after ${this.low + KEEP}: the plan only moves forward`)
    if (i - KEEP > this.low) this.low = i - KEEP
    return this.times[i & this.mask]
  }

  // How many requests are due at unit time x or before (x never goes back
  // within a plan). What was taken was due when taken, so counting starts
  // at the oldest time still kept.
  dueBy (x) {
    if (this.due < this.low) this.due = this.low
    for (;;) {
      if (this.due === this.count) this.draw()
      if (this.times[this.due & this.mask] > x) return this.due
      this.due++
    }
  }

  // A new plan from x = 0 (a search's next step); the draws go on, so each
  // step has its own times and a seed still replays them all.
  restart () {
    this.count = 0
    this.last = 0
    this.low = 0
    this.due = 0
  }
}

module.exports = { PoissonArrivals }
