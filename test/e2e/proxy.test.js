'use strict'

// --proxy, end to end through a real HTTP/CONNECT proxy (the `proxy`
// package) on 127.0.0.1: http targets in absolute form, https targets in a
// CONNECT tunnel with TLS inside, basic auth accepted and refused, refusals
// counted as errors while the run ends on time, workers, --proxy env, and
// the password in no output. Plus the option's refusals through the
// library (its own tests: test/config/proxy.test.js).

const t = require('tap')
const net = require('net')
const http = require('http')
const https = require('https')
const autocannon = require('../..')
const { makePki } = require('../helpers/pki')
const { tempDir, jsonResult } = require('../helpers/recording')
const { run: runCli } = require('../helpers/cli')
const { listen } = require('../helpers/listen')
const { nodeH2Server } = require('../helpers/h2-servers')

const USER = 'bench'
const PASSWORD = 'S3cr3t-pr0xy-pw'
const basic = (user, pass) => 'Basic ' + Buffer.from(`${user}:${pass}`).toString('base64')

// One test PKI for the file (openssl takes a while).
const pki = makePki(tempDir(t, 'ac-proxy-'))

// The `proxy` package, with basic auth when `auth` is set; records the
// request target of each proxied request and of each CONNECT.
async function startProxy (t, { auth = false } = {}) {
  const { createProxy } = await import('proxy')
  const server = createProxy(http.createServer())
  const seen = { requests: [], connects: [], refused: 0 }
  if (auth) {
    server.authenticate = (req) => {
      const ok = req.headers['proxy-authorization'] === basic(USER, PASSWORD)
      if (!ok) seen.refused++
      return ok
    }
  }
  server.on('request', (req) => seen.requests.push(req.url))
  server.on('connect', (req) => seen.connects.push(req.url))
  const port = await listen(t, server)
  return {
    port,
    seen,
    url: (user, pass) => user ? `http://${user}:${pass}@127.0.0.1:${port}` : `http://127.0.0.1:${port}`
  }
}

// Targets that record what reached them (path, headers, SNI).
async function httpTarget (t) {
  const seen = []
  const port = await listen(t, http.createServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers })
    res.end('via')
  }))
  return { port, seen, url: `http://127.0.0.1:${port}` }
}

async function httpsTarget (t) {
  const seen = []
  const port = await listen(t, https.createServer(pki.server, (req, res) => {
    seen.push({ url: req.url, headers: req.headers, servername: req.socket.servername })
    res.end('secure via')
  }))
  return { port, seen, url: `https://localhost:${port}` }
}

// ---------------------------------------------------------------------------
// validation

t.test('a bad proxy is bad input: AC_INVALID_OPTION naming proxy, the password masked', async (t) => {
  const url = 'http://127.0.0.1:1'
  const bad = [
    ['socks5://u:hunter22@h:1080', /is not an http:\/\/ proxy URL/],
    ['https://h:1', /is not an http:\/\/ proxy URL/],
    ['http://', /has no host/],
    ['http:///x', /has no host/],
    ['http://u:hunter22@h:1/path', /without a path/],
    ['http://h:99999', /is not a valid URL/],
    ['u:hun/ter22@h', /is not a valid URL/],
    ['', /must be an http:\/\/ proxy URL/],
    [true, /must be an http:\/\/ proxy URL/],
    [42, /must be an http:\/\/ proxy URL/]
  ]
  for (const [proxy, message] of bad) {
    const err = await autocannon({ url, proxy, amount: 1 }).catch((e) => e)
    t.equal(err.code, 'AC_INVALID_OPTION', String(proxy))
    t.equal(err.option, 'proxy')
    t.match(err.message, message)
    t.notMatch(err.message, /hunter22|hun\/ter22/, 'no password in the message')
  }
  await t.rejects(autocannon({ url, proxy: 'http://127.0.0.1:3128', socketPath: '/tmp/x.sock' }), { code: 'AC_CONFLICTING_OPTIONS' })
})

// ---------------------------------------------------------------------------
// end to end

