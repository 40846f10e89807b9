'use strict'

// require('autocannon/lib/runTracker'): runTracker(opts[, tracker[, cb]])
// → tracker, autocannon's run() with a tracker and callback made when
// none is given (run.js).

const run = require('./run')

function runTracker (opts, tracker, cb) {
  return run(opts, tracker, cb)
}

module.exports = runTracker
