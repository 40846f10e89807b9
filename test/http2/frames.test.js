'use strict'

// Unit tests of lib/http2/frames.js: the encoders against the frame layout
// of RFC 9113 §4 and §6, their round trip through the FrameParser, the
// parser fed a long stream whole, one byte at a time and in random cuts
// (the same calls every way), header blocks assembled from CONTINUATION
// frames, and every connection and stream error it raises.

const t = require('tap')
const {
  CLIENT_PREFACE, FRAME_TYPES, FLAGS, FrameParser, encodeFrame, encodeSettings, encodeHeaders, encodeData,
  encodeWindowUpdate, encodePing, encodeRstStream, encodeGoaway, setStreamId, writeFrameHeader
} = require('../../lib/http2/frames')
const { ERROR_CODES, errorName } = require('../../lib/http2/errors')
const { CountedError } = require('../../lib/core/errors')
const { seededRandom } = require('../../lib/core/random')

const { DATA, HEADERS, PRIORITY, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION, RST_STREAM } = FRAME_TYPES
const { END_STREAM, ACK, END_HEADERS, PADDED } = FLAGS

const SERVER_SETTINGS = encodeSettings({ maxConcurrentStreams: 100 })

// A handler that records every call as plain data (buffers copied: they
// are the parser's only during the call), and checks what it is handed.
function recorder (opts = {}) {
  const events = []
  const problems = []
  // The octets on the wire the calls account for (frames, headers and all).
  const wire = { data: 0, headers: 0 }
  let dead = false
  const push = (e) => {
    if (dead) problems.push(`${e.type} after a connection error`)
    events.push(e)
  }
  const handler = {
    onData (streamId, buf, start, end, endStream, flow, octets) {
      if (!(start >= 0 && start <= end && end <= buf.length)) problems.push(`bad range ${start}..${end} of ${buf.length}`)
      if (octets < flow) problems.push(`wire ${octets} below flow ${flow}`)
      wire.data += octets
      if (flow < end - start) problems.push(`flow ${flow} below the ${end - start} octets handed over`)
      push({ type: 'data', streamId, data: Buffer.from(buf.subarray(start, end)), endStream, flow })
      if (opts.onData) opts.onData()
    },
    onHeaders (streamId, buf, start, end, endStream, octets) {
      if (!(start >= 0 && start <= end && end <= buf.length)) problems.push(`bad range ${start}..${end} of ${buf.length}`)
      wire.headers += octets
      push({ type: 'headers', streamId, block: Buffer.from(buf.subarray(start, end)), endStream })
    },
    onSettings (ack, settings) { push({ type: 'settings', ack, settings }) },
    onPing (ack, opaque) { push({ type: 'ping', ack, opaque: Buffer.from(opaque) }) },
    onGoaway (lastStreamId, errorCode, debug) { push({ type: 'goaway', lastStreamId, errorCode, debug: debug.toString('latin1') }) },
    onRstStream (streamId, errorCode) { push({ type: 'rst', streamId, errorCode }) },
    onWindowUpdate (streamId, increment) { push({ type: 'window', streamId, increment }) },
    onStreamError (err) { push({ type: 'streamError', streamId: err.streamId, code: err.code, http2Code: err.http2Code, message: err.message }) },
    onError (err) {
      if (!(err instanceof CountedError)) problems.push('a connection error that is not a CountedError')
      push({ type: 'error', code: err.code, http2Code: err.http2Code, streamId: err.streamId, message: err.message })
      dead = true
    }
  }
  return { handler, events, problems, wire }
}

// DATA pieces of one stream that follow each other are one piece, however
// the input was cut.
function coalesce (events) {
  const out = []
  for (const e of events) {
    const last = out[out.length - 1]
    if (e.type === 'data' && last && last.type === 'data' && last.streamId === e.streamId && !last.endStream) {
      last.data = Buffer.concat([last.data, e.data])
      last.flow += e.flow
      last.endStream = e.endStream
    } else out.push(e.type === 'data' ? { ...e } : e)
  }
  return out
}

function parse (wire, cuts, opts) {
  const rec = recorder()
  const parser = new FrameParser(rec.handler, opts)
  let at = 0
  for (const cut of [...cuts, wire.length]) {
    // Each read in a buffer of its own, as a socket gives them.
    parser.execute(Buffer.from(wire.subarray(at, cut)))
    at = cut
  }
  return rec
}

