'use strict'

// A worker thread of the fuzz runner: takes batches of cases from the main
// thread, runs them, sends back the tallies. It starts its own loopback
// server the first time it is given a loopback batch, and closes it when
// told to stop.

const { parentPort } = require('worker_threads')
const { runBatch } = require('./batch')
const { StreamServer } = require('./loopback')

// Parse errors are the common case here; their stack traces are not needed.
Error.stackTraceLimit = 0

let server = null

parentPort.on('message', async (msg) => {
  if (msg.type === 'stop') {
    if (server !== null) await server.close()
    parentPort.close()
    return
  }
  if (msg.task.layer === 'loopback' && server === null) {
    server = new StreamServer()
    await server.start()
  }
  const tally = await runBatch(msg.task, server)
  parentPort.postMessage({ type: 'done', task: msg.task, tally })
})

parentPort.postMessage({ type: 'ready' })
