'use strict'

// Unit tests of lib/http1/client-h1.js: HTTP/1.1's framing object driven
// directly, with a real request sequence, a fake client that notes each
// call it gets and a socket that keeps what is written (helpers/
// framing-fakes.js). Responses are fed to read() as a socket would. What
// real servers make of it (pipelining on the wire, hostile servers,
// proxies) is in test/engine.test.js, test/engine-errors.test.js,
// test/hostile.test.js and test/proxy.test.js.

const t = require('tap')
const { performance } = require('perf_hooks')
const http1 = require('../../lib/http1/client-h1')
const { RequestSequence } = require('../../lib/client/request-sequence')
const { http1Encoding } = require('../../lib/http1/request-encoder')
const { createState } = require('../../lib/client/templates')
const { sharedOrder } = require('../../lib/client/order')
const { CountedError } = require('../../lib/core/errors')
const { framed, callsOf } = require('../helpers/framing-fakes')
const { protocolNamed } = require('../../lib/protocols/registry')

const BASE = Object.freeze({ method: 'GET', path: '/', headers: {}, host: 'h.test' })
const request = (path, method = 'GET') => `${method} ${path} HTTP/1.1\r\nHost: h.test\r\nConnection: keep-alive\r\n${method === 'POST' ? 'Content-Length: 0\r\n' : ''}\r\n`
const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi'
const CLOSE = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi'
// The answer to a HEAD: the length the body would have, and no body.
const HEAD_OK = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n'
const len = (s) => Buffer.byteLength(s)

// The framing for a sequence of `entries`, on an open socket.
function h1 ({ entries, pipelining = 4, rated = false, sequence = {}, client = {} } = {}) {
  const seq = new RequestSequence(BASE, entries, { encoding: http1Encoding, ...sequence })
  const fake = framed(http1, seq, { pipelining, rated }, client)
  const framing = fake.framing
  // As the Client does when it is made, then for each socket.
  framing.refresh()
  framing.open()
  const read = (...responses) => {
    const buf = Buffer.from(responses.join(''), 'latin1')
    return framing.read(buf, 0, buf.length)
  }
  return { ...fake, framing, read, sequence: seq }
}

t.test('a response\'s first byte: the time of the read that brought the start of its head, however the rest comes', async (t) => {
  const { framing, read, calls, state } = h1({ pipelining: 4 })
  framing.send(3, 100, null)
  const [a, b, c] = [OK.slice(0, 5), OK.slice(5), OK.slice(0, 20)]
  state.readAt = 110
  read(a)
  state.readAt = 120
  read(b, c)
  state.readAt = 130
  read(OK.slice(20), '\r\n', OK)
  t.same(callsOf(calls, 'respond').map((r) => r[7]), [110, 120, 130], 'a head split across reads, one that starts in the read the last ends, stray line ends before one')
  // An interim response's head starts the response.
  framing.send(1, 200, null)
  state.readAt = 210
  read('HTTP/1.1 100 Continue\r\n\r\n')
  state.readAt = 220
  read(OK)
  t.same(callsOf(calls, 'respond').map((r) => r[7]), [110, 120, 130, 210])
})

t.test('the module: its name, its factory, its encoding', async (t) => {
  // Its name is its descriptor's, whose framing it is.
  t.equal(protocolNamed('http/1.1').framing(), http1)
  t.equal(http1.encodingFor({ secure: true }), http1Encoding)
  const { framing, calls } = h1()
  t.type(framing, http1.Http1)
  t.equal(framing.ready, true, 'ready as soon as the socket is')
  t.equal(framing.accepting, true)
  t.equal(framing.spent, false)
  t.equal(framing.setUpSince(), 0, 'nothing to wait for after connecting')
  t.equal(framing.closedIdle(), null, 'a close with nothing in flight costs nothing')
  framing.connected()
  t.same(calls, [['pump']], 'connected: the client pumps')
})

