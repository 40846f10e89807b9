'use strict'

// require('autocannon/lib/runTracker'): run() with a tracker and callback
// made when none is given (the run itself: test/compat/run.test.js).

const t = require('tap')
const { EventEmitter } = require('events')
const runTracker = require('../../lib/compat/runTracker')

t.test('returns the tracker given, or a new EventEmitter; a callback may be left out', async (t) => {
  const tracker = new EventEmitter()
  const err = await new Promise((resolve) => t.equal(runTracker({ url: 'http://127.0.0.1:1', connections: 0 }, tracker, resolve), tracker))
  t.equal(err.code, 'AC_INVALID_OPTION')
  const own = runTracker({ url: 'http://127.0.0.1:1', connections: 0 })
  t.ok(own instanceof EventEmitter)
  t.equal(typeof own.stop, 'function')
  await new Promise((resolve) => setTimeout(resolve, 20))
})