function byteByByte (length) {
  return Array.from({ length: Math.max(length - 1, 0) }, (_, k) => k + 1)
}

function randomCuts (length, random) {
  const cuts = []
  for (let at = 0; ;) {
    at += 1 + Math.floor(random() * 40)
    if (at >= length) return cuts
    cuts.push(at)
  }
}

t.test('encoders: the frame layout of RFC 9113', async (t) => {
  t.equal(CLIENT_PREFACE.toString('latin1'), 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'the client preface (§3.4)')
  t.equal(CLIENT_PREFACE.length, 24)
  t.equal(encodeSettings({ enablePush: 0, initialWindowSize: 1 << 20 }).toString('hex'),
    '00000c' + '04' + '00' + '00000000' + '0002' + '00000000' + '0004' + '00100000', 'SETTINGS: 6 octets a parameter')
  t.equal(encodeSettings({}, true).toString('hex'), '000000040100000000', 'SETTINGS ACK: empty, flag 0x1')
  t.throws(() => encodeSettings({ bogus: 1 }), /unknown HTTP\/2 setting bogus/)
  t.equal(encodeWindowUpdate(0, 65535).toString('hex'), '000004080000000000' + '0000ffff', 'WINDOW_UPDATE')
  t.throws(() => encodeWindowUpdate(1, 0), RangeError, 'an increment of 0 is refused')
  t.throws(() => encodeWindowUpdate(1, 2 ** 31), RangeError, 'an increment above 2^31-1 is refused')
  t.equal(encodePing(Buffer.from('12345678'), true).toString('hex'), '000008060100000000' + '3132333435363738', 'PING ACK')
  t.throws(() => encodePing(Buffer.from('1234')), RangeError)
  t.equal(encodeRstStream(5, ERROR_CODES.CANCEL).toString('hex'), '000004030000000005' + '00000008', 'RST_STREAM CANCEL')
  t.equal(encodeGoaway(7, ERROR_CODES.PROTOCOL_ERROR, 'x').toString('hex'), '000009070000000000' + '00000007' + '00000001' + '78', 'GOAWAY with debug data')
  t.equal(encodeGoaway(0, ERROR_CODES.NO_ERROR).toString('hex'), '000008070000000000' + '00000000' + '00000000', 'GOAWAY without')
  t.equal(encodeHeaders(3, Buffer.from([0x82]), true).toString('hex'), '000001010500000003' + '82', 'HEADERS END_STREAM | END_HEADERS')
  t.equal(encodeData(0x7fffffff, Buffer.from('ab'), false).toString('hex'), '00000200007fffffff' + '6162', 'DATA, highest stream')
  t.equal(encodeData(1, Buffer.alloc(0), true).toString('hex'), '000000000100000001', 'an empty DATA with END_STREAM')
  const frame = Buffer.alloc(9)
  writeFrameHeader(frame, 0, 0x123456, 0xfa, 0xff, 0xffffffff)
  t.equal(frame.toString('hex'), '123456faff7fffffff', 'the reserved bit is never sent')
  t.equal(errorName(9), 'COMPRESSION_ERROR')
  t.equal(errorName(0x1234), '0x1234', 'an unknown code keeps its number')
})

