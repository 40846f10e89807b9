'use strict'

// aggregateResult(results[, opts]): autocannon's own path for it, which
// scripts written for autocannon require directly
// (require('autocannon/lib/aggregateResult')), and the function the
// package exports as require('autocannon').aggregateResult, the same one.
// It loads the result's code when first called, and nothing of the
// engine.

function aggregateResult (results, opts) {
  return require('./results/result').aggregateResult(results, opts || {})
}

module.exports = aggregateResult
