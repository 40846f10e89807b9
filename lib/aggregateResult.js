'use strict'

// autocannon's own path for aggregateResult, which scripts written for it
// require directly (require('autocannon/lib/aggregateResult')). Internal
// like the rest of lib/; the public one is
// require('autocannon').aggregateResult.

module.exports = require('../autocannon').aggregateResult
