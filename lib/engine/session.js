'use strict'

// A session: the runs a user asked for, one after another, under one
// stop(). Whatever is a sequence of runs goes through here: the CLI's
// warm-up before the run (`--warmup`), the rounds of `-f`, and the probe
// and steps of a capacity search. Load stages are not: they are one run
// whose planned rate ramps (lib/plan.js), so a stage has no gap and no
// cut between it and the next.
//
// A run is anything with stop() that settles like a promise: an instance
// of autocannon(), a search, or a Run wrapped by autocannon.js. Only one
// is current at a time; stop() stops it and wakes any wait. A run started
// after stop() is stopped at once and still settles with what it has (an
// autocannon() stopped before it began still has a result), and no round
// or step follows it.

const { performance, monitorEventLoopDelay } = require('perf_hooks')

class Session {
  constructor () {
    this.stopped = false
    this.current = null
    this.wakeUp = null
    // Called once by stop(), for what is not a run (the CLI's wait for a
    // command to listen).
    this.onStop = null
  }

  stop () {
    if (this.stopped) return
    this.stopped = true
    if (this.current) this.current.stop()
    if (this.wakeUp) this.wakeUp()
    if (this.onStop) this.onStop()
  }

  // start() makes the run; it is stopped at once if the session already
  // is. Resolves to the run's outcome.
  run (start) {
    const run = start()
    this.current = run
    if (this.stopped) run.stop()
    const clear = () => { if (this.current === run) this.current = null }
    return new Promise((resolve, reject) => run.then(resolve, reject)).then((out) => {
      clear()
      return out
    }, (err) => {
      clear()
      throw err
    })
  }

  // Round after round until one is not to be followed (`more(result)`
  // false) or the session stops; resolves to the last round's result.
  async rounds (startRound, more) {
    let round = 0
    let result
    do {
      result = await this.run(() => startRound(round++))
    } while (!this.stopped && more(result))
    return result
  }

  // Resolves after `ms`, or at once when the session stops.
  sleep (ms) {
    if (this.stopped) return Promise.resolve()
    return new Promise((resolve) => {
      let timer = null
      const done = () => {
        clearTimeout(timer)
        if (this.wakeUp === done) this.wakeUp = null
        resolve()
      }
      timer = setTimeout(done, ms)
      this.wakeUp = done
    })
  }

  // One rated run stepped from rate to rate on the same connections.
  // `controls` is what the run is stepped with: drain, setRate and cut
  // (lib/run.js, or lib/workers.js across threads).
  stepped (controls, { threads = 1, drainMs = 5000 } = {}) {
    return new SteppedRun(this, controls, threads, drainMs)
  }
}

// Each step: the requests still in flight are let finish (a backlog left
// by the step before drains only at the server's margin near capacity, and
// would fail a rate it sustains), the new rate, an unrecorded warm-up,
// then the measured window, cut out of the run with its own histograms.
// The generator's own load in the window goes with it, so that a saturated
// generator is not taken for a saturated server.
class SteppedRun {
  constructor (session, controls, threads, drainMs) {
    this.session = session
    this.controls = controls
    this.threads = threads
    this.drainMs = drainMs
    // Event-loop delay is this thread's: with workers it says nothing of
    // the threads that send.
    this.loop = threads === 1 ? monitorEventLoopDelay({ resolution: 10 }) : null
  }

  // → { raws, generator: { cpu, loopDelayP99 } }, or null when stopped.
  async step ({ rate, warmup, duration }) {
    const session = this.session
    const controls = this.controls
    await controls.drain(this.drainMs)
    if (session.stopped) return null
    controls.setRate(rate)
    await session.sleep(warmup * 1000)
    await controls.cut()
    if (this.loop) {
      this.loop.reset()
      this.loop.enable()
    }
    const cpu = process.cpuUsage()
    const from = performance.now()
    await session.sleep(duration * 1000)
    const raw = await controls.cut()
    if (this.loop) this.loop.disable()
    if (session.stopped) return null
    const wall = (performance.now() - from) * 1000
    const used = process.cpuUsage(cpu)
    return {
      raws: Array.isArray(raw) ? raw : [raw],
      generator: {
        cpu: Math.round((used.user + used.system) / wall / this.threads * 1000) / 1000,
        loopDelayP99: this.loop ? Math.round(this.loop.percentile(99) / 1e4) / 100 : undefined
      }
    }
  }

  close () {
    if (this.loop) this.loop.disable()
  }
}

module.exports = { Session }
