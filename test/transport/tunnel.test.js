'use strict'

// An https target through a proxy (lib/transport/tunnel.js), against a
// CONNECT proxy written here and a TLS server, all on loopback: the
// CONNECT request, the TLS socket handed over with upgrade(), SNI and
// ALPN inside the tunnel, session resumption, and each way a proxy can
// refuse (AC_PROXY_REFUSED, with the reason). The connection is a spy:
// the tunnel uses only onConnect, onData and upgrade of it.

const t = require('tap')
const net = require('net')
const tls = require('tls')
const { transportFor } = require('../../lib/transport/transport')
const { spy } = require('../helpers/spy')
const { makePki } = require('../helpers/pki')
const { tempDir } = require('../helpers/recording')
const { listen } = require('../helpers/listen')

const SEAM = ['onConnect', 'onData', 'upgrade', 'mark']
const used = new Set()

const pki = makePki(tempDir(t, 'ac-tunnel-'))

// A TLS server that greets each connection and notes its SNI, ALPN and
// whether its session was resumed.
async function tlsServer (t) {
  const seen = []
  const port = await listen(t, tls.createServer({ ...pki.server, ALPNProtocols: ['h2', 'http/1.1'] }, (socket) => {
    seen.push({ servername: socket.servername, alpn: socket.alpnProtocol, resumed: socket.isSessionReused() })
    socket.write('through the tunnel')
  }))
  return { port, seen }
}

// A proxy that reads the CONNECT head, notes it, then does what
// answer(socket, head) does (by default: 200, and a pipe to the TLS
// server at `to`).
async function connectProxy (t, { to, answer } = {}) {
  const heads = []
  const port = await listen(t, net.createServer((socket) => {
    socket.on('error', () => {})
    let head = ''
    const onData = (buf) => {
      head += buf.toString('latin1')
      if (!head.includes('\r\n\r\n')) return
      socket.removeListener('data', onData)
      heads.push(head)
      if (answer) return answer(socket, head)
      const upstream = net.connect({ host: '127.0.0.1', port: to }, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        socket.pipe(upstream).pipe(socket)
      })
      upstream.on('error', () => socket.destroy())
      socket.on('close', () => upstream.destroy())
    }
    socket.on('data', onData)
  }))
  return { port, heads }
}

function proxyAt (port, auth) {
  return { hostname: '127.0.0.1', port, href: `http://${auth ? 'user:***@' : ''}127.0.0.1:${port}`, auth }
}

function httpsTarget (port, proxy, over) {
  return {
    secure: true,
    hostname: 'localhost',
    port,
    socketPath: undefined,
    proxy,
    protocol: 'http/1.1',
    origin: `https://localhost:${port}`,
    ...over
  }
}

// A connection whose upgrade() answers `accept`, noting its calls.
function fakeConnection ({ accept = true } = {}) {
  const conn = {
    events: [],
    marks: [],
    text: '',
    upgraded: null,
    onConnect () { conn.events.push('connect') },
    // The steps of opening the socket, in order (connection.js, phases()).
    mark (step) { conn.marks.push(step) },
    onData (buf, start, end) {
      conn.events.push('data')
      conn.text += buf.toString('latin1', start, end)
      if (conn.onRead) conn.onRead()
    },
    upgrade (from, to) {
      conn.events.push('upgrade')
      conn.upgraded = { from, to }
      // A TLS session (ticket) for the next tunnel, once it comes.
      conn.session = new Promise((resolve) => to.once('session', resolve))
      if (accept) to.on('error', () => {})
      return accept
    }
  }
  return conn
}

// connect(conn) through the spy; → { conn, raw, outcome }, outcome
// resolving with 'read' once `expect` was read, or with the raw socket's
// error; the test fails after 3 s.
function open (t, connect, { expect = 'through the tunnel', accept = true } = {}) {
  const conn = fakeConnection({ accept })
  const raw = connect(spy(conn, used))
  t.teardown(() => {
    raw.destroy()
    if (conn.upgraded) conn.upgraded.to.destroy()
  })
  let timer
  const outcome = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`neither read nor refused in 3 s (read ${JSON.stringify(conn.text)})`)), 3000)
    conn.onRead = () => { if (conn.text === expect) { clearTimeout(timer); resolve('read') } }
    raw.on('error', (err) => { clearTimeout(timer); resolve(err) })
  })
  t.teardown(() => clearTimeout(timer))
  return { conn, raw, outcome }
}

t.test('CONNECT, then TLS inside, handed over to the connection', async (t) => {
  const server = await tlsServer(t)
  const proxy = await connectProxy(t, { to: server.port })
  const connect = transportFor(httpsTarget(server.port, proxyAt(proxy.port)), {})
  const { conn, raw, outcome } = open(t, connect)
  t.ok(raw instanceof net.Socket && !(raw instanceof tls.TLSSocket), 'connect() returns the socket to the proxy')
  t.equal(await outcome, 'read')
  t.same(proxy.heads, [`CONNECT localhost:${server.port} HTTP/1.1\r\nHost: localhost:${server.port}\r\n\r\n`], 'the CONNECT request')
  t.same(conn.events, ['upgrade', 'connect', 'data'], 'upgraded, then connected at the end of the handshake, then read')
  t.equal(conn.upgraded.from, raw, 'from the socket to the proxy')
  t.ok(conn.upgraded.to instanceof tls.TLSSocket, 'to the TLS socket over it')
  t.same(server.seen, [{ servername: 'localhost', alpn: false, resumed: false }], 'SNI: the target\'s name, inside the tunnel')
})

