'use strict'

// Unit tests of the server's frames in lib/http2/client-h2.js: what each
// of them does to an HTTP/2 framing object (helpers/h2-framing.js),
// called directly with the values the frame parser would hand over, or
// fed as frames where the parser's part matters. The framing object's own
// calls are in ../client-h2.test.js.

const t = require('tap')
const { encodeHeaders, encodeData, encodeWindowUpdate, MAX_WINDOW } = require('../../../lib/http2/frames')
const { http2Error } = require('../../../lib/http2/errors')
const { CountedError } = require('../../../lib/core/errors')
const { callsOf } = require('../../helpers/framing-fakes')
const { h2, block, ACK, END_STREAM } = require('../../helpers/h2-framing')

const OK = block([':status', '200'])
const EMPTY = Buffer.alloc(0)
// 2^29: the connection's and a stream's window are topped up once this
// much of them was read.
const REFILL = 2 ** 29

// What was written, as [type, id, flags] (and a 4-octet payload's number).
const shapes = (frames) => frames.map((f) => f.payload.length === 4 ? [f.type, f.id, f.flags, f.payload.readUInt32BE(0)] : [f.type, f.id, f.flags])

t.test('SETTINGS: streams, windows and table size taken; acknowledged; ready once', async (t) => {
  const s = h2({ pipelining: 8, entries: [{ method: 'POST', body: Buffer.alloc(100, 'x') }] })
  const { framing } = s
  framing.connected()
  s.written()
  framing.onSettings(false, { maxConcurrentStreams: 2, initialWindowSize: 10, headerTableSize: 4096 })
  t.equal(framing.streamLimit, 2)
  t.equal(framing.peerInitialWindow, 10)
  t.equal(framing.needSizeUpdate, false, 'the table not lowered')
  t.equal(framing.ready, true)
  t.same(callsOf(s.calls, 'succeeded'), [[]])
  t.same(shapes(s.written()), [['SETTINGS', 0, ACK]])

  framing.send(2, 0, null)
  t.same(shapes(s.written()).map((f) => f.slice(0, 2)), [['HEADERS', 1], ['HEADERS', 3], ['DATA', 1], ['DATA', 3]], '10 octets each, the rest waits')
  framing.onSettings(false, { initialWindowSize: 50, headerTableSize: 1024 })
  const frames = s.written()
  t.same(shapes(frames).map((f) => f.slice(0, 3)), [['SETTINGS', 0, ACK], ['DATA', 1, 0], ['DATA', 3, 0]],
    'open streams\' windows moved by the change (10 → 50): 40 more octets each')
  t.same(frames.slice(1).map((f) => f.payload.length), [40, 40])
  t.equal(framing.needSizeUpdate, true, 'the table lowered: the next block says so')
  t.equal(framing.peerTableSize, 1024)
  framing.onSettings(false, { initialWindowSize: 30 })
  t.same(shapes(s.written()), [['SETTINGS', 0, ACK]], 'lowered: the windows go below zero, nothing is sent')
  framing.onSettings(false, { initialWindowSize: 100 })
  t.same(s.written().slice(1).map((f) => [f.id, f.flags, f.payload.length]), [[1, END_STREAM, 50], [3, END_STREAM, 50]], 'raised again: what is left of each body')
  framing.onSettings(false, { maxConcurrentStreams: 1000 })
  t.equal(framing.streamLimit, 8, 'never above pipelining')
  s.written()
  framing.onSettings(true, null)
  t.same(s.written(), [], 'an ACK of ours: nothing to do')
  t.same(callsOf(s.calls, 'succeeded'), [[]], 'set up once')

  const raised = h2()
  raised.framing.onSettings(false, { headerTableSize: 8192 })
  t.equal(raised.framing.needSizeUpdate, false, 'a larger table: our blocks need no update (we index nothing)')
  t.equal(raised.framing.peerTableSize, 8192)
  raised.framing.onSettings(false, { headerTableSize: 6000 })
  t.equal(raised.framing.needSizeUpdate, true, 'lowered from where it was')
})

t.test('PING: answered with its own octets; an answer to ours is not', async (t) => {
  const s = h2({ settings: {} })
  const opaque = Buffer.from('abcdefgh')
  s.framing.onPing(false, opaque)
  const [frame] = s.written()
  t.same([frame.type, frame.id, frame.flags, frame.payload.toString()], ['PING', 0, ACK, 'abcdefgh'])
  s.framing.onPing(true, opaque)
  t.same(s.written(), [])
})