t.test('room(): closed loop, refilled once half the pipeline is free; under a rate, every free slot', async (t) => {
  const closed = h1({ pipelining: 10 })
  t.equal(closed.framing.room(), 10)
  closed.framing.send(6, 0, null)
  t.equal(closed.framing.inFlight, 6)
  t.equal(closed.framing.room(), 0, '4 free of 10: wait')
  closed.read(OK)
  t.equal(closed.framing.room(), 5, '5 free: refill them all at once')

  const rated = h1({ pipelining: 10, rated: true })
  rated.framing.send(9, 0, new Float64Array(9))
  t.equal(rated.framing.room(), 1, 'one free slot is used at once')
  rated.framing.send(1, 0, new Float64Array(1))
  t.equal(rated.framing.room(), 0)

  const three = h1({ pipelining: 3 })
  three.framing.send(1, 0, null)
  t.equal(three.framing.room(), 2, 'of 3, refilled at 2 free')
  three.framing.send(1, 0, null)
  t.equal(three.framing.room(), 0)
  const one = h1({ pipelining: 1 })
  t.equal(one.framing.room(), 1)
  one.framing.send(1, 0, null)
  t.equal(one.framing.room(), 0)
})

t.test('send(): one request repeated is one write of n copies, built once per n', async (t) => {
  const { framing, socket, read, calls, state } = h1({ pipelining: 8 })
  framing.send(3, 100, null)
  t.same(socket.writes.map((b) => b.toString('latin1')), [request('/').repeat(3)])
  state.readAt = 150
  read(OK, OK, OK)
  framing.send(3, 200, null)
  t.equal(socket.originals[1], socket.originals[0], 'the same Buffer for the same n')
  framing.send(2, 300, [250, 260])
  t.equal(socket.writes[2].toString('latin1'), request('/').repeat(2))
  state.readAt = 350
  read(OK, OK, OK, OK, OK)
  t.same(callsOf(calls, 'respond'), [
    [200, len(OK), 100, 100, 0, null, null, 150],
    [200, len(OK), 100, 100, 0, null, null, 150],
    [200, len(OK), 100, 100, 0, null, null, 150],
    [200, len(OK), 200, 200, 0, null, null, 350],
    [200, len(OK), 200, 200, 0, null, null, 350],
    [200, len(OK), 200, 200, 0, null, null, 350],
    [200, len(OK), 300, 250, 0, null, null, 350],
    [200, len(OK), 300, 260, 0, null, null, 350]
  ], 'each response with its own request\'s times: sent, planned (now when not rated), and the read that brought its first byte')
  t.equal(framing.inFlight, 0)
})

t.test('static entries in a row: one write, each slot with its entry', async (t) => {
  const { framing, socket, read, calls } = h1({ entries: [{ path: '/a' }, { path: '/b' }, { path: '/c' }], pipelining: 8 })
  framing.send(3, 1, null)
  framing.send(2, 2, null)
  t.same(socket.writes.map((b) => b.toString('latin1')), [request('/a') + request('/b') + request('/c'), request('/a') + request('/b')])
  read(OK, OK, OK, OK, OK)
  t.same(callsOf(calls, 'respond').map((c) => [c[2], c[4]]), [[1, 0], [1, 1], [1, 2], [2, 0], [2, 1]], '[sentAt, entry] per response, in order')
  framing.send(2, 3, null)
  t.equal(socket.writes[2].toString('latin1'), request('/c') + request('/a'), 'from where the sequence is')
  read(OK, OK)
  framing.send(2, 4, null)
  t.equal(socket.writes[3].toString('latin1'), request('/b') + request('/c'))
  read(OK, OK)
  framing.send(2, 5, null)
  t.equal(socket.originals[4], socket.originals[1], 'a run of entries is built once')
  read(OK, OK)
  t.same(callsOf(calls, 'respond').slice(5).map((c) => [c[2], c[4]]), [[3, 2], [3, 0], [4, 1], [4, 2], [5, 0], [5, 1]])
  t.same(callsOf(calls, 'sendEach'), [], 'nothing one by one')
})

t.test('the FIFO\'s ring: slots go round, each response gets its own request\'s slot', async (t) => {
  const { framing, read, calls } = h1({ pipelining: 2 })
  framing.send(2, 1, [10, 11])
  read(OK)
  t.equal(framing.oldestSentAt(), 1)
  framing.send(1, 2, [12])
  t.equal(framing.inFlight, 2)
  read(OK)
  t.equal(framing.oldestSentAt(), 2, 'the oldest in flight is the one sent last, in the first slot again')
  framing.send(1, 3, [13])
  read(OK, OK)
  t.same(callsOf(calls, 'respond').map((c) => [c[2], c[3]]), [[1, 10], [1, 11], [2, 12], [3, 13]])

  const three = h1({ pipelining: 3, rated: true })
  three.framing.send(3, 1, [10, 11, 12])
  three.read(OK, OK)
  three.framing.send(2, 2, [13, 14])
  three.read(OK, OK, OK)
  t.same(callsOf(three.calls, 'respond').map((c) => [c[2], c[3]]), [[1, 10], [1, 11], [1, 12], [2, 13], [2, 14]], 'two past the end: the first two slots')
})