t.test('http target: absolute-form requests through the proxy', async (t) => {
  const proxy = await startProxy(t)
  const target = await httpTarget(t)
  const result = await autocannon({ url: target.url + '/through?x=1', proxy: proxy.url(), connections: 2, pipelining: 2, amount: 40 })
  t.equal(result.errors, 0)
  t.equal(result.requests.total, 40)
  t.equal(result.proxy, proxy.url())
  t.equal(proxy.seen.requests.length, 40, 'the proxy carried every request')
  t.ok(proxy.seen.requests.every((u) => u === `${target.url}/through?x=1`), 'in absolute form')
  t.equal(target.seen.length, 40, 'the target saw them all')
  t.ok(target.seen.every((r) => r.url === '/through?x=1' && /\(proxy\//.test(r.headers.via)), 'with the proxy\'s Via header')
  t.ok(target.seen.every((r) => r.headers.host === `127.0.0.1:${target.port}`))
})

t.test('through a proxy the target\'s name is the proxy\'s to resolve: not looked up here; the proxy\'s own name is', async (t) => {
  const proxy = await startProxy(t)
  // .invalid never resolves (RFC 6761): the proxy fails each request, and
  // the run counts what it answers.
  const result = await autocannon({ url: 'http://target.invalid/x', proxy: proxy.url(), connections: 1, amount: 3 })
  t.ok(proxy.seen.requests.length >= 1, `the run went to the proxy (${proxy.seen.requests.length} requests)`)
  t.ok(proxy.seen.requests.every((u) => u === 'http://target.invalid/x'), 'for the target by name')
  t.equal(result.requests.sent, 3)
  const err = await autocannon({ url: 'http://127.0.0.1:1/', proxy: 'http://proxy.invalid:3128', connections: 1, amount: 1 }).catch((e) => e)
  t.match(err, { code: 'AC_HOST_NOT_FOUND', message: /^Cannot resolve host "proxy\.invalid" of the proxy http:\/\/proxy\.invalid:3128 / })
})

t.test('https target: CONNECT, then TLS with SNI and the user\'s CA inside the tunnel', async (t) => {
  const proxy = await startProxy(t)
  const target = await httpsTarget(t)
  const result = await autocannon({
    url: target.url + '/secure',
    proxy: proxy.url(),
    connections: 3,
    amount: 30,
    tlsOptions: { ca: pki.ca, rejectUnauthorized: true }
  })
  t.equal(result.errors, 0)
  t.equal(result.requests.total, 30)
  t.equal(proxy.seen.requests.length, 0, 'no plain request went to the proxy')
  t.same(proxy.seen.connects, new Array(3).fill(`localhost:${target.port}`), 'one tunnel per connection, kept alive')
  t.equal(target.seen.length, 30)
  t.ok(target.seen.every((r) => r.url === '/secure' && r.servername === 'localhost' && !r.headers.via), 'origin form, SNI, end to end TLS')

  // The CA is checked inside the tunnel: the wrong one fails the handshake.
  const wrong = await autocannon({
    url: target.url,
    proxy: proxy.url(),
    connections: 1,
    duration: 0.5,
    tlsOptions: { ca: pki.otherCa, rejectUnauthorized: true }
  })
  t.equal(wrong.requests.total, 0)
  t.ok(wrong.errors > 0 && wrong.errorsByCause.connect === wrong.errors, 'TLS failures inside the tunnel count as connect errors')
})

t.test('http2: CONNECT, then h2 over TLS in the tunnel; h2c through a proxy is refused', async (t) => {
  const proxy = await startProxy(t)
  const target = await nodeH2Server(t, (stream) => {
    stream.respond({ ':status': 200 })
    stream.end('h2 via')
  }, pki.server)
  const result = await autocannon({
    url: `https://localhost:${target.port}/h2`,
    http2: true,
    proxy: proxy.url(),
    connections: 2,
    pipelining: 5,
    amount: 50,
    expectBody: 'h2 via',
    tlsOptions: { ca: pki.ca, rejectUnauthorized: true }
  })
  t.equal(result.protocol, 'h2')
  t.equal(result.errors, 0, JSON.stringify(result.errorCodes))
  t.equal(result.mismatches, 0)
  t.equal(result.requests.total, 50)
  t.equal(target.streams, 50)
  // One tunnel for the ALPN check before the run, then one per connection.
  t.same(proxy.seen.connects, new Array(3).fill(`localhost:${target.port}`), 'the check\'s tunnel, then one per connection')
  t.equal(target.sessions, 2, 'two HTTP/2 connections')

  const err = await autocannon({ url: 'http://127.0.0.1:1/', http2: true, proxy: proxy.url(), connections: 1, amount: 1 }).catch((e) => e)
  t.equal(err.code, 'AC_CONFLICTING_OPTIONS')
  t.match(err.message, /h2c\) cannot go through an HTTP proxy/)
})

t.test('basic auth: accepted, and refused (407) as errors while the run ends on time', async (t) => {
  const proxy = await startProxy(t, { auth: true })
  const plain = await httpTarget(t)
  const secure = await httpsTarget(t)

  const ok = await autocannon({ url: [plain.url, secure.url], proxy: proxy.url(USER, PASSWORD), connections: 4, amount: 40 })
  t.equal(ok.errors, 0)
  t.equal(ok.requests.total, 40)
  t.equal(plain.seen.length + secure.seen.length, 40)
  t.ok(plain.seen.length > 0 && secure.seen.length > 0)
  t.ok(plain.seen.every((r) => r.headers['proxy-authorization'] === undefined), 'the proxy kept its credentials to itself')
  t.equal(proxy.seen.refused, 0)

  for (const target of [plain, secure]) {
    target.seen.length = 0
    const started = Date.now()
    const refused = await autocannon({ url: target.url, proxy: proxy.url(USER, 'wrong'), connections: 2, duration: 1 })
    const elapsed = Date.now() - started
    t.ok(elapsed < 4000, `${target.url}: the run ended on time (${elapsed} ms)`)
    t.equal(refused.requests.total, 0, 'no 407 counted as a response')
    t.ok(refused.errors > 0)
    t.same(refused.errorCodes, { AC_PROXY_REFUSED: refused.errors })
    t.equal(refused.errorsByCause.connect, refused.errors, 'cause: connect')
    t.equal(target.seen.length, 0, 'nothing reached the target')
    t.ok(proxy.seen.refused > 0)

    const errors = []
    const amount = autocannon({ url: target.url, proxy: proxy.url(), connections: 1, amount: 5 })
    amount.on('reqError', (err) => errors.push(err))
    const none = await amount
    t.equal(none.errors, 5, 'no credentials: refused as well, and an amount run ends')
    t.equal(errors[0].code, 'AC_PROXY_REFUSED')
    t.match(errors[0].message, /407 Proxy Authentication Required \(it wants credentials/)
  }
})

t.test('a proxy that refuses otherwise: 5xx to CONNECT, closed tunnel, silence', async (t) => {
  // CONNECT to a port nobody listens on: the proxy answers 500.
  const proxy = await startProxy(t)
  const closedPort = await new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = s.address().port
      s.close(() => resolve(port))
    })
  })
  const dead = await autocannon({ url: `https://127.0.0.1:${closedPort}`, proxy: proxy.url(), connections: 1, amount: 3 })
  t.same(dead.errorCodes, { AC_PROXY_REFUSED: 3 })

  // Raw proxies: one answering 502, one closing at once, one never answering.
  const raw = async (onData) => {
    const port = await listen(t, net.createServer((socket) => {
      socket.on('error', () => {})
      socket.once('data', () => onData(socket))
    }))
    return `http://127.0.0.1:${port}`
  }
  const bad = await raw((s) => s.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n'))
  const closing = await raw((s) => s.destroy())
  const silent = await raw(() => {})
  const url = 'https://target.invalid:443'
  const messages = []
  const r502 = autocannon({ url, proxy: bad, connections: 1, amount: 2 })
  r502.on('reqError', (err) => messages.push(err.message))
  t.same((await r502).errorCodes, { AC_PROXY_REFUSED: 2 })
  t.match(messages[0], /^proxy http:\/\/127\.0\.0\.1:\d+ refused the tunnel to target\.invalid:443: 502 Bad Gateway$/)
  const rClosed = await autocannon({ url, proxy: closing, connections: 1, amount: 2 })
  t.equal(rClosed.errors, 2)
  t.equal(rClosed.errorsByCause.connect, 2)
  const started = Date.now()
  const rSilent = await autocannon({ url, proxy: silent, connections: 1, duration: 1, timeout: 0.5 })
  t.ok(Date.now() - started < 4000, 'a silent proxy does not hold the run')
  t.ok(rSilent.errorCodes.AC_CONNECT_TIMEOUT >= 1, 'it times out as a connection that never opens')
})