t.test('WINDOW_UPDATE: the connection\'s or a stream\'s window; above 2^31-1 a connection error', async (t) => {
  const s = h2({ settings: {} })
  const { framing } = s
  framing.onWindowUpdate(0, 100)
  t.equal(framing.sendWindow, 65535 + 100)
  framing.onWindowUpdate(7, 100)
  t.same(s.calls, [], 'a stream not ours: ignored')
  framing.onWindowUpdate(0, MAX_WINDOW - 65535 - 100)
  t.equal(framing.sendWindow, MAX_WINDOW, 'up to 2^31-1 is fine')
  t.same(s.written(), [])
  framing.onWindowUpdate(0, 1)
  t.same(shapes(s.written()), [['GOAWAY', 0, 0]])
  const [[err]] = callsOf(s.calls, 'fail')
  t.match(err, { code: 'AC_H2_FLOW_CONTROL_ERROR', http2Code: 3, message: 'a WINDOW_UPDATE that took the connection\'s window to 2147483648, above 2^31-1' })
})

t.test('HEADERS: every block decoded, whoever\'s, so the table stays in step', async (t) => {
  const s = h2({ settings: {} })
  s.framing.send(1, 0, null)
  // ':status: 204' with incremental indexing (RFC 7541 §6.2.1), for a
  // stream we do not have; then stream 1 refers to it as index 62.
  const indexed = Buffer.concat([Buffer.from([0x48, 0x03]), Buffer.from('204')])
  s.framing.onHeaders(99, indexed, 0, indexed.length, true)
  t.same(s.calls, [])
  const ref = Buffer.from([0xbe])
  s.framing.onHeaders(1, ref, 0, 1, true)
  t.same(callsOf(s.calls, 'respond').map((c) => c.slice(0, 2)), [[204, 1]])
})

t.test('HEADERS that cannot be decoded: a connection error (COMPRESSION_ERROR)', async (t) => {
  const s = h2({ settings: {} })
  s.framing.send(1, 0, null)
  s.written()
  const bad = Buffer.from([0x80])
  s.framing.onHeaders(1, bad, 0, 1, false)
  t.same(shapes(s.written()), [['GOAWAY', 0, 0]])
  const [[err]] = callsOf(s.calls, 'fail')
  t.match(err, { code: 'AC_H2_COMPRESSION_ERROR', http2Code: 9 })
})

t.test('HEADERS without a valid :status: the stream is reset, its request fails', async (t) => {
  const s = h2({ settings: {} })
  s.framing.send(2, 0, null)
  s.written()
  const noStatus = block(['x-a', 'b'])
  s.framing.onHeaders(3, noStatus, 0, noStatus.length, false)
  t.same(shapes(s.written()), [['RST_STREAM', 3, 0, 1]], 'RST_STREAM with PROTOCOL_ERROR')
  const [[err]] = callsOf(s.calls, 'requestFailed')
  t.type(err, CountedError)
  t.match(err, { code: 'AC_H2_PROTOCOL_ERROR', message: 'a response on stream 3 without a valid :status' })
  t.equal(s.framing.inFlight, 1, 'its slot is free')
  const badStatus = block([':status', '2000'])
  s.framing.onHeaders(1, badStatus, 0, badStatus.length, true)
  t.same(shapes(s.written()), [['RST_STREAM', 1, 0, 1]], 'a :status that is not three digits')
})

t.test('DATA before HEADERS: the stream is reset, its request fails', async (t) => {
  const s = h2({ settings: {} })
  s.framing.send(1, 0, null)
  s.written()
  s.feed(encodeData(1, Buffer.from('x'), false))
  t.same(shapes(s.written()), [['RST_STREAM', 1, 0, 1]])
  t.match(callsOf(s.calls, 'requestFailed'), [[{ code: 'AC_H2_PROTOCOL_ERROR', message: 'DATA on stream 1 before its response\'s HEADERS' }]])
  t.equal(s.framing.inFlight, 0)
  s.feed(encodeData(1, Buffer.from('y'), true))
  t.same(s.calls.filter((c) => c[0] !== 'requestFailed'), [], 'more of a stream since reset: ignored')
})