t.test('queue() and flush(): a batch built one by one is one write; the slots keep entry and times', async (t) => {
  const { framing, socket, read, calls, sequence } = h1({ entries: [{ method: 'HEAD', path: '/h' }, { path: '/g', setupRequest: (req) => req }] })
  framing.send(2, 5, [3, 4])
  t.same(callsOf(calls, 'sendEach'), [[2, 5, [3, 4]]], 'hooks: the client sends one by one')
  t.equal(socket.writes.length, 0)
  // As sendEach does.
  for (let k = 0; k < 2; k++) framing.queue(sequence.next(), 5, [3, 4][k], sequence.lastEntry, k)
  framing.flush(2, 5)
  t.same(socket.writes.map((b) => b.toString('latin1')), [request('/h', 'HEAD') + request('/g')])
  t.equal(framing.queued, null, 'the batch is let go once written')
  const one = Buffer.from(request('/x'))
  framing.queue(one, 6, 6, 1, 0)
  framing.flush(1, 6)
  t.equal(socket.originals[1], one, 'a batch of one is written as it is')
  // The HEAD's response has a Content-Length and no body.
  read(HEAD_OK, OK, OK)
  t.same(callsOf(calls, 'respond'), [
    [200, len(HEAD_OK), 5, 3, 0, null, null, 0],
    [200, len(OK), 5, 4, 1, null, null, 0],
    [200, len(OK), 6, 6, 1, null, null, 0]
  ])

  const order = h1({ entries: [{ path: '/a' }, { path: '/b' }], sequence: { order: sharedOrder('sequential', 2) } })
  order.framing.send(2, 0, null)
  t.same(callsOf(order.calls, 'sendEach'), [[2, 0, null]], 'a shared order: one by one, though every entry is static')
  const ids = h1({ entries: [{ path: '/[<id>]' }], sequence: { idReplacement: true } })
  ids.framing.send(2, 0, null)
  t.same(callsOf(ids.calls, 'sendEach'), [[2, 0, null]], 'ids: one by one')
})

t.test('HEAD: no body is read whatever its headers say, in a run of entries and in a batch', async (t) => {
  const mixed = h1({ entries: [{ method: 'HEAD', path: '/h' }, { path: '/g' }] })
  mixed.framing.send(2, 0, null)
  mixed.read(HEAD_OK, OK)
  t.same(callsOf(mixed.calls, 'respond').map((c) => [c[1], c[4]]), [[len(HEAD_OK), 0], [len(OK), 1]])

  const batch = h1({ entries: [{ method: 'HEAD' }] })
  batch.framing.send(2, 0, null)
  batch.read(HEAD_OK, HEAD_OK)
  t.same(callsOf(batch.calls, 'respond').map((c) => c[1]), [len(HEAD_OK), len(HEAD_OK)])
  t.same(callsOf(batch.calls, 'fail'), [])
})

t.test('templates: n requests of the connection\'s writer in one write, kept when the socket holds them', async (t) => {
  const { framing, socket } = h1({ entries: [{ path: '/s/{{seq}}' }], sequence: { templates: createState({ random: Math.random }) } })
  framing.send(2, 0, null)
  t.equal(socket.writes[0].toString('latin1'), request('/s/0') + request('/s/1'))
  socket.writableLength = 10
  framing.send(1, 0, null)
  socket.writableLength = 0
  framing.send(1, 0, null)
  t.equal(socket.writes[1].toString('latin1'), request('/s/2'))
  t.equal(socket.originals[1].toString('latin1'), request('/s/2'), 'queued by the socket: not written over by the next batch')
  t.not(socket.originals[2].buffer, socket.originals[1].buffer)
  framing.send(1, 0, null)
  t.equal(socket.originals[3].buffer, socket.originals[2].buffer, 'sent: its memory is used again')
})

