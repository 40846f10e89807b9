'use strict'

// Fans a run out to worker threads. Each worker runs its part of the run,
// split as shards are (lib/config/split.js: connections, amount and -O
// divided exactly, rates evenly), with the config made here: it checks no
// option again. Workers start together on a signal, send a tick each
// second and, at the end, their raw snapshot with histograms encoded; the
// caller merges the snapshots losslessly.
//
// runWorkers wires the parts: the threads' lives (worker-group.js), their
// ticks summed (progress-ticks.js), a session's controls put to each and
// answered together (worker-controls.js, fan-in.js), --abortOnFail judged
// on all their figures (abort-watch.js), and the run's deadline.

const { workerPart } = require('../config/split')
const { workerPreload } = require('./worker-preload')
const { fromMessage } = require('../core/errors')
const { WorkerGroup } = require('./worker-group')
const { ProgressTicks } = require('./progress-ticks')
const { WorkerControls } = require('./worker-controls')
const { abortWatch } = require('./abort-watch')
const { lazy } = require('../core/lazy')
// Lazy: only a run watched live (a 'sample' listener) merges its
// workers' samples as they come.
const liveSamples = lazy(() => require('./live-samples'))

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
// (each worker runs the whole of it, from 'go'), but it is bounded. The
// bound is generous: starting a thread slows with the machine's load, and
// a tighter one would cut short, or fail, runs that a busy machine only
// slowed.
const START_ALLOWANCE_MS = 10000

// The deadline, armed at the start: a run of a duration is stopped by
// then, whatever its workers' start-up took. null: no deadline (an amount
// run, or one without end).
function armDeadline (config, stop) {
  if (config.amount || !(config.duration > 0)) return null
  const wait = config.startAt === undefined ? 0 : Math.max(0, config.startAt - Date.now())
  return setTimeout(stop, wait + config.duration * 1000 + START_ALLOWANCE_MS)
}

// go(): once every worker is ready and told to go, as a run in this
// thread starts sending (the instance's 'start').
function runWorkers (config, events, prepared, done, go = () => {}) {
  const ticks = new ProgressTicks(events)
  // --abortOnFail: the thresholds held to all workers' figures together.
  const abort = config.abortOnFail ? abortWatch(config, events) : null
  // Watched live: the workers' samples merged per interval, one 'sample'.
  const live = events.listenerCount('sample') > 0 ? liveSamples().sampleMerge(config.workers, (s) => events.emit('sample', s)) : null
  const deadline = armDeadline(config, () => group.stop())
  // The run's end: its snapshots to `done`, or its failure.
  const end = (err, raws) => {
    ticks.stop()
    clearTimeout(deadline)
    if (err) {
      controls.end(err)
      return done(err)
    }
    ticks.flush()
    if (abort !== null && abort.aborted !== null) raws[0].aborted = abort.aborted
    controls.end(null)
    done(null, raws)
  }
  // What a worker says beside its start and end (worker-group.js).
  const message = (i, msg) => {
    switch (msg.type) {
      case 'tick':
        ticks.add(msg.counter, msg.bytes)
        break
      case 'reqError':
        if (events.listenerCount('reqError') > 0) events.emit('reqError', fromMessage(msg.error))
        break
      case 'sample':
        if (abort !== null && abort.add(i, msg)) group.stop()
        break
      case 'live':
        if (live !== null) live.add(i, msg.sample)
        break
      default:
        controls.reply(i, msg)
    }
  }
  const workerData = (i) => ({ config: workerConfig(config, i), startAt: config.startAt, reportSamples: abort !== null, liveSamples: live !== null, preload: workerPreload() })
  const group = new WorkerGroup(config.workers, workerData, {
    go,
    message,
    finished: (i) => {
      if (abort !== null) abort.finished(i)
      if (live !== null) live.finished(i)
    },
    end
  })
  const controls = new WorkerControls(group.workers, () => group.answered())

  return {
    emitResponses: false,
    setRate: (rate) => controls.setRate(rate),
    drain: (timeoutMs) => controls.drain(timeoutMs),
    cut: () => controls.cut(),
    peek: (limitsMs, remainingMs) => controls.peek(limitsMs, remainingMs),
    stop: () => group.stop()
  }
}

module.exports = { runWorkers, workerConfig }
