'use strict'

// `autocannon compare a.json b.json [--alpha 0.05] [--noise 2%] [--json]`:
// two saved results (JSON, or NDJSON of several rounds, which are pooled)
// side by side, with whether each change is significant.

const path = require('path')
const { raise } = require('../core/errors')
const { readResults } = require('../results/saved-result')

const USAGE = 'usage: autocannon compare a.json b.json [--alpha 0.05] [--noise 2%] [--json]'
const KNOWN = ['_', 'alpha', 'noise', 'json', 'j', 'help', 'h']

function parse (argv) {
  const { argv: a, error } = require('yargs-parser').detailed(argv, {
    string: ['alpha', 'noise'],
    boolean: ['json', 'help'],
    alias: { json: 'j', help: 'h' },
    configuration: { 'parse-positional-numbers': false, 'camel-case-expansion': false }
  })
  if (error) throw raise('AC_INVALID_ARGUMENT', `${error.message.split('\n')[0]} (${USAGE})`)
  const unknown = Object.keys(a).filter((k) => !KNOWN.includes(k))
  if (unknown.length) throw raise('AC_INVALID_ARGUMENT', `Unknown option for compare: --${unknown[0]} (${USAGE})`)
  return a
}

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

// → { text, exitCode }: what to print on stdout, and the exit code. Bad
// input throws (the CLI prints its one line and exits 1).
function compareCommand (argv) {
  const a = parse(argv)
  if (a.help) return { text: `${USAGE}\n`, exitCode: 0 }
  const files = a._.map(String)
  if (files.length !== 2) throw raise('AC_INVALID_ARGUMENT', `compare needs two saved results, got ${files.length} (${USAGE})`)
  const opts = {}
  if (a.alpha !== undefined) opts.alpha = fraction(a.alpha, 'alpha')
  if (a.noise !== undefined) opts.noise = fraction(a.noise, 'noise')
  const names = files.map(name)
  // Two files of one name (runs/a.json, base/a.json): the paths tell them apart.
  opts.names = names[0] === names[1] ? files : names
  const [x, y] = files.map((file) => readResults(file, { need: ['histograms', 'series'] }))
  const { compare, formatComparison } = require('../compare/compare')
  const cmp = compare(x.length === 1 ? x[0] : x, y.length === 1 ? y[0] : y, opts)
  return { text: a.json ? JSON.stringify(cmp) + '\n' : formatComparison(cmp), exitCode: 0 }
}

function run (argv, { stdout = process.stdout } = {}) {
  const { text, exitCode } = compareCommand(argv)
  stdout.write(text)
  return exitCode
}

module.exports = { compareCommand, run }
