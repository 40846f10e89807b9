'use strict'

// aggregateResult(results[, opts[, histograms]]): autocannon's own path for it, which
// scripts written for autocannon require directly
// (require('autocannon/lib/aggregateResult')), and the function the
// package exports as require('autocannon').aggregateResult, the same one.
// It loads the result's code when first called, and nothing of the
// engine: required alone, it loads no other file (test/printResult.test.js),
// so the one function requires it itself, as the package's entry does.

function aggregateResult (results, opts, histograms) {
  return require('./results/result').aggregateResult(results, opts || {}, histograms)
}

module.exports = aggregateResult
