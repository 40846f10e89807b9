'use strict'

// Unit tests of lib/http2/client-h2.js: HTTP/2's framing object driven
// directly (helpers/h2-framing.js): the server's frames fed to read(),
// what it writes split back into frames. What each server frame does is
// tested in client-h2/server-frames.test.js; what real servers make of it in
// test/h2-client.test.js, test/h2-hostile.test.js and test/h2-node.test.js.

const t = require('tap')
const { performance } = require('perf_hooks')
const http2 = require('../../lib/http2/client-h2')
const { CLIENT_PREFACE, encodeSettings, encodeHeaders, encodeData, encodeWindowUpdate, encodeGoaway, encodePing } = require('../../lib/http2/frames')
const { CountedError } = require('../../lib/core/errors')
const { callsOf } = require('../helpers/framing-fakes')
const { h2, framesOf, fieldsOf, block, settingsOf, END_STREAM, ACK, END_HEADERS } = require('../helpers/h2-framing')
const { protocolNamed } = require('../../lib/protocols/registry')

const OK = block([':status', '200'])
const PING = encodePing(Buffer.from('12345678'))

t.test('the module: its name, its factory, its encoding per target', async (t) => {
  // Its name is its descriptor's, whose framing it is.
  t.equal(protocolNamed('h2').framing(), http2)
  const { framing } = h2()
  t.type(framing, http2.Http2)
  const encoded = http2.encodingFor({ secure: true }).encode({ method: 'GET', path: '/x', host: 'a.test', headers: {} })
  t.same(fieldsOf(encoded.block), [[':method', 'GET'], [':scheme', 'https'], [':authority', 'a.test'], [':path', '/x']])
  t.equal(http2.encodingFor({ secure: true }).withIds, undefined, 'ids: encoded again per request')
  t.type(http2.encodingFor({ secure: true }).template, 'function', '{{…}} templates: filled per request (request-template.js)')
})