t.test('workers rebuild the proxy, credentials included', async (t) => {
  const proxy = await startProxy(t, { auth: true })
  const plain = await httpTarget(t)
  const secure = await httpsTarget(t)
  const result = await autocannon({ url: [plain.url, secure.url], proxy: proxy.url(USER, PASSWORD), connections: 4, workers: 2, amount: 80 })
  t.equal(result.errors, 0, JSON.stringify(result.errorCodes))
  t.equal(result.requests.total, 80)
  t.equal(plain.seen.length + secure.seen.length, 80)
  t.equal(proxy.seen.requests.length, plain.seen.length, 'http requests went through the proxy')
  t.equal(proxy.seen.connects.length, 2, 'each https connection through a tunnel')
  t.equal(proxy.seen.refused, 0)
  t.equal(result.proxy, `http://${USER}:***@127.0.0.1:${proxy.port}`)
})

t.test('without --proxy the environment is not read', async (t) => {
  const proxy = await startProxy(t)
  const target = await httpTarget(t)
  const saved = process.env.HTTP_PROXY
  process.env.HTTP_PROXY = proxy.url()
  t.teardown(() => {
    if (saved === undefined) delete process.env.HTTP_PROXY
    else process.env.HTTP_PROXY = saved
  })
  const direct = await autocannon({ url: target.url, connections: 1, amount: 5 })
  t.equal(direct.requests.total, 5)
  t.equal(proxy.seen.requests.length, 0, 'HTTP_PROXY alone changes nothing')
  t.equal(direct.proxy, undefined)
  const env = await autocannon({ url: target.url, proxy: 'env', connections: 1, amount: 5 })
  t.equal(env.requests.total, 5)
  t.equal(proxy.seen.requests.length, 5, '--proxy env takes it')
  t.equal(env.proxy, 'env')
})

