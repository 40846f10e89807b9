'use strict'

// The package's API: autocannon(opts[, cb]) (lib/engine/autocannon.js)
// and its helpers, each loaded when first called, so that a plain run
// loads none of what it does not use. lib/ says how it is built.

const { autocannon } = require('./lib/engine/autocannon')

function track (instance, opts) {
  return require('./lib/output/track')(instance, opts)
}

function findMaxRate (opts) {
  return require('./lib/search/find-max-rate').findMaxRate(opts)
}

function mergeResults (results, opts) {
  return require('./lib/distributed/merge').mergeResults(results, opts)
}

function renderHtml (results, opts) {
  return require('./lib/output/html/report').renderHtml(results, opts)
}

function parseArguments (argv) {
  return require('./lib/cli/args').parseArguments(argv)
}

function compare (a, b, opts) {
  return require('./lib/compare/compare').compare(a, b, opts)
}

// Written out one by one so that `import { track } from 'autocannon'`
// finds them too (Node detects CommonJS named exports by these patterns).
module.exports = autocannon
module.exports.default = autocannon
module.exports.track = track
// Also autocannon's own paths, lib/printResult and lib/aggregateResult.
module.exports.printResult = require('./lib/printResult')
module.exports.aggregateResult = require('./lib/aggregateResult')
module.exports.parseArguments = parseArguments
module.exports.findMaxRate = findMaxRate
module.exports.renderHtml = renderHtml
module.exports.mergeResults = mergeResults
module.exports.compare = compare

if (require.main === module) {
  require('./lib/cli/main').main(process.argv.slice(2))
}
