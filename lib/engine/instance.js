'use strict'

// What autocannon() and findMaxRate() return: an EventEmitter with stop(),
// awaitable when the caller asked for a promise (AwaitableInstance). Its
// runs go through one session (session.js), so stop() ends the current one
// and starts no other. The promise is made only when asked for (then,
// catch, finally, settled), so a failed run whose caller used a callback
// leaves no unhandled rejection behind.

const { EventEmitter } = require('events')
const { Session } = require('./session')

class Instance extends EventEmitter {
  constructor () {
    super()
    this.opts = null
    this.session = new Session()
    this.outcome = null
    this.waiters = []
    // Promises the run waits for before its first request: what watches
    // it (the dashboard, once it listens), added as it is returned.
    this.startAfter = []
  }

  get stopped () {
    return this.session.stopped
  }

  stop () {
    this.session.stop()
  }

  // The error goes to 'error' listeners, if there are any (an
  // EventEmitter with none would throw it).
  emitError (err) {
    if (this.listenerCount('error') > 0) this.emit('error', err)
  }

  settle (err, result) {
    this.outcome = { err, result }
    for (const [resolve, reject] of this.waiters) err ? reject(err) : resolve(result)
    this.waiters = []
  }

  // The outcome as a promise, for this package's own code (the CLI's -f
  // awaits an instance that is not awaitable, as autocannon's is not).
  settled () {
    return new Promise((resolve, reject) => {
      if (this.outcome) this.outcome.err ? reject(this.outcome.err) : resolve(this.outcome.result)
      else this.waiters.push([resolve, reject])
    })
  }
}

class AwaitableInstance extends Instance {
  then (onFulfilled, onRejected) {
    return this.settled().then(onFulfilled, onRejected)
  }

  catch (onRejected) {
    return this.then(undefined, onRejected)
  }

  finally (fn) {
    return this.then((v) => { fn(); return v }, (e) => { fn(); throw e })
  }
}

module.exports = { Instance, AwaitableInstance }
