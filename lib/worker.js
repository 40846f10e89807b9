'use strict'

// A worker thread's side of lib/workers.js: one Run on its share of the
// connections, reporting ticks, errors and its raw snapshot by message.

const { parentPort, workerData } = require('worker_threads')
const { EventEmitter } = require('events')
const { buildConfig } = require('./config')
const { prepare } = require('./prepare')
const { Run } = require('./run')

const events = new EventEmitter()
events.on('tick', (t) => parentPort.postMessage({ type: 'tick', counter: t.counter, bytes: t.bytes }))
events.on('reqError', (err) => parentPort.postMessage({ type: 'reqError', message: err.message }))

let run
try {
  const config = buildConfig(workerData.opts)
  run = new Run(config, events, {
    ...prepare(config),
    encodeSnapshot: true,
    onDone: (raw) => {
      parentPort.postMessage({ type: 'done', raw })
      parentPort.close()
    }
  })
} catch (err) {
  parentPort.postMessage({ type: 'error', message: err.message, code: err.code })
  parentPort.close()
}

if (run) {
  parentPort.on('message', (msg) => {
    if (msg.type === 'go') run.start()
    else if (msg.type === 'stop') run.stop()
  })
  parentPort.postMessage({ type: 'ready' })
}
