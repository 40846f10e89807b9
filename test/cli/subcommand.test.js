'use strict'

// How report, compare and merge read their arguments
// (lib/cli/subcommand.js): a flag the command does not know refused with
// its usage, the last of a repeated value kept, every value of a list
// flag, aliases, and a flag without its value refused.

const t = require('tap')
const { parseCommand } = require('../../lib/cli/subcommand')

const SPEC = { name: 'demo', usage: 'usage: demo FILE', strings: ['out', 'alpha'], lists: ['threshold'], booleans: ['json'], aliases: { out: ['o'], json: 'j' } }

t.test('values, lists, booleans and aliases', async (t) => {
  const a = parseCommand(['a.json', '-o', 'x.html', '--alpha', '0.01', '--alpha', '0.05', '--threshold', 'p99<1', '--threshold', 'rps>2', '-j', '12'], SPEC)
  t.same(a._, ['a.json', '12'], 'positionals stay strings')
  t.equal(a.out, 'x.html')
  t.equal(a.alpha, '0.05', 'a value given twice keeps its last')
  t.same(a.threshold, ['p99<1', 'rps>2'], 'a list keeps them all')
  t.equal(a.json, true)
  t.same(parseCommand(['a.json'], SPEC).threshold, [], 'a list not given is empty')
  t.equal(parseCommand(['a.json', '-h'], SPEC).help, true)
})

t.test('refused in one line with the usage', async (t) => {
  t.throws(() => parseCommand(['--bogus', 'a.json'], SPEC), { code: 'AC_INVALID_ARGUMENT', message: 'Unknown option for demo: --bogus (usage: demo FILE)' })
  t.throws(() => parseCommand(['-x', 'a.json'], SPEC), { message: 'Unknown option for demo: -x (usage: demo FILE)' })
  t.throws(() => parseCommand(['a.json', '--out'], SPEC), { code: 'AC_INVALID_ARGUMENT', message: 'Missing value for --out (usage: demo FILE)' })
})