// ---------------------------------------------------------------------------
// the CLI

t.test('CLI: --proxy, --proxy env, and the password in no output', async (t) => {
  const proxy = await startProxy(t, { auth: true })
  const plain = await httpTarget(t)
  const secure = await httpsTarget(t)
  const good = proxy.url(USER, PASSWORD)
  const noPassword = (run, what) => {
    t.notMatch(run.stdout + run.stderr, PASSWORD, `${what}: the password is in no output`)
    t.notMatch(run.stdout + run.stderr, 'wrong-pw-123', `${what}: nor a wrong one`)
  }

  const json = await runCli(['-c', '2', '-a', '20', '-j', '--debug', '--proxy', good, plain.url, secure.url])
  t.equal(json.code, 0, json.stderr)
  const result = jsonResult(json.stdout)
  t.equal(result.requests.total, 20)
  t.equal(result.proxy, `http://${USER}:***@127.0.0.1:${proxy.port}`)
  noPassword(json, '-j --debug')

  const tables = await runCli(['-c', '2', '-a', '20', '--proxy', good, secure.url])
  t.equal(tables.code, 0, tables.stderr)
  t.match(tables.stderr, `\nthrough proxy http://${USER}:***@127.0.0.1:${proxy.port}\n`, 'the header says it goes through a proxy')
  noPassword(tables, 'tables')

  // Refused: errors, and the exit code of a run against a dead target.
  for (const target of [plain, secure]) {
    const refused = await runCli(['-c', '1', '-d', '1', '--debug', '--proxy', proxy.url(USER, 'wrong-pw-123'), target.url])
    t.equal(refused.code, 1, 'not one response: exit code 1')
    t.match(refused.stderr, /autocannon: connection 0: proxy http:\/\/bench:\*\*\*@127\.0\.0\.1:\d+ refused .*407/, '--debug says why')
    t.match(refused.stderr, /by code: AC_PROXY_REFUSED \d+\n/)
    t.match(refused.stderr, /\nno response from .*\(connect \d+; AC_PROXY_REFUSED \d+\)\n$/)
    noPassword(refused, `refused ${target.url}`)
    const refusedJson = await runCli(['-c', '1', '-a', '3', '-j', '--debug', '--proxy', proxy.url(USER, 'wrong-pw-123'), target.url])
    t.equal(refusedJson.code, 1)
    t.same(jsonResult(refusedJson.stdout).errorCodes, { AC_PROXY_REFUSED: 3 })
    noPassword(refusedJson, 'refused -j')
  }

  // Bad input: one line naming --proxy, exit code 1.
  for (const value of ['socks5://bench:wrong-pw-123@127.0.0.1:1080', 'http://bench:wrong-pw-123@', 'http://bench:wrong-pw-123@h:1/x']) {
    const bad = await runCli(['-a', '1', '--proxy', value, plain.url])
    t.equal(bad.code, 1, value)
    t.match(bad.stderr, /^Error: Invalid value for --proxy: "[^"]*bench:\*\*\*@[^"]*" .+\n$/, 'one line naming --proxy')
    noPassword(bad, 'bad --proxy')
  }

  // --proxy env, with NO_PROXY, and the variables alone.
  const env = { HTTP_PROXY: good, HTTPS_PROXY: good }
  const viaEnv = await runCli(['-c', '1', '-a', '6', '-j', '--proxy', 'env', plain.url], { extraEnv: env })
  t.equal(viaEnv.code, 0, viaEnv.stderr)
  t.equal(jsonResult(viaEnv.stdout).proxy, 'env')
  const before = proxy.seen.requests.length
  const bypass = await runCli(['-c', '1', '-a', '6', '-j', '--proxy', 'env', plain.url], { extraEnv: { ...env, NO_PROXY: '127.0.0.1' } })
  t.equal(bypass.code, 0, bypass.stderr)
  const ignored = await runCli(['-c', '1', '-a', '6', '-j', plain.url], { extraEnv: env })
  t.equal(ignored.code, 0, ignored.stderr)
  t.equal(proxy.seen.requests.length, before, 'NO_PROXY, and no --proxy: direct')
  const envTables = await runCli(['-c', '1', '-a', '3', '--proxy', 'env', plain.url], { extraEnv: { ...env, NO_PROXY: '*' } })
  t.match(envTables.stderr, /\nno proxy: --proxy env found none for these targets/)
  noPassword(viaEnv, '--proxy env')
})
