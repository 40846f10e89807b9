'use strict'

// autocannon.parseArguments(argv) beside autocannon 9's, for the same
// command lines: the same keys (`_`, `--`, every alias, the defaults, the
// booleans, tlsOptions) with the same values, the same mark
// (Symbol.for('internal')), the same help and version printed with
// undefined returned. What differs is asserted as such, each a row of
// docs/differences.md: a new difference fails here.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const upstream = require('autocannon-upstream')
const ours = require('../../..')
const { bothScripts } = require('../../helpers/side-by-side')

const URL_ = 'http://127.0.0.1:3000'
const INTERNAL = Symbol.for('internal')

function files (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-dropin-args-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const write = (name, text) => {
    const file = path.join(dir, name)
    fs.writeFileSync(file, text)
    return file
  }
  return {
    body: write('body.txt', 'a body\n'),
    form: write('form.json', JSON.stringify({ field: { type: 'text', value: 'v' } })),
    har: write('r.har', JSON.stringify({ log: { entries: [{ request: { method: 'GET', url: `${URL_}/a`, headers: [] } }] } })),
    ca: write('ca.pem', 'not checked by the parser\n')
  }
}

// Values as comparable text: a Buffer by its bytes.
function plain (value) {
  return JSON.stringify(value, (key, v) => v && v.type === 'Buffer' && Array.isArray(v.data) ? `Buffer ${Buffer.from(v.data).toString('hex')}` : v)
}

// What each parser prints, and returns, for argv.
function parse (parser, argv) {
  const printed = { stdout: '', stderr: '' }
  const writes = { stdout: process.stdout.write, stderr: process.stderr.write }
  process.stdout.write = (chunk) => { printed.stdout += chunk; return true }
  process.stderr.write = (chunk) => { printed.stderr += chunk; return true }
  try {
    return { value: parser.parseArguments(argv.slice()), ...printed }
  } finally {
    process.stdout.write = writes.stdout
    process.stderr.write = writes.stderr
  }
}

// Every key and value of theirs, and no key they lack.
function sameShape (t, argv, label) {
  const theirs = parse(upstream, argv).value
  const mine = parse(ours, argv).value
  t.same(Object.keys(mine).sort(), Object.keys(theirs).sort(), `${label}: the same keys`)
  for (const key of Object.keys(theirs)) t.equal(plain(mine[key]), plain(theirs[key]), `${label}: ${key}`)
  t.equal(mine[INTERNAL], true, `${label}: the mark autocannon() reads`)
  t.equal(theirs[INTERNAL], true)
  return { theirs, mine }
}

t.test('the same object as autocannon\'s, key for key', async (t) => {
  const f = files(t)
  const sets = {
    'a URL alone': [URL_],
    '-j': ['-j', URL_],
    '-n': ['-n', URL_],
    'every value flag': ['-c', '5', '-p', '2', '-t', '3', '-d', '2s', '-L', '500', '-a', '100', '-j', '-l', '-m', 'POST',
      '-H', 'x-a=1', '-H', 'x-b: 2', '-b', 'abc', '-s', 'sni', '-B', '3', '-M', '4', '-O', '50', '-r', '7', '-R', '9',
      '-D', '2', '--progress', '--statusCodes', '-T', 'tt', '-V', '-f', '-I', '-x', '-E', 'ok', '-w', '2', '--debug', URL_],
    'one -H': ['-H', 'x-a=1', URL_],
    'two URLs': [`${URL_}/a`, `${URL_}/b`],
    'no scheme': ['127.0.0.1:3000/x'],
    '--warmup [ -c -d ]': ['--warmup', '[', '-c', '1', '-d', '1', ']', URL_],
    '--warmup [ --connections --duration ]': ['--warmup', '[', '--connections', '2', '--duration', '2s', ']', URL_],
    '--on-port': ['--on-port', '/', '--', 'node', 'server.js'],
    '-i': ['-i', f.body, URL_],
    '-F with -m': ['-F', f.form, '-m', 'PUT', URL_],
    '--har': ['--har', f.har, URL_],
    '--ca': ['--ca', f.ca, URL_],
    '--ca [ ]': ['--ca', '[', f.ca, f.ca, ']', URL_]
  }
  for (const [label, argv] of Object.entries(sets)) sameShape(t, argv, label)

  const { mine } = sameShape(t, ['--warmup', '[', '-c', '1', '-d', '1', ']', URL_], 'warm-up')
  t.same(mine.warmup, { _: [], c: 1, d: 1, connections: 1, duration: 1 }, 'the warm-up\'s words under both names')
  t.equal(mine.W, mine.warmup, '-W is the same object')

  const previous = process.env.PORT
  process.env.PORT = '4321'
  t.teardown(() => { if (previous === undefined) delete process.env.PORT; else process.env.PORT = previous })
  sameShape(t, ['/path'], 'a path with PORT set')
})

