'use strict'

// A run's worker threads, from their start to their end: started at once,
// told to go together once every one is ready, stopped on one signal, and
// ended when each has answered with its snapshot (or been dropped), or at
// the first failure. What else a worker says goes to `message`.

const path = require('path')
const { Worker } = require('worker_threads')
const { AutocannonError, raise, fromMessage } = require('../core/errors')

const WORKER_FILE = path.join(__dirname, 'worker.js')

// How long a worker still starting when the run is stopped has to become
// ready (and answer with its empty snapshot) before it is ended and the
// run ends without it: a signal does not wait for a slow start-up. A
// worker that is running is waited for, as ever.
const STOP_GRACE_MS = 1000

class WorkerGroup {
  // `count` threads of worker.js, thread i started with workerData(i).
  // hooks: go() once every thread is ready and told to go (not when the
  // run was stopped first), message(i, msg) for what the group does not
  // handle itself,
  // finished(i) when thread i has sent its snapshot, and end(err, raws)
  // once: null and the snapshots of those that answered (worker order),
  // or the failure (end may follow a success with a worker's later
  // failure).
  constructor (count, workerData, hooks) {
    this.workers = []
    this.raws = []
    // Per worker: ready (it has started), dropped (ended while starting).
    this.isReady = []
    this.dropped = []
    this.ready = 0
    this.finished = 0
    this.failed = false
    this.stopped = false
    this.ended = false
    this.stopTimer = null
    this.hooks = hooks
    for (let i = 0; i < count; i++) this.start(i, workerData(i))
  }

  start (i, workerData) {
    const worker = new Worker(WORKER_FILE, { workerData })
    this.workers.push(worker)
    worker.on('message', (msg) => this.received(i, msg))
    worker.on('error', (err) => { if (!this.dropped[i]) this.fail(raise('AC_WORKER_FAILED', `worker ${i} failed: ${err && err.message}`)) })
    worker.on('exit', (code) => {
      if (code !== 0 && this.raws[i] === undefined && !this.dropped[i]) this.fail(raise('AC_WORKER_FAILED', `worker ${i} exited with code ${code}`))
    })
  }

  received (i, msg) {
    switch (msg.type) {
      case 'ready':
        this.isReady[i] = true
        // Stopped already: each has the stop, and begins nothing.
        if (++this.ready === this.workers.length && !this.stopped) {
          for (const w of this.workers) w.postMessage({ type: 'go' })
          this.hooks.go()
        }
        break
      case 'error':
        this.failedWith(fromMessage(msg.error))
        break
      case 'done':
        this.raws[i] = msg.raw
        this.hooks.finished(i)
        this.finished++
        this.settle()
        break
      default:
        this.hooks.message(i, msg)
    }
  }

  // Options are checked in the main thread first: this is rare. An error
  // of the user's own (a setupClient that threw) is the cause of a
  // worker's failure.
  failedWith (err) {
    if (err instanceof AutocannonError) this.fail(err)
    else this.fail(Object.assign(raise('AC_WORKER_FAILED', err.message), { cause: err }))
  }

  // The snapshots of the workers that have answered, in worker order.
  answered () {
    return this.raws.filter((raw) => raw !== undefined)
  }

  // Every worker is told at once, ready or not: a worker still starting
  // reads it once it is, and stops before its run begins.
  stop () {
    if (this.stopped) return
    this.stopped = true
    for (const w of this.workers) w.postMessage({ type: 'stop' })
    this.stopTimer = setTimeout(() => this.dropStarting(), STOP_GRACE_MS)
  }

  dropStarting () {
    this.workers.forEach((w, i) => {
      if (this.isReady[i] || this.raws[i] !== undefined) return
      this.dropped[i] = true
      w.terminate()
    })
    this.settle()
  }

  // Every worker has answered, or been dropped: the run's end.
  settle () {
    const gone = this.dropped.filter(Boolean).length
    if (this.failed || this.ended || this.finished + gone < this.workers.length) return
    clearTimeout(this.stopTimer)
    const answered = this.answered()
    if (answered.length === 0) {
      this.failed = true
      return this.end(raise('AC_WORKER_FAILED', `the run was stopped, and none of its ${this.workers.length} workers had started ${STOP_GRACE_MS / 1000} s later`))
    }
    this.end(null, answered)
  }

  fail (err) {
    if (this.failed) return
    this.failed = true
    clearTimeout(this.stopTimer)
    for (const w of this.workers) w.terminate()
    this.end(err)
  }

  end (err, raws) {
    this.ended = true
    this.hooks.end(err, raws)
  }
}

module.exports = { WorkerGroup, STOP_GRACE_MS }