t.test('connected(): the preface, our SETTINGS and a connection window, in one write', async (t) => {
  const { framing, socket } = h2()
  t.equal(framing.setUpSince(), 0, 'not waiting before the socket is up')
  const before = performance.now()
  framing.connected()
  const after = performance.now()
  t.equal(socket.writes.length, 1)
  const buf = socket.writes[0]
  t.same(buf.subarray(0, CLIENT_PREFACE.length), Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1'))
  const frames = framesOf(buf.subarray(CLIENT_PREFACE.length))
  t.same(frames.map((f) => [f.type, f.flags, f.id]), [['SETTINGS', 0, 0], ['WINDOW_UPDATE', 0, 0]])
  t.same(settingsOf(frames[0].payload), [[1, 4096], [2, 0], [4, 2 ** 30 - 1], [5, 65536]],
    'table size, no push, a large stream window, frames up to 64 KiB')
  t.equal(frames[1].payload.readUInt32BE(0), 2 ** 30 - 1 - 65535, 'the connection window up to the same')
  const since = framing.setUpSince()
  t.ok(since >= before && since <= after, 'waiting for the server\'s SETTINGS since now')
  t.equal(framing.ready, false)
})

t.test('ready once the server\'s SETTINGS came, and acknowledged; the connection set up', async (t) => {
  const { framing, feed, written, calls } = h2()
  framing.connected()
  written()
  t.match(framing.closedIdle(), { code: 'AC_H2_NO_SETTINGS', message: 'the HTTP/2 server closed the connection before sending its SETTINGS' })
  feed(encodeSettings({ maxConcurrentStreams: 100 }))
  t.equal(framing.ready, true)
  t.equal(framing.setUpSince(), 0, 'no longer waiting')
  t.same(calls, [['succeeded']], 'the connection\'s failures in a row are over')
  t.same(written().map((f) => [f.type, f.flags, f.payload.length]), [['SETTINGS', ACK, 0]])
  t.equal(framing.closedIdle(), null)
  feed(encodeSettings({}, true), encodeSettings({ initialWindowSize: 100 }))
  t.same(written().map((f) => [f.type, f.flags]), [['SETTINGS', ACK]], 'our SETTINGS acknowledged: nothing; new SETTINGS: acknowledged')
  t.same(calls, [['succeeded']], 'set up once')
})

t.test('room(): the streams in flight within pipelining and SETTINGS_MAX_CONCURRENT_STREAMS, and the ids left', async (t) => {
  const { framing, feed } = h2({ pipelining: 10 })
  t.equal(framing.room(), 10, 'before SETTINGS: pipelining (the client waits for ready)')
  framing.connected()
  feed(encodeSettings({ maxConcurrentStreams: 3 }))
  t.equal(framing.room(), 3)
  framing.send(2, 0, null)
  t.equal(framing.room(), 1)
  feed(encodeSettings({ maxConcurrentStreams: 100 }))
  t.equal(framing.room(), 8, 'never more than pipelining')
  framing.maxStreamId = 9
  t.equal(framing.idsLeft(), 3, 'streams 5, 7 and 9')
  t.equal(framing.room(), 3)
  framing.send(3, 0, null)
  t.equal(framing.room(), 0, 'no ids left')
  t.equal(framing.spent, true, 'a new connection takes over')
  t.equal(framing.accepting, true, 'though nothing was refused')
  t.equal(http2.create({ connection: {}, sequence: {} }, { pipelining: 1 }).maxStreamId, 2 ** 31 - 1, 'ids up to 2^31-1')
})

t.test('send(): a stream per request, ids 1, 3, 5…, one write; the shared frames are not changed', async (t) => {
  const { framing, written, sequence } = h2({ settings: {} })
  framing.send(3, 0, null)
  const frames = written()
  t.same(frames.map((f) => [f.type, f.flags, f.id]), [
    ['HEADERS', END_STREAM | END_HEADERS, 1],
    ['HEADERS', END_STREAM | END_HEADERS, 3],
    ['HEADERS', END_STREAM | END_HEADERS, 5]
  ], 'one write, whole requests')
  t.same(fieldsOf(frames[0].payload), [[':method', 'GET'], [':scheme', 'http'], [':authority', 'h.test'], [':path', '/']])
  framing.send(1, 0, null)
  t.same(written().map((f) => f.id), [7])
  t.equal(framesOf(sequence.staticBytes.frames)[0].id, 0, 'the sequence\'s frames stay on stream 0: each write has its copy')
  t.equal(framing.inFlight, 4)
})

t.test('a body that fits the windows goes with its HEADERS; one that does not waits, and goes on WINDOW_UPDATE', async (t) => {
  const fits = h2({ entries: [{ method: 'POST', body: 'hello' }], settings: {} })
  fits.framing.send(1, 0, null)
  t.equal(fits.socket.originals.length, 1, 'in one write')
  const frames = fits.written()
  t.same(frames.map((f) => [f.type, f.flags, f.id, f.payload.length]), [['HEADERS', END_HEADERS, 1, frames[0].payload.length], ['DATA', END_STREAM, 1, 5]])
  t.equal(frames[1].payload.toString(), 'hello')
  t.equal(fits.framing.sendWindow, 65535 - 5, 'the connection\'s window spent')

  // Bodies that fit their streams' windows, not what is left of the
  // connection's (65,535 until the server says more): the first goes
  // whole, the second waits.
  const two = h2({ entries: [{ method: 'POST', body: Buffer.alloc(40000, 'y') }], settings: { initialWindowSize: 100000 } })
  two.framing.send(2, 0, null)
  t.same(two.written().map((f) => [f.type, f.id, f.flags & END_STREAM, f.payload.length]).filter((f) => f[0] === 'DATA'), [
    ['DATA', 1, 0, 16384], ['DATA', 1, 0, 16384], ['DATA', 1, END_STREAM, 7232],
    ['DATA', 3, 0, 16384], ['DATA', 3, 0, 9151]
  ], 'stream 3 gets the 25,535 octets the connection has left')

  // A body larger than the connection's window.
  const big = Buffer.alloc(70000, 'x')
  const { framing, feed, written } = h2({ entries: [{ method: 'POST', body: big }], settings: {} })
  framing.send(1, 0, null)
  const first = written()
  t.same(first.map((f) => [f.type, f.flags, f.payload.length]), [
    ['HEADERS', END_HEADERS, first[0].payload.length],
    ['DATA', 0, 16384], ['DATA', 0, 16384], ['DATA', 0, 16384], ['DATA', 0, 16383]
  ], 'HEADERS, then as much as the windows take, in frames of 16,384')
  feed(encodeWindowUpdate(1, 10000))
  t.same(written(), [], 'the stream\'s window alone is not enough: the connection\'s is spent')
  feed(encodeWindowUpdate(0, 3000))
  t.same(written().map((f) => [f.type, f.flags, f.id, f.payload.length]), [['DATA', 0, 1, 3000]])
  feed(encodeWindowUpdate(0, 5000))
  t.same(written().map((f) => [f.type, f.flags, f.id, f.payload.length]), [['DATA', END_STREAM, 1, 70000 - 65535 - 3000]], 'the rest, and the stream ends')
  feed(encodeWindowUpdate(0, 5000), encodeWindowUpdate(1, 5000))
  t.same(written(), [], 'nothing more to send')
})

t.test('bodies waiting go in the order they were sent', async (t) => {
  const { framing, feed, written } = h2({ entries: [{ method: 'POST', body: 'abc' }], settings: { initialWindowSize: 2 } })
  framing.send(2, 0, null)
  t.same(written().map((f) => [f.type, f.id, f.flags, f.type === 'DATA' ? f.payload.toString() : '']), [
    ['HEADERS', 1, END_HEADERS, ''], ['HEADERS', 3, END_HEADERS, ''],
    ['DATA', 1, 0, 'ab'], ['DATA', 3, 0, 'ab']
  ], 'each stream\'s window: 2 octets')
  feed(encodeSettings({ initialWindowSize: 10 }))
  t.same(written().map((f) => [f.type, f.id, f.flags, f.payload.toString()]), [
    ['SETTINGS', 0, ACK, ''], ['DATA', 1, END_STREAM, 'c'], ['DATA', 3, END_STREAM, 'c']
  ], 'both windows opened at once: the bodies go in the order their streams were opened')

  const two = h2({ entries: [{ method: 'POST', body: 'abc' }], settings: { initialWindowSize: 2 } })
  two.framing.send(2, 0, null)
  two.written()
  two.feed(encodeWindowUpdate(3, 1), encodeWindowUpdate(1, 1))
  t.same(two.written().map((f) => [f.id, f.flags, f.payload.toString()]), [[3, END_STREAM, 'c'], [1, END_STREAM, 'c']], 'each as its own window opens')
})

t.test('a response ends on END_STREAM, with its own request\'s times and entry, in any order', async (t) => {
  const { framing, feed, calls, state } = h2({ pipelining: 4, settings: {} })
  framing.send(2, 10, [7, 8])
  const body = Buffer.from('hello')
  state.readAt = 20
  feed(encodeHeaders(3, OK, false))
  state.readAt = 25
  feed(encodeData(3, body, true))
  // Bytes read: the frames as they came, 9-octet headers and all.
  t.same(callsOf(calls, 'respond'), [[200, 9 + OK.length + 9 + 5, 10, 8, 0, null, null, 20]], 'stream 3 first: the second request\'s plan, its first byte in the read of its HEADERS')
  t.equal(framing.inFlight, 1)
  state.readAt = 30
  feed(encodeHeaders(1, OK, true))
  t.same(callsOf(calls, 'respond')[1], [200, 9 + OK.length, 10, 7, 0, null, null, 30], 'a response of HEADERS alone')
  t.equal(framing.inFlight, 0)
  t.equal(framing.room(), 4, 'the slots are free again')
})

t.test('bodies and headers when wanted: the client is given both, and told of the headers', async (t) => {
  const { framing, feed, calls } = h2({ settings: {}, client: { wantBody: true, wantHeaders: true } })
  framing.send(1, 0, null)
  const head = block([':status', '201'], ['x-a', 'b'])
  const data = Buffer.from('he')
  feed(encodeHeaders(1, head, false), encodeData(1, data, false))
  data.fill(0)
  feed(encodeData(1, Buffer.from('llo'), true))
  const [[status, bytes,,,, got, headers]] = callsOf(calls, 'respond')
  t.same([status, bytes, got.toString(), headers], [201, 9 + head.length + 9 + 2 + 9 + 3, 'hello', [':status', '201', 'x-a', 'b']], 'the body whole, copied from each read')
  t.same(callsOf(calls, 'emitHeaders'), [[[':status', '201', 'x-a', 'b']]])
})

t.test('trailers and interim responses: one response, all their octets', async (t) => {
  const { framing, feed, calls } = h2({ settings: {} })
  framing.send(2, 0, null)
  const trailers = block(['x-checksum', 'abc'])
  feed(encodeHeaders(1, OK, false), encodeData(1, Buffer.from('x'), false), encodeHeaders(1, trailers, true))
  const interim = block([':status', '103'])
  feed(encodeHeaders(3, interim, false), encodeHeaders(3, OK, true))
  t.same(callsOf(calls, 'respond').map((c) => c.slice(0, 2)), [[200, 9 + OK.length + 9 + 1 + 9 + trailers.length], [200, 9 + interim.length + 9 + OK.length]])
})

t.test('a body above maxBodySize: read to its end, its request fails, the slot is free', async (t) => {
  const { framing, feed, calls } = h2({ settings: {}, client: { wantBody: true, maxBodySize: 4 } })
  framing.send(2, 0, null)
  feed(encodeHeaders(1, OK, false), encodeData(1, Buffer.from('hel'), false), encodeData(1, Buffer.from('lo'), true))
  feed(encodeHeaders(3, OK, false), encodeData(3, Buffer.from('abcd'), true))
  t.same(callsOf(calls, 'overflowed'), [[]])
  t.same(callsOf(calls, 'respond').map((c) => String(c[5])), ['abcd'], 'one at the limit is kept')
  t.equal(framing.inFlight, 0)
})

t.test('hooks: the client sends one by one through queue() and flush()', async (t) => {
  const { framing, written, calls, sequence, feed } = h2({ entries: [{ path: '/a', setupRequest: (r) => r }, { path: '/b' }], settings: {} })
  framing.send(2, 5, [3, 4])
  t.same(callsOf(calls, 'sendEach'), [[2, 5, [3, 4]]])
  t.same(written(), [])
  // As sendEach does.
  for (let k = 0; k < 2; k++) framing.queue(sequence.next(), 5, [3, 4][k], sequence.lastEntry, k)
  framing.flush(2, 5)
  const frames = written()
  t.same(frames.map((f) => [f.id, fieldsOf(f.payload)[3][1]]), [[1, '/a'], [3, '/b']], 'one write, a stream each')
  feed(encodeHeaders(3, OK, true), encodeHeaders(1, OK, true))
  t.same(callsOf(calls, 'respond').map((c) => [c[2], c[3], c[4]]), [[5, 4, 1], [5, 3, 0]], '[sentAt, plannedAt, entry]')
})

t.test('hold(), release(), sendHeld(): a request still being made keeps a slot', async (t) => {
  const { framing, written, feed, calls, sequence } = h2({ pipelining: 2, settings: {} })
  const before = performance.now()
  const held = framing.hold()
  t.equal(framing.inFlight, 1)
  t.equal(framing.room(), 1)
  const since = framing.oldestSentAt()
  t.ok(since >= before && since <= performance.now(), 'it may time out from now')
  framing.release(held)
  t.equal(framing.inFlight, 0)
  t.equal(framing.oldestSentAt(), 0, 'nothing in flight: nothing waits')
  framing.sendHeld(sequence.next(), 0, 42)
  t.same(written().map((f) => f.id), [1], 'no stream for the place held: the first stream is the request')
  feed(encodeHeaders(1, OK, true))
  t.same(callsOf(calls, 'respond').map((c) => c[3]), [42], 'as planned')
})

t.test('oldestSentAt(): the oldest request in flight, whatever its slot', async (t) => {
  const { framing, feed } = h2({ settings: {} })
  framing.send(1, 10, null)
  framing.send(1, 20, null)
  framing.send(1, 30, null)
  t.equal(framing.oldestSentAt(), 10)
  feed(encodeHeaders(1, OK, true))
  t.equal(framing.oldestSentAt(), 20)
  framing.send(1, 40, null)
  feed(encodeHeaders(3, OK, true))
  t.equal(framing.oldestSentAt(), 30)
})

t.test('unanswered(): a hang-up, or the GOAWAY\'s error if the server said one', async (t) => {
  const quiet = h2({ settings: {} })
  quiet.framing.send(1, 0, null)
  t.match(quiet.framing.unanswered(), { code: 'AC_SOCKET_HANG_UP', message: 'socket hang up: the connection closed with requests in flight' })
  quiet.feed(encodeGoaway(1, 0))
  t.match(quiet.framing.unanswered(), { code: 'AC_SOCKET_HANG_UP' }, 'a GOAWAY without an error: still a hang-up')

  const told = h2({ settings: {} })
  told.framing.send(1, 0, null)
  told.feed(encodeGoaway(1, 2, 'going down'))
  const err = told.framing.unanswered()
  t.type(err, CountedError)
  t.match(err, { code: 'AC_H2_GOAWAY', message: 'the HTTP/2 server sent GOAWAY with INTERNAL_ERROR and closed the connection: going down', http2Code: 2 })
  t.same(callsOf(told.calls, 'resend'), [], 'nothing resent: its stream was processed')
})

t.test('open(): a new connection, nothing of the last carries over', async (t) => {
  const { framing, feed, written } = h2({ settings: { maxConcurrentStreams: 1, headerTableSize: 0 } })
  framing.send(1, 0, null)
  feed(encodeGoaway(1, 0))
  written()
  t.equal(framing.spent, true)
  framing.drop()
  t.equal(framing.inFlight, 0)
  framing.open()
  t.equal(framing.ready, false)
  t.equal(framing.spent, false)
  t.equal(framing.accepting, true)
  framing.connected()
  feed(encodeSettings({}))
  t.equal(framing.room(), 4, 'the last server\'s stream limit is gone')
  written()
  framing.send(1, 0, null)
  const [frame] = written()
  t.equal(frame.id, 1, 'stream ids start again')
  t.equal(frame.payload[0] & 0xe0, 0x80, 'no table size update: the last server\'s table setting is gone')
})

t.test('the server\'s table size lowered: the next header block starts with a size update to 0, once', async (t) => {
  const { framing, written } = h2({ settings: { headerTableSize: 100 } })
  framing.send(2, 0, null)
  framing.send(1, 0, null)
  const frames = written()
  t.equal(frames[0].payload[0], 0x20, 'stream 1: an update to 0 first')
  t.same(fieldsOf(frames[0].payload).slice(0, 1), [[':method', 'GET']])
  t.equal(frames[1].payload[0] & 0xe0, 0x80, 'stream 3: none')
  t.equal(frames[2].payload[0] & 0xe0, 0x80, 'stream 5: none')
  for (const size of [4096, 8192]) {
    const same = h2({ settings: { headerTableSize: size } })
    same.framing.send(1, 0, null)
    t.equal(same.written()[0].payload[0] & 0xe0, 0x80, `${size}, not lowered: none`)
  }
})

t.test('nothing of ours is written once the run stopped, the connection failed or the socket went; retire() and stop() read no more', async (t) => {
  // Each reaches the framing as the Client tells it: close() as the run
  // stops, as the connection fails (its requests dropped), as the socket
  // is given up.
  for (const [what, change] of [
    ['stopped', (s) => { s.framing.stop() }],
    ['failed', (s) => { s.client.fail(new Error('failed')) }],
    ['no socket', (s) => { s.framing.retire() }]
  ]) {
    const s = h2({ settings: {} })
    change(s)
    s.feed(PING)
    t.same(s.socket.writes, [], `${what}: no PING ACK`)
  }
  for (const end of ['retire', 'stop']) {
    const s = h2({ settings: {} })
    s.framing.send(1, 0, null)
    s.written()
    s.framing[end]()
    s.feed(PING, encodeHeaders(1, OK, true))
    t.same(s.written(), [], `${end}(): frames after it are not read`)
    t.same(callsOf(s.calls, 'respond'), [])
  }
  const early = h2()
  early.framing.parser = null
  t.doesNotThrow(() => early.framing.stop(), 'stop() before any socket had a parser')
})
