'use strict'

// Worker threads as the main thread's side of -w sees them: they take
// messages (noting each one's type) and send theirs, and are ended with
// terminate(). `PortWorker.made`: every one made since it was last reset.
// withPortWorkers(t, module) loads a module of lib/ ('engine/workers')
// with them in place of worker_threads' Worker, and resets `made`.

const path = require('path')
const { EventEmitter } = require('events')
const realThreads = require('worker_threads')

class PortWorker extends EventEmitter {
  constructor (file, { workerData }) {
    super()
    this.file = file
    this.workerData = workerData
    this.posted = []
    this.terminated = false
    PortWorker.made.push(this)
  }

  postMessage (msg) {
    this.posted.push(msg.type)
  }

  terminate () {
    this.terminated = true
  }

  send (msg) {
    this.emit('message', msg)
  }
}

PortWorker.made = []

function withPortWorkers (t, module) {
  PortWorker.made = []
  return t.mockRequire(path.join(__dirname, '..', '..', 'lib', module), { worker_threads: { ...realThreads, Worker: PortWorker } })
}

module.exports = { PortWorker, withPortWorkers }
