'use strict'

// `autocannon --findMaxRate --slo 'p99<200ms' -c 100,1000 URL`: the live
// step table and closing sentences on stderr, the whole search as one JSON
// line on stdout with -j (or in a file with --out), and its report with
// --html (the files were checked before the search, in main). --hgrm is
// refused by the parser: a search has a distribution per step.

const fs = require('fs')
const { findMaxRate } = require('../search/find-max-rate')
const { headerLine, stepLine, probeLine } = require('../output/print-search')

// Exit codes: 0 when a rate was found (or the generator was the limit, which
// says nothing against the server), 99 when the SLOs failed even at the
// lowest rate tried: as a failed threshold.
const EXIT_SLO_MISSED = 99

function runSearch (opts, libOpts, session) {
  const err = process.stderr
  const quiet = opts.json && !opts.verbose
  return session.run(() => {
    const search = findMaxRate({
      ...libOpts,
      slos: opts.slo,
      precision: opts.precision === undefined ? undefined : opts.precision / 100,
      stepDuration: opts.stepDuration
    })
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
    if (opts.json) process.stdout.write(JSON.stringify(out) + '\n')
    if (opts.out) fs.writeFileSync(opts.out, JSON.stringify(out) + '\n')
    if (opts.html) fs.writeFileSync(opts.html, require('../output/html/report').renderHtml([out]))
    for (const s of out.searches) err.write(`${s.sentence}\n`)
    return out.searches.some((s) => s.status === 'below-low') ? EXIT_SLO_MISSED : 0
  })
}

module.exports = { runSearch }
