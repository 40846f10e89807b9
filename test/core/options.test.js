'use strict'

// The one table of options (lib/core/options.js): every default and every
// refusal is asserted from the table, through the library and through the
// command line, so a change to an option's default or check changes both
// doors or fails here. And the warning for keys that are not options.

const t = require('tap')
const autocannon = require('../..')
const { OPTIONS, DEFAULTS, warnUnknown, closest } = require('../../lib/core/options')
const { buildConfig } = require('../../lib/config/config')
const { parseCli, describe } = require('../../lib/cli/args')
const { libraryOptions } = require('../../lib/cli/args')
const { run } = require('../helpers/cli')

const URL_ = 'http://127.0.0.1:1/'

// Values each kind of check refuses, as the library gets them and as
// typed on the command line.
const BAD = {
  integer: [0, -3, 1.5],
  count: [-1, 2.5],
  positive: [0, -1],
  rate: [-5],
  duration: [-1, 'forever']
}
const BAD_TEXT = {
  integer: ['-3', '1.5', 'x'],
  count: ['-1', '2.5', 'x'],
  positive: ['0', '-1', 'x'],
  rate: ['-5', 'x'],
  duration: ['-1', 'forever']
}

const libraryOptionsList = Object.entries(OPTIONS).filter(([, spec]) => spec.library !== false)
const checked = libraryOptionsList.filter(([, spec]) => BAD[spec.check])

t.test('the table is whole: every option has help, and every library option a check', async (t) => {
  for (const [name, spec] of Object.entries(OPTIONS)) {
    t.type(spec.help, 'string', `${name} has help`)
    t.ok(spec.help.length > 10, `${name}'s help says something`)
    if (spec.library !== false) t.type(spec.check, 'string', `${name} is checked by the library`)
    if (spec.cli !== false) t.ok(['integer', 'number', 'duration', 'boolean', 'string', 'list', 'port'].includes(spec.kind), `${name} is read by the CLI as a ${spec.kind}`)
    if (spec.min !== undefined) t.equal(spec.check, 'integer', `${name}: min goes with the integer check`)
  }
  t.ok(checked.length >= 14, `${checked.length} options checked by kind`)
})

t.test('library: each default, from the table', async (t) => {
  const config = buildConfig({ url: URL_ })
  for (const [name, spec] of libraryOptionsList) {
    if (name === 'url') continue
    if (spec.random) {
      t.ok(Number.isInteger(config[name]) && config[name] >= 0, `${name} is drawn when not given (${config[name]})`)
      t.not(buildConfig({ url: URL_ })[name], config[name], `${name}: another run, another draw`)
      continue
    }
    if (spec.protocol) {
      t.notOk(name in config, `${name} chooses the protocol and is not kept`)
      continue
    }
    t.same(config[name], spec.default, `${name} defaults to ${JSON.stringify(spec.default)}`)
  }
  t.equal(config.protocolName, 'http/1.1', 'the default protocol chosen')
})

t.test('CLI: each default, from the table', async (t) => {
  const opts = parseCli([URL_], {})
  for (const [name, spec] of Object.entries(OPTIONS)) {
    if (spec.argDefault) t.same(opts[name], spec.default, `parseCli fills in ${name}, as autocannon's does`)
  }
  const config = buildConfig(libraryOptions(opts))
  for (const [name] of libraryOptionsList) {
    if (name === 'url' || OPTIONS[name].random || OPTIONS[name].protocol) continue
    t.same(config[name], DEFAULTS[name], `a command line without ${describe(name)} runs with ${name} = ${JSON.stringify(DEFAULTS[name])}`)
  }
})

t.test('library: each refusal, from the table', async (t) => {
  for (const [name, spec] of checked) {
    for (const value of BAD[spec.check]) {
      const err = await autocannon({ url: URL_, [name]: value }).then(() => null, (e) => e)
      t.ok(err, `${name}: ${JSON.stringify(value)} is refused`)
      if (!err) continue
      t.equal(err.code, 'AC_INVALID_OPTION', `${name}: ${JSON.stringify(value)}: ${err.message}`)
      t.equal(err.option, name)
      // autocannon's message for the option where it has one, else ours.
      if (!err.upstream) t.match(err.message, name)
    }
  }
})

