'use strict'

// The rate plan (wrk2's model): request i is meant to go at
// start + i / rate. A request goes out once its time has come and a
// connection is free; if none is free it waits, keeping its intended time,
// so latency measured from that time shows the wait (no coordinated
// omission). One timer wakes waiting connections at the next due time:
// nothing spins while idle.
//
// overallRate: one plan shared by all connections.
// connectionRate: one plan per connection, phases staggered so that the
// connections together are evenly spaced too.
// stages: one shared plan whose rate ramps from stage to stage (plan.js).
// arrivals: 'uniform' (evenly spaced) or 'poisson' (exponential gaps from
// a seeded stream per plan, arrivals.js); a plan's times are its unit
// times scaled to milliseconds, so stages and setRate work alike for both.
// setRate(): a new constant plan from now on (the steps of a search);
// pause(): none until then.
// Poisson gaps are often under a millisecond, which Node's timers cannot
// tell apart: a Poisson plan wakes on a precise timer (precise-timer.js)
// instead. Evenly spaced sends keep Node's timers, within a millisecond
// of their plan.

const { performance } = require('perf_hooks')
const { createStagePlan } = require('./plan')
const { PoissonArrivals } = require('./arrivals')
const { PreciseTimer } = require('./precise-timer')
const { streamSeed } = require('../core/random')

// A request that leaves more than this after its planned time is "late":
// the generator or the connections could not keep up with the plan.
const LATE_MS = 5

class Scheduler {
  constructor (config) {
    this.perConnection = !!config.connectionRate
    this.rate = config.connectionRate || config.overallRate
    this.intervalMs = 1000 / this.rate
    this.plan = config.stages ? createStagePlan(config.stages, config.overallRate) : null
    this.connections = config.connections
    // Poisson: one stream for the shared plan, or one per connection (the
    // sum of independent Poisson processes is one at their total rate).
    this.streams = config.arrivals === 'poisson' ? poissonStreams(config, this.perConnection ? config.connections : 1) : null
    this.planned = new Float64Array(config.pipelining)
    this.t0 = 0
    this.next = 0 // overall plan: index of the next request to hand out
    this.clientNext = new Float64Array(config.connections) // per-connection plans
    this.waiting = []
    this.isWaiting = new Uint8Array(config.connections)
    this.timer = null
    this.precise = this.streams !== null ? new PreciseTimer(() => this.wake()) : null
    this.wakeAt = Infinity
    this.stopped = false
    // Paused: nothing is granted until the next setRate (a search drains
    // the requests in flight between its steps).
    this.paused = false
    this.recorder = null
    // Requests due under the plans before the current one (setRate starts
    // a new plan; pause freezes the count).
    this.dueBefore = 0
  }

  // Lateness goes to the run's recorder, to be merged like latency.
  start (recorder) {
    this.recorder = recorder
    recorder.trackLateness()
  }

  // Request i's unit time (in mean gaps from the plan's start).
  unitOf (client, i) {
    if (this.streams !== null) return this.streams[this.perConnection ? client.index : 0].at(i)
    // Uniform: stagger connection k by k/connections of an interval.
    return this.perConnection ? i + client.index / this.connections : i
  }

  timeOf (client, i) {
    const x = this.unitOf(client, i)
    if (this.plan !== null) return this.t0 + this.plan.offsetOf(x)
    return this.t0 + x * this.intervalMs
  }

  // Grants up to n requests whose planned time has come; their planned
  // times are left in `planned`.
  take (client, n) {
    if (this.stopped) return 0
    if (this.paused) {
      this.wait(client, Infinity)
      return 0
    }
    const now = performance.now()
    // The plan starts when the first connection is ready to send, not
    // while sockets are still connecting (which would open with a burst).
    if (this.t0 === 0) this.t0 = now
    const idx = this.perConnection ? this.clientNext[client.index] : this.next
    const recorder = this.recorder
    let k = 0
    while (k < n) {
      const t = this.timeOf(client, idx + k)
      if (t > now) break
      this.planned[k] = t
      const lateBy = now - t
      recorder.planned(lateBy, lateBy > LATE_MS)
      k++
    }
    if (this.perConnection) this.clientNext[client.index] = idx + k
    else this.next = idx + k
    if (k < n) this.wait(client, this.timeOf(client, idx + k))
    return k
  }

  wait (client, due) {
    if (this.isWaiting[client.index] === 0) {
      this.isWaiting[client.index] = 1
      this.waiting.push(client)
    }
    // The plan has ended (stages): nothing more is due, ever.
    if (due === Infinity) return
    if (due < this.wakeAt) {
      this.wakeAt = due
      if (this.precise !== null) return this.precise.arm(due)
      if (this.timer !== null) clearTimeout(this.timer)
      this.timer = setTimeout(() => this.wake(), Math.max(0, due - performance.now()))
    }
  }

