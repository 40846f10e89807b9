'use strict'

// A session: the runs a user asked for, one after another, under one
// stop(). Whatever is a sequence of runs goes through here: the CLI's
// warm-up before the run (`--warmup`), the rounds of `-f`, and the probe
// and steps of a capacity search. Load stages are not: they are one run
// whose planned rate ramps (plan.js), so a stage has no gap and no
// cut between it and the next.
//
// A run is anything with stop() that settles like a promise: an instance
// of autocannon(), a search, or a round of autocannon() (autocannon.js). Only one
// is current at a time; stop() stops it and wakes any wait. A run started
// after stop() is stopped at once and still settles with what it has (an
// autocannon() stopped before it began still has a result), and no round
// or step follows it.

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
    // (An instance of autocannon() run with -f is not awaitable, as
    // autocannon's is not: its settled() is.)
    const outcome = typeof run.settled === 'function' ? run.settled() : run
    return new Promise((resolve, reject) => outcome.then(resolve, reject)).then((out) => {
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

  // Ends the current sleep now, without stopping (a stepped run's run
  // has failed: the step need not wait out its window).
  wake () {
    if (this.wakeUp) this.wakeUp()
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
}

module.exports = { Session }
