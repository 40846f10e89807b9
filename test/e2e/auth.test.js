'use strict'

// Basic auth from http://user:pass@host: sent as Authorization, never
// shown back (result.url, output).

const t = require('tap')
const autocannon = require('../..')
const { recordingServer } = require('../helpers/recording')
const { run: runCli } = require('../helpers/cli')

const basic = (user, pass) => 'Basic ' + Buffer.from(`${user}:${pass}`).toString('base64')

t.test('library: credentials in the URL become an Authorization header', async (t) => {
  const { port, seen } = await recordingServer(t)
  const url = `http://jane:s3cr%40t@127.0.0.1:${port}/private`
  const instance = autocannon({ url, connections: 2, amount: 10 })
  const result = await instance
  t.equal(result.errors, 0)
  t.equal(seen.length, 10)
  t.ok(seen.every((r) => r.headers.authorization === basic('jane', 's3cr@t')), 'percent-decoded user:password, base64')
  t.ok(seen.every((r) => r.url === '/private' && r.headers.host === `127.0.0.1:${port}`))
  t.notMatch(result.url, /s3cr/, 'result.url has no password')
  t.match(result.url, `127.0.0.1:${port}/private`)
  t.notMatch(JSON.stringify(result), /s3cr/, 'nor does anything else in the result')
  t.notMatch(autocannon.printResult(result), /s3cr/, 'nor the printed result')
  t.notMatch(JSON.stringify(instance.opts.url), /s3cr/)
})

t.test('library: an Authorization header given explicitly wins; hooks and several URLs', async (t) => {
  const a = await recordingServer(t)
  const b = await recordingServer(t)
  await autocannon({ url: `http://u:p@127.0.0.1:${a.port}`, connections: 1, amount: 2, headers: { authorization: 'Bearer mine' } })
  t.same(a.seen.map((r) => r.headers.authorization), ['Bearer mine', 'Bearer mine'])
  a.seen.length = 0
  const result = await autocannon({
    url: [`http://ua:pa@127.0.0.1:${a.port}`, `http://ub:pb@127.0.0.1:${b.port}`],
    connections: 2,
    amount: 10,
    requests: [{ setupRequest: (req) => ({ ...req, path: '/hooked' }) }]
  })
  t.ok(a.seen.length > 0 && b.seen.length > 0)
  t.ok(a.seen.every((r) => r.headers.authorization === basic('ua', 'pa') && r.url === '/hooked'))
  t.ok(b.seen.every((r) => r.headers.authorization === basic('ub', 'pb') && r.url === '/hooked'))
  t.notMatch(JSON.stringify(result.url), /pa|pb/)
})

t.test('library: credentials reach workers', async (t) => {
  const { port, seen } = await recordingServer(t)
  const result = await autocannon({ url: `http://w:secret@127.0.0.1:${port}`, workers: 2, connections: 2, amount: 10 })
  t.equal(result.errors, 0)
  t.equal(seen.length, 10)
  t.ok(seen.every((r) => r.headers.authorization === basic('w', 'secret')))
  t.notMatch(result.url, /secret/)
})

t.test('CLI: the header is sent, the password is never printed', async (t) => {
  const { port, seen } = await recordingServer(t)
  const url = `http://cli:hunter2@127.0.0.1:${port}/`
  const table = await runCli([url, '-a', '5', '-c', '1'])
  t.equal(table.code, 0, table.stderr)
  const json = await runCli([url, '-a', '5', '-c', '1', '-j'])
  t.equal(json.code, 0, json.stderr)
  t.equal(seen.length, 10)
  t.ok(seen.every((r) => r.headers.authorization === basic('cli', 'hunter2')))
  for (const out of [table.stdout, table.stderr, json.stdout, json.stderr]) t.notMatch(out, /hunter2/)
  t.match(table.stdout + table.stderr, `127.0.0.1:${port}`, 'the target is still named')
})

t.test('credentials are masked everywhere: errors, a token alone, --debug, the -j url', async (t) => {
  // An invalid URL's error, from the library.
  const err = await autocannon({ url: 'http://user:secretpass@127.0.0 .1:9/' }).catch((e) => e)
  t.equal(err.code, 'AC_INVALID_OPTION')
  t.notMatch(err.message, /secretpass/)
  t.match(err.message, 'http://user:***@127.0.0 .1:9/')

  // A user name alone is often a token: masked whole, still sent.
  const { port, seen } = await recordingServer(t)
  const result = await autocannon({ url: `http://tok3n@127.0.0.1:${port}/`, connections: 1, amount: 2 })
  t.ok(seen.every((r) => r.headers.authorization === basic('tok3n', '')))
  t.equal(result.url, `http://***@127.0.0.1:${port}/`)
  t.notMatch(JSON.stringify(result) + autocannon.printResult(result), /tok3n/)
})

t.test('CLI: masked in -j, in --debug and in the no-response line', async (t) => {
  const { port } = await recordingServer(t)
  const json = await runCli([`http://cli:hunter2@127.0.0.1:${port}/`, '-a', '2', '-c', '1', '-j'])
  t.equal(JSON.parse(json.stdout).url, `http://cli:***@127.0.0.1:${port}/`, 'the -j url')
  const { closedPort } = require('../helpers/raw-server')
  const dead = await closedPort()
  const debug = await runCli([`http://cli:hunter2@127.0.0.1:${dead}/`, '-a', '3', '-c', '1', '--debug'])
  t.equal(debug.code, 1)
  t.match(debug.stderr, /ECONNREFUSED/, '--debug prints the errors')
  t.match(debug.stderr, `no response from http://cli:***@127.0.0.1:${dead}/`)
  t.notMatch(debug.stdout + debug.stderr, /hunter2/)
})