t.test('CLI: each refusal, from the table, in one line naming the flag', async (t) => {
  const cliChecked = checked.filter(([, spec]) => spec.cli !== false)
  t.ok(cliChecked.length >= 14, `${cliChecked.length} flags checked by kind`)
  for (const [name, spec] of cliChecked) {
    const flag = describe(name).split('/').pop()
    for (const text of BAD_TEXT[spec.check]) {
      const out = await run([`${flag}=${text}`, URL_])
      t.equal(out.code, 1, `${flag}=${text} exits 1`)
      const lines = out.stderr.trim().split('\n')
      t.equal(lines.length, 1, `one line: ${out.stderr.trim()}`)
      t.ok(lines[0].includes(describe(name)), `it names ${describe(name)}: ${lines[0]}`)
      t.notMatch(out.stderr, /\n\s+at /, 'no stack trace')
    }
  }
})

t.test('an unknown key is named once, with the closest option, and never thrown', async (t) => {
  const warnings = []
  const emit = (message, { code }) => warnings.push({ message, code })
  warnUnknown({ url: URL_, conections: 3, renderProgressBar: false, zzzUnrelatedKey: 1 }, emit)
  warnUnknown({ conections: 3 }, emit)
  t.same(warnings, [
    { code: 'AC_UNKNOWN_OPTION', message: 'unknown option "conections" is ignored: did you mean "connections"?' }
  ], 'once per key; a key far from every option is ignored without a word, as autocannon ignores it')
  t.equal(closest('z'), null, 'a one-letter key is no typo of n')
  t.equal(closest('cc'), null, 'nor a two-letter one of ca')
  t.equal(closest('maxConectionRequests'), 'maxConnectionRequests')
  t.equal(closest('pipeling'), 'pipelining')
  t.equal(closest('Duration'), 'duration', 'case does not hide a typo')
  t.equal(closest('foo'), null, 'no guess for what is not a typo')
  t.equal(closest('all'), null, 'nor for a script\'s own three-letter word one edit from call')
  t.equal(closest('cal'), null, 'a three-letter key is too near everything to tell')
  t.equal(closest('calll'), 'call')

  // Through autocannon(): a warning, and the run goes on.
  const seen = []
  const listener = (w) => { if (w.code === 'AC_UNKNOWN_OPTION') seen.push(w.message) }
  process.on('warning', listener)
  t.teardown(() => process.removeListener('warning', listener))
  const result = await autocannon({ url: URL_, connections: 1, amount: 1, timeout: 1, pipelinning: 2 })
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(result.requests.sent + result.errors >= 1, true, 'the run went on')
  t.same(seen, ['unknown option "pipelinning" is ignored: did you mean "pipelining"?'])
})

t.test('no warning for what parseArguments returns, nor for track()\'s options', async (t) => {
  const warnings = []
  const emit = (message) => warnings.push(message)
  const argv = ['-c', '2', '-p', '2', '-d', '1', '-L', '500', '-w', '1', '-m', 'POST', '-t', '3', '-T', 'x', '-b', 'body',
    '-H', 'a=b', '-B', '1', '-M', '2', '-O', '3', '-R', '10', '-C', '-D', '5', '-n', '-l', '-I', '-j', '-f', '-s', 'name',
    '-x', '-E', 'ok', '--maxBodySize', '100', '--threshold', 'p99<1s', '--renderStatusCodes', '--debug', '-V',
    '--html', 'r.html', '--hgrm', 'r.hgrm', '--out', 'r.json', '--proxy', 'http://127.0.0.1:3128', '--startAt', String(Date.now() + 60000),
    '--shard', '0/1', URL_]
  const opts = parseCli(argv, {})
  warnUnknown(opts, emit)
  // And autocannon's shape of them (aliases, `_`, `--`…), as scripts pass it on.
  warnUnknown(autocannon.parseArguments(argv), emit)
  const search = parseCli(['--findMaxRate', '--slo', 'p99<1s', '--precision', '5', '--stepDuration', '2', '-c', '1,2', URL_], {})
  warnUnknown(search, emit)
  const onPort = parseCli(['--on-port', '/', '--', 'node', 'server.js'], {})
  warnUnknown(onPort, emit)
  warnUnknown(autocannon.parseArguments(['--on-port', '/', '--', 'node', 'server.js']), emit)
  warnUnknown({ url: URL_, outputStream: process.stderr, renderProgressBar: false, renderResultsTable: false, renderLatencyTable: true, progressBarString: ':bar' }, emit)
  t.same(warnings, [])
})
