'use strict'

// parseCli, the command's parser: every flag and alias to the library's
// option names, the defaults, and one-line errors for bad input.

const t = require('tap')
const { makePki } = require('../helpers/pki')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { parseCli, checkTlsFiles } = require('../../lib/cli/args')
const autocannon = require('../..')

const URL_ = 'http://127.0.0.1:3000'
const parse = (args, env = {}) => parseCli(args, env)

function tmpdir (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-args-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('defaults as autocannon\'s', async (t) => {
  const opts = parse([URL_])
  t.match(opts, {
    url: URL_,
    connections: 10,
    pipelining: 1,
    duration: 10,
    timeout: 10,
    sampleInt: 1000,
    method: 'GET',
    renderProgressBar: true,
    renderResultsTable: true,
    verbose: true
  })
  for (const off of ['json', 'forever', 'renderLatencyTable', 'renderStatusCodes', 'idReplacement', 'excludeErrorStats', 'debug', 'onPort', 'warmup', 'tlsOptions', 'headers']) {
    t.notOk(opts[off], `${off} off`)
  }
})

t.test('is exported by the library as autocannon.parseArguments', async (t) => {
  t.match(autocannon.parseArguments(['-c', '3', URL_]), { connections: 3, url: URL_ })
})

t.test('every value flag, short and long', async (t) => {
  const pairs = [
    [['-c', '5'], ['--connections', '5'], { connections: 5 }],
    [['-p', '4'], ['--pipelining', '4'], { pipelining: 4 }],
    [['-d', '3'], ['--duration', '3'], { duration: 3 }],
    [['-a', '100'], ['--amount', '100'], { amount: 100 }],
    [['-L', '250'], ['--sampleInt', '250'], { sampleInt: 250 }],
    [['-S', '/tmp/sock'], ['--socketPath', '/tmp/sock'], { socketPath: '/tmp/sock' }],
    [['-w', '2'], ['--workers', '2'], { workers: 2 }],
    [['-m', 'POST'], ['--method', 'POST'], { method: 'POST' }],
    [['-t', '2.5'], ['--timeout', '2.5'], { timeout: 2.5 }],
    [['-T', 'my run'], ['--title', 'my run'], { title: 'my run' }],
    [['-b', 'a=b&c'], ['--body', 'a=b&c'], { body: 'a=b&c' }],
    [['-B', '7'], ['--bailout', '7'], { bailout: 7 }],
    [['-M', '8'], ['--maxConnectionRequests', '8'], { maxConnectionRequests: 8 }],
    [['-O', '9'], ['--maxOverallRequests', '9'], { maxOverallRequests: 9 }],
    [['-r', '10'], ['--connectionRate', '10'], { connectionRate: 10 }],
    [['-R', '1500.5'], ['--overallRate', '1500.5'], { overallRate: 1500.5 }],
    [['-D', '11'], ['--reconnectRate', '11'], { reconnectRate: 11 }],
    [['-s', 'example.com'], ['--servername', 'example.com'], { servername: 'example.com' }],
    [['-E', 'hello'], ['--expectBody', 'hello'], { expectBody: 'hello' }]
  ]
  for (const [short, long, expected] of pairs) {
    t.match(parse([...short, URL_]), expected, short.join(' '))
    t.match(parse([...long, URL_]), expected, long.join(' '))
    t.match(parse([`${long[0]}=${long[1]}`, URL_]), expected, `${long[0]}=${long[1]}`)
  }
})

t.test('every boolean flag, short and long', async (t) => {
  const flags = [
    [['-C', '--ignoreCoordinatedOmission'], { ignoreCoordinatedOmission: true }],
    [['-n', '--no-progress'], { renderProgressBar: false }],
    [['-l', '--latency', '--renderLatencyTable'], { renderLatencyTable: true }],
    [['-I', '--idReplacement'], { idReplacement: true }],
    [['-j', '--json'], { json: true }],
    [['-f', '--forever'], { forever: true }],
    [['-x', '--excludeErrorStats'], { excludeErrorStats: true }],
    [['--renderStatusCodes', '--statusCodes'], { renderStatusCodes: true }],
    [['--debug'], { debug: true }]
  ]
  for (const [names, expected] of flags) {
    for (const name of names) t.match(parse([name, URL_]), expected, name)
  }
  t.match(parse(['-V', 'false', URL_]), { verbose: false }, '-V false')
  t.match(parse(['--no-verbose', URL_]), { verbose: false }, '--no-verbose')
  t.match(parse(['-V', URL_]), { verbose: true, url: URL_ }, '-V alone keeps the URL')
  t.match(parse(['-j', URL_]), { json: true, renderProgressBar: false, renderResultsTable: false }, '-j draws nothing')
  t.match(parse(['-j', '-V', URL_]), { json: true, renderProgressBar: false, renderResultsTable: true }, '-j -V: tables too')
  t.match(parse(['-n', URL_]), { renderProgressBar: false, renderResultsTable: true }, '-n: no bar, still the tables')
  t.same(parse(['-h']), { help: true })
  t.same(parse(['--help', URL_]), { help: true })
  t.same(parse(['-v']), { version: true })
  t.same(parse(['--version']), { version: true })
})

t.test('grouped short flags and repeated values', async (t) => {
  t.match(parse(['-nlj', URL_]), { renderProgressBar: false, renderLatencyTable: true, json: true })
  t.match(parse(['-c', '1', '-c', '2', URL_]), { connections: 2 }, 'the last one wins')
})

t.test('-d takes seconds or a timestring', async (t) => {
  for (const [raw, seconds] of [['10', 10], ['1.5', 1.5], ['10s', 10], ['2m', 120], ['1m30s', 90], ['500ms', 0.5]]) {
    t.equal(parse(['-d', raw, URL_]).duration, seconds, raw)
  }
})

t.test('headers: repeated, K=V and "K: V", values with = and :', async (t) => {
  const opts = parse(['-H', 'X-A=1', '-H', 'X-B: two words', '--headers', 'Cookie=a=b; c=d', '--header', 'Authorization: Bearer abc==', '-H', 'X-Url=http://x:1/', URL_])
  t.same(opts.headers, {
    'X-A': '1',
    'X-B': ' two words',
    Cookie: 'a=b; c=d',
    Authorization: ' Bearer abc==',
    'X-Url': 'http://x:1/'
  })
  t.equal(opts.url, URL_, 'the URL after -H is not taken as another header')
  t.throws(() => parse(['-H', 'nothing', URL_]), { message: 'An HTTP header was not correctly formatted: nothing', detail: 'use -H name=value or -H "name: value"' })
  t.throws(() => parse(['-H', '=x', URL_]), /not correctly formatted/)
})

t.test('-i and -H give what autocannon\'s own parseArguments gives', async (t) => {
  const upstream = require('autocannon-upstream').parseArguments
  const dir = tmpdir(t)
  const text = path.join(dir, 'body.txt')
  fs.writeFileSync(text, '{"a": "é"}\n\tline 2 ')
  const headers = ['K: V', 'X-A=1', 'X-B:  two  words  ', 'Cookie=a=b; c=d', 'Authorization: Bearer abc==', 'X-Url=http://x:1/',
    'X-Colon:a:b', 'X-Eq=a=b', 'X-Empty=', 'X-Empty2:', 'X-Tab:\tv', 'X-Utf8: 日本']
  const args = ['-i', text, ...headers.flatMap((h) => ['-H', h]), URL_]
  const theirs = upstream(args)
  const ours = parse(args)
  t.same(ours.headers, theirs.headers, 'the same header names and values, whitespace and all')
  t.equal(typeof ours.body, 'string')
  t.equal(ours.body, theirs.body, 'the same body string')
})

t.test('--warmup [ -c -d ] sub-arguments', async (t) => {
  t.match(parse(['--warmup', '[', '-c', '1', '-d', '3', ']', URL_]), { warmup: { connections: 1, duration: 3 }, connections: 10, duration: 10, url: URL_ })
  t.match(parse(['-W', '[-c', '2', '-d', '2s]', '-c', '7', URL_]), { warmup: { connections: 2, duration: 2 }, connections: 7 })
  t.match(parse([URL_, '-W', '[', '--connections=3', '--duration', '1m', ']']), { warmup: { connections: 3, duration: 60 } })
  t.same(parse(['-W', URL_]).warmup, {}, 'bare -W: a warmup like the run')
  t.throws(() => parse(['-W', '[', '-c', '1', URL_]), { message: 'Missing "]" after -W [' })
  t.throws(() => parse(['-W', '[', '-p', '1', ']', URL_]), { message: 'Unknown warmup option: -p (use -c and -d, e.g. --warmup [ -c 1 -d 3 ])' })
  t.throws(() => parse(['-W', '[', '-c', 'x', ']', URL_]), { message: 'connections can not be less than 1', detail: '"x" is not a number' })
})

t.test('URLs: several, without a scheme, a path with PORT', async (t) => {
  t.same(parse(['http://a/1', 'https://b/2']).url, ['http://a/1', 'https://b/2'])
  t.equal(parse(['localhost:3000/x']).url, 'http://localhost:3000/x')
  t.equal(parse(['/hello?a=1'], { PORT: '4567' }).url, 'http://localhost:4567/hello?a=1')
  t.equal(parse([URL_ + '/x'], { PORT: '4567' }).url, URL_ + '/x', 'a full URL stays as it is')
})

t.test('--on-port and the command after --', async (t) => {
  t.match(parse(['--on-port', '/x', '--', 'node', 'server.js', '--port', '0']), { onPort: true, url: '/x', spawn: ['node', 'server.js', '--port', '0'] })
  t.match(parse(['/x', '--', 'node', 'server.js']), { onPort: true, spawn: ['node', 'server.js'] }, '`-- node` implies --on-port')
  t.match(parse(['--on-port', '--', 'npm', 'start']), { onPort: true, url: '/', spawn: ['npm', 'start'] }, 'the URL defaults to /')
  t.match(parse(['-c', '3', '/', '--', 'node', 's.js', '-c', '9']), { connections: 3 }, 'flags after -- belong to the command')
  t.throws(() => parse(['--on-port', '/']), { message: '--on-port needs a command after --, e.g. -- node server.js' })
  t.throws(() => parse([URL_, '--', 'sleep', '1']), { message: 'Unexpected command after --: sleep 1 (use --on-port to start it)' })
})

t.test('files: -i body, -F form, --har, --cert/--key/--ca', async (t) => {
  const dir = tmpdir(t)
  const file = (name, content) => {
    const p = path.join(dir, name)
    fs.writeFileSync(p, content)
    return p
  }
  const body = file('body.bin', Buffer.from([0, 1, 2, 255]))
  t.same(parse(['-i', body, URL_]).body, Buffer.from([0, 1, 2, 255]), '-i keeps a file that is not UTF-8 as bytes')
  t.same(parse(['--input', body, URL_]).body, Buffer.from([0, 1, 2, 255]))
  const text = file('body.json', '\ufeff{"name": "héllo 日本"}\n')
  t.equal(parse(['-i', text, URL_]).body, '\ufeff{"name": "héllo 日本"}\n', '-i gives UTF-8 text as a string (BOM and all, as autocannon reads it)')

  const form = { a: { type: 'text', value: 'x' } }
  t.match(parse(['-F', JSON.stringify(form), URL_]), { form, method: 'POST' }, 'a form is posted')
  t.match(parse(['-F', JSON.stringify(form), '-m', 'PUT', URL_]), { form, method: 'PUT' })
  const formFile = file('form.json', JSON.stringify(form))
  t.equal(parse(['--form', formFile, URL_]).form, formFile, 'a form file is checked and passed by path')

  const har = { log: { entries: [{ request: { method: 'GET', url: URL_ + '/x', headers: [] } }] } }
  t.same(parse(['--har', file('x.har', JSON.stringify(har)), URL_]).har, har)
  // Checked here, as autocannon's parseArguments checks it, with its wording first.
  t.throws(() => parse(['--har', file('empty.har', JSON.stringify({ log: { entries: [] } })), URL_]),
    { message: 'Failed to load HAR file content: Could not parse HAR content: no entries found', detail: `--har ${path.join(dir, 'empty.har')}`, code: 'AC_FILE_UNREADABLE' })

  const pki = makePki(dir)
  const [cert, key, a, b] = [pki.client.cert, pki.client.key, pki.ca, pki.otherCa]
  const opts = parse(['--cert', file('c.pem', cert), '--key', file('k.pem', key), '--ca', file('a.pem', a), '--ca', file('b.pem', b), URL_])
  t.same(opts.tlsOptions, { cert, key, ca: [a, b] })
  t.same(parse(['--ca', '[', path.join(dir, 'a.pem'), path.join(dir, 'b.pem'), ']', URL_]).tlsOptions.ca, [a, b], '--ca [ list ]')
  t.notOk('cert' in opts || 'key' in opts || 'ca' in opts, 'only tlsOptions reaches the library')
})

t.test('TLS files are checked before the run (not by parseArguments): the error names the flag and the file', async (t) => {
  const dir = tmpdir(t)
  const pki = makePki(dir)
  const file = (name, content) => {
    const p = path.join(dir, name)
    fs.writeFileSync(p, content)
    return p
  }
  const garbage = file('garbage.pem', 'not a certificate\n')
  const cert = file('client.crt', pki.client.cert)
  const key = file('client.key', pki.client.key)
  const otherKey = file('ca.key.pem', fs.readFileSync(path.join(dir, 'ca.key')))
  const broken = file('broken.pem', '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n')
  const cases = [
    [['--ca', garbage], `--ca ${garbage}: no PEM certificate in it`],
    [['--ca', cert, '--ca', broken], `--ca ${broken}: holds a certificate that cannot be read`],
    [['--cert', garbage, '--key', key], `--cert ${garbage}: no PEM certificate in it`],
    [['--cert', cert, '--key', garbage], `--key ${garbage}: is not a valid PEM private key`],
    [['--cert', cert, '--key', otherKey], `--cert ${cert} and --key ${otherKey}: the key does not belong to the certificate`]
  ]
  for (const [args, start] of cases) {
    const opts = parse([...args, 'https://127.0.0.1:3000/'])
    const err = (() => { try { checkTlsFiles(opts) } catch (e) { return e } })()
    t.ok(err, `${args.join(' ')} is refused`)
    if (!err) continue
    t.equal(err.code, 'AC_INVALID_TLS_FILE')
    t.ok(err.message.startsWith(start), err.message)
    t.notOk(err.message.includes('\n'), 'one line')
  }
  t.doesNotThrow(() => checkTlsFiles(parse(['--cert', cert, '--key', key, '--ca', file('ca.crt', pki.ca), 'https://127.0.0.1:3000/'])), 'good files pass')
  // Half a pair: read by parseArguments as autocannon's reads it, refused
  // by the CLI's check before the files are looked into.
  for (const [flag, other, why] of [['--cert', '--key', 'is a client certificate, which is sent with its private key'], ['--key', '--cert', 'is the private key of a client certificate']]) {
    const opts = parse([flag, garbage, 'https://127.0.0.1:3000/'])
    t.ok(opts.tlsOptions[flag.slice(2)], `parseArguments reads ${flag} alone`)
    t.match((() => { try { checkTlsFiles(opts) } catch (e) { return e } })(), {
      code: 'AC_INVALID_OPTION',
      option: flag.slice(2),
      detail: `"${garbage}" ${why}: give ${other} with it`
    }, `${flag} alone is refused, naming ${other}`)
  }
})

t.test('no URL: the help, as autocannon shows it (--on-port goes to the command\'s root)', async (t) => {
  t.same(parse([]), { help: true }, 'nothing')
  t.same(parse(['-c', '10']), { help: true }, 'flags alone')
  t.same(parse(['-c']), { help: true }, 'before any value is read, as autocannon shows the help first')
  t.equal(parse(['--on-port', '--', 'node', 's.js']).url, '/', '--on-port')
  t.equal(parse(['--', 'node', 's.js']).url, '/', '-- node')
})

t.test('bad input: one-line errors', async (t) => {
  const dir = tmpdir(t)
  const bad = path.join(dir, 'bad.json')
  fs.writeFileSync(bad, '{ nope')
  const cases = [
    [['--nope', URL_], 'Unknown option: --nope (see autocannon --help)'],
    [['-z', URL_], 'Unknown option: -z (see autocannon --help)'],
    [['-c', 'ten', URL_], 'connections can not be less than 1 ("ten" is not a number)'],
    [['-c', '1.5', URL_], 'connections can not be less than 1 ("1.5" is not a whole number)'],
    [[URL_, '-c'], 'Missing value for -c/--connections'],
    [['-w', 'x', URL_], 'Invalid value for -w/--workers: "x" is not a number'],
    [['-R', 'fast', URL_], 'bailout overallRate can not be less than 1 ("fast" is not a number)'],
    [['-d', 'forever', URL_], 'duration entered was in an invalid format ("forever" is not a number of seconds or a timestring such as 10s or 2m)'],
    [['-i', path.join(dir, 'missing.txt'), URL_], `ENOENT: no such file or directory, open '${path.join(dir, 'missing.txt')}' (-i/--input ${path.join(dir, 'missing.txt')} cannot be read)`],
    [['--har', path.join(dir, 'missing.har'), URL_], `Failed to load HAR file content: ENOENT: no such file or directory, open '${path.join(dir, 'missing.har')}' (--har ${path.join(dir, 'missing.har')})`],
    [['--har', bad, URL_], /^Failed to load HAR file content: Expected property name .* \(--har .*bad\.json is not valid JSON\)$/],
    [['--cert', path.join(dir, 'c.pem'), URL_], `Failed to load cert file: ENOENT: no such file or directory, open '${path.join(dir, 'c.pem')}' (--cert ${path.join(dir, 'c.pem')})`],
    [['--key', path.join(dir, 'k.pem'), URL_], /^Failed to load key file: ENOENT/],
    [['--ca', path.join(dir, 'a.pem'), URL_], /^Failed to load ca file: ENOENT/],
    [['-F', '{ "a": ', URL_], /^Invalid JSON or file where to get form data \(-F\/--form is not valid JSON: /],
    [['-F', bad, URL_], /^Invalid JSON or file where to get form data \(the -F\/--form file .*bad\.json is not valid JSON: /],
    [['-F', path.join(dir, 'nope.json'), URL_], /^Invalid JSON or file where to get form data \(-F\/--form file: .*nope\.json cannot be read\)$/],
    [['http://'], 'Invalid URL "http://": no host (e.g. http://127.0.0.1:3000/path)'],
    [['http:///path'], 'Invalid URL "http:///path": no host (e.g. http://127.0.0.1:3000/path)'],
    [['http://user:secretpass@127.0.0 .1:3000/'], 'Invalid URL "http://user:***@127.0.0 .1:3000/"'],
    [['http://tok3n@exa mple.com/'], 'Invalid URL "http://***@exa mple.com/"'],
    [['-d', '-1', URL_], 'duration can not be less than 0 ("-1" is not a number of seconds or a timestring such as 10s or 2m)'],
    [['-F', '[1,2]', URL_], /^Invalid JSON or file where to get form data \(-F\/--form \[1,2\] is not a JSON object of form fields/],
    [['-F', '"x"', URL_], /^Invalid JSON or file where to get form data \(-F\/--form "x" is not a JSON object/],
    [['-b', 'x', '-F', '{}', URL_], '-b/--body and -F/--form cannot be used together: each one is the request body (use one)'],
    [['-b', 'x', '-i', bad, URL_], '-b/--body and -i/--input cannot be used together: each one is the request body (use one)'],
    [['-H', 'Authorization Bearer s3cret', URL_], /^An HTTP header was not correctly formatted: Authorizatio… \(use -H/],
    [['http://exa mple.com'], 'Invalid URL "http://exa mple.com"'],
    [['ftp://example.com'], 'Invalid URL "ftp://example.com": only http:// and https:// are supported'],
    [['/path'], 'Invalid URL "/path": a path needs the PORT environment variable (or --on-port); use a full URL or set PORT']
  ]
  for (const [args, message] of cases) {
    let err
    try {
      parse(args)
    } catch (e) {
      err = e
    }
    t.ok(err instanceof Error, `${args.join(' ')} throws`)
    if (!err) continue
    // autocannon's message where it has one, ours beside it (the CLI
    // prints both; test/e2e/cli.test.js).
    const line = err.detail === undefined ? err.message : `${err.message} (${err.detail})`
    t.notOk(line.includes('\n'), 'one line')
    t.match(err.code, /^AC_[A-Z_]+$/, `a code (${err.code})`)
    t.notOk(/secretpass|tok3n|s3cret/.test(line), 'no secret in it')
    if (typeof message === 'string') t.equal(line, message)
    else t.match(line, message)
  }
})

t.test('one validation for both doors: the CLI and the library accept and refuse the same values', async (t) => {
  const { buildConfig } = require('../../lib/config/config')
  const flags = {
    connections: '-c',
    pipelining: '-p',
    duration: '-d',
    amount: '-a',
    timeout: '-t',
    sampleInt: '-L',
    workers: '-w',
    bailout: '-B',
    maxConnectionRequests: '-M',
    maxOverallRequests: '-O',
    connectionRate: '-r',
    overallRate: '-R',
    reconnectRate: '-D',
    maxBodySize: '--maxBodySize'
  }
  const values = ['-1', '0', '0.5', '1', '1.5', '7', '1e3', '0x10', 'abc', '10s', '1m30s', ' 3 ', 'NaN', 'Infinity']
  const cliOpts = (args) => {
    const opts = parseCli([...args, URL_], {})
    for (const key of ['json', 'renderProgressBar', 'renderResultsTable', 'renderLatencyTable', 'renderStatusCodes', 'verbose', 'warmup', 'onPort', 'spawn', 'help', 'version']) delete opts[key]
    return opts
  }
  const accepts = (fn) => {
    try {
      fn()
      return true
    } catch {
      return false
    }
  }
  let compared = 0
  for (const [option, flag] of Object.entries(flags)) {
    for (const value of values) {
      // Workers need connections; an amount makes a zero duration valid:
      // the same extra options on both doors.
      const extra = option === 'workers' ? { connections: 2000 } : {}
      const extraArgs = option === 'workers' ? ['-c', '2000'] : []
      const viaCli = accepts(() => buildConfig(cliOpts([...extraArgs, flag, value])))
      const viaLibrary = accepts(() => buildConfig({ url: URL_, ...extra, [option]: value }))
      t.equal(viaCli, viaLibrary, `${flag} ${JSON.stringify(value)}: ${viaCli ? 'accepted' : 'refused'} by the CLI, ${viaLibrary ? 'accepted' : 'refused'} by the library`)
      compared++
    }
  }
  t.ok(compared > 150, `${compared} cases`)
})

t.test('--slo without --findMaxRate is refused before the run, in one line naming --threshold', async (t) => {
  for (const args of [['-d', '1', '--slo', 'p99<1ms', URL_], ['--slo', 'p99<1ms', '--slo', 'errors<1%', URL_]]) {
    let err
    try {
      parse(args)
    } catch (e) {
      err = e
    }
    if (!t.ok(err instanceof Error, `${args.join(' ')} throws`)) continue
    t.equal(err.code, 'AC_INVALID_OPTION')
    t.equal(err.option, 'slos')
    t.notOk(err.message.includes('\n'), 'one line')
    t.match(err.detail, /^\["p99<1ms".*\] is an objective of a capacity search; a run without one is not judged by it \(use --threshold for that\): give --findMaxRate with it$/)
  }
  t.same(parse(['--findMaxRate', '--slo', 'p99<1ms', URL_]).slos, ['p99<1ms'], 'with --findMaxRate, kept')
})