t.test('hold(), release(), sendHeld(): a request still being made keeps its place', async (t) => {
  const { framing, socket, read, calls } = h1({ entries: [{ path: '/a' }, { path: '/b' }] })
  t.equal(framing.hold(), 0)
  t.equal(framing.inFlight, 1)
  t.equal(framing.room(), 3, 'the held place counts as in flight')
  framing.release(0)
  t.equal(framing.inFlight, 0)
  const before = performance.now()
  framing.sendHeld(Buffer.from(request('/b')), 1, 77)
  const after = performance.now()
  t.equal(socket.writes[0].toString('latin1'), request('/b'))
  read(OK)
  const [[status, bytes, sentAt, plannedAt, entry]] = callsOf(calls, 'respond')
  t.same([status, bytes, plannedAt, entry], [200, len(OK), 77, 1])
  t.ok(sentAt >= before && sentAt <= after, 'sent now')
})

t.test('a close the server announced: read() says so, and the requests behind it go again', async (t) => {
  const { framing, socket, read, calls } = h1({ pipelining: 3, client: { sentOnSocket: 3 } })
  framing.send(3, 0, null)
  t.equal(read(CLOSE), false, 'the socket closes')
  t.equal(socket.destroyed, true)
  t.equal(framing.accepting, false, 'takes no new request')
  t.equal(callsOf(calls, 'respond').length, 1, 'the response that announced it counts')
  t.equal(framing.inFlight, 2)
  t.equal(framing.unanswered(), null, 'not an error')
  t.same(callsOf(calls, 'resend'), [[2]], 'the two behind it go again')
  framing.drop()
  t.equal(framing.inFlight, 0)
  framing.open()
  t.equal(framing.accepting, true, 'a new socket takes requests again')
  t.equal(read(OK), true, 'and its parser starts clean')

  const http10 = h1({ pipelining: 2, client: { sentOnSocket: 2 } })
  http10.framing.send(2, 0, null)
  t.equal(http10.read('HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nhi'), false, 'HTTP/1.0 without keep-alive closes too')
})

