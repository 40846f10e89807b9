'use strict'

// `autocannon --findMaxRate --slo 'p99<200ms' -c 100,1000 URL`: the live
// step table and closing sentences on stderr, the whole search as one JSON
// line on stdout with -j (or in a file with --out), and its report with
// --html (the files were checked before the search, in main). --hgrm is
// refused by the parser: a search has a distribution per step.

const { writeOutputs } = require('../output/outputs')
const { findMaxRate } = require('../search/find-max-rate')
const { headerLine, stepLine, probeLine } = require('../output/print-search')
const { EXIT } = require('./exit-codes')
const { libraryOptions, searchOptions } = require('./args')

function runSearch (opts, session) {
  const err = process.stderr
  const quiet = opts.json && !opts.verbose
  return session.run(() => {
    const search = findMaxRate({ ...libraryOptions(opts), ...searchOptions(opts) })
    let index = 0
    search.on('probe', (probe) => {
      index = 0
      if (quiet) return
      err.write(probeLine(probe))
      err.write(headerLine(probe.connections))
    })
    search.on('step', (entry) => { if (!quiet) err.write(stepLine(entry, index++)) })
    return search
  }).then((out) => {
    writeOutputs(out, opts, { kind: 'search' })
    // 0 when a rate was found (or the generator was the limit, which says
    // nothing against the server); as a failed threshold when the SLOs
    // failed even at the lowest rate tried.
    return out.searches.some((s) => s.status === 'below-low') ? EXIT.THRESHOLDS_FAILED : EXIT.OK
  })
}

module.exports = { runSearch }
