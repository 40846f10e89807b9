'use strict'

// The package's API: autocannon(opts[, cb]) (lib/engine/autocannon.js)
// and its helpers, each loaded when first called, so that a plain run
// loads none of what it does not use. lib/ says how it is built.

const engine = require('./lib/engine/autocannon')

function track (instance, opts) {
  return require('./lib/output/track')(instance, opts)
}

// A run whose options came from parseArguments is shown as autocannon
// shows it (the header and tables on stderr), with track(); a run whose
// options ask for a dashboard is watched by it (loaded only then).
function autocannon (opts, cb) {
  const instance = engine.autocannon(opts, cb, { show: track })
  if (instance.opts !== null && instance.opts.dashboard) require('./lib/output/dashboard/attach').watch(instance)
  return instance
}

function findMaxRate (opts) {
  const search = require('./lib/search/find-max-rate').findMaxRate(opts)
  if (search.opts !== null && search.opts.watched) require('./lib/output/dashboard/attach').watch(search, 'search')
  return search
}

function mergeResults (results, opts) {
  return require('./lib/distributed/merge').mergeResults(results, opts)
}

function renderHtml (results, opts) {
  return require('./lib/output/html/report').renderHtml(results, opts)
}

function parseArguments (argv) {
  return require('./lib/cli/parse-arguments').parseArguments(argv)
}

function start (opts) {
  return require('./lib/cli/start').start(opts)
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
module.exports.start = start
module.exports.findMaxRate = findMaxRate
module.exports.renderHtml = renderHtml
module.exports.mergeResults = mergeResults
module.exports.compare = compare

if (require.main === module) {
  require('./lib/cli/main').main(process.argv.slice(2))
}
