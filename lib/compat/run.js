'use strict'

// require('autocannon/lib/run'): run(opts[, tracker[, cb]]) → tracker, a
// run reported as autocannon's run() reports it: 'start', 'tick',
// 'response', 'reqError' and 'reqMismatch' on the tracker (a new
// EventEmitter when none is given), tracker.stop() to end it, and the
// result to cb. As in autocannon, 'done' is emitted only with forever,
// once per round (cb is then never called). The run is autocannon()'s,
// which checks the options itself (autocannon's run needs them checked).

const { EventEmitter } = require('events')
const autocannon = require('../../autocannon')

const FORWARDED = ['start', 'tick', 'response', 'reqError', 'reqMismatch']

function run (opts, tracker, cb) {
  tracker = tracker || new EventEmitter()
  const forever = !!(opts && opts.forever)
  const instance = forever ? autocannon(opts) : autocannon(opts, cb || noop)
  if (forever) {
    instance.on('done', (result) => tracker.emit('done', result))
    // A run that could not start: to the tracker's 'error' listeners.
    instance.on('error', (err) => { if (tracker.listenerCount('error') > 0) tracker.emit('error', err) })
  }
  // An event is followed once the tracker has a listener for it: a
  // 'response' listener costs a call per response.
  const followed = new Set()
  const follow = (name) => {
    if (!FORWARDED.includes(name) || followed.has(name)) return
    followed.add(name)
    instance.on(name, (...args) => tracker.emit(name, ...args))
  }
  for (const name of FORWARDED) if (tracker.listenerCount(name) > 0) follow(name)
  tracker.on('newListener', follow)
  tracker.stop = () => instance.stop()
  return tracker
}

function noop () {}

module.exports = run