  disarm () {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    if (this.precise !== null) this.precise.cancel()
    this.wakeAt = Infinity
  }

  wake () {
    this.timer = null
    this.wakeAt = Infinity
    if (this.stopped) return
    const clients = this.waiting
    this.waiting = []
    for (const c of clients) this.isWaiting[c.index] = 0
    // Each pump takes what is due and re-registers the client if it still
    // has room, which re-arms the timer for the next due request.
    for (const c of clients) c.pump()
  }

  // Requests the plans have made due up to `now`, since the run began:
  // what a window's achieved rate is held to (a Poisson plan's count is
  // random; this is the count it drew).
  dueBy (now) {
    if (this.paused || this.t0 === 0) return this.dueBefore
    const elapsed = now - this.t0
    if (elapsed < 0) return this.dueBefore
    // Unit time reached (uniform request i is due at unit time i).
    const x = this.plan !== null ? this.plan.countAt(Math.min(elapsed, this.plan.totalMs)) : elapsed / this.intervalMs
    let due = 0
    if (this.streams !== null) {
      for (const stream of this.streams) due += stream.dueBy(x)
    } else if (this.perConnection) {
      for (let k = 0; k < this.connections; k++) {
        const xk = x - k / this.connections
        if (xk >= 0) due += Math.floor(xk) + 1
      }
    } else {
      due = Math.floor(x) + 1
      // A stage plan ends: nothing is due beyond its last request.
      if (this.plan !== null) due = Math.min(due, Math.ceil(this.plan.countAt(this.plan.totalMs)))
    }
    return this.dueBefore + due
  }

  // Requests due by `now` that no connection has taken yet (all were busy).
  owed (now) {
    let taken = this.next
    if (this.perConnection) {
      taken = 0
      for (let k = 0; k < this.connections; k++) taken += this.clientNext[k]
    }
    return Math.max(0, this.dueBy(now) - this.dueBefore - taken)
  }

  // The most requests the plan can make due in the next `ms`: a bound, not
  // a draw (a Poisson plan's count is not known before it is drawn, and
  // its draws only move forward). Even spacing: rate × time, plus one per
  // plan for the boundary. Poisson: 8 standard deviations above the mean
  // as well, a count exceeded with a chance below 1e-14.
  mostDueWithin (ms) {
    if (this.paused || this.stopped) return 0
    // A stage plan's rate moves: no bound (a search's steps never have one).
    if (this.plan !== null) return Infinity
    const mean = this.targetRate * ms / 1000
    const plans = this.perConnection ? this.connections : 1
    return Math.ceil(mean + plans + (this.streams !== null ? 8 * Math.sqrt(mean) : 0))
  }

  // From now on, a constant overall rate: the plan restarts here, and
  // requests the old plan still owed are dropped, so a step of a search
  // starts without the backlog of the step before it.
  setRate (rate) {
    if (!this.paused) this.dueBefore = this.dueBy(performance.now())
    this.paused = false
    this.plan = null
    this.perConnection = false
    this.rate = rate
    this.intervalMs = 1000 / rate
    this.t0 = performance.now()
    this.next = 0
    if (this.streams !== null) {
      // One overall plan from now on: one stream.
      this.streams = [this.streams[0]]
      this.streams[0].restart()
    }
    this.disarm()
    this.wake()
  }

  // Grants nothing until setRate(); waiting connections wait on.
  pause () {
    if (!this.paused) this.dueBefore = this.dueBy(performance.now())
    this.paused = true
    this.disarm()
  }

  stop () {
    this.stopped = true
    this.disarm()
    if (this.precise !== null) this.precise.close()
  }

  // The rate asked for, in requests per second over all connections.
  get targetRate () {
    if (this.plan !== null) return Math.round(this.plan.countAt(this.plan.totalMs) / this.plan.totalMs * 1000 * 100) / 100
    return this.perConnection ? this.rate * this.connections : this.rate
  }
}

// Streams seeded by the run's seed and where they run, so that shards,
// workers and connections each draw their own gaps.
function poissonStreams (config, count) {
  const streams = []
  for (let k = 0; k < count; k++) streams.push(new PoissonArrivals(streamSeed(config.seed, config.shardIndex, config.workerIndex, k)))
  return streams
}

function createScheduler (config) {
  return new Scheduler(config)
}

module.exports = { createScheduler, LATE_MS }
