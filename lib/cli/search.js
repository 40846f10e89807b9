'use strict'

// `autocannon --findMaxRate --slo 'p99<200ms' -c 100,1000 URL`: the live
// step table and closing sentences on stderr, the whole search as one JSON
// line on stdout with -j (or in a file with --out), and its report with
// --html (the files were checked before the search, in main). --hgrm is
// refused by the parser: a search has a distribution per step.

const { writeOutputs } = require('../output/outputs')
const { findMaxRate } = require('../search/find-max-rate')
const { headerLine, stepLine, probeLine } = require('../output/print-search')
const { searchExitCode } = require('./exit-codes')
const { libraryOptions, searchOptions } = require('./args')
const { lazy } = require('../core/lazy')
// Lazy: only --dashboard needs it.
const dashboard = lazy(() => require('../output/dashboard/attach'))
// Lazy: only a search on a terminal shows its step under way.
const liveLine = lazy(() => require('../output/live-line'))

function runSearch (opts, session) {
  const err = process.stderr
  const quiet = opts.json && !opts.verbose
  return session.run(() => {
    const search = findMaxRate({ ...libraryOptions(opts), ...searchOptions(opts) })
    if (search.opts !== null && search.opts.watched) dashboard().watch(search, 'search')
    let index = 0
    // On a terminal, the step under way on a line of its own, rewritten
    // as it runs, replaced by its row when it ends.
    const line = !quiet && err.isTTY ? new (liveLine().LiveLine)(err) : null
    search.on('probe', (probe) => {
      index = 0
      if (quiet) return
      err.write(probeLine(probe))
      err.write(headerLine(probe.connections))
    })
    if (line !== null) {
      const { stepText } = liveLine()
      let current = null
      search.on('stepStart', (step) => {
        current = { ...step, elapsed: 0, responses: 0, errors: 0, verdict: null }
        line.show(stepText(current))
      })
      search.on('stepProgress', (progress) => {
        if (current === null) return
        Object.assign(current, progress)
        line.show(stepText(current))
      })
      search.on('step', () => {
        current = null
        line.clear()
      })
    }
    search.on('step', (entry) => { if (!quiet) err.write(stepLine(entry, index++)) })
    return search
  }).then((out) => {
    writeOutputs(out, opts, { kind: 'search' })
    // 0 when a rate was found; as a failed threshold when the SLOs failed
    // even at the lowest rate tried; its own code when this machine could
    // not measure the rate the search ended at.
    return searchExitCode(out)
  })
}

module.exports = { runSearch }
