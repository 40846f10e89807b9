'use strict'

// require('autocannon/lib/init'): autocannon(opts[, cb]) itself, as in
// autocannon, whose package entry is this function.

module.exports = require('../../autocannon')
