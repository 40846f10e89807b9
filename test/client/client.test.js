'use strict'

// The Client's seams, held on real runs against real servers on
// loopback: what it uses of its framing object, what the framing calls
// back of it (calls only: a framing reads no field of the Client), and
// what its Connection calls of it, each within the lists
// lib/client/client.js and lib/transport/connection.js declare, for both
// protocols. The framing's two lists are read from the top of client.js,
// where they are written once. Every member of each list is used by some
// run below: a list that names what nothing uses is stale, and a new use
// (a member the framing grows for the Client, a field it reaches for) is
// a decision to make there, and fails here until it is. (What a client
// uses of the run, its handle: test/engine/run-handle.test.js.)

const t = require('tap')
const net = require('net')
const { spy } = require('../helpers/spy')
const { rawServer, closedPort, bench } = require('../helpers/raw-server')
const { nodeH2Server, rawH2Server, response } = require('../helpers/h2-servers')
const { encodeGoaway, encodeRstStream } = require('../../lib/http2/frames')

// The seam as the top of lib/client/client.js declares it: what a Client
// may use of its framing, and what a framing may call back of its Client.
const { FRAMING, CLIENT } = require('../helpers/seam')
// What a Connection calls of the Client it carries (lib/transport/connection.js).
const CONNECTION = ['onOpen', 'onReady', 'onData', 'onEnd', 'onClose', 'onFail', 'dropInFlight', 'nothingLeft',
  'finish', 'inFlight', 'sentOnSocket', 'done', 'oldestSentAt', 'setUpSince']

function seams () {
  return { framing: new Set(), client: new Set(), connection: new Set() }
}

// setupClient for a run whose seams are noted in `used`: each side gets a
// spy of the other.
function watch (used, also) {
  return (client) => {
    const framing = client.framing
    framing.client = spy(client, used.client)
    client.framing = spy(framing, used.framing)
    client.connection.client = spy(client, used.connection)
    if (also) also(client)
  }
}

function holds (t, used, declared, what) {
  const stray = [...used].filter((name) => !declared.includes(name))
  t.same(stray, [], `${what} uses only what is declared (${[...used].sort().join(', ')})`)
}

const http1 = seams()
const http2 = seams()
const grpc = seams()

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
  holds(t, used.framing, FRAMING, 'the client, of HTTP/1.1\'s framing')
  holds(t, used.client, CLIENT, 'HTTP/1.1\'s framing, of the client')
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
  holds(t, used.framing, FRAMING, 'the client, of HTTP/2\'s framing')
  holds(t, used.client, CLIENT, 'HTTP/2\'s framing, of the client')
  holds(t, used.connection, CONNECTION, 'the connection, of the client')
})

t.test('gRPC', async (t) => {
  const { startGrpcServer, PROTO, FIXTURES } = require('../helpers/grpc-server')
  const server = await startGrpcServer()
  t.teardown(server.close)
  const used = grpc
  const call = (method, data, more) => ({ url: server.url, connections: 1, grpc: { proto: PROTO, protoPath: [FIXTURES], call: `bench.Echo/${method}`, data, ...more }, setupClient: watch(used) })
  const runs = [
    { ...call('Say', { name: 'a' }), pipelining: 2, amount: 10 },
    { ...call('Fail', { code: 14 }), amount: 4 },
    // Calls past their deadline: the framing's own timer frees their streams.
    { ...call('Stall', { ms: 300 }, { timeout: 0.05 }), pipelining: 2, amount: 4 }
  ]
  for (const opts of runs) {
    const result = await bench(t, opts)
    t.ok(result.requests.sent > 0, `${opts.grpc.call}: ran`)
  }
  t.ok(used.client.has('pump'), 'a deadline\'s timer pumps')
  holds(t, used.framing, FRAMING, 'the client, of gRPC\'s framing')
  holds(t, used.client, CLIENT, 'gRPC\'s framing, of the client')
})

t.test('every declared member is used by some run: no list names what nothing uses', async (t) => {
  const all = (key) => new Set([...http1[key], ...http2[key], ...grpc[key]])
  for (const [key, declared] of [['framing', FRAMING], ['client', CLIENT], ['connection', CONNECTION]]) {
    const unused = declared.filter((name) => !all(key).has(name))
    t.same(unused, [], `${key}: all used`)
  }
})

t.test('both framings have every member the client uses', async (t) => {
  const { PROTOCOLS } = require('../../lib/protocols/registry')
  const { InOrder, AnyOrder } = require('../../lib/client/in-flight')
  for (const protocol of PROTOCOLS) {
    const module = protocol.framing()
    const slots = module.inOrder ? new InOrder(2) : new AnyOrder(2)
    const framing = module.create({}, { pipelining: 2, rated: false, maxBodySize: Infinity }, slots, { staticBytes: null, entries: [] }, {})
    const missing = FRAMING.filter((name) => !(name in framing))
    t.same(missing, [], `${protocol.name}: all of them`)
    t.equal(typeof module.encodingFor({ secure: false }).encode, 'function', `${protocol.name}: an encoding`)
  }
})

// The same lists, held on the sources too, where a run may not go: every
// use of a framing object in lib/client, and every use of the Client in a
// framing's folder (comments left out; a framing module's own exports,
// route.framing.create and .inOrder, are not the object's).
const fs = require('fs')
const path = require('path')
const LIB = path.join(__dirname, '..', '..', 'lib')

function uses (files, pattern) {
  const found = []
  for (const file of files) {
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter((line) => !/^\s*\/\//.test(line))
    for (const line of lines) for (const m of line.matchAll(pattern)) found.push([path.relative(LIB, file), m[1]])
  }
  return found
}

const inFolder = (folder) => fs.readdirSync(path.join(LIB, folder)).filter((f) => f.endsWith('.js')).map((f) => path.join(LIB, folder, f))

t.test('the sources use no more of the seam than the lists', async (t) => {
  const ofFraming = uses(inFolder('client'), /(?<!route\.)\bframing\.([A-Za-z]+)/g)
  t.ok(ofFraming.length > 10, `${ofFraming.length} uses of a framing in lib/client`)
  t.same(ofFraming.filter(([, name]) => !FRAMING.includes(name)).map((u) => u.join(': ')), [], 'lib/client uses of a framing only what client.js lists')
  const ofClient = uses([...inFolder('http1'), ...inFolder('http2'), ...inFolder('grpc')], /\bclient\.([A-Za-z]+)/g)
  t.ok(ofClient.length > 10, `${ofClient.length} uses of the Client in the framings' folders`)
  t.same(ofClient.filter(([, name]) => !CLIENT.includes(name)).map((u) => u.join(': ')), [], 'a framing calls back only what client.js lists, and reads no field of the Client')
})
