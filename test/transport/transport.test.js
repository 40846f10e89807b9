'use strict'

// The transports (lib/transport/transport.js) against loopback servers:
// plain TCP and a Unix socket reading into one shared buffer, an http
// target's connections going to its proxy, TLS with SNI, ALPN and session
// resumption. The connection they are handed is a spy: a transport uses
// only onConnect, onData and upgrade of it.

const t = require('tap')
const net = require('net')
const tls = require('tls')
const path = require('path')
const { transportFor } = require('../../lib/transport/transport')
const { spy } = require('../helpers/spy')
const { makePki } = require('../helpers/pki')
const { tempDir } = require('../helpers/recording')
const { listen } = require('../helpers/listen')

// What a transport may use of its connection (lib/transport/connection.js).
const SEAM = ['onConnect', 'onData', 'upgrade', 'mark']
const used = new Set()

const pki = makePki(tempDir(t, 'ac-transport-'))

// A connection that notes its events; `socket` is set by the test to the
// one connect() returned. Seen through the spy.
function fakeConnection () {
  const conn = {
    events: [],
    marks: [],
    reads: [],
    socket: null,
    onConnect () { conn.events.push('connect') },
    // The steps of opening the socket, in order (connection.js, phases()).
    mark (step) { conn.marks.push(step) },
    onData (buf, start, end) {
      conn.events.push('data')
      conn.reads.push({ buf, start, end, text: buf.toString('latin1', start, end) })
      if (conn.onRead) conn.onRead()
    },
    upgrade () { conn.events.push('upgrade'); return true }
  }
  // Resolves once `text` has been read; fails the test after 3 s.
  conn.read = (text) => new Promise((resolve, reject) => {
    const got = () => conn.reads.map((r) => r.text).join('')
    const timer = setTimeout(() => reject(new Error(`read ${JSON.stringify(got())}, not ${JSON.stringify(text)}, in 3 s`)), 3000)
    const check = () => {
      if (got() !== text) return
      clearTimeout(timer)
      resolve()
    }
    conn.onRead = check
    check()
  })
  return conn
}

// `promise`, or a failure after 3 s (caught until awaited).
function within (promise, what) {
  let timer
  const bounded = Promise.race([promise, new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} in 3 s`)), 3000)
    timer.unref()
  })]).finally(() => clearTimeout(timer))
  bounded.catch(() => {})
  return bounded
}

function open (connect, t) {
  const conn = fakeConnection()
  const socket = connect(spy(conn, used))
  conn.socket = socket
  // A TLS session (ticket) for the next connection, once it comes.
  conn.session = within(new Promise((resolve) => socket.once('session', resolve)), 'a TLS session')
  socket.on('error', () => {})
  t.teardown(() => socket.destroy())
  return conn
}

// A target as lib/config makes one, with the protocol it speaks.
function target (over) {
  return { secure: false, hostname: '127.0.0.1', port: 0, socketPath: undefined, proxy: undefined, protocol: 'http/1.1', ...over }
}

// A server that greets each connection with `hello` and notes them.
async function greeter (t, greeting = 'hello') {
  const seen = []
  const port = await listen(t, net.createServer((socket) => {
    seen.push(socket)
    socket.write(greeting)
  }))
  return { port, seen }
}

t.test('plain TCP: onConnect at connect, reads into one shared buffer', async (t) => {
  const { port, seen } = await greeter(t)
  const connect = transportFor(target({ port }), {})
  const a = open(connect, t)
  t.ok(a.socket instanceof net.Socket, 'connect() returns the socket')
  t.same(a.events, [], 'nothing before the socket connects')
  await a.read('hello')
  t.same(a.events, ['connect', 'data'], 'onConnect first, then what was read')
  const b = open(connect, t)
  await b.read('hello')
  t.equal(seen.length, 2)
  t.equal(a.reads[0].start, 0)
  t.equal(a.reads[0].end, 5)
  t.equal(a.reads[0].buf, b.reads[0].buf, 'both connections read into the same buffer')
  t.equal(a.reads[0].buf.length, 256 * 1024)
})

t.test('a Unix socket: the same, by its path', async (t) => {
  const socketPath = path.join(tempDir(t, 'ac-unix-'), 'server.sock')
  const server = net.createServer((socket) => socket.end('over unix'))
  await new Promise((resolve) => server.listen(socketPath, resolve))
  t.teardown(() => new Promise((resolve) => server.close(resolve)))
  // The port is ignored: the path is dialled.
  const conn = open(transportFor(target({ socketPath, port: 1 }), {}), t)
  await conn.read('over unix')
  t.same(conn.events, ['connect', 'data'])
  t.equal(conn.reads[0].buf.length, 256 * 1024, 'into the shared buffer')
})

t.test('an http target through a proxy: its connections go to the proxy', async (t) => {
  const { port, seen } = await greeter(t, 'proxy here')
  const proxy = { hostname: '127.0.0.1', port, href: `http://127.0.0.1:${port}`, auth: undefined }
  const conn = open(transportFor(target({ hostname: 'target.invalid', port: 80, proxy }), {}), t)
  await conn.read('proxy here')
  t.equal(seen.length, 1, 'the proxy got the connection')
  t.equal(conn.socket.remotePort, port)
})

