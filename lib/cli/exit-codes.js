'use strict'

// How the command ends, which is what CI scripts branch on: 0 after a run
// that met its thresholds, 1 with one line on stderr when it could not run,
// 99 when a threshold (or a capacity search's SLO, even at its lowest rate)
// failed, as k6 does, so that "too slow" is told from "could not run", and
// 130 after Ctrl-C with nothing to show.

const { lazy } = require('../core/lazy')
// Lazy: only a failed threshold whose tables were not shown (-j) needs it.
const printResult = lazy(() => require('../output/print-result'))

const EXIT = Object.freeze({
  OK: 0,
  FAILED: 1,
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

module.exports = { EXIT, Interrupted, thresholdsExitCode }
