'use strict'

// The Client's seams, held on real runs against real servers on
// loopback: what it uses of its protocol object, what the protocol uses of
// it, and what its Connection calls of it, each within the lists
// lib/client/client.js and lib/transport/connection.js declare, for both
// protocols. Every member of each list is used by some run below: a list
// that names what nothing uses is stale, and a new use is a decision to
// make there, not a field to reach for. (What a client uses of the run,
// its handle: test/engine/run-handle.test.js.)

const t = require('tap')
const net = require('net')
const { spy } = require('../helpers/spy')
const { rawServer, closedPort, bench } = require('../helpers/raw-server')
const { nodeH2Server, rawH2Server, response } = require('../helpers/h2-servers')
const { encodeGoaway, encodeRstStream } = require('../../lib/http2/frames')

// What a Client may use of its protocol (lib/client/client.js).
const PROTOCOL = ['inFlight', 'ready', 'accepting', 'spent', 'open', 'connected', 'read', 'end', 'unanswered',
  'closedIdle', 'drop', 'oldestSentAt', 'setUpSince', 'room', 'send', 'queue', 'flush', 'hold', 'release',
  'sendHeld', 'retire', 'refresh', 'stop']
// What a protocol may use of its Client, once made.
const CLIENT = ['respond', 'overflowed', 'requestFailed', 'resend', 'fail', 'pump', 'checkIdle', 'sendEach',
  'emitHeaders', 'wantBody', 'wantHeaders', 'maxBodySize', 'sentOnSocket', 'pendingRequest', 'stopped', 'target', 'readAt']
// What a Connection calls of the Client it carries (lib/transport/connection.js).
const CONNECTION = ['onOpen', 'onReady', 'onData', 'onEnd', 'onClose', 'onFail', 'dropInFlight', 'nothingLeft',
  'finish', 'inFlight', 'sentOnSocket', 'done', 'oldestSentAt', 'setUpSince']

function seams () {
  return { protocol: new Set(), client: new Set(), connection: new Set() }
}

// setupClient for a run whose seams are noted in `used`: each side gets a
// spy of the other.
function watch (used, also) {
  return (client) => {
    const protocol = client.protocol
    protocol.client = spy(client, used.client)
    client.protocol = spy(protocol, used.protocol)
    client.connection.protocol = spy(client, used.connection)
    if (also) also(client)
  }
}

function holds (t, used, declared, what) {
  const stray = [...used].filter((name) => !declared.includes(name))
  t.same(stray, [], `${what} uses only what is declared (${[...used].sort().join(', ')})`)
}

const http1 = seams()
const http2 = seams()

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello'
const CLOSE = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello'

t.test('HTTP/1.1', async (t) => {
  let n = 0
  const answered = new WeakSet()
  const server = await rawServer(t, (head, socket) => {
    if (head.startsWith('GET http://')) return 'HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n'
    // The first request of each connection is answered, with a close.
    if (head.includes('/close')) {
      if (answered.has(socket)) return undefined
      answered.add(socket)
      return CLOSE
    }
    if (head.includes('/silent')) return undefined
    if (head.includes('/drop') && ++n % 3 === 0) { setImmediate(() => socket.destroy()); return undefined }
    if (head.includes('/big')) return 'HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n01234567890123456789'
    return OK
  })
  const url = server.url
  const used = http1
  const runs = [
    // Pipelined, headers and bodies wanted, a mismatch, hooks of both kinds.
    { url, connections: 2, pipelining: 4, amount: 60, expectBody: 'nope', setupClient: watch(used, (c) => c.on('headers', () => {})) },
    { url, connections: 1, amount: 20, requests: [{ setupRequest: (req) => Promise.resolve(req) }, { setupRequest: (req, ctx) => { if (ctx.k++ % 4 === 3) throw new Error('no'); return req } }], initialContext: { k: 0 }, setupClient: watch(used) },
    { url, connections: 1, amount: 10, requests: [{ onResponse: () => { throw new Error('no') } }], setupClient: watch(used) },
    // The server announces its close, with requests pipelined behind it.
    { url: url + '/close', connections: 1, pipelining: 3, amount: 12, setupClient: watch(used) },
    // One request per connection, whose answer closes it: done as it closes.
    { url: url + '/close', connections: 2, maxConnectionRequests: 1, duration: 5, setupClient: watch(used) },
    // It hangs up on some; a new socket every 2 requests; a cap per connection.
    { url: url + '/drop', connections: 1, amount: 12, method: 'POST', setupClient: watch(used) },
    { url, connections: 2, amount: 12, reconnectRate: 2, setupClient: watch(used) },
    { url, connections: 2, maxConnectionRequests: 3, duration: 5, setupClient: watch(used) },
    { url: url + '/big', connections: 1, amount: 3, maxBodySize: 10, expectBody: 'x', setupClient: watch(used) },
    // Requests the server never answers time out.
    { url: url + '/silent', connections: 1, amount: 1, timeout: 0.2, setupClient: watch(used) },
    // A proxy (the same server) that wants credentials.
    { url: 'http://127.0.0.1:9/', proxy: url, connections: 1, amount: 2, setupClient: watch(used) },
    // And a port that refuses.
    { url: `http://127.0.0.1:${await closedPort()}`, connections: 1, amount: 2, setupClient: watch(used) }
  ]
  for (const opts of runs) {
    const result = await bench(t, opts)
    t.ok(result.requests.sent > 0, `${opts.url.slice(url.length) || '/'}: ran`)
    if (opts.url.endsWith('/close') && opts.amount) t.ok(result.resent > 0, 'requests behind an announced close went again')
  }
  holds(t, used.protocol, PROTOCOL, 'the client, of HTTP/1.1\'s protocol')
  holds(t, used.client, CLIENT, 'HTTP/1.1\'s protocol, of the client')
  holds(t, used.connection, CONNECTION, 'the connection, of the client')
})

