'use strict'

// autocannon.parseArguments (lib/cli/parse-arguments.js): the command's own
// reading (args.js) in the shape autocannon's parser returns. Side by side
// with autocannon's own, over many command lines: test/e2e/dropin/parse-arguments.test.js.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { parseArguments, UPSTREAM_DEFAULTS, UPSTREAM_BOOLEANS } = require('../../lib/cli/parse-arguments')
const { parseCli } = require('../../lib/cli/args')
const { inChild } = require('../helpers/child-output')

const PARSE_ARGUMENTS = path.join(__dirname, '..', '..', 'lib', 'cli', 'parse-arguments.js')

const URL_ = 'http://127.0.0.1:3000'

// What parseArguments printed, and returned (in a child process, whose
// stdout and stderr are its own).
function printed (argv) {
  return inChild(`report(require(${JSON.stringify(PARSE_ARGUMENTS)}).parseArguments(${JSON.stringify(argv)}))`)
}

t.test('autocannon\'s keys: _, --, every alias beside its option, its defaults and booleans, tlsOptions, the mark', async (t) => {
  const opts = parseArguments(['-c', '3', URL_])
  t.same(opts._, [URL_])
  t.same(opts['--'], [])
  t.equal(opts.url, URL_)
  t.same([opts.connections, opts.c], [3, 3], 'an alias has its option\'s value')
  for (const [name, value] of Object.entries(UPSTREAM_DEFAULTS)) {
    if (name !== 'connections') t.same(opts[name], value, `${name} defaults to ${value}`)
  }
  for (const name of UPSTREAM_BOOLEANS) t.type(opts[name], 'boolean', `${name} is a boolean`)
  t.same([opts.timeout, opts.t, opts.duration, opts.d, opts.workers, opts.w, opts.json, opts.j], [10, 10, 10, 10, 0, 0, false, false])
  t.same([opts.renderLatencyTable, opts.l, opts.latency], [false, false, false], 'every alias of one option')
  t.same(opts.tlsOptions, {})
  t.equal(opts[Symbol.for('internal')], true, 'the mark with which autocannon() shows the run')
  t.notOk('renderResultsTable' in opts, 'renderResultsTable only with -n, as autocannon\'s')
})

t.test('as typed where autocannon keeps the words: -d, -H, the files; -n, -j as its parser leaves them', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-parse-arguments-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const body = path.join(dir, 'body.txt')
  fs.writeFileSync(body, 'hello')
  t.same([parseArguments(['-d', '2s', URL_]).duration, parseArguments(['-d', '2s', URL_]).d], ['2s', '2s'], 'a timestring stays text, for the run to read')
  t.equal(parseArguments(['-d', '1.5', URL_]).duration, 1.5, 'a number is a number')
  let opts = parseArguments(['-H', 'a=1', URL_])
  t.same([opts.headers, opts.H, opts.header], [{ a: '1' }, 'a=1', 'a=1'], 'one -H: the object, and the words')
  opts = parseArguments(['-H', 'a=1', '-H', 'b: 2', URL_])
  t.same([opts.headers, opts.H], [{ a: '1', b: ' 2' }, ['a=1', 'b: 2']], 'two: a list of the words')
  opts = parseArguments(['-i', body, URL_])
  t.same([opts.body, opts.input, opts.i, 'b' in opts], ['hello', body, body, false], '-i: the body read, the path kept, no -b')
  opts = parseArguments(['-n', URL_])
  t.same([opts.n, opts.renderProgressBar, opts.renderResultsTable, opts.renderStatusCodes, opts.progress], [true, false, false, false, true],
    '-n turns the three off; the alias keeps what was typed')
  opts = parseArguments(['-j', URL_])
  t.same([opts.json, opts.renderProgressBar], [true, true], '-j: the run turns the bar off, not the parser')
  opts = parseArguments(['--warmup', '[', '-c', '1', '--duration', '2', ']', URL_])
  t.same(opts.warmup, { _: [], c: 1, duration: 2, connections: 1 }, 'the warm-up\'s words under the names typed, -c and -d under their options\' too')
  t.equal(opts.W, opts.warmup)
  opts = parseArguments(['--on-port', '/x', '--', 'node', 's.js'])
  t.same([opts.onPort, opts['on-port'], opts.spawn, opts['--'], opts.url], [true, true, ['node', 's.js'], ['node', 's.js'], '/x'])
  t.same([parseArguments(['--', 'node', 's.js']).onPort, parseArguments(['--', 'node', 's.js'])['on-port']], [true, false], '-- node: onPort, the flag not typed')
})

t.test('this tool\'s own flags, as the command reads them', async (t) => {
  const opts = parseArguments(['--threshold', 'p99<1s', '--stages', '1s:10', '--http2', URL_])
  t.same([opts.thresholds, opts.threshold, opts.stages, opts.http2], [['p99<1s'], ['p99<1s'], '1s:10', true])
})

t.test('help and version are printed, and give undefined', async (t) => {
  for (const argv of [[], ['-h'], ['-c', '5']]) {
    const out = printed(argv)
    t.equal(out.value, undefined, `${argv.join(' ') || 'nothing'}: undefined`)
    t.match(out.stderr, /^Usage: autocannon \[opts\] URL\n/, 'the help on stderr')
    t.equal(out.stdout, '')
  }
  const out = printed(['-v'])
  t.equal(out.value, undefined)
  t.match(out.stdout, /autocannon v\d+\.\d+\.\d+.*\nnode v/, 'the version on stdout')
  t.equal(out.stderr, '')
})

t.test('bad input throws, in the command\'s one line', async (t) => {
  t.throws(() => parseArguments(['--duraton', '60', URL_]), { code: 'AC_INVALID_ARGUMENT', message: 'Unknown option: --duraton (see autocannon --help)' })
  t.throws(() => parseArguments(['-c', 'x', URL_]), { code: 'AC_INVALID_OPTION' })
})

t.test('the command\'s own reading is left as it was', async (t) => {
  const opts = parseCli(['-j', URL_], {})
  t.same([opts.renderProgressBar, opts.renderResultsTable, opts[Symbol.for('internal')], '_' in opts], [false, false, undefined, false])
})