t.test('a close not announced: what goes again and what is a hang-up', async (t) => {
  const HANG_UP = { code: 'AC_SOCKET_HANG_UP', message: 'socket hang up: the connection closed with requests in flight' }
  // Answered before on this socket, nothing of the next response, idempotent.
  const again = h1({ pipelining: 4, client: { sentOnSocket: 3 } })
  again.framing.send(3, 0, null)
  again.read(OK)
  t.equal(again.framing.mayResend(), true)
  t.equal(again.framing.unanswered(), null)
  t.same(callsOf(again.calls, 'resend'), [[2]])

  const cases = [
    ['nothing answered on this socket', { sentOnSocket: 2 }, [], 2, ''],
    ['a response begun', { sentOnSocket: 3 }, [], 3, 'HTTP/1.1 200 OK\r\nContent-'],
    ['not idempotent', { sentOnSocket: 3 }, [{ method: 'POST' }], 3, '']
  ]
  for (const [what, client, entries, sent, partial] of cases) {
    const c = h1({ entries, pipelining: 4, client })
    c.framing.send(sent, 0, null)
    if (sent === 3) c.read(entries.length ? 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n' : OK)
    if (partial) c.read(partial)
    t.equal(c.framing.mayResend(), false, what)
    const err = c.framing.unanswered()
    t.type(err, CountedError, what)
    t.match(err, HANG_UP, what)
    t.same(callsOf(c.calls, 'resend'), [], `${what}: nothing goes again`)
  }
})

t.test('end(): a body delimited by the close ends there, and that close was announced', async (t) => {
  const { framing, read, calls } = h1({ client: { wantBody: true } })
  framing.send(1, 0, null)
  read('HTTP/1.1 200 OK\r\n\r\nabc')
  t.same(callsOf(calls, 'respond'), [])
  framing.end()
  t.same(callsOf(calls, 'respond').map((c) => [c[0], c[1], String(c[5])]), [[200, len('HTTP/1.1 200 OK\r\n\r\nabc'), 'abc']])
  t.equal(framing.accepting, false)
})

t.test('bodies: kept only when wanted, copied, and a body above maxBodySize is read through and fails its request', async (t) => {
  const { framing, read, calls } = h1({ pipelining: 8, client: { wantBody: true, wantHeaders: true, maxBodySize: 4 } })
  framing.send(4, 0, null)
  const first = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello' + OK.slice(0, -1))
  framing.read(first, 0, first.length)
  first.fill(0)
  const created = 'HTTP/1.1 201 Created\r\nContent-Length: 4\r\nX-A: b\r\n\r\nabcd'
  read('i', created)
  t.same(callsOf(calls, 'overflowed'), [[]], 'the 5-octet body failed its request')
  const responses = callsOf(calls, 'respond')
  t.same(responses.map((c) => [c[0], c[1], c[5].toString(), c[6]]), [
    [200, len(OK), 'hi', ['Content-Length', '2']],
    [201, len(created), 'abcd', ['Content-Length', '4', 'X-A', 'b']]
  ], 'a body cut across reads, whole; one at the limit is kept; the read buffer reused meanwhile')
  t.same(callsOf(calls, 'emitHeaders'), [[['Content-Length', '5']], [['Content-Length', '2']], [['Content-Length', '4', 'X-A', 'b']]])
  read(OK)
  t.same(callsOf(calls, 'respond')[2].slice(0, 2), [200, len(OK)], 'the connection goes on')
  t.equal(framing.inFlight, 0)

  const plain = h1()
  plain.framing.send(1, 0, null)
  plain.read(OK)
  t.same(callsOf(plain.calls, 'respond'), [[200, len(OK), 0, 0, 0, null, null, 0]], 'nobody wants it: no body, no headers')
})

t.test('a response to no request fails the connection', async (t) => {
  const { read, calls } = h1()
  read(OK)
  const [[err]] = callsOf(calls, 'fail')
  t.type(err, CountedError)
  t.match(err, { code: 'AC_UNEXPECTED_RESPONSE', message: 'received a response to no request' })
  t.same(callsOf(calls, 'respond'), [])
  read(OK)
  t.equal(callsOf(calls, 'fail').length, 1, 'the parser reads nothing more')

  const held = h1({ client: { pendingRequest: Promise.resolve() } })
  held.framing.hold()
  held.read(OK)
  t.match(callsOf(held.calls, 'fail'), [[{ code: 'AC_UNEXPECTED_RESPONSE' }]], 'a place held for a request still being made is not a request sent')
  t.equal(held.framing.inFlight, 1)
})

t.test('a 407 through a proxy is the proxy refusing us; without one, a response like any', async (t) => {
  const target = { absoluteForm: { origin: 'http://t.test' }, origin: 'http://t.test', proxy: { href: 'http://p.test:3128/', auth: null } }
  const proxied = h1({ client: { target } })
  proxied.framing.send(2, 0, null)
  proxied.read('HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n', OK)
  const fails = callsOf(proxied.calls, 'fail')
  t.equal(fails.length, 1)
  t.match(fails[0][0], { code: 'AC_PROXY_REFUSED', message: 'proxy http://p.test:3128/ refused the requests to http://t.test: 407 Proxy Authentication Required (it wants credentials: put user:pass@ before the proxy\'s host)' })
  t.same(callsOf(proxied.calls, 'respond'), [], 'nothing after it is read')

  const direct = h1()
  direct.framing.send(1, 0, null)
  direct.read('HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 0\r\n\r\n')
  t.same(callsOf(direct.calls, 'respond').map((c) => c[0]), [407])
  t.same(callsOf(direct.calls, 'fail'), [])
})

t.test('a response that cannot be parsed fails the connection with the parser\'s error', async (t) => {
  const { framing, read, calls } = h1()
  framing.send(1, 0, null)
  t.equal(read('HTTP/1.1 2x0 OK\r\n\r\n'), true)
  t.match(callsOf(calls, 'fail'), [[{ code: 'HPE_INVALID_STATUS' }]])
})

t.test('drop(), retire(), stop(): the ring emptied, a body half read let go; nothing written', async (t) => {
  const { framing, socket, read, calls } = h1({ client: { wantBody: true, maxBodySize: 2 } })
  framing.send(3, 0, null)
  read('HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc')
  framing.drop()
  t.equal(framing.inFlight, 0)
  framing.retire()
  framing.stop()
  t.equal(socket.writes.length, 1, 'nothing written')
  // The next socket.
  framing.open()
  framing.send(1, 9, null)
  read(OK)
  t.same(callsOf(calls, 'overflowed'), [], 'the body too large went with the socket')
  t.same(callsOf(calls, 'respond').map((c) => [c[2], c[4], String(c[5])]), [[9, 0, 'hi']], 'the new request\'s slot, from the first')
})
