'use strict'

// A real proxy that closes the client's connection after every response
// without saying so (tinyproxy 1.11, Debian's `tinyproxy`): the request
// written just before that close got no byte of response. Idempotent ones
// go again on a new connection, counted once and in `resent`
// (RFC 9112 §9.3.1); a POST stays an error. A TLS target through CONNECT
// is a tunnel, kept open. Also the same rule against a local server that
// closes after each response, to see it without tinyproxy.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const net = require('net')
const path = require('path')
const http = require('http')
const https = require('https')
const { spawn } = require('child_process')
const autocannon = require('../..')
const { makePki } = require('../helpers/pki')
const { installed } = require('../helpers/terminal')

function freePort () {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
  })
}

async function startTinyproxy (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-tinyproxy-'))
  const port = await freePort()
  const conf = path.join(dir, 'tinyproxy.conf')
  fs.writeFileSync(conf, [`Port ${port}`, 'Listen 127.0.0.1', 'Timeout 30', 'MaxClients 100', 'Allow 127.0.0.1', 'LogLevel Error'].join('\n') + '\n')
  const child = spawn('tinyproxy', ['-d', '-c', conf], { stdio: 'ignore' })
  t.teardown(() => {
    child.kill('SIGKILL')
    fs.rmSync(dir, { recursive: true, force: true })
  })
  // Ready when it accepts.
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => { s.destroy(); resolve(true) })
      s.on('error', () => resolve(false))
    })
    if (ok) return `http://127.0.0.1:${port}`
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('tinyproxy did not start')
}

function listen (t, server) {
  const sockets = new Set()
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    t.teardown(() => {
      for (const socket of sockets) socket.destroy()
      server.close()
    })
    resolve(server.address().port)
  }))
}

// Every request is counted once: answered, an error, or in flight.
function accounted (t, r, label) {
  t.equal(r.requests.sent, r.requests.total + r.errors + r.requests.inFlight, `${label}: sent = answered + errors + in flight`)
}

t.test('a local server that closes after each response, unannounced', async (t) => {
  let answered = 0
  const server = net.createServer((socket) => {
    socket.once('data', () => {
      answered++
      socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')
    })
    socket.on('error', () => {})
  })
  const port = await listen(t, server)
  const url = `http://127.0.0.1:${port}`
  for (const pipelining of [1, 4]) {
    const r = await autocannon({ url, connections: 2, pipelining, amount: 200 })
    const label = `GET, p${pipelining}`
    t.equal(r.errors, 0, `${label}: no errors`)
    t.equal(r.requests.total, 200, `${label}: every request answered once`)
    t.ok(r.resent > 0, `${label}: resent (${r.resent})`)
    accounted(t, r, label)
  }
  // Not idempotent: not sent again; an error, as before.
  const post = await autocannon({ url, method: 'POST', body: 'x', connections: 1, pipelining: 4, amount: 40 })
  t.equal(post.resent, 0, 'POST: nothing resent')
  t.ok(post.errors > 0 && post.errorCodes.AC_SOCKET_HANG_UP > 0, `POST: hang-ups counted (${JSON.stringify(post.errorCodes)})`)
  accounted(t, post, 'POST')
  // A server that closes before any response is not a reused connection:
  // its requests are errors, never resent (nothing would ever progress).
  const mute = net.createServer((socket) => socket.once('data', () => socket.end()))
  const mutePort = await listen(t, mute)
  const never = await autocannon({ url: `http://127.0.0.1:${mutePort}`, connections: 1, amount: 5 })
  t.equal(never.resent, 0)
  t.equal(never.errors, 5)
  t.ok(answered > 0)
})

t.test('through tinyproxy: no hang-ups, the resent requests counted', async (t) => {
  if (!installed('tinyproxy', ['-v'])) {
    t.comment('skipped: tinyproxy is not installed (apt-get install tinyproxy; .ci/run installs it)')
    return t.skip('tinyproxy is not installed')
  }
  const proxy = await startTinyproxy(t)
  let seen = 0
  const port = await listen(t, http.createServer((req, res) => { seen++; res.end('ok') }))
  const r = await autocannon({ url: `http://127.0.0.1:${port}/`, proxy, connections: 4, duration: 1.5 })
  t.equal(r.errors, 0, `no errors (${JSON.stringify(r.errorCodes)})`)
  t.ok(r.requests.total > 50, `answered (${r.requests.total})`)
  t.ok(r.resent > 0, `resent (${r.resent})`)
  t.ok(seen >= r.requests.total, 'the server saw every answered request')
  accounted(t, r, 'http through tinyproxy')

  // https through CONNECT: a tunnel, which tinyproxy keeps open.
  const pkiDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-tinyproxy-pki-'))
  t.teardown(() => fs.rmSync(pkiDir, { recursive: true, force: true }))
  const pki = makePki(pkiDir)
  const tlsPort = await listen(t, https.createServer({ cert: pki.server.cert, key: pki.server.key }, (req, res) => res.end('ok')))
  const s = await autocannon({ url: `https://localhost:${tlsPort}/`, proxy, connections: 2, duration: 1 })
  t.equal(s.errors, 0, `https: no errors (${JSON.stringify(s.errorCodes)})`)
  t.ok(s.requests.total > 20, `https: answered (${s.requests.total})`)
  t.equal(s.resent, 0, 'https: the tunnel stays open, nothing to resend')
})

t.test('the summary says how many were resent', async (t) => {
  const printResult = require('../..').printResult
  const text = printResult({ ...(await autocannon({ url: 'http://127.0.0.1:9', connections: 1, amount: 1 })), resent: 12 }, { renderResultsTable: false, renderLatencyTable: false })
  t.match(text, /\n12 requests resent on a new connection \(the server closed theirs before answering them\)\n/)
})
