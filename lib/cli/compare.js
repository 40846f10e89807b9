'use strict'

// `autocannon compare a.json b.json [--alpha 0.05] [--noise 2%] [--json]`:
// two saved results (JSON, or NDJSON of several rounds, which are pooled)
// side by side, with whether each change is significant.

const path = require('path')
const { raise } = require('../core/errors')
const { readResults } = require('../results/saved-result')
const { parseCommand } = require('./subcommand')
const { EXIT } = require('./exit-codes')
const { writeOutputs } = require('../output/outputs')
const { compare } = require('../compare/compare')

const USAGE = 'usage: autocannon compare a.json b.json [--alpha 0.05] [--noise 2%] [--json]'

// "2%" or "0.02"
function fraction (text, flag) {
  const s = String(text).trim()
  const value = s.endsWith('%') ? Number(s.slice(0, -1)) / 100 : Number(s)
  if (s === '' || s === '%' || !Number.isFinite(value)) throw raise('AC_INVALID_ARGUMENT', `Invalid value for --${flag}: ${text} (${USAGE})`)
  return value
}

function name (file) {
  return path.basename(file).replace(/\.(nd)?json$/i, '')
}

// Bad input throws (the CLI prints its one line and exits 1).
function run (argv, { stdout = process.stdout } = {}) {
  const a = parseCommand(argv, { name: 'compare', usage: USAGE, strings: ['alpha', 'noise'], booleans: ['json'], aliases: { json: 'j' } })
  if (a.help) {
    stdout.write(`${USAGE}\n`)
    return EXIT.OK
  }
  const files = a._.map(String)
  if (files.length !== 2) throw raise('AC_INVALID_ARGUMENT', `compare needs two saved results, got ${files.length} (${USAGE})`)
  const opts = {}
  if (a.alpha !== undefined) opts.alpha = fraction(a.alpha, 'alpha')
  if (a.noise !== undefined) opts.noise = fraction(a.noise, 'noise')
  const names = files.map(name)
  // Two files of one name (runs/a.json, base/a.json): the paths tell them apart.
  opts.names = names[0] === names[1] ? files : names
  const [x, y] = files.map((file) => readResults(file, { need: ['histograms', 'series'] }))
  const cmp = compare(x.length === 1 ? x[0] : x, y.length === 1 ? y[0] : y, opts)
  writeOutputs(cmp, { json: a.json, table: !a.json }, { streams: { stdout }, kind: 'comparison' })
  return EXIT.OK
}

module.exports = { run }
