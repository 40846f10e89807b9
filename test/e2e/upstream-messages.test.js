'use strict'

// autocannon to the letter: its users compare err.message with ===, read
// its CLI's error lines and its header first. The messages of
// lib/core/upstream-messages.js are what the library and the CLI give,
// with our detail beside them (that each is autocannon's own and in the
// error table of docs/errors.md: test/core/upstream-messages.test.js).

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const http = require('http')
const { execFile } = require('child_process')
const autocannon = require('../..')

const ROOT = path.join(__dirname, '..', '..')
const BIN = path.join(ROOT, 'bin', 'autocannon.js')

// The library: the message exactly, ours in err.detail.
const REFUSED = [
  [{ connections: 0 }, 'connections can not be less than 1', /must be an integer >= 1/],
  [{ pipelining: 0 }, 'pipelining factor can not be less than 1'],
  [{ timeout: 0 }, 'timeout must be greater than 0', /must be a number > 0/],
  [{ timeout: -1 }, 'timeout must be greater than 0'],
  [{ amount: -1 }, 'amount can not be less than 1'],
  [{ bailout: -2 }, 'bailout threshold can not be less than 1'],
  [{ connectionRate: -1 }, 'connectionRate can not be less than 1'],
  [{ overallRate: -1 }, 'bailout overallRate can not be less than 1'],
  [{ maxConnectionRequests: -1 }, 'maxConnectionRequests can not be less than 1'],
  [{ maxOverallRequests: -1 }, 'maxOverallRequests can not be less than 1'],
  [{ duration: 'abc' }, 'duration entered was in an invalid format', /timestring/],
  [{ duration: -1 }, 'duration can not be less than 0'],
  [{ duration: '-3' }, 'duration can not be less than 0'],
  [{ sampleInt: 'abc' }, 'sample interval entered was in an invalid format'],
  [{ sampleInt: -5 }, 'sample interval can not be less than 0'],
  [{ url: undefined }, 'url or socketPath option required'],
  [{ url: '' }, 'url or socketPath option required'],
  [{ url: 42 }, 'url should only be a string or an array of string'],
  [{ setupClient: 5 }, 'Invalid option setupClient, please provide a function (or file path when in workers mode)'],
  [{ verifyBody: {} }, 'Invalid option verifyBody, please provide a function (or file path when in workers mode)'],
  [{ requests: [{ setupRequest: 1 }] }, 'Invalid option setupRequest, please provide a function (or file path when in workers mode)'],
  [{ requests: [{ onResponse: true }] }, 'Invalid option onResponse, please provide a function (or file path when in workers mode)'],
  [{ ignoreCoordinatedOmission: true }, 'ignoreCoordinatedOmission makes no sense without connectionRate or overallRate'],
  [{ forever: true, workers: 2, connections: 2 }, 'Using `forever` option isn\'t currently supported with workers'],
  [{ method: 'GE T' }, 'GE T HTTP method is not supported'],
  [{ body: 42 }, 'body must be either a string or a buffer'],
  [{ form: '{ "a": ' }, 'Invalid JSON or file where to get form data'],
  [{ form: { f: { type: 'file' } } }, 'Missing key \'path\' in form object for key \'f\''],
  [{ form: { f: { type: 'text' } } }, 'Missing key \'value\' in form object for key \'f\''],
  [{ form: { f: { value: 'x' } } }, 'A \'type\' key with value \'text\' or \'file\' should be specified'],
  [{ har: { log: { entries: [] } } }, 'Could not parse HAR content: no entries found'],
  [{ har: { log: {} } }, 'Could not parse HAR content: no entries found'],
  [{ har: { log: { entries: [{}] } } }, 'Could not parse HAR content: invalid request in entry #1'],
  [{ har: { log: { entries: [{ request: { method: 'GET', url: 'http://a/', headers: 'x' } }] } } }, 'Could not parse HAR content: invalid headers array in entry #1'],
  [{ har: { log: { entries: [{ request: { method: 'GET', url: 'http://a/', headers: [{ name: 1 }] } }] } } }, 'Could not parse HAR content: invalid name or value in header #1 of entry #1'],
  [{ har: '/nonexistent/x.har' }, 'Failed to load HAR file content: ENOENT: no such file or directory, open \'/nonexistent/x.har\'']
]