// A TLS server that notes, per handshake, the name and the ALPN list the
// client offered; it answers h2 when offered, and greets each connection.
async function tlsServer (t, greeting = 'secure hello') {
  const handshakes = []
  const server = tls.createServer({
    ...pki.server,
    ALPNCallback: ({ servername, protocols }) => {
      handshakes.push({ servername, protocols })
      return protocols.includes('h2') ? 'h2' : protocols[0]
    }
  }, (socket) => {
    handshakes.push({ secure: true, servername: socket.servername, alpn: socket.alpnProtocol, resumed: socket.isSessionReused() })
    socket.write(greeting)
  })
  const port = await listen(t, server)
  return { port, handshakes, secured: () => handshakes.filter((h) => h.secure) }
}

t.test('TLS: onConnect once the handshake is done, then what was read', async (t) => {
  const server = await tlsServer(t)
  const conn = open(transportFor(target({ secure: true, port: server.port }), {}), t)
  t.ok(conn.socket instanceof tls.TLSSocket)
  let atConnect = null
  const real = conn.onConnect
  conn.onConnect = () => {
    atConnect = { cipher: !!conn.socket.getCipher(), cert: conn.socket.getPeerCertificate().subject.CN }
    real()
  }
  await conn.read('secure hello')
  t.same(conn.events, ['connect', 'data'])
  t.same(atConnect, { cipher: true, cert: 'localhost' }, 'at secureConnect: the handshake done, the certificate in')
  t.same(conn.reads.map((r) => [r.start, r.end]), [[0, 12]], 'onData(buf, 0, length)')
  t.equal(server.secured()[0].servername, false, 'an IP address: no SNI')
})

t.test('TLS: one OpenSSL context for all of a target\'s connections, reads into the shared buffer', async (t) => {
  const server = await tlsServer(t)
  const made = []
  const create = tls.createSecureContext
  tls.createSecureContext = (options) => {
    const context = create(options)
    made.push(context)
    return context
  }
  let connect
  try {
    connect = transportFor(target({ secure: true, port: server.port }), { tlsOptions: { ca: pki.ca } })
    const conns = [open(connect, t), open(connect, t), open(connect, t)]
    for (const conn of conns) await conn.read('secure hello')
    t.equal(made.length, 1, 'one context made, for the target, whatever the connections')
    t.ok(conns.every((c) => c.socket.ssl._secureContext === made[0]), 'every connection uses it')
    t.ok(conns.every((c) => c.reads[0].buf === conns[0].reads[0].buf), 'decrypted into one buffer')
    t.equal(conns[0].reads[0].buf.length, 256 * 1024)
  } finally {
    tls.createSecureContext = create
  }
  // A context the caller made is used as given.
  const own = tls.createSecureContext({})
  const mine = open(transportFor(target({ secure: true, port: server.port }), { tlsOptions: { secureContext: own } }), t)
  await mine.read('secure hello')
  t.equal(mine.socket.ssl._secureContext, own)
})