t.test('help and version: printed as autocannon prints them, and undefined', async (t) => {
  for (const argv of [[], ['-h'], ['--help', URL_], ['-c', '5']]) {
    const label = argv.join(' ') || 'no arguments'
    const theirs = parse(upstream, argv)
    const mine = parse(ours, argv)
    t.equal(mine.value, undefined, `${label}: undefined`)
    t.equal(theirs.value, undefined)
    t.equal(mine.stdout, '', `${label}: nothing on stdout`)
    t.equal(theirs.stdout, '')
    t.equal(mine.stderr.split('\n')[0], theirs.stderr.split('\n')[0], `${label}: the help's first line on stderr`)
    t.equal(mine.stderr.split('\n')[0], 'Usage: autocannon [opts] URL')
  }
  const theirs = parse(upstream, ['-v'])
  const mine = parse(ours, ['-v'])
  t.equal(mine.value, undefined, '-v: undefined')
  t.equal(theirs.value, undefined)
  t.match(mine.stdout, /^.*autocannon v\d+\.\d+\.\d+.*\nnode v/, '-v: the version on stdout, as autocannon\'s test reads it')
  t.match(theirs.stdout, /^autocannon v\d+\.\d+\.\d+\nnode v/)
  t.equal(mine.stderr, '')
})

// Each a row of docs/differences.md.
t.test('the differences, each kept on purpose', async (t) => {
  const f = files(t)
  const at = (parser, argv) => parse(parser, argv).value

  // -F without -m: autocannon's parser's default GET wins over the form's POST.
  let theirs = at(upstream, ['-F', f.form, URL_])
  let mine = at(ours, ['-F', f.form, URL_])
  t.same([theirs.method, theirs.m], ['GET', 'GET'], '-F: autocannon sends the form with GET')
  t.same([mine.method, mine.m], ['POST', 'POST'], '-F: posted here')

  // A flag's text that reads as a number, or a bracket: its parser's guess.
  theirs = at(upstream, ['-T', '123', '-b', '[1,2]', URL_])
  mine = at(ours, ['-T', '123', '-b', '[1,2]', URL_])
  t.same([theirs.title, theirs.body], [123, { _: ['1,2'] }], 'autocannon: -T 123 a number, -b [1,2] an object')
  t.same([mine.title, mine.T, mine.body, mine.b], ['123', '123', '[1,2]', '[1,2]'], 'here: the text as typed')

  // An unknown flag (a typo) is refused, not kept as a key and ignored.
  theirs = at(upstream, ['--duraton', '60', URL_])
  t.equal(theirs.duraton, 60, 'autocannon keeps --duraton 60 as a key, and runs 10 s')
  t.equal(theirs.duration, 10)
  t.throws(() => ours.parseArguments(['--duraton', '60', URL_]), { code: 'AC_INVALID_ARGUMENT', message: 'Unknown option: --duraton (see autocannon --help)' })

  // A command after -- without --on-port, and -i with -F: refused.
  t.same(at(upstream, [URL_, '--', 'sleep', '1'])['--'], ['sleep', '1'], 'autocannon keeps a command it will not start')
  t.throws(() => ours.parseArguments([URL_, '--', 'sleep', '1']), { message: /Unexpected command after --: sleep 1/ })
  t.equal(at(upstream, ['-i', f.body, '-F', f.form, URL_]).body, 'a body\n', 'autocannon takes -i and -F together')
  t.throws(() => ours.parseArguments(['-i', f.body, '-F', f.form, URL_]), { message: /-F\/--form and -i\/--input cannot be used together|-i\/--input and -F\/--form cannot be used together/ })

  // --on-port without a URL: the command's root here, the help there.
  t.equal(at(upstream, ['--', 'node', 'server.js']), undefined, 'autocannon shows its help')
  t.equal(at(ours, ['--', 'node', 'server.js']).url, '/', 'here the run goes to the command\'s /')
})

t.test('a path without PORT: autocannon exits the process from its parser; ours throws', async (t) => {
  const { upstream: theirs, ours: mine } = await bothScripts(`
    try {
      autocannon.parseArguments(['/x'])
      console.log('returned')
    } catch (err) {
      console.log('threw', err.code, err.message)
    }`)
  t.equal(theirs.code, 1, 'autocannon: process.exit(1)')
  t.equal(theirs.stdout, '')
  t.match(theirs.stderr, /Invalid URL/)
  t.equal(mine.code, 0, 'here the caller decides')
  t.match(mine.stdout, /^threw AC_INVALID_ARGUMENT Invalid URL "\/x": a path needs the PORT environment variable/)
})
