'use strict'

// The commands that work on saved results (report, compare, merge) read
// their arguments alike: yargs-parser splits them, a flag the command does
// not know is refused in one line with its usage, a flag given twice keeps
// its last value (a list flag keeps them all) and one given without a
// value is refused.

const yargsParser = require('yargs-parser')
const { raise } = require('../core/errors')

function flag (name) {
  return name.length === 1 ? `-${name}` : `--${name}`
}

function parseCommand (argv, { name, usage, strings = [], lists = [], booleans = [], aliases = {} }) {
  const { argv: a, error } = yargsParser.detailed(argv, {
    string: [...strings, ...lists],
    boolean: [...booleans, 'help'],
    alias: { ...aliases, help: 'h' },
    configuration: { 'parse-positional-numbers': false, 'camel-case-expansion': false }
  })
  if (error) throw raise('AC_INVALID_ARGUMENT', `${error.message.split('\n')[0]} (${usage})`)
  const known = new Set(['_', 'help', 'h', ...strings, ...lists, ...booleans, ...Object.values(aliases).flat()])
  const unknown = Object.keys(a).filter((key) => !known.has(key))
  if (unknown.length) throw raise('AC_INVALID_ARGUMENT', `Unknown option for ${name}: ${flag(unknown[0])} (${usage})`)
  for (const key of strings) {
    if (Array.isArray(a[key])) a[key] = a[key][a[key].length - 1]
    if (a[key] === '') throw raise('AC_INVALID_ARGUMENT', `Missing value for --${key} (${usage})`)
  }
  for (const key of lists) a[key] = a[key] === undefined ? [] : [].concat(a[key]).map(String)
  return a
}

module.exports = { parseCommand }
