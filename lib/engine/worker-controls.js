'use strict'

// What a session steps a run across worker threads with: the calls of
// controls.js (setRate, drain, cut, peek), put to every worker by message
// (worker.js answers each with its own run's) and their replies gathered
// (fan-in.js). Once the run has ended (stopped, or failed), a worker
// answers no more: what a session is waiting for, or asks later, is
// answered here instead. A cut gets the workers' last snapshots (or the
// failure), a peek no bound, a drain done. Without this, a search stopped
// mid-step would wait forever.

const { ratePart } = require('../config/split')
const { FanIn } = require('./fan-in')

// How long a peek waits for every worker's figures.
const PEEK_WAIT_MS = 1000
// How much longer than its own limit a drain waits for every worker's
// answer (each worker bounds its own drain by the limit).
const DRAIN_SLACK_MS = 1000

class WorkerControls {
  // workers: the run's threads (postMessage); answered() → the snapshots
  // of the workers that have ended with one, in worker order.
  constructor (workers, answered) {
    this.workers = workers
    this.answered = answered
    // { err } once the run is over.
    this.over = null
    this.cuts = new FanIn(workers)
    this.peeks = new FanIn(workers)
    this.drains = new FanIn(workers, (answers) => answers.every(Boolean))
  }

  // A search's step rate is the whole run's: each worker plans its part,
  // as the split gave each its part of the first.
  setRate (rate) {
    for (const w of this.workers) w.postMessage({ type: 'setRate', rate: ratePart(rate, this.workers.length) })
  }

  // A worker stuck without answering: the wait is bounded anyway.
  drain (timeoutMs) {
    if (this.over) return Promise.resolve(true)
    return this.drains.ask({ type: 'drain', timeoutMs }, timeoutMs + DRAIN_SLACK_MS, false)
  }

  // One raw snapshot per worker, in worker order.
  cut () {
    const over = this.over
    if (over) return over.err ? Promise.reject(over.err) : Promise.resolve(this.answered())
    return this.cuts.ask({ type: 'cut' })
  }

  // Each worker's window so far (Run.peek), in worker order; null when
  // one has not answered within PEEK_WAIT_MS (it has ended, or is stuck):
  // a sum without it would be no bound.
  peek (limitsMs, remainingMs) {
    if (this.over) return Promise.resolve(null)
    return this.peeks.ask({ type: 'peek', limitsMs, remainingMs }, PEEK_WAIT_MS, null)
  }

  // Worker `i`'s reply to one of the above (anything else is ignored).
  reply (i, msg) {
    if (msg.type === 'cut') this.cuts.reply(i, msg.raw)
    else if (msg.type === 'peek') this.peeks.reply(i, msg.figures)
    else if (msg.type === 'drained') this.drains.reply(i, msg.drained)
  }

  // The run is over, with `err` (or null): what is pending is answered.
  end (err) {
    this.over = { err }
    this.cuts.settle(err, this.answered())
    this.peeks.settle(null, null)
    this.drains.settle(null, true)
  }
}

module.exports = { WorkerControls }
