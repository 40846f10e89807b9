'use strict'

// How the command ends, which is what CI scripts branch on: 0 after a run
// that met its thresholds, 1 with one line on stderr when it could not run,
// 99 when a threshold (or a capacity search's SLO, even at its lowest rate)
// failed, as k6 does, so that "too slow" is told from "could not run", 3
// when `merge` had a shard missing (its result is of part of the run), 98
// when a capacity search ended where this machine could not measure (its
// generator starved, paused or saturated: no verdict on the server either
// way), and 130 after Ctrl-C with nothing to show.

const { lazy } = require('../core/lazy')
// Lazy: only a failed threshold whose tables were not shown (-j) needs it.
const printResult = lazy(() => require('../output/print-result'))

const EXIT = Object.freeze({
  OK: 0,
  FAILED: 1,
  INCOMPLETE: 3,
  UNMEASURED: 98,
  THRESHOLDS_FAILED: 99,
  INTERRUPTED: 130
})

// Thrown to end quietly after Ctrl-C, when there is no result to show.
class Interrupted extends Error {}

// 99 when a threshold failed, saying which on stderr unless the tables,
// which list them, were printed.
function thresholdsExitCode (thresholds, { tablesShown, stderr = process.stderr }) {
  if (!thresholds || thresholds.every((t) => t.ok)) return EXIT.OK
  if (!tablesShown) stderr.write(`${printResult().thresholdsVerdict(thresholds, { list: true })}\n`)
  return EXIT.THRESHOLDS_FAILED
}

// A capacity search's: 99 when a connection count's SLOs failed even at the
// low rate (a verdict on the server), else 98 when one ended generator-bound
// (the rate it ended at was this machine's limit, not the server's shown),
// else 0.
function searchExitCode (out) {
  const statuses = out.searches.map((s) => s.status)
  if (statuses.includes('below-low')) return EXIT.THRESHOLDS_FAILED
  if (statuses.includes('generator-bound')) return EXIT.UNMEASURED
  return EXIT.OK
}

module.exports = { EXIT, Interrupted, thresholdsExitCode, searchExitCode }