t.test('TLS: SNI is the target\'s host name, or --servername', async (t) => {
  const server = await tlsServer(t)
  const byName = open(transportFor(target({ secure: true, hostname: 'localhost', port: server.port }), {}), t)
  await byName.read('secure hello')
  const chosen = open(transportFor(target({ secure: true, hostname: '127.0.0.1', port: server.port }), { servername: 'bench.example' }), t)
  await chosen.read('secure hello')
  t.same(server.secured().map((h) => h.servername), ['localhost', 'bench.example'])
})

t.test('TLS: an h2 target offers h2 (ALPN), an http/1.1 one does not', async (t) => {
  const server = await tlsServer(t)
  const h2 = open(transportFor(target({ secure: true, port: server.port, alpn: ['h2'] }), {}), t)
  await h2.read('secure hello')
  t.same(server.handshakes[0].protocols, ['h2'], 'offered: h2')
  t.equal(h2.socket.alpnProtocol, 'h2', 'and chosen')
  server.handshakes.length = 0
  const h1 = open(transportFor(target({ secure: true, port: server.port, alpn: undefined }), {}), t)
  await h1.read('secure hello')
  const offered = server.handshakes.filter((h) => h.protocols).flatMap((h) => h.protocols)
  t.notOk(offered.includes('h2'), `an http/1.1 target never offers h2 (offered: ${JSON.stringify(offered)})`)
  t.not(h1.socket.alpnProtocol, 'h2')
})

t.test('TLS: the second connection of a target resumes the first one\'s session', async (t) => {
  const server = await tlsServer(t)
  const connect = transportFor(target({ secure: true, hostname: 'localhost', port: server.port }), {})
  const first = open(connect, t)
  await first.read('secure hello')
  // TLS 1.3 hands the ticket over after the handshake.
  await first.session
  t.equal(first.socket.isSessionReused(), false)
  first.socket.destroy()
  const second = open(connect, t)
  await second.read('secure hello')
  t.equal(second.socket.isSessionReused(), true, 'resumed')
  t.same(server.secured().map((h) => h.resumed), [false, true], 'the server agrees')
  // Another target's transport does not share it.
  const other = open(transportFor(target({ secure: true, hostname: 'localhost', port: server.port }), {}), t)
  await other.read('secure hello')
  t.equal(other.socket.isSessionReused(), false, 'sessions are per target')
})

t.test('TLS: unverified by default; tlsOptions can ask for verification', async (t) => {
  const server = await tlsServer(t)
  const trusting = open(transportFor(target({ secure: true, hostname: 'localhost', port: server.port }), { tlsOptions: { ca: pki.ca, rejectUnauthorized: true } }), t)
  await trusting.read('secure hello')
  t.equal(trusting.socket.authorized, true, 'verified against the CA given')
  const failed = await new Promise((resolve) => {
    const conn = fakeConnection()
    const socket = transportFor(target({ secure: true, hostname: 'localhost', port: server.port }), { tlsOptions: { ca: pki.otherCa, rejectUnauthorized: true } })(conn)
    t.teardown(() => socket.destroy())
    socket.on('error', (err) => resolve({ err, events: conn.events }))
  })
  t.ok(failed.err, `another CA: refused (${failed.err.code})`)
  t.same(failed.events, [], 'never connected')
  const selfSigned = open(transportFor(target({ secure: true, hostname: 'localhost', port: server.port }), {}), t)
  await selfSigned.read('secure hello')
  t.equal(selfSigned.socket.authorized, false, 'by default: not verified, and connected all the same')
})

t.test('the seam: a transport uses only onConnect, onData, upgrade and mark of its connection', async (t) => {
  const stray = [...used].filter((name) => !SEAM.includes(name))
  t.same(stray, [], `only the seam's calls (${[...used].sort().join(', ')})`)
  t.ok(used.has('onConnect') && used.has('onData'), 'onConnect and onData both used')
})
