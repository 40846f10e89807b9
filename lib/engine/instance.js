'use strict'

// What autocannon() and findMaxRate() return: an EventEmitter that is also
// awaitable, with stop(). Its runs go through one session (session.js), so
// stop() ends the current one and starts no other. The promise is made only
// when asked for (then, catch, finally), so a failed run whose caller used
// a callback or an 'error' listener leaves no unhandled rejection behind.

const { EventEmitter } = require('events')
const { Session } = require('./session')

class Instance extends EventEmitter {
  constructor () {
    super()
    this.opts = null
    this.session = new Session()
    this.outcome = null
    this.waiters = []
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

  then (onFulfilled, onRejected) {
    return new Promise((resolve, reject) => {
      if (this.outcome) this.outcome.err ? reject(this.outcome.err) : resolve(this.outcome.result)
      else this.waiters.push([resolve, reject])
    }).then(onFulfilled, onRejected)
  }

  catch (onRejected) {
    return this.then(undefined, onRejected)
  }

  finally (fn) {
    return this.then((v) => { fn(); return v }, (e) => { fn(); throw e })
  }
}

module.exports = { Instance }