t.test('DATA read: the connection\'s window, then the stream\'s, topped up once half of it is read', async (t) => {
  const s = h2({ settings: {} })
  const { framing } = s
  framing.send(2, 0, null)
  s.written()
  framing.onData(99, EMPTY, 0, 0, false, REFILL - 1)
  t.same(s.written(), [], 'below the threshold: nothing')
  framing.onData(99, EMPTY, 0, 0, false, 1)
  t.same(shapes(s.written()), [['WINDOW_UPDATE', 0, 0, REFILL]], 'all that was read, a stream of ours or not')
  t.equal(framing.recvOwed, 0)

  s.feed(encodeHeaders(1, OK, false), encodeHeaders(3, OK, false))
  const half = REFILL / 2
  framing.onData(1, EMPTY, 0, 0, false, half)
  t.same(s.written(), [], 'half of each: nothing')
  framing.onData(1, EMPTY, 0, 0, false, half)
  t.same(shapes(s.written()), [['WINDOW_UPDATE', 0, 0, REFILL], ['WINDOW_UPDATE', 1, 0, REFILL]], 'the connection\'s and the stream\'s')
  t.equal(framing.recvOwed, 0)
  framing.onData(3, EMPTY, 0, 0, false, half)
  framing.onData(3, EMPTY, 0, 0, true, half)
  t.same(shapes(s.written()), [['WINDOW_UPDATE', 0, 0, REFILL]], 'a stream that ends needs no more window')
  t.same(callsOf(s.calls, 'respond').length, 1)
})

t.test('a response that ends before its body was all sent: the rest is not sent (RST_STREAM NO_ERROR)', async (t) => {
  const s = h2({ entries: [{ method: 'POST', body: 'hello' }], settings: { initialWindowSize: 2 } })
  s.framing.send(1, 0, null)
  s.written()
  s.feed(encodeHeaders(1, OK, true))
  t.same(shapes(s.written()), [['RST_STREAM', 1, 0, 0]])
  t.equal(callsOf(s.calls, 'respond').length, 1, 'the response counts')
  s.feed(encodeWindowUpdate(1, 100))
  t.same(s.written(), [], 'nothing more of its body')
})

t.test('RST_STREAM: its request fails with the server\'s code; the slot is free', async (t) => {
  const s = h2({ settings: {} })
  s.framing.send(2, 0, null)
  s.framing.onRstStream(3, 8)
  const [[err]] = callsOf(s.calls, 'requestFailed')
  t.type(err, CountedError)
  t.match(err, { code: 'AC_H2_RST_CANCEL', message: 'the HTTP/2 server reset stream 3 with CANCEL', http2Code: 8 })
  t.equal(s.framing.inFlight, 1)
  s.framing.onRstStream(1, 0xff)
  t.match(callsOf(s.calls, 'requestFailed')[1], [{ code: 'AC_H2_RST_UNKNOWN', message: 'the HTTP/2 server reset stream 1 with 0xff' }])
  s.framing.onRstStream(5, 7)
  t.equal(callsOf(s.calls, 'requestFailed').length, 2, 'a stream not ours: nothing')
  t.same(callsOf(s.calls, 'respond'), [])
})

t.test('REFUSED_STREAM: the request goes again while the server answers between; pipelining in a row with no response, then errors', async (t) => {
  const s = h2({ pipelining: 3, settings: {} })
  const { framing } = s
  framing.send(3, 0, null)
  framing.onRstStream(3, 7)
  t.same(callsOf(s.calls, 'resend'), [[1]], 'stream 3 not processed: sent again, counted in resent')
  t.same(callsOf(s.calls, 'requestFailed'), [])
  t.equal(framing.inFlight, 2)
  framing.onRstStream(5, 7)
  framing.onRstStream(1, 7)
  t.same(callsOf(s.calls, 'resend'), [[1], [1], [1]], 'as many in a row as are in flight')
  framing.send(3, 0, null)
  framing.onRstStream(7, 7)
  t.match(callsOf(s.calls, 'requestFailed'), [[{ code: 'AC_H2_RST_REFUSED_STREAM', message: 'the HTTP/2 server reset stream 7 with REFUSED_STREAM' }]], 'a fourth with no response since: an error, not sent again')
  s.feed(encodeHeaders(9, OK, true))
  t.equal(callsOf(s.calls, 'respond').length, 1)
  framing.onRstStream(11, 7)
  t.same(callsOf(s.calls, 'resend').length, 4, 'a response came: refused streams go again')
  framing.send(1, 0, null)
  s.feed(encodeHeaders(13, OK, false))
  framing.onRstStream(13, 7)
  t.equal(callsOf(s.calls, 'requestFailed').length, 2, 'its response had begun: it was processed, so it is an error')
  t.equal(callsOf(s.calls, 'resend').length, 4)
})