t.test('library: autocannon\'s message exactly, ours in err.detail', async (t) => {
  for (const [opts, message, detail] of REFUSED) {
    const full = { url: 'http://127.0.0.1:9', duration: 1, ...opts }
    if ('url' in opts && opts.url === undefined) delete full.url
    let err
    try {
      const instance = autocannon(full)
      // A forever run has no promise, as autocannon's: the error event.
      if (typeof instance.then !== 'function') err = await new Promise((resolve) => instance.once('error', resolve))
      else await instance
    } catch (e) {
      err = e
    }
    const label = JSON.stringify(opts)
    if (!t.ok(err, `${label}: refused`)) continue
    t.equal(err.message, message, `${label}: the message`)
    // A file named that cannot be read: the code for files.
    t.equal(err.code, typeof opts.har === 'string' ? 'AC_FILE_UNREADABLE' : 'AC_INVALID_OPTION', `${label}: the code`)
    t.equal(typeof err.detail, 'string', `${label}: a detail (${err.detail})`)
    if (detail) t.match(err.detail, detail)
  }
})

t.test('forever with a callback, and the timeout\'s message', async (t) => {
  const err = await new Promise((resolve) => autocannon({ url: 'http://127.0.0.1:9', forever: true }, resolve))
  t.equal(err.message, 'should not use the callback parameter when the `forever` option is set to true. Use the `done` event on this event emitter')
  const { RequestTimeoutError } = require('../../lib/core/errors')
  const timeout = new RequestTimeoutError(2)
  t.same([timeout.message, timeout.code, timeout.detail], ['request timed out', 'AC_TIMEOUT', 'no response within 2 s'])
  const connect = new RequestTimeoutError(2, true)
  t.same([connect.message, connect.code], ['request timed out', 'AC_CONNECT_TIMEOUT'])
})

t.test('a server that never answers: reqError says "request timed out"', async (t) => {
  const server = http.createServer(() => {})
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.closeAllConnections(); server.close() })
  const instance = autocannon({ url: `http://127.0.0.1:${server.address().port}`, connections: 1, amount: 1, timeout: 0.3 })
  const errors = []
  instance.on('reqError', (err) => errors.push(err))
  const result = await instance
  t.equal(result.timeouts, 1)
  t.same(errors.map((e) => [e.message, e.code]), [['request timed out', 'AC_TIMEOUT']])
})

t.test('track, aggregateResult: autocannon\'s words', async (t) => {
  t.throws(() => autocannon.track(), { message: 'instance required for tracking', code: 'AC_INVALID_ARGUMENT' })
  t.throws(() => autocannon.aggregateResult(undefined), { message: '"results" must be an array of results', code: 'AC_INVALID_ARGUMENT' })
  t.throws(() => autocannon.aggregateResult('x'), { message: '"results" must be an array of results' })
})

t.test('connections > amount: thrown at a caller with a callback, rejected without', async (t) => {
  let thrown
  try {
    autocannon({ url: 'http://127.0.0.1:9', connections: 10, amount: 1 }, () => t.fail('no callback'))
  } catch (err) {
    thrown = err
  }
  t.equal(thrown && thrown.message, 'connections cannot be greater than amount', 'thrown synchronously')
  t.match(thrown.detail, /10 is more than amount \(1\)/)
  await t.rejects(autocannon({ url: 'http://127.0.0.1:9', connections: 3, amount: 2 }), { message: 'connections cannot be greater than amount' })
})

function cli (args, opts = {}) {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1' }, timeout: 30000, ...opts }, (err, stdout, stderr) => {
      resolve({ code: err ? err.code : 0, stdout, stderr })
    })
  })
}

