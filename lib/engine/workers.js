'use strict'

// Fans a run out to worker threads. Each worker runs its part of the run,
// split as shards are (lib/config/split.js: connections, amount and -O
// divided exactly, rates evenly), with the config made here: it checks no
// option again. Workers start together on a signal, send a tick each
// second and, at the end, their raw snapshot with histograms encoded; the
// caller merges the snapshots losslessly.

const path = require('path')
const { Worker } = require('worker_threads')
const { workerPart, ratePart } = require('../config/split')
const { workerPreload } = require('./worker-preload')
const { AutocannonError, raise, fromMessage } = require('../core/errors')

const WORKER_FILE = path.join(__dirname, 'worker.js')

// Worker `index`'s config: its part of the run, posted as data (hooks are
// file paths with workers). This thread judges --abortOnFail on all the
// workers' figures together, and hands each worker the start time beside
// its config, to wait for on its own (worker.js).
function workerConfig (config, index) {
  return Object.freeze({ ...workerPart(config, index), abortOnFail: false, startAt: undefined })
}

// A run of a duration ends at the latest this long after its deadline
// counted from the start (its start time, if it has one), however long
// its workers took to start: start-up is not counted in the duration
// (each worker runs the whole of it, from 'go'), but it is bounded. (Two
// threads took over 10 s to start on a 2-core machine at a load of 35:
// less would fail runs that a busy machine only slowed.)
const START_ALLOWANCE_MS = 10000
// How long a worker still starting when the run is stopped has to become
// ready (and answer with its empty snapshot) before it is ended and the
// run ends without it: a signal does not wait for a slow start-up. A
// worker that is running is waited for, as ever.
const STOP_GRACE_MS = 1000

