'use strict'

// require('autocannon/lib/worker_threads'): Node's worker_threads, which
// autocannon wraps for Node versions without it.

module.exports = require('worker_threads')
