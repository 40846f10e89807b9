'use strict'

// require('autocannon/lib/noop'): a function that does nothing.

module.exports = function noop () {}