function runWorkers (config, events, prepared, done) {
  const workers = []
  const raws = []
  // Per worker: ready (it has started), dropped (ended while starting).
  const isReady = []
  const dropped = []
  let ready = 0
  let finished = 0
  let failed = false
  let stopped = false
  let tick = { counter: 0, bytes: 0 }
  // A session's cut: one raw snapshot per worker, then resolve.
  let cutting = null
  let peeking = null
  let draining = null
  const ticker = setInterval(() => {
    events.emit('tick', tick)
    tick = { counter: 0, bytes: 0 }
  }, 1000)

  // --abortOnFail: the thresholds held to all workers' figures together.
  const abort = config.abortOnFail ? abortWatch(config, events) : null
  // Every worker is told at once, ready or not: a worker still starting
  // reads it once it is, and stops before its run begins.
  let stopTimer = null
  const stopAll = () => {
    if (stopped) return
    stopped = true
    for (const w of workers) w.postMessage({ type: 'stop' })
    stopTimer = setTimeout(dropStarting, STOP_GRACE_MS)
  }
  const dropStarting = () => {
    workers.forEach((w, i) => {
      if (isReady[i] || raws[i] !== undefined) return
      dropped[i] = true
      w.terminate()
    })
    settle()
  }
  // Every worker has answered, or been dropped: the run's end.
  const settle = () => {
    const gone = dropped.filter(Boolean).length
    if (failed || over || finished + gone < workers.length) return
    clearInterval(ticker)
    clearTimeout(deadline)
    clearTimeout(stopTimer)
    const answered = raws.filter((raw) => raw !== undefined)
    if (answered.length === 0) {
      failed = true
      const err = raise('AC_WORKER_FAILED', `the run was stopped, and none of its ${workers.length} workers had started ${STOP_GRACE_MS / 1000} s later`)
      endControls(err)
      return done(err)
    }
    if (tick.counter || tick.bytes) events.emit('tick', tick)
    if (abort !== null && abort.aborted !== null) answered[0].aborted = abort.aborted
    endControls(null)
    done(null, answered)
  }
  // The deadline, armed now: a run of a duration ends by then, whatever
  // its workers' start-up took.
  const wait = config.startAt === undefined ? 0 : Math.max(0, config.startAt - Date.now())
  const deadline = config.amount || !(config.duration > 0)
    ? null
    : setTimeout(stopAll, wait + config.duration * 1000 + START_ALLOWANCE_MS)

  // Once the run has ended (stopped, or failed), a worker answers no
  // more: what a session is waiting for is answered here instead. A cut
  // gets the workers' last snapshots (or the failure), a peek no bound, a
  // drain done. Without this a search stopped mid-step waited forever.
  let over = null
  const endControls = (err) => {
    over = { err }
    if (cutting) {
      const pending = cutting
      cutting = null
      if (err) pending.reject(err)
      else pending.resolve(raws.filter((raw) => raw !== undefined))
    }
    if (peeking) peeking.resolve(null)
    if (draining) draining.resolve(true)
  }

  const fail = (err) => {
    if (failed) return
    failed = true
    clearInterval(ticker)
    clearTimeout(deadline)
    clearTimeout(stopTimer)
    for (const w of workers) w.terminate()
    endControls(err)
    done(err)
  }

  for (let i = 0; i < config.workers; i++) {
    const worker = new Worker(WORKER_FILE, { workerData: { config: workerConfig(config, i), startAt: config.startAt, reportSamples: abort !== null, preload: workerPreload() } })
    workers.push(worker)
    worker.on('message', (msg) => {
      switch (msg.type) {
        case 'ready':
          isReady[i] = true
          // Stopped already: each has the stop, and begins nothing.
          if (++ready === workers.length && !stopped) {
            for (const w of workers) w.postMessage({ type: 'go' })
          }
          break
        case 'tick':
          tick.counter += msg.counter
          tick.bytes += msg.bytes
          break
        case 'reqError':
          if (events.listenerCount('reqError') > 0) events.emit('reqError', fromMessage(msg.error))
          break
        case 'error': {
          // Options are checked in this thread first: this is rare. An
          // error of the user's own (a setupClient that threw) is the
          // cause of a worker's failure.
          const err = fromMessage(msg.error)
          if (err instanceof AutocannonError) fail(err)
          else fail(Object.assign(raise('AC_WORKER_FAILED', err.message), { cause: err }))
          break
        }
        case 'cut':
          if (cutting) {
            cutting.raws[i] = msg.raw
            if (++cutting.count === workers.length) {
              const { resolve, raws: cut } = cutting
              cutting = null
              resolve(cut)
            }
          }
          break
        case 'peek':
          if (peeking) {
            peeking.figures[i] = msg.figures
            if (++peeking.count === workers.length) {
              const { resolve, figures } = peeking
              peeking = null
              resolve(figures)
            }
          }
          break
        case 'drained':
          if (draining) {
            draining.drained = draining.drained && msg.drained
            if (++draining.count === workers.length) {
              const { resolve, drained } = draining
              draining = null
              resolve(drained)
            }
          }
          break
        case 'sample':
          if (abort !== null && abort.add(i, msg)) stopAll()
          break
        case 'done':
          raws[i] = msg.raw
          if (abort !== null) abort.finished(i)
          finished++
          settle()
          break
      }
    })
    worker.on('error', (err) => { if (!dropped[i]) fail(raise('AC_WORKER_FAILED', `worker ${i} failed: ${err && err.message}`)) })
    worker.on('exit', (code) => {
      if (code !== 0 && raws[i] === undefined && !dropped[i]) fail(raise('AC_WORKER_FAILED', `worker ${i} exited with code ${code}`))
    })
  }

  return {
    emitResponses: false,
    // A search's step rate is the whole run's: each worker plans its part,
    // as the split gave each its part of the first.
    setRate (rate) {
      for (const w of workers) w.postMessage({ type: 'setRate', rate: ratePart(rate, workers.length) })
    },
    // A worker stuck without answering: the wait is bounded anyway.
    drain (timeoutMs) {
      if (over) return Promise.resolve(true)
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          draining = null
          resolve(false)
        }, timeoutMs + 1000)
        draining = { drained: true, count: 0, resolve: (drained) => { clearTimeout(timer); draining = null; resolve(drained) } }
        for (const w of workers) w.postMessage({ type: 'drain', timeoutMs })
      })
    },
    cut () {
      if (over) return over.err ? Promise.reject(over.err) : Promise.resolve(raws.filter((raw) => raw !== undefined))
      return new Promise((resolve, reject) => {
        cutting = { raws: [], count: 0, resolve, reject }
        for (const w of workers) w.postMessage({ type: 'cut' })
      })
    },
    // Each worker's window so far (Run.peek), in worker order; null when
    // one has not answered within a second (it has ended, or is stuck):
    // a sum without it would be no bound.
    peek (limitsMs, remainingMs) {
      if (over) return Promise.resolve(null)
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          peeking = null
          resolve(null)
        }, 1000)
        peeking = { figures: [], count: 0, resolve: (figures) => { clearTimeout(timer); peeking = null; resolve(figures) } }
        for (const w of workers) w.postMessage({ type: 'peek', limitsMs, remainingMs })
      })
    },
    stop: stopAll
  }
}

// Each worker's samples: its interval's latency is added to one live
// histogram, its counts so far kept; once every running worker has sent
// a sample, the thresholds are checked on the sum. add() → true when one
// failed (the verdict in `aborted`, the 'abort' event emitted).
function abortWatch (config, events) {
  const { createAbortCheck, abortedAt } = require('../results/abort-check')
  const { createLatencyHistogram, addEncoded } = require('../results/histogram')
  const check = createAbortCheck(config.thresholds, config.abortAfter)
  const rated = !!(config.connectionRate || config.overallRate || config.stages)
  const latency = createLatencyHistogram()
  const figures = new Array(config.workers).fill(null)
  const samples = new Array(config.workers).fill(0)
  const running = new Array(config.workers).fill(true)
  const watch = {
    aborted: null,
    add (i, msg) {
      if (watch.aborted !== null) return false
      addEncoded(latency, msg.latency)
      figures[i] = msg.figures
      samples[i]++
      // Judged at the sample every running worker has reached.
      const k = Math.min(...samples.filter((n, j) => running[j]))
      if (k < samples[i]) return false
      const total = { completed: 0, sent: 0, errors: 0, timeouts: 0, non2xx: 0, bytes: 0 }
      for (const f of figures) if (f !== null) for (const key of Object.keys(total)) total[key] += f[key]
      const failed = check.figures(total, latency, msg.elapsedS, rated)
      if (failed === null) return false
      watch.aborted = abortedAt(failed, msg.elapsedS)
      events.emit('abort', watch.aborted)
      return true
    },
    finished (i) {
      running[i] = false
    }
  }
  return watch
}

module.exports = { runWorkers, workerConfig }