t.test('HEADERS + CONTINUATION and DATA are split at the max frame size', async (t) => {
  const block = Buffer.alloc(40000)
  for (let k = 0; k < block.length; k++) block[k] = k % 251
  const wire = encodeHeaders(9, block, true, 16384)
  const sizes = []
  for (let o = 0; o < wire.length;) {
    const length = wire.readUIntBE(o, 3)
    sizes.push([length, wire[o + 3], wire[o + 4], wire.readUInt32BE(o + 5)])
    o += 9 + length
  }
  t.same(sizes, [[16384, HEADERS, END_STREAM, 9], [16384, CONTINUATION, 0, 9], [7232, CONTINUATION, END_HEADERS, 9]],
    'HEADERS with END_STREAM first, END_HEADERS on the last CONTINUATION')
  const rec = parse(Buffer.concat([SERVER_SETTINGS, wire]), [])
  t.same(rec.events.slice(1), [{ type: 'headers', streamId: 9, block, endStream: true }], 'assembled into one block, END_STREAM kept')

  const body = Buffer.alloc(40000, 0x61)
  const data = encodeData(1, body, true, 16384)
  t.equal(data.length, 3 * 9 + 40000, 'three DATA frames')
  t.equal(data[4] | data[9 + 16384 + 4], 0, 'no END_STREAM before the last')
  t.equal(data[2 * (9 + 16384) + 4], END_STREAM)
  const got = parse(Buffer.concat([SERVER_SETTINGS, data]), [])
  t.same(got.events.slice(1).map((e) => [e.data.length, e.flow, e.endStream]), [[16384, 16384, false], [16384, 16384, false], [7232, 7232, true]])

  // Set the stream of a request's frames, built once, for each request.
  setStreamId(data, 11)
  t.same([data.readUInt32BE(5), data.readUInt32BE(9 + 16384 + 5), data.readUInt32BE(2 * (9 + 16384) + 5)], [11, 11, 11], 'setStreamId rewrites every frame')
})

// A long stream of every kind of frame a server sends, with what the
// parser must make of it.
function sampleStream () {
  const frames = []
  const expected = []
  const add = (wire, ...events) => {
    frames.push(wire)
    expected.push(...events)
  }
  const settings = { headerTableSize: 8192, enablePush: 0, maxConcurrentStreams: 128, initialWindowSize: 1 << 20, maxFrameSize: 32768, maxHeaderListSize: 65536 }
  // An unknown parameter (0x9) among them is ignored.
  const unknown = Buffer.concat([encodeSettings(settings).subarray(9), Buffer.from([0x00, 0x09, 0, 0, 0, 1])])
  add(encodeFrame(SETTINGS, 0, 0, unknown), { type: 'settings', ack: false, settings })
  add(encodeSettings({}, true), { type: 'settings', ack: true, settings: null })
  const block1 = Buffer.from([0x88, 0x5f, 0x87, 0x49, 0x7c, 0xa5, 0x8a, 0xe8, 0x19, 0xaa])
  add(encodeHeaders(1, block1, false), { type: 'headers', streamId: 1, block: block1, endStream: false })
  add(encodeData(1, Buffer.from('hello '), false), { type: 'data', streamId: 1, data: Buffer.from('hello '), endStream: false, flow: 6 })
  // Padded DATA: 1 octet of pad length, 5 of data, 3 of padding.
  add(encodeFrame(DATA, PADDED | END_STREAM, 1, Buffer.from([3, ...Buffer.from('world'), 0, 0, 0])),
    { type: 'data', streamId: 1, data: Buffer.from('world'), endStream: true, flow: 9 })
  // Padded HEADERS with priority: pad length, 5 octets of priority, the
  // block, 2 octets of padding.
  add(encodeFrame(HEADERS, PADDED | FLAGS.PRIORITY | END_HEADERS | END_STREAM, 3, Buffer.from([2, 0x80, 0, 0, 1, 200, 0x8d, 0, 0])),
    { type: 'headers', streamId: 3, block: Buffer.from([0x8d]), endStream: true })
  // A block over HEADERS and two CONTINUATION frames.
  const long = Buffer.alloc(300)
  for (let k = 0; k < long.length; k++) long[k] = (k * 7) % 256
  add(encodeFrame(HEADERS, END_STREAM, 5, long.subarray(0, 100)))
  add(encodeFrame(CONTINUATION, 0, 5, long.subarray(100, 101)))
  add(encodeFrame(CONTINUATION, END_HEADERS, 5, long.subarray(101)), { type: 'headers', streamId: 5, block: long, endStream: true })
  // Skipped: PRIORITY, unknown types (with and without payload).
  add(encodeFrame(PRIORITY, 0, 7, Buffer.from([0, 0, 0, 1, 16])))
  add(encodeFrame(0xfa, 0xff, 0, Buffer.alloc(50, 1)))
  add(encodeFrame(0x0b, 0, 3, null))
  add(encodePing(Buffer.from('pingpong')), { type: 'ping', ack: false, opaque: Buffer.from('pingpong') })
  add(encodePing(Buffer.from('\x00\x01\x02\x03\x04\x05\x06\x07', 'latin1'), true), { type: 'ping', ack: true, opaque: Buffer.from([0, 1, 2, 3, 4, 5, 6, 7]) })
  add(encodeWindowUpdate(0, 1 << 30), { type: 'window', streamId: 0, increment: 1 << 30 })
  add(encodeWindowUpdate(9, 1), { type: 'window', streamId: 9, increment: 1 })
  // The reserved bit of a window increment is ignored (§6.9).
  add(encodeFrame(WINDOW_UPDATE, 0, 9, Buffer.from([0x80, 0, 0, 5])), { type: 'window', streamId: 9, increment: 5 })
  add(encodeRstStream(9, ERROR_CODES.REFUSED_STREAM), { type: 'rst', streamId: 9, errorCode: 7 })
  add(encodeData(11, Buffer.alloc(0), true), { type: 'data', streamId: 11, data: Buffer.alloc(0), endStream: true, flow: 0 })
  // Padding only: the pad length and 4 octets.
  add(encodeFrame(DATA, PADDED, 13, Buffer.from([4, 0, 0, 0, 0])), { type: 'data', streamId: 13, data: Buffer.alloc(0), endStream: false, flow: 5 })
  add(encodeFrame(DATA, PADDED | END_STREAM, 13, Buffer.from([0])), { type: 'data', streamId: 13, data: Buffer.alloc(0), endStream: true, flow: 1 })
  const big = Buffer.alloc(20000)
  for (let k = 0; k < big.length; k++) big[k] = k % 256
  add(encodeData(15, big, true, 16384),
    { type: 'data', streamId: 15, data: big.subarray(0, 16384), endStream: false, flow: 16384 },
    { type: 'data', streamId: 15, data: big.subarray(16384), endStream: true, flow: 3616 })
  // The reserved bit of a stream identifier is ignored (§4.1).
  const reserved = encodeHeaders(17, Buffer.from([0x88]), true)
  reserved[5] |= 0x80
  add(reserved, { type: 'headers', streamId: 17, block: Buffer.from([0x88]), endStream: true })
  add(encodeGoaway(17, ERROR_CODES.NO_ERROR, 'bye'), { type: 'goaway', lastStreamId: 17, errorCode: 0, debug: 'bye' })
  return { wire: Buffer.concat(frames), expected, count: frames.length }
}

