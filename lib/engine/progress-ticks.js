'use strict'

// The run's progress tick across worker threads: each worker's ticks
// (responses and bytes since its last) summed, and emitted as one 'tick'
// each second, as a run in one thread emits its own.

const TICK_MS = 1000

class ProgressTicks {
  constructor (events) {
    this.events = events
    this.tick = { counter: 0, bytes: 0 }
    this.timer = setInterval(() => this.emit(), TICK_MS)
  }

  // A worker's tick.
  add (counter, bytes) {
    this.tick.counter += counter
    this.tick.bytes += bytes
  }

  // The second's sum, then a fresh one.
  emit () {
    this.events.emit('tick', this.tick)
    this.tick = { counter: 0, bytes: 0 }
  }

  stop () {
    clearInterval(this.timer)
  }

  // At the run's end: what came since the last tick, if anything.
  flush () {
    if (this.tick.counter || this.tick.bytes) this.events.emit('tick', this.tick)
  }
}

module.exports = { ProgressTicks }
