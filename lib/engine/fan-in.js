'use strict'

// One question put to every worker at once, and its answer: one reply from
// each, kept in worker order and combined into one value; or, when the
// question has a time limit, a fallback once the limit passes first (a
// worker that has ended, or is stuck, answers no more). One question is
// pending at a time: asking again replaces it. workers.js asks the
// session's cuts, peeks and drains this way (worker-controls.js).

class FanIn {
  // workers: those asked, each with postMessage() (read at each question:
  // all of them); combine(answers) → the answer.
  constructor (workers, combine = (answers) => answers) {
    this.workers = workers
    this.combine = combine
    this.pending = null
  }

  // → a promise of the combined answer, or of `fallback` when `timeoutMs`
  // (null: no limit) passes before every worker has replied.
  ask (message, timeoutMs = null, fallback = null) {
    return new Promise((resolve, reject) => {
      const timer = timeoutMs === null
        ? null
        : setTimeout(() => {
          this.pending = null
          resolve(fallback)
        }, timeoutMs)
      this.pending = { answers: [], count: 0, timer, resolve, reject }
      for (const w of this.workers) w.postMessage(message)
    })
  }

  // Worker `i`'s reply. None pending (the question timed out, or was
  // answered without the workers): it is dropped.
  reply (i, value) {
    const pending = this.pending
    if (pending === null) return
    pending.answers[i] = value
    if (++pending.count === this.workers.length) this.settle(null, this.combine(pending.answers))
  }

  // The pending question, if any, answered now: rejected with `err`, or
  // resolved to `value` (the run is over: no worker will reply).
  settle (err, value) {
    const pending = this.pending
    if (pending === null) return
    this.pending = null
    clearTimeout(pending.timer)
    if (err) pending.reject(err)
    else pending.resolve(value)
  }
}

module.exports = { FanIn }
