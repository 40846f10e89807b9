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
// setRate(): a new constant plan from now on (the steps of a search);
// pause(): none until then.

const { performance } = require('perf_hooks')
const { createStagePlan } = require('./plan')

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
    this.planned = new Float64Array(config.pipelining)
    this.t0 = 0
    this.next = 0 // overall plan: index of the next request to hand out
    this.clientNext = new Float64Array(config.connections) // per-connection plans
    this.waiting = []
    this.isWaiting = new Uint8Array(config.connections)
    this.timer = null
    this.wakeAt = Infinity
    this.stopped = false
    // Paused: nothing is granted until the next setRate (a search drains
    // the requests in flight between its steps).
    this.paused = false
    this.recorder = null
  }

  // Lateness goes to the run's recorder, to be merged like latency.
  start (recorder) {
    this.recorder = recorder
    recorder.trackLateness()
  }

  timeOf (client, i) {
    if (this.plan !== null) return this.t0 + this.plan.offsetOf(i)
    if (!this.perConnection) return this.t0 + i * this.intervalMs
    // Stagger connection k by k/connections of an interval.
    return this.t0 + (i + client.index / this.connections) * this.intervalMs
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

  // Requests granted but not sent (the budget ran out) go back to the plan.
  giveBack (client, n) {
    if (this.perConnection) this.clientNext[client.index] -= n
    else this.next -= n
  }

  wait (client, due) {
    if (this.isWaiting[client.index] === 0) {
      this.isWaiting[client.index] = 1
      this.waiting.push(client)
    }
    // The plan has ended (stages): nothing more is due, ever.
    if (due === Infinity) return
    if (due < this.wakeAt) {
      if (this.timer !== null) clearTimeout(this.timer)
      this.wakeAt = due
      this.timer = setTimeout(() => this.wake(), Math.max(0, due - performance.now()))
    }
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

  // From now on, a constant overall rate: the plan restarts here, and
  // requests the old plan still owed are dropped, so a step of a search
  // starts without the backlog of the step before it.
  setRate (rate) {
    this.paused = false
    this.plan = null
    this.perConnection = false
    this.rate = rate
    this.intervalMs = 1000 / rate
    this.t0 = performance.now()
    this.next = 0
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    this.wakeAt = Infinity
    this.wake()
  }

  // Grants nothing until setRate(); waiting connections wait on.
  pause () {
    this.paused = true
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    this.wakeAt = Infinity
  }

  stop () {
    this.stopped = true
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }

  // The rate asked for, in requests per second over all connections.
  get targetRate () {
    if (this.plan !== null) return Math.round(this.plan.countAt(this.plan.totalMs) / this.plan.totalMs * 1000 * 100) / 100
    return this.perConnection ? this.rate * this.connections : this.rate
  }
}

function createScheduler (config) {
  return new Scheduler(config)
}

module.exports = { createScheduler, LATE_MS }
