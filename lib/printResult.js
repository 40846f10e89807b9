'use strict'

// printResult(result, opts): autocannon's own path for it, which scripts
// written for autocannon require directly
// (require('autocannon/lib/printResult')), and the function the package
// exports as require('autocannon').printResult, the same one. It loads the
// tables when first called, and nothing of the engine.

function printResult (result, opts) {
  return require('./output/print-result')(result, opts)
}

module.exports = printResult
