'use strict'

// autocannon's own path for printResult, which scripts written for it
// require directly (require('autocannon/lib/printResult')). Internal like
// the rest of lib/; the public one is require('autocannon').printResult.

module.exports = require('../autocannon').printResult