t.test('the proxy\'s credentials go with CONNECT', async (t) => {
  const proxy = await connectProxy(t, { answer: (socket) => socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n') })
  const connect = transportFor(httpsTarget(8443, proxyAt(proxy.port, 'Basic dXNlcjpwYXNz')), {})
  await open(t, connect).outcome
  t.same(proxy.heads, ['CONNECT localhost:8443 HTTP/1.1\r\nHost: localhost:8443\r\nProxy-Authorization: Basic dXNlcjpwYXNz\r\n\r\n'])
  // An IPv6 target: its authority in brackets.
  const v6 = transportFor(httpsTarget(8443, proxyAt(proxy.port), { hostname: '::1', origin: 'https://[::1]:8443' }), {})
  await open(t, v6).outcome
  t.equal(proxy.heads[1], 'CONNECT [::1]:8443 HTTP/1.1\r\nHost: [::1]:8443\r\n\r\n')
})

t.test('ALPN inside the tunnel: an h2 target offers h2', async (t) => {
  const server = await tlsServer(t)
  const proxy = await connectProxy(t, { to: server.port })
  const connect = transportFor(httpsTarget(server.port, proxyAt(proxy.port), { alpn: ['h2'] }), {})
  const { conn, outcome } = open(t, connect)
  t.equal(await outcome, 'read')
  t.equal(server.seen[0].alpn, 'h2')
  t.equal(conn.upgraded.to.alpnProtocol, 'h2')
})

t.test('the second tunnel to a target resumes the first one\'s TLS session', async (t) => {
  const server = await tlsServer(t)
  const proxy = await connectProxy(t, { to: server.port })
  const connect = transportFor(httpsTarget(server.port, proxyAt(proxy.port)), {})
  const first = open(t, connect)
  t.equal(await first.outcome, 'read')
  // TLS 1.3 hands the ticket over after the handshake.
  await Promise.race([first.conn.session, new Promise((resolve, reject) => setTimeout(() => reject(new Error('no TLS session in 3 s')), 3000).unref())])
  first.raw.destroy()
  const second = open(t, connect)
  t.equal(await second.outcome, 'read')
  t.equal(second.conn.upgraded.to.isSessionReused(), true)
  t.same(server.seen.map((s) => s.resumed), [false, true])
})

t.test('a connection that moved on: the TLS socket is dropped', async (t) => {
  const server = await tlsServer(t)
  const proxy = await connectProxy(t, { to: server.port })
  const connect = transportFor(httpsTarget(server.port, proxyAt(proxy.port)), {})
  const { conn } = open(t, connect, { accept: false })
  for (let i = 0; i < 300 && conn.upgraded === null; i++) await new Promise((resolve) => setTimeout(resolve, 5))
  t.ok(conn.upgraded, 'upgrade() was asked')
  t.equal(conn.upgraded.to.destroyed, true, 'refused: the TLS socket destroyed')
  await new Promise((resolve) => setTimeout(resolve, 30))
  t.same(conn.events, ['upgrade'], 'and never connected')
})

t.test('a CONNECT answer that comes in pieces', async (t) => {
  const server = await tlsServer(t)
  const proxy = await connectProxy(t, {
    answer: (socket) => {
      const upstream = net.connect({ host: '127.0.0.1', port: server.port }, () => {
        socket.write('HTTP/1.1 200 OK\r\nVia: te')
        setTimeout(() => {
          socket.write('st\r\n\r\n')
          socket.pipe(upstream).pipe(socket)
        }, 10)
      })
      upstream.on('error', () => socket.destroy())
      socket.on('close', () => upstream.destroy())
    }
  })
  const { outcome } = open(t, transportFor(httpsTarget(server.port, proxyAt(proxy.port)), {}))
  t.equal(await outcome, 'read')
})

// Each refusal: what the proxy does → the reason in the error.
const REFUSALS = [
  ['407 without credentials', null, (s) => s.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n'),
    '407 Proxy Authentication Required (it wants credentials: put user:pass@ before the proxy\'s host)'],
  ['407 with credentials', 'Basic eDp5', (s) => s.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n'),
    '407 Proxy Authentication Required (the credentials were not accepted)'],
  ['500', null, (s) => s.end('HTTP/1.0 500 Internal Error\r\nContent-Length: 0\r\n\r\n'), '500 Internal Error'],
  ['a status without a reason', null, (s) => s.end('HTTP/1.1 403\r\n\r\n'), '403'],
  ['not HTTP', null, (s) => s.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'), 'it answered CONNECT with something that is not HTTP'],
  ['an early close', null, (s) => s.end(), 'it closed the connection before answering CONNECT'],
  ['no end of header', null, (s) => s.write('HTTP/1.1 200 OK\r\n' + 'X-Pad: ' + 'a'.repeat(17 * 1024)), 'its response to CONNECT has no end of header']
]

for (const [name, auth, answer, why] of REFUSALS) {
  t.test(`refused: ${name}`, async (t) => {
    const proxy = await connectProxy(t, { answer })
    const p = proxyAt(proxy.port, auth)
    const { conn, outcome } = open(t, transportFor(httpsTarget(8443, p), {}))
    const err = await outcome
    t.ok(err instanceof Error, 'the socket to the proxy fails')
    t.same({ code: err.code, message: err.message }, {
      code: 'AC_PROXY_REFUSED',
      message: `proxy ${p.href} refused the tunnel to localhost:8443: ${why}`
    })
    t.same(conn.events, [], 'the connection was neither upgraded nor connected')
  })
}

t.test('the seam: the tunnel uses only onConnect, onData, upgrade and mark of its connection', async (t) => {
  const stray = [...used].filter((name) => !SEAM.includes(name))
  t.same(stray, [], `only the seam's calls (${[...used].sort().join(', ')})`)
  t.same([...used].sort(), [...SEAM].sort(), 'and all of them')
})