t.test('a stream error the parser found: RST_STREAM with its code, and its request fails', async (t) => {
  const s = h2({ settings: {} })
  s.framing.send(1, 0, null)
  s.written()
  const err = http2Error('FRAME_SIZE_ERROR', 'a PRIORITY frame of 4 octets', 1)
  s.framing.onStreamError(err)
  t.same(shapes(s.written()), [['RST_STREAM', 1, 0, 6]])
  t.same(callsOf(s.calls, 'requestFailed'), [[err]])
  t.equal(s.framing.inFlight, 0)
  s.framing.onStreamError(http2Error('PROTOCOL_ERROR', 'x', 9))
  t.same(shapes(s.written()), [['RST_STREAM', 9, 0, 1]], 'a stream not ours: reset all the same')
  t.equal(callsOf(s.calls, 'requestFailed').length, 1)
  s.feed(encodeWindowUpdate(1, 1).fill(0, 9))
  t.same(shapes(s.written()), [['RST_STREAM', 1, 0, 1]], 'through the parser: a WINDOW_UPDATE of 0 on a stream')
})

t.test('a connection error: GOAWAY with its code, the connection fails, nothing more is read', async (t) => {
  const s = h2({ settings: {} })
  s.framing.send(1, 0, null)
  s.written()
  const err = http2Error('PROTOCOL_ERROR', 'bad')
  s.framing.onError(err)
  const frames = s.written()
  t.same(shapes(frames).map((f) => f.slice(0, 3)), [['GOAWAY', 0, 0]])
  t.same([frames[0].payload.readUInt32BE(0), frames[0].payload.readUInt32BE(4)], [0, 1], 'last stream 0, PROTOCOL_ERROR')
  t.same(callsOf(s.calls, 'fail'), [[err]])
  s.connection.countedFailure = false
  s.feed(encodeHeaders(1, OK, true))
  t.same(callsOf(s.calls, 'respond'), [], 'the parser was stopped')

  const other = h2({ settings: {} })
  other.framing.onError(new CountedError('AC_H2_PROTOCOL_ERROR', 'no code'))
  t.equal(other.written()[0].payload.readUInt32BE(4), 2, 'an error without a code: INTERNAL_ERROR')
})

t.test('GOAWAY: the streams above its last go again, once; the rest are answered; no new stream', async (t) => {
  const s = h2({ pipelining: 8, settings: {} })
  const { framing } = s
  framing.send(4, 0, [1, 2, 3, 4])
  framing.onGoaway(3, 0, Buffer.from('bye'))
  t.same(callsOf(s.calls, 'resend'), [[2]], 'streams 5 and 7 were not processed')
  t.same(callsOf(s.calls, 'checkIdle'), [[]], 'the client may move to a new connection')
  t.equal(framing.inFlight, 2)
  t.equal(framing.accepting, false)
  t.equal(framing.spent, true)
  s.feed(encodeHeaders(1, OK, true), encodeHeaders(3, OK, true), encodeHeaders(5, OK, true))
  t.same(callsOf(s.calls, 'respond').map((c) => c[3]), [1, 2], 'streams 1 and 3 answered; 5 is not ours any more')
  t.equal(framing.inFlight, 0)

  // Streams 1 and 3 were answered: the count of resends in a row started
  // over. A new connection's GOAWAY leaves 7 of 8 streams unprocessed: all
  // 7 go again; the next's leaves 8, with no response since: 1 more may go
  // (8 in a row with pipelining 8), the other 7 end in errors.
  t.equal(framing.resentInRow, 0)
  framing.open()
  framing.onSettings(false, {})
  framing.send(8, 0, null)
  framing.onGoaway(1, 0, EMPTY)
  t.same(callsOf(s.calls, 'resend'), [[2], [7]])
  t.equal(callsOf(s.calls, 'requestFailed').length, 0)
  framing.open()
  framing.onSettings(false, {})
  framing.send(8, 0, null)
  framing.onGoaway(0, 0, EMPTY)
  t.same(callsOf(s.calls, 'resend').pop(), [1], 'up to pipelining in a row')
  const failed = callsOf(s.calls, 'requestFailed').map(([err]) => err)
  t.equal(failed.length, 7, 'beyond: errors')
  for (const err of failed) t.match(err, { code: 'AC_H2_GOAWAY', message: /^the HTTP\/2 server did not process stream \d+ \(GOAWAY with last stream 0\), with 8 requests already sent again and no response since$/ })

  const none = h2({ settings: {} })
  none.framing.send(1, 0, null)
  none.framing.onGoaway(1, 0, EMPTY)
  t.same(callsOf(none.calls, 'resend'), [], 'all processed: nothing goes again')
  t.same(callsOf(none.calls, 'checkIdle'), [[]])
})