t.test('a stream of many frames: the same calls whole, byte by byte and in random cuts', async (t) => {
  const { wire, expected, count } = sampleStream()
  const whole = parse(wire, [], { maxFrameSize: 16384 })
  t.same(whole.problems, [], 'nothing the handler objects to')
  t.same(whole.events, expected, `the ${count} frames read whole: one call each where expected`)

  const single = parse(wire, byteByByte(wire.length))
  t.same(single.problems, [])
  t.same(coalesce(single.events), coalesce(expected), 'one byte at a time')
  t.ok(single.events.filter((e) => e.type === 'data').length > 20000, 'DATA handed over as it comes, not held back')

  const random = seededRandom(9113)
  for (let round = 0; round < 30; round++) {
    const rec = parse(wire, randomCuts(wire.length, random))
    if (rec.problems.length > 0 || !t.same(coalesce(rec.events), coalesce(expected), `random cuts, round ${round}`)) {
      t.same(rec.problems, [], `round ${round}`)
      break
    }
  }
  // Flow control: every DATA frame's octets counted, padding included.
  const dataFrames = []
  for (let o = 0; o < wire.length;) {
    const length = wire.readUIntBE(o, 3)
    if (wire[o + 3] === DATA) dataFrames.push(length)
    o += 9 + length
  }
  const flow = (events) => events.filter((e) => e.type === 'data').reduce((sum, e) => sum + e.flow, 0)
  t.equal(flow(single.events), dataFrames.reduce((a, b) => a + b, 0), 'flow-controlled octets add up to the DATA frames\' lengths, byte by byte')
  // Octets on the wire: each DATA, HEADERS and CONTINUATION frame whole,
  // its 9-octet header, padding and priority included, however cut.
  const onWire = { data: 0, headers: 0 }
  for (let o = 0; o < wire.length;) {
    const length = wire.readUIntBE(o, 3)
    if (wire[o + 3] === DATA) onWire.data += 9 + length
    if (wire[o + 3] === HEADERS || wire[o + 3] === CONTINUATION) onWire.headers += 9 + length
    o += 9 + length
  }
  t.same(whole.wire, onWire, `wire octets, read whole: ${JSON.stringify(onWire)}`)
  t.same(single.wire, onWire, 'byte by byte')
  t.same(parse(wire, randomCuts(wire.length, random)).wire, onWire, 'in random cuts')
})

