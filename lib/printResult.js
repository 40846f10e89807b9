'use strict'

// printResult(result, opts): autocannon's own path for it, which scripts
// written for autocannon require directly
// (require('autocannon/lib/printResult')), and the function the package
// exports as require('autocannon').printResult, the same one. It loads the
// tables when first called, and nothing of the engine: required alone, it
// loads no other file (test/printResult.test.js), not even lib/core/lazy.js,
// so the one function requires them itself, as the package's entry does.

function printResult (result, opts) {
  return require('./output/print-result')(result, opts)
}

module.exports = printResult
