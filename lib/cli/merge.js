'use strict'

// `autocannon merge FILES… [-o merged.json] [--html report.html]
// [--expect N] [-j] [--threshold EXPR]`: the shards' results (JSON files
// or NDJSON streams such as `kubectl logs` output) as the result of the
// whole run. How many shards came, of how many, and the start skew go to
// stderr, with a warning naming each missing shard; then the tables
// (stderr) and the outputs asked for.

const { raise } = require('../core/errors')
const { readResults } = require('../results/saved-result')

const USAGE = 'usage: autocannon merge results.ndjson [more files…] [-o merged.json] [--html report.html] [--expect N] [-j] [--threshold EXPR]'

const OPTIONS = ['out', 'html', 'expect', 'json', 'threshold', 'help']
const ALIASES = { out: ['o', 'output'], json: 'j', help: 'h' }

function parse (argv) {
  const { argv: a, error } = require('yargs-parser').detailed(argv, {
    string: ['out', 'html', 'expect', 'threshold'],
    boolean: ['json', 'help'],
    alias: ALIASES,
    configuration: { 'parse-positional-numbers': false, 'camel-case-expansion': false }
  })
  if (error) throw raise('AC_INVALID_ARGUMENT', `${error.message.split('\n')[0]} (${USAGE})`)
  const known = new Set(['_', ...OPTIONS, ...Object.values(ALIASES).flat()])
  const unknown = Object.keys(a).filter((k) => !known.has(k))
  if (unknown.length) throw raise('AC_INVALID_ARGUMENT', `Unknown option for merge: ${unknown[0].length === 1 ? '-' : '--'}${unknown[0]} (${USAGE})`)
  for (const name of ['out', 'html', 'expect']) {
    if (Array.isArray(a[name])) a[name] = a[name][a[name].length - 1]
    if (a[name] === '') throw raise('AC_INVALID_ARGUMENT', `Missing value for --${name} (${USAGE})`)
  }
  if (a.expect !== undefined) {
    const n = Number(a.expect)
    if (!Number.isInteger(n) || n < 1) throw raise('AC_INVALID_ARGUMENT', `Invalid value for --expect: "${a.expect}" is not a number of shards (a whole number >= 1)`)
    a.expect = n
  }
  a.threshold = a.threshold === undefined ? [] : [].concat(a.threshold).map(String)
  return a
}

function summary (info) {
  const { results, shards, expected, startSkewMs } = info
  const of = shards === results ? `${shards} of ${expected} shards` : `${results} results (${shards} of ${expected} shards)`
  return `merged ${of}, start skew ${startSkewMs} ms\n`
}

function run (argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const a = parse(argv)
  if (a.help) {
    stdout.write(`${USAGE}\n`)
    return 0
  }
  const files = a._.map(String)
  if (files.length === 0) throw raise('AC_INVALID_ARGUMENT', `merge needs at least one saved result (${USAGE})`)
  const outputs = require('../output/outputs')
  // Checked before reading anything: a merge that cannot be written is
  // better told at once.
  outputs.checkDestinations({ out: a.out, html: a.html })
  // A bad expression is bad input, told before the work.
  for (const expression of a.threshold) {
    try {
      require('../results/thresholds').parseThreshold(expression)
    } catch (err) {
      throw raise('AC_INVALID_ARGUMENT', `Invalid value for --threshold: "${expression}" is not a threshold: ${err.why || err.message}`)
    }
  }
  const results = []
  for (const file of files) results.push(...readResults(file, { need: ['histograms', 'series'] }))
  const merged = require('../distributed/merge').mergeResults(results, { expect: a.expect, thresholds: a.threshold })

  stderr.write(summary(merged.merge))
  for (const w of merged.merge.warnings) stderr.write(`autocannon: warning: ${w.message}\n`)
  outputs.writeOutputs(merged, {
    out: a.out,
    html: a.html,
    json: a.json,
    renderResultsTable: !a.json,
    verbose: true
  }, { stdout, stderr })

  const failed = (merged.thresholds || []).filter((t) => !t.ok)
  if (failed.length === 0) return 0
  if (a.json) stderr.write(`${failed.length} of ${merged.thresholds.length} thresholds failed: ${failed.map((t) => t.expression).join(', ')}\n`)
  return require('./main').EXIT_THRESHOLDS_FAILED
}

module.exports = { run, USAGE }