t.test('abort() stops the parser, also from inside a call', async (t) => {
  const wire = Buffer.concat([SERVER_SETTINGS, encodeData(1, Buffer.from('abc'), false), encodeData(1, Buffer.from('def'), true)])
  let parser = null
  const rec = recorder({ onData: () => parser.abort() })
  parser = new FrameParser(rec.handler)
  parser.execute(wire)
  t.same(rec.events.map((e) => e.type), ['settings', 'data'], 'nothing after the abort')
  parser.execute(encodePing(Buffer.alloc(8)))
  t.equal(rec.events.length, 2, 'nor later')
})

t.test('connection and stream errors', async (t) => {
  const S = SERVER_SETTINGS
  const cases = [
    ['a first frame that is not SETTINGS', [encodePing(Buffer.alloc(8))], 'PROTOCOL_ERROR', /preface does not begin with a SETTINGS frame/],
    ['a SETTINGS ACK first', [encodeSettings({}, true)], 'PROTOCOL_ERROR', /preface/],
    ['a frame above our max frame size', [S, encodeData(1, Buffer.alloc(16385), false, 20000)], 'FRAME_SIZE_ERROR', /16385 octets, above our SETTINGS_MAX_FRAME_SIZE of 16384/],
    ['DATA on stream 0', [S, encodeData(0, Buffer.from('x'), false)], 'PROTOCOL_ERROR', /DATA frame on stream 0/],
    ['DATA padding as long as the payload', [S, encodeFrame(DATA, PADDED, 1, Buffer.from([3, 0, 0]))], 'PROTOCOL_ERROR', /3 octets with 3 octets of padding/],
    ['DATA padding longer than the payload', [S, encodeFrame(DATA, PADDED, 1, Buffer.from([200, 1, 2]))], 'PROTOCOL_ERROR', /padding/],
    ['padded DATA without its pad length', [S, encodeFrame(DATA, PADDED, 1, null)], 'FRAME_SIZE_ERROR', /without its pad length/],
    ['HEADERS on stream 0', [S, encodeHeaders(0, Buffer.from([0x88]), true)], 'PROTOCOL_ERROR', /HEADERS frame on stream 0/],
    ['HEADERS padding beyond the block', [S, encodeFrame(HEADERS, PADDED | END_HEADERS, 1, Buffer.from([3, 0x88, 0]))], 'PROTOCOL_ERROR', /3 octets of padding and 2 for padding/],
    ['HEADERS padding beyond the block, with priority', [S, encodeFrame(HEADERS, PADDED | FLAGS.PRIORITY | END_HEADERS, 1, Buffer.from([1, 0, 0, 0, 0, 0]))], 'PROTOCOL_ERROR', /1 octets of padding and 0/],
    ['HEADERS too short for its priority', [S, encodeFrame(HEADERS, FLAGS.PRIORITY | END_HEADERS, 1, Buffer.from([0, 0, 0]))], 'FRAME_SIZE_ERROR', /too short/],
    ['DATA between HEADERS and its CONTINUATION', [S, encodeFrame(HEADERS, 0, 1, Buffer.from([0x88])), encodeData(1, Buffer.from('x'), true)], 'PROTOCOL_ERROR', /inside the header block of stream 1/],
    ['a PING between HEADERS and its CONTINUATION', [S, encodeFrame(HEADERS, 0, 1, Buffer.from([0x88])), encodePing(Buffer.alloc(8))], 'PROTOCOL_ERROR', /type 6 on stream 0 inside the header block of stream 1/],
    ['a CONTINUATION on another stream', [S, encodeFrame(HEADERS, 0, 1, Buffer.from([0x88])), encodeFrame(CONTINUATION, END_HEADERS, 3, Buffer.from([0x88]))], 'PROTOCOL_ERROR', /type 9 on stream 3 inside the header block of stream 1/],
    ['a CONTINUATION after a complete block', [S, encodeHeaders(1, Buffer.from([0x88]), false), encodeFrame(CONTINUATION, END_HEADERS, 1, Buffer.from([0x88]))], 'PROTOCOL_ERROR', /CONTINUATION frame on stream 1 after no HEADERS/],
    ['PUSH_PROMISE', [S, encodeFrame(PUSH_PROMISE, END_HEADERS, 1, Buffer.from([0, 0, 0, 2, 0x82]))], 'PROTOCOL_ERROR', /PUSH_PROMISE on stream 1, though we sent SETTINGS_ENABLE_PUSH 0/],
    ['SETTINGS on a stream', [S, encodeFrame(SETTINGS, 0, 1, null)], 'PROTOCOL_ERROR', /SETTINGS frame on stream 1/],
    ['SETTINGS of 7 octets', [S, encodeFrame(SETTINGS, 0, 0, Buffer.alloc(7))], 'FRAME_SIZE_ERROR', /not a multiple of 6/],
    ['a SETTINGS ACK with a payload', [S, encodeFrame(SETTINGS, ACK, 0, Buffer.alloc(6))], 'FRAME_SIZE_ERROR', /ACK with 6 octets/],
    ['SETTINGS_ENABLE_PUSH 1 from a server', [S, encodeSettings({ enablePush: 1 })], 'PROTOCOL_ERROR', /SETTINGS_ENABLE_PUSH 1/],
    ['an initial window above 2^31-1', [S, encodeSettings({ initialWindowSize: 2 ** 31 })], 'FLOW_CONTROL_ERROR', /SETTINGS_INITIAL_WINDOW_SIZE 2147483648/],
    ['a max frame size below 2^14', [S, encodeSettings({ maxFrameSize: 16383 })], 'PROTOCOL_ERROR', /SETTINGS_MAX_FRAME_SIZE 16383/],
    ['a max frame size above 2^24-1', [S, encodeSettings({ maxFrameSize: 2 ** 24 })], 'PROTOCOL_ERROR', /SETTINGS_MAX_FRAME_SIZE 16777216/],
    ['PING of 7 octets', [S, encodeFrame(PING, 0, 0, Buffer.alloc(7))], 'FRAME_SIZE_ERROR', /PING frame of 7 octets/],
    ['PING on a stream', [S, encodeFrame(PING, 0, 1, Buffer.alloc(8))], 'PROTOCOL_ERROR', /PING frame on stream 1/],
    ['GOAWAY of 7 octets', [S, encodeFrame(GOAWAY, 0, 0, Buffer.alloc(7))], 'FRAME_SIZE_ERROR', /GOAWAY frame of 7 octets/],
    ['GOAWAY on a stream', [S, encodeFrame(GOAWAY, 0, 3, Buffer.alloc(8))], 'PROTOCOL_ERROR', /GOAWAY frame on stream 3/],
    ['RST_STREAM on stream 0', [S, encodeRstStream(0, 8)], 'PROTOCOL_ERROR', /RST_STREAM frame on stream 0/],
    ['RST_STREAM of 5 octets', [S, encodeFrame(RST_STREAM, 0, 1, Buffer.alloc(5))], 'FRAME_SIZE_ERROR', /RST_STREAM frame of 5 octets/],
    ['WINDOW_UPDATE of 3 octets', [S, encodeFrame(WINDOW_UPDATE, 0, 0, Buffer.alloc(3))], 'FRAME_SIZE_ERROR', /WINDOW_UPDATE frame of 3 octets/],
    ['WINDOW_UPDATE of 0 for the connection', [S, encodeFrame(WINDOW_UPDATE, 0, 0, Buffer.alloc(4))], 'PROTOCOL_ERROR', /WINDOW_UPDATE of 0 for the connection/],
    ['PRIORITY on stream 0', [S, encodeFrame(PRIORITY, 0, 0, Buffer.alloc(5))], 'PROTOCOL_ERROR', /PRIORITY frame on stream 0/]
  ]
  for (const [what, frames, name, pattern] of cases) {
    const wire = Buffer.concat([...frames, encodePing(Buffer.alloc(8))])
    for (const [how, cuts] of [['whole', []], ['byte by byte', byteByByte(wire.length)]]) {
      const rec = parse(wire, cuts)
      const errors = rec.events.filter((e) => e.type === 'error')
      t.equal(errors.length, 1, `${what} (${how}): one connection error`)
      t.same(rec.problems, [], `${what} (${how}): and nothing after it`)
      const err = errors[0] || {}
      t.equal(err.code, `AC_H2_${name}`, `${what} (${how}): ${name}`)
      t.equal(err.http2Code, ERROR_CODES[name], `${what} (${how}): code ${ERROR_CODES[name]}`)
      t.equal(err.streamId, 0, `${what} (${how}): of the connection`)
      t.match(err.message, pattern, `${what} (${how}): says why`)
    }
  }

  // Stream errors: the connection goes on.
  const streamCases = [
    ['WINDOW_UPDATE of 0 on a stream', encodeFrame(WINDOW_UPDATE, 0, 5, Buffer.alloc(4)), 'PROTOCOL_ERROR', /WINDOW_UPDATE of 0 on stream 5/],
    ['PRIORITY of 4 octets', encodeFrame(PRIORITY, 0, 5, Buffer.alloc(4)), 'FRAME_SIZE_ERROR', /PRIORITY frame of 4 octets/]
  ]
  for (const [what, frame, name, pattern] of streamCases) {
    const rec = parse(Buffer.concat([S, frame, encodePing(Buffer.alloc(8))]), [])
    t.same(rec.events.map((e) => e.type), ['settings', 'streamError', 'ping'], `${what}: a stream error, then the next frame`)
    const err = rec.events[1]
    t.equal(err.code, `AC_H2_${name}`, `${what}: ${name}`)
    t.equal(err.http2Code, ERROR_CODES[name])
    t.equal(err.streamId, 5, `${what}: on stream 5`)
    t.match(err.message, pattern)
  }

  // A header block above what we hold: no matter how it is split.
  const block = Buffer.alloc(3000, 0x88)
  for (const [what, wire] of [
    ['one HEADERS frame', Buffer.concat([S, encodeHeaders(1, block, true)])],
    ['HEADERS and CONTINUATION', Buffer.concat([S, encodeHeaders(1, block, true, 1000)])]
  ]) {
    const rec = parse(wire, [], { maxHeaderBlockSize: 2048 })
    const err = rec.events.find((e) => e.type === 'error')
    t.equal(err && err.code, 'AC_H2_ENHANCE_YOUR_CALM', `${what}: a block above maxHeaderBlockSize`)
    t.equal(err && err.http2Code, 0xb)
    t.equal(rec.events.filter((e) => e.type === 'headers').length, 0, `${what}: not delivered`)
  }
  const within = parse(Buffer.concat([S, encodeHeaders(1, block, true, 1000)]), [], { maxHeaderBlockSize: 3000 })
  t.equal(within.events[1].block.length, 3000, 'a block at the limit is delivered')

  // A larger max frame size of ours is honoured.
  const large = parse(Buffer.concat([S, encodeData(1, Buffer.alloc(20000), true, 20000)]), [], { maxFrameSize: 20000 })
  t.same(large.events.slice(1).map((e) => e.data.length), [20000], 'a 20000-octet frame under maxFrameSize 20000')
})

t.test('an HTTP/1.x answer where the server\'s first frame should be: AC_H2C_NOT_SPOKEN with its version, however it is cut', async (t) => {
  const answer = Buffer.from('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
  for (const cuts of [[], byteByByte(answer.length), [4, 9]]) {
    const rec = parse(answer, cuts)
    t.same(rec.events, [{ type: 'error', code: 'AC_H2C_NOT_SPOKEN', http2Code: ERROR_CODES.PROTOCOL_ERROR, streamId: 0, message: 'the server answered in HTTP/1.1: it does not speak HTTP/2 in clear text (h2c)' }], `cut at ${cuts.length} places`)
    t.same(rec.problems, [])
  }
  t.same(parse(Buffer.from('HTTP/1.0 400 Bad Request\r\n\r\n'), []).events.map((e) => e.message), ['the server answered in HTTP/1.0: it does not speak HTTP/2 in clear text (h2c)'])
  // After the server's SETTINGS, the same octets are a frame, too large.
  const later = parse(Buffer.concat([SERVER_SETTINGS, answer]), [])
  t.same(later.events.map((e) => e.code || e.type), ['settings', 'AC_H2_FRAME_SIZE_ERROR'], 'only as the first frame')
})
