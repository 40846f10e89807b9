'use strict'

// A worker thread's side of workers.js: one Run on its part of the run,
// reporting ticks, errors and its raw snapshot by message.

const { parentPort, workerData } = require('worker_threads')
// What the main thread asks every worker to start first (the CLI: its
// code cache, see worker-preload.js), before anything of ours loads.
if (workerData.preload) require(workerData.preload.file).startInWorker(workerData.preload.data)
const { EventEmitter } = require('events')
const { received } = require('../config/split')
const { prepare } = require('../config/prepare')
const { Run } = require('./run')
const { toMessage } = require('../core/errors')

const events = new EventEmitter()
events.on('tick', (t) => parentPort.postMessage({ type: 'tick', counter: t.counter, bytes: t.bytes }))
events.on('reqError', (err) => parentPort.postMessage({ type: 'reqError', error: toMessage(err) }))

let run

// How long a thread whose run is done may go on for what its hooks left
// pending (a write, a request of their own) before it ends.
const EXIT_GRACE_MS = 1000

// --abortOnFail: the sample just taken, its interval's latency (packed)
// and the run's counts so far, for the main thread. Loaded here, before
// the run: not at its first sample.
const figuresOf = workerData.reportSamples ? require('../results/abort-check').figuresOf : null

function sendSample (recorder, elapsedS) {
  const entry = recorder.series[recorder.series.length - 1]
  parentPort.postMessage({ type: 'sample', elapsedS, latency: entry[4], figures: figuresOf(recorder) })
}

// A run watched live: each sample, for the main thread to merge with the
// other workers' (live-samples.js). Loaded here, before the run.
const liveSample = workerData.liveSamples ? require('./live-samples').liveSample : null

function sendLiveSample (recorder, elapsedS) {
  parentPort.postMessage({ type: 'live', sample: liveSample(recorder, elapsedS, workerData.config.sampleInt) })
}

function failed (err) {
  parentPort.postMessage({ type: 'error', error: toMessage(err) })
  parentPort.close()
}

try {
  // Its part of the run, as the main thread made it (workers.js).
  const config = received(workerData.config)
  run = new Run(config, events, {
    ...prepare(config),
    encodeSnapshot: true,
    // Each worker waits for the start time on its own: samples then fall
    // at the same instants in every thread, whatever the 'go' took.
    startAt: workerData.startAt,
    onDone: (raw) => {
      parentPort.postMessage({ type: 'done', raw })
      parentPort.close()
      // The thread ends when nothing is left in its event loop. A user's
      // hook file may have left a timer armed in it, which would keep it
      // (and the process) alive for good: once its own async work has had
      // EXIT_GRACE_MS to finish, it ends anyway. What was posted is
      // delivered, and 'exit' handlers (the code cache's) run.
      setTimeout(() => process.exit(0), EXIT_GRACE_MS).unref()
    },
    onError: failed,
    // --abortOnFail: the main thread judges the whole run's figures.
    onSample: workerData.reportSamples ? sendSample : undefined,
    onLiveSample: workerData.liveSamples ? sendLiveSample : undefined
  })
} catch (err) {
  failed(err)
}

if (run) {
  parentPort.on('message', (msg) => {
    if (msg.type === 'stop') return run.stop()
    if (msg.type === 'setRate') return run.setRate(msg.rate)
    if (msg.type === 'cut') return parentPort.postMessage({ type: 'cut', raw: run.cut() })
    if (msg.type === 'peek') return parentPort.postMessage({ type: 'peek', figures: run.peek(msg.limitsMs, msg.remainingMs) })
    if (msg.type === 'drain') return run.drain(msg.timeoutMs).then((drained) => parentPort.postMessage({ type: 'drained', drained }))
    if (msg.type !== 'go') return
    try {
      run.start()
    } catch (err) {
      run.finished = true
      failed(err)
    }
  })
  parentPort.postMessage({ type: 'ready' })
}