t.test('HTTP/2', async (t) => {
  const used = http2
  const node = await nodeH2Server(t, (stream, headers) => {
    if (headers[':path'] === '/big') return stream.end('01234567890123456789')
    stream.end('hello')
  })
  let streams = 0
  // GOAWAY after every third stream; a reset for every fifth.
  const goaway = await rawH2Server(t, (conn) => ({
    onHeaders (id) {
      streams++
      if (streams % 5 === 0) return conn.send(encodeRstStream(id, 2))
      conn.send(response(id))
      if (streams % 3 === 0) conn.send(encodeGoaway(id, 0))
    }
  }))
  // A server that sends no SETTINGS: it closes its first connection, and
  // takes the next ones without a word.
  const sockets = new Set()
  const mute = net.createServer((socket) => {
    socket.on('error', () => {})
    sockets.add(socket)
    if (sockets.size === 1) setTimeout(() => socket.destroy(), 20)
  })
  await new Promise((resolve) => mute.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => {
    for (const socket of sockets) socket.destroy()
    mute.close(resolve)
  }))
  const muteUrl = `http://127.0.0.1:${mute.address().port}`
  const runs = [
    { url: node.url, http2: true, connections: 2, pipelining: 4, amount: 60, expectBody: 'nope', setupClient: watch(used, (c) => c.on('headers', () => {})) },
    { url: node.url, http2: true, connections: 1, amount: 20, requests: [{ setupRequest: (req) => Promise.resolve(req) }, { setupRequest: (req, ctx) => { if (ctx.k++ % 4 === 3) throw new Error('no'); return req } }], initialContext: { k: 0 }, setupClient: watch(used) },
    { url: node.url, http2: true, connections: 2, amount: 12, reconnectRate: 2, setupClient: watch(used) },
    { url: node.url + '/big', http2: true, connections: 1, amount: 3, maxBodySize: 10, setupClient: watch(used) },
    { url: goaway.url, http2: true, connections: 1, pipelining: 2, amount: 20, setupClient: watch(used) },
    { url: muteUrl, http2: true, connections: 1, amount: 2, timeout: 0.2, setupClient: watch(used) }
  ]
  for (const opts of runs) {
    const result = await bench(t, opts)
    t.ok(result.requests.sent > 0, `${opts.url}: ran`)
  }
  t.ok(goaway.connections > 1, 'GOAWAY moved the client to new connections')
  t.ok(sockets.size >= 2, 'the silent server was closed on, then waited on')
  holds(t, used.protocol, PROTOCOL, 'the client, of HTTP/2\'s protocol')
  holds(t, used.client, CLIENT, 'HTTP/2\'s protocol, of the client')
  holds(t, used.connection, CONNECTION, 'the connection, of the client')
})

t.test('every declared member is used by some run: no list names what nothing uses', async (t) => {
  const all = (key) => new Set([...http1[key], ...http2[key]])
  for (const [key, declared] of [['protocol', PROTOCOL], ['client', CLIENT], ['connection', CONNECTION]]) {
    const unused = declared.filter((name) => !all(key).has(name))
    t.same(unused, [], `${key}: all used`)
  }
})

t.test('both protocols have every member the client uses', async (t) => {
  const Http1 = require('../../lib/http1/client-h1')
  const Http2 = require('../../lib/http2/client-h2')
  for (const module of [Http1, Http2]) {
    const { Client } = require('../../lib/client/client')
    const client = Object.create(Client.prototype)
    Object.assign(client, { connection: {}, sequence: { staticBytes: null, entries: [] }, target: {}, wantBody: false, wantHeaders: false })
    const protocol = module.create(client, { pipelining: 2, rated: false })
    const missing = PROTOCOL.filter((name) => !(name in protocol))
    t.same(missing, [], `${module.name}: all of them`)
    t.equal(typeof module.encodingFor({ secure: false }).encode, 'function', `${module.name}: an encoding`)
  }
})
