'use strict'

// `autocannon merge FILES… [-o merged.json] [--html report.html]
// [--expect N] [-j] [--threshold EXPR] [--force] [--allowMissing]`: the
// shards' results (JSON files or NDJSON streams such as `kubectl logs`
// output) as the result of the whole run. How many shards came, of how
// many, which are missing, and the start skew go to stderr, with a
// warning naming each missing shard; then the tables (stderr) and the
// outputs asked for. Results of different runs are refused in one line
// naming the differences, unless --force. A merge with a shard missing is
// written all the same, and exits 3 unless --allowMissing: a CI job does
// not pass on part of a run.

const { raise } = require('../core/errors')
const { warningLine } = require('../core/warnings')
const { readResults } = require('../results/saved-result')
const outputs = require('../output/outputs')
const { mergeResults, mergeSummary, missingText } = require('../distributed/merge')
const { EXIT, thresholdsExitCode } = require('./exit-codes')
const { parseCommand } = require('./subcommand')
const { lazy } = require('../core/lazy')
// Lazy: only --threshold needs it.
const expressions = lazy(() => require('../config/expressions'))

const USAGE = 'usage: autocannon merge results.ndjson [more files…] [-o merged.json] [--html report.html] [--expect N] [-j] [--threshold EXPR] [--force] [--allowMissing]'

function parse (argv) {
  const a = parseCommand(argv, {
    name: 'merge',
    usage: USAGE,
    strings: ['out', 'html', 'expect'],
    lists: ['threshold'],
    booleans: ['json', 'force', 'allowMissing'],
    aliases: { out: ['o', 'output'], json: 'j' }
  })
  if (a.expect !== undefined) {
    const n = Number(a.expect)
    if (!Number.isInteger(n) || n < 1) throw raise('AC_INVALID_ARGUMENT', `Invalid value for --expect: "${a.expect}" is not a number of shards (a whole number >= 1)`)
    a.expect = n
  }
  return a
}

function run (argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const a = parse(argv)
  if (a.help) {
    stdout.write(`${USAGE}\n`)
    return EXIT.OK
  }
  const files = a._.map(String)
  if (files.length === 0) throw raise('AC_INVALID_ARGUMENT', `merge needs at least one saved result (${USAGE})`)
  // Checked before reading anything: a merge that cannot be written is
  // better told at once.
  outputs.checkDestinations({ out: a.out, html: a.html })
  // A bad expression is bad input, told before the work.
  for (const expression of a.threshold) {
    try {
      expressions().parseThreshold(expression)
    } catch (err) {
      throw raise('AC_INVALID_ARGUMENT', `Invalid value for --threshold: "${expression}" is not a threshold: ${err.why || err.message}`)
    }
  }
  const results = []
  for (const file of files) results.push(...readResults(file, { need: ['histograms', 'series'] }))
  const merged = mergeResults(results, { expect: a.expect, thresholds: a.threshold, force: a.force })

  stderr.write(`${mergeSummary(merged.merge)}\n`)
  for (const w of merged.merge.warnings) stderr.write(`${warningLine(w)}\n`)
  outputs.writeOutputs(merged, {
    out: a.out,
    html: a.html,
    json: a.json,
    renderResultsTable: !a.json,
    verbose: true
  }, { streams: { stdout, stderr } })

  const code = thresholdsExitCode(merged.thresholds, { tablesShown: !a.json, stderr })
  const missing = missingText(merged.merge)
  if (missing !== null && !a.allowMissing) {
    stderr.write(`merge incomplete: ${missing} missing, so the merged result is of part of the run (exit ${EXIT.INCOMPLETE}; --allowMissing accepts it)\n`)
    return EXIT.INCOMPLETE
  }
  return code
}

module.exports = { run }