t.test('CLI: the error line starts as autocannon\'s, our detail after it', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-upstream-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const notJson = path.join(dir, 'bad.har')
  fs.writeFileSync(notJson, 'not valid JSON content')
  const empty = path.join(dir, 'empty.har')
  fs.writeFileSync(empty, '{"log":{"entries":[]}}')
  const cases = [
    [['--har', 'does not exist', 'http://localhost'], /^Error: Failed to load HAR file content: ENOENT: no such file or directory, open 'does not exist' \(--har does not exist\)\n$/],
    [['--har', notJson, 'http://localhost'], /^Error: Failed to load HAR file content: Unexpected token .* is not valid JSON \(--har .*bad\.har is not valid JSON\)\n$/],
    [['--har', empty, 'http://localhost'], /^Error: Failed to load HAR file content: Could not parse HAR content: no entries found \(--har .*empty\.har\)\n$/],
    [['--cert', path.join(dir, 'none.pem'), 'http://localhost'], /^Error: Failed to load cert file: ENOENT: no such file or directory, open '.*none\.pem' \(--cert .*none\.pem\)\n$/],
    [['-c', '0', 'http://localhost'], /^Error: connections can not be less than 1 \(-c\/--connections: 0 must be an integer >= 1\)\n$/],
    [['-d', 'soon', 'http://localhost'], /^Error: duration entered was in an invalid format \(-d\/--duration: "soon" is not a number of seconds or a timestring such as 10s or 2m\)\n$/],
    [['-t', '0', 'http://localhost'], /^Error: timeout must be greater than 0 \(-t\/--timeout: 0 must be a number > 0\)\n$/],
    [['-c', '5', '-a', '2', 'http://127.0.0.1:9'], /^Error: connections cannot be greater than amount \(-c\/--connections: 5 is more than amount \(2\): each connection makes at least one request\)\n$/],
    [['-H', 'nocolon', 'http://localhost'], /^Error: An HTTP header was not correctly formatted: nocolon \(use -H name=value or -H "name: value"\)\n$/]
  ]
  for (const [args, line] of cases) {
    const out = await cli(args)
    t.equal(out.code, 1, `${args.join(' ')}: exit 1`)
    t.match(out.stderr, line, `${args.join(' ')}: ${out.stderr.trim()}`)
  }
})

t.test('parseArguments reads --key and checks nothing else; the run refuses a key that needs a passphrase', async (t) => {
  const crypto = require('crypto')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-key-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })
  // The traditional (OpenSSL) form, as `openssl genrsa -aes256` writes it.
  const encrypted = privateKey.export({ type: 'pkcs1', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'hunter2' })
  t.match(encrypted, /Proc-Type: 4,ENCRYPTED/)
  const keyFile = path.join(dir, 'key.pem')
  fs.writeFileSync(keyFile, encrypted)
  const opts = autocannon.parseArguments(['--key', keyFile, 'https://localhost:1'])
  t.equal(opts.tlsOptions.key.toString(), encrypted, 'the key, as read')
  // With the certificate it belongs with (alone, --key is refused first:
  // half a pair).
  const { client } = require('../helpers/pki').makePki(dir)
  const certFile = path.join(dir, 'client.crt')
  fs.writeFileSync(certFile, client.cert)
  const out = await cli(['--cert', certFile, '--key', keyFile, '-c', '1', '-a', '1', 'https://127.0.0.1:9'])
  t.equal(out.code, 1)
  const lines = out.stderr.trim().split('\n')
  t.equal(lines.length, 1, 'one line')
  t.match(lines[0], /^Error: --key .*key\.pem: is encrypted: .*tlsOptions\.passphrase/, lines[0])
  t.notMatch(out.stderr, /hunter2/)
  // The library refuses it without a passphrase, and runs with one.
  await t.rejects(autocannon({ url: 'https://127.0.0.1:9', connections: 1, amount: 1, tlsOptions: { key: encrypted } }),
    { code: 'AC_INVALID_TLS_FILE', message: /tlsOptions\.key: is encrypted: give its passphrase in tlsOptions\.passphrase/ })
  await t.rejects(autocannon({ url: 'https://127.0.0.1:9', connections: 1, amount: 1, tlsOptions: { key: encrypted, passphrase: 'wrong' } }),
    { code: 'AC_INVALID_TLS_FILE', message: /is encrypted, and tlsOptions\.passphrase does not open it/ })
  const result = await autocannon({ url: 'https://127.0.0.1:9', connections: 1, amount: 1, timeout: 2, tlsOptions: { key: encrypted, passphrase: 'hunter2' } })
  t.equal(result.errors, 1, 'with its passphrase the key is taken: the run goes on (to a closed port)')
})
