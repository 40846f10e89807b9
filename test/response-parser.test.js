'use strict'

// Unit tests of lib/http1/response-parser.js: the ResponseParser driven directly
// with a recording handler, no socket. Every assertion is on what the
// handler saw: status codes, bodies, byte counts, shouldClose flags, headers
// and errors.

const t = require('tap')
const { ResponseParser } = require('../lib/http1/response-parser')
const { ResponseParseError } = require('../lib/core/errors')

const toBuf = (wire) => Buffer.isBuffer(wire) ? wire : Buffer.from(wire, 'latin1')

// A handler that records every call, checking the interface's invariants as
// it goes (body ranges inside the buffer and never empty, body only between
// headers and completion, nothing after an error).
function recorder (opts = {}) {
  const events = []
  const problems = []
  let inMessage = false
  let dead = false
  let headersSeen = 0
  const handler = {
    onHeadersComplete (status, headers) {
      if (dead) problems.push('onHeadersComplete after an error')
      if (inMessage) problems.push('onHeadersComplete twice for one message')
      inMessage = true
      const index = headersSeen++
      events.push({ type: 'headers', status, headers: headers === null ? null : headers.slice() })
      if (opts.onHeaders) opts.onHeaders(status, headers, index)
      if (typeof opts.head === 'function') return opts.head(status, index)
      if (Array.isArray(opts.head)) return opts.head[index]
      return opts.head
    },
    onBody (buf, start, end) {
      if (dead) problems.push('onBody after an error')
      if (!inMessage) problems.push('onBody outside a message')
      if (!(start >= 0 && start < end && end <= buf.length)) problems.push(`bad body range ${start}..${end} of ${buf.length}`)
      // Copied now: the caller may reuse the buffer.
      events.push({ type: 'body', data: Buffer.from(buf.subarray(start, end)) })
    },
    onMessageComplete (status, bytes, close) {
      if (dead) problems.push('onMessageComplete after an error')
      if (!inMessage) problems.push('onMessageComplete without onHeadersComplete')
      inMessage = false
      events.push({ type: 'complete', status, bytes, close })
      if (opts.onComplete) opts.onComplete(status, bytes, close)
    },
    onParseError (err) {
      if (dead) problems.push('onParseError twice')
      dead = true
      events.push({ type: 'error', err })
    }
  }
  return {
    handler,
    events,
    problems,
    // Ready to parse again (after the parser's reset()).
    revive () {
      dead = false
      inMessage = false
    }
  }
}

// The handler's view folded into messages: body pieces joined (they depend
// on how the input was cut, the message does not).
function summarize (events) {
  const messages = []
  const errors = []
  let cur = null
  for (const e of events) {
    if (e.type === 'headers') cur = { status: e.status, headers: e.headers, body: [] }
    else if (e.type === 'body') cur.body.push(e.data)
    else if (e.type === 'complete') {
      messages.push({
        status: e.status,
        headerStatus: cur.status,
        headers: cur.headers,
        body: Buffer.concat(cur.body).toString('latin1'),
        bytes: e.bytes,
        close: e.close
      })
      cur = null
    } else {
      errors.push({ code: e.err.code, name: e.err.name, message: e.err.message, isParseError: e.err instanceof ResponseParseError })
    }
  }
  return { messages, errors }
}

// Parses `wire` given as separate Buffers cut at `cuts` (or one byte at a
// time with cuts: 'bytes'). Each piece is a fresh Buffer which is scribbled
// over once the parser has returned, as a socket's reused read buffer
// would be: nothing may be read from it later.
function parse (wire, opts = {}) {
  const buf = toBuf(wire)
  const rec = recorder(opts)
  const parser = new ResponseParser(rec.handler)
  parser.wantBody = opts.wantBody !== undefined ? opts.wantBody : true
  parser.wantHeaders = !!opts.wantHeaders
  if (opts.maxHeaderSize) parser.maxHeaderSize = opts.maxHeaderSize
  parser.reset()
  let cuts = opts.cuts || []
  if (cuts === 'bytes') cuts = Array.from({ length: Math.max(0, buf.length - 1) }, (_, k) => k + 1)
  let prev = 0
  let thrown = null
  try {
    for (const cut of [...cuts, buf.length]) {
      const piece = Buffer.from(buf.subarray(prev, cut))
      parser.execute(piece)
      piece.fill(0x7e)
      prev = cut
    }
    if (opts.eof) parser.finish()
  } catch (err) {
    thrown = err
  }
  return { ...summarize(rec.events), events: rec.events, problems: rec.problems, thrown, parser, rec }
}

// Same, but every piece is a [start, end) range of one larger buffer with
// bytes around it that must never be looked at (line feeds included, to
// catch a search that runs past `end`).
function parseInRanges (wire, cuts, opts = {}) {
  const buf = toBuf(wire)
  const rec = recorder(opts)
  const parser = new ResponseParser(rec.handler)
  parser.wantBody = opts.wantBody !== undefined ? opts.wantBody : true
  parser.wantHeaders = !!opts.wantHeaders
  if (opts.maxHeaderSize) parser.maxHeaderSize = opts.maxHeaderSize
  parser.reset()
  const pad = Buffer.from('\n\r\nXX\n0\r\n\r\nHTTP/1.1 500 X\r\n\n', 'latin1')
  let prev = 0
  for (const cut of [...cuts, buf.length]) {
    const piece = buf.subarray(prev, cut)
    const big = Buffer.concat([pad, piece, pad])
    parser.execute(big, pad.length, pad.length + piece.length)
    prev = cut
  }
  if (opts.eof) parser.finish()
  return { ...summarize(rec.events), problems: rec.problems }
}

const view = (r) => ({ messages: r.messages, errors: r.errors })

// The stream parsed whole must give the same messages and errors as when
// cut at every single position, one byte at a time, and in ranges of a
// bigger buffer. Returns the whole-stream result.
function everySplit (t, wire, opts = {}) {
  const buf = toBuf(wire)
  const whole = parse(buf, opts)
  t.equal(whole.thrown, null, 'nothing thrown')
  t.same(whole.problems, [], 'handler interface respected')
  const expected = view(whole)
  let firstBad = null
  let bad = 0
  for (let k = 1; k < buf.length; k++) {
    const r = parse(buf, { ...opts, cuts: [k] })
    if (r.thrown || r.problems.length || JSON.stringify(view(r)) !== JSON.stringify(expected)) {
      bad++
      if (firstBad === null) firstBad = { cut: k, got: view(r), thrown: r.thrown && r.thrown.message, problems: r.problems }
    }
  }
  t.equal(bad, 0, `same result cut at each of the ${buf.length - 1} positions`, { firstBad })
  const bytes = parse(buf, { ...opts, cuts: 'bytes' })
  t.equal(bytes.thrown, null, 'nothing thrown one byte at a time')
  t.same(bytes.problems, [], 'interface respected one byte at a time')
  t.same(view(bytes), expected, 'same result one byte at a time')
  const thirds = [Math.floor(buf.length / 3), Math.floor(2 * buf.length / 3)]
  const ranged = parseInRanges(buf, thirds, opts)
  t.same(ranged.problems, [], 'interface respected in ranges')
  t.same(view(ranged), expected, 'same result from ranges of a larger buffer')
  return whole
}

// Deterministic pseudo-random bytes.
function noise (n, seed = 1) {
  const out = Buffer.allocUnsafe(n)
  let x = seed >>> 0 || 1
  for (let i = 0; i < n; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}

function chunkedBody (body, sizes, { upper = false, ext = '' } = {}) {
  const parts = []
  let off = 0
  let k = 0
  while (off < body.length) {
    const n = Math.min(sizes[k++ % sizes.length], body.length - off)
    let hex = n.toString(16)
    if (upper) hex = hex.toUpperCase()
    parts.push(Buffer.from(hex + ext + '\r\n', 'latin1'), body.subarray(off, off + n), Buffer.from('\r\n'))
    off += n
  }
  parts.push(Buffer.from('0\r\n\r\n'))
  return Buffer.concat(parts)
}

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello'

// ---------------------------------------------------------------------------
// Content-Length

t.test('Content-Length: 0 completes at the end of the headers, with no body call', async (t) => {
  const wire = 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'
  const r = parse(wire)
  t.same(r.messages.map(({ status, body, bytes, close }) => ({ status, body, bytes, close })),
    [{ status: 200, body: '', bytes: wire.length, close: false }])
  t.equal(r.events.filter((e) => e.type === 'body').length, 0, 'onBody never called')
  t.same(r.errors, [])
  t.equal(r.parser.idle, true, 'idle again after the response')
})

t.test('Content-Length: small body', async (t) => {
  const r = everySplit(t, OK)
  t.equal(r.messages.length, 1)
  t.equal(r.messages[0].status, 200)
  t.equal(r.messages[0].headerStatus, 200)
  t.equal(r.messages[0].body, 'hello')
  t.equal(r.messages[0].bytes, OK.length, 'bytes = wire length')
  t.equal(r.messages[0].close, false)
  t.same(r.errors, [])
})

t.test('Content-Length: header name in any case, value with spaces around it', async (t) => {
  for (const line of ['content-length: 3', 'CONTENT-LENGTH: 3', 'Content-length:3', 'Content-Length: \t 3  ', 'cOnTeNt-LeNgTh:   3   ', 'Content-Length: 00000000000000000000003']) {
    const wire = `HTTP/1.1 200 OK\r\n${line}\r\n\r\nabc`
    const r = parse(wire)
    t.same(r.errors, [], line)
    t.equal(r.messages.length, 1, line)
    t.equal(r.messages[0].body, 'abc', line)
    t.equal(r.messages[0].bytes, wire.length, line)
  }
})

t.test('Content-Length: a second field is an error even with the same value, as in llhttp', async (t) => {
  // Found by fuzz/: we accepted two equal Content-Length fields, Node's parser refuses them.
  const wire = 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\nabc'
  const r = everySplit(t, OK + wire + OK)
  t.same(r.messages.map((m) => [m.status, m.body]), [[200, 'hello']])
  t.same(r.errors.map((e) => [e.code, e.message]), [['HPE_UNEXPECTED_CONTENT_LENGTH', 'duplicate content-length']])
  // An empty second field is reported as empty, a bad one as a duplicate (llhttp's order).
  t.same(parse('HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length:\r\n\r\nabc').errors.map((e) => e.code), ['HPE_INVALID_CONTENT_LENGTH'])
  t.same(parse('HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: x\r\n\r\nabc').errors.map((e) => e.code), ['HPE_UNEXPECTED_CONTENT_LENGTH'])
})

t.test('Content-Length: a large binary body, whole and in socket-sized reads', async (t) => {
  const body = noise(1024 * 1024 + 17, 7)
  const head = `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n`
  const wire = Buffer.concat([Buffer.from(head), body])

  const whole = parse(wire)
  t.equal(whole.messages.length, 1)
  t.ok(whole.messages[0].body === body.toString('latin1'), 'body bytes equal the original')
  t.equal(whole.messages[0].bytes, wire.length)

  const cuts = []
  for (let k = 65536 - 7; k < wire.length; k += 65536) cuts.push(k)
  const pieces = parse(wire, { cuts: [3, 40, ...cuts] })
  t.equal(pieces.messages.length, 1)
  t.ok(pieces.messages[0].body === body.toString('latin1'), 'body bytes equal the original when read in pieces')
  t.equal(pieces.messages[0].bytes, wire.length)
  t.same(pieces.problems, [])

  const noBody = parse(wire, { wantBody: false, cuts })
  t.equal(noBody.events.filter((e) => e.type === 'body').length, 0, 'no onBody when wantBody is off')
  t.same(noBody.messages.map((m) => [m.status, m.bytes, m.body]), [[200, wire.length, '']])
})

t.test('Content-Length: completes only when the last byte arrives', async (t) => {
  const rec = recorder()
  const p = new ResponseParser(rec.handler)
  p.wantBody = true
  p.reset()
  const buf = Buffer.from(OK)
  p.execute(buf, 0, buf.length - 1)
  t.equal(rec.events.filter((e) => e.type === 'complete').length, 0, 'one byte short: not complete')
  t.equal(p.idle, false, 'not idle mid-response')
  p.execute(buf, buf.length - 1, buf.length)
  const s = summarize(rec.events)
  t.same(s.messages.map((m) => [m.status, m.body, m.bytes]), [[200, 'hello', OK.length]])
  t.equal(p.idle, true)
})

t.test('pipelined responses in one buffer, each with its own wire length', async (t) => {
  const parts = [
    OK,
    'HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
    'HTTP/1.1 204 No Content\r\n\r\n',
    'HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\n\r\n',
    'HTTP/1.1 201 Created\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok'
  ]
  const r = everySplit(t, parts.join(''))
  t.same(r.messages.map((m) => m.status), [200, 404, 200, 204, 500, 201])
  t.same(r.messages.map((m) => m.body), ['hello', 'not found', 'abc', '', '', 'ok'])
  t.same(r.messages.map((m) => m.bytes), parts.map((p) => p.length), 'bytes of each = its wire length')
  t.same(r.messages.map((m) => m.close), [false, false, false, false, false, true], 'close flag belongs to its own response')
  t.same(r.errors, [])
})

t.test('line ends between responses are tolerated and not counted', async (t) => {
  const wire = '\r\n' + OK + '\r\n\r\n' + OK + '\n'
  const r = everySplit(t, wire)
  t.same(r.messages.map((m) => [m.status, m.body, m.bytes]), [[200, 'hello', OK.length], [200, 'hello', OK.length]])
  t.same(r.errors, [])
  t.equal(r.parser.idle, true)
})

t.test('bare LF line ends are accepted', async (t) => {
  const wire = 'HTTP/1.1 200 OK\nContent-Length: 2\nX-A: b\n\nhi' +
    'HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n2\nhi\n0\n\n'
  const r = everySplit(t, wire, { wantHeaders: true })
  t.same(r.errors, [])
  t.same(r.messages.map((m) => [m.status, m.body]), [[200, 'hi'], [200, 'hi']])
  t.same(r.messages[0].headers, ['Content-Length', '2', 'X-A', 'b'])
  t.equal(r.messages[0].bytes + r.messages[1].bytes, wire.length)
})

t.test('status line: any reason phrase, none at all, and the status code itself', async (t) => {
  const cases = [
    ['HTTP/1.1 200 OK\r\n', 200],
    ['HTTP/1.1 200\r\n', 200],
    ['HTTP/1.1 200 \r\n', 200],
    ['HTTP/1.1 418 I\'m a teapot, with: colons and \t tabs\r\n', 418],
    ['HTTP/1.1 599 Whatever\r\n', 599],
    ['HTTP/1.1 999 Nine\r\n', 999],
    ['HTTP/1.1 100\r\n\r\nHTTP/1.1 302 Found\r\n', 302]
  ]
  for (const [line, status] of cases) {
    const wire = line + 'Content-Length: 1\r\n\r\nx'
    const r = everySplit(t, wire)
    t.same(r.messages.map((m) => [m.status, m.headerStatus, m.body, m.bytes]), [[status, status, 'x', wire.length]], JSON.stringify(line))
  }
})

// ---------------------------------------------------------------------------
// chunked

t.test('chunked: body reassembled, extensions and trailers dropped, split anywhere', async (t) => {
  const wire = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n' +
    '5;name=value\r\nhello\r\n' +
    '1;a="b;c";d\r\n,\r\n' +
    'A\r\n0123456789\r\n' +
    'b\t;x\r\n abcdefghij\r\n' +
    '0;last=1\r\nX-Trailer: yes\r\nX-Other: 1\r\n\r\n'
  const r = everySplit(t, wire + OK)
  t.same(r.errors, [])
  t.same(r.messages.map((m) => m.status), [200, 200])
  t.equal(r.messages[0].body, 'hello,0123456789 abcdefghij')
  t.equal(r.messages[0].bytes, wire.length, 'wire length includes sizes, extensions and trailers')
  t.equal(r.messages[1].body, 'hello', 'the next response follows the trailers')
  t.equal(r.messages[1].bytes, OK.length)
})

t.test('chunked: hex sizes in upper and lower case, with leading zeros', async (t) => {
  const body = noise(0xfe + 0xAB + 0x1F + 0x10, 3)
  let off = 0
  const take = (n) => { const b = body.subarray(off, off + n); off += n; return b }
  const wire = Buffer.concat([
    Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'),
    Buffer.from('fe\r\n'), take(0xfe), Buffer.from('\r\n'),
    Buffer.from('AB\r\n'), take(0xab), Buffer.from('\r\n'),
    Buffer.from('001f\r\n'), take(0x1f), Buffer.from('\r\n'),
    Buffer.from('0000000010\r\n'), take(0x10), Buffer.from('\r\n'),
    Buffer.from('000\r\n\r\n')
  ])
  const r = everySplit(t, wire)
  t.same(r.errors, [])
  t.equal(r.messages.length, 1)
  t.ok(r.messages[0].body === body.toString('latin1'), 'body equals the original bytes')
  t.equal(r.messages[0].bytes, wire.length)
})

t.test('chunked: large binary body in many chunk sizes, sizes split across reads', async (t) => {
  const body = noise(300000, 11)
  const encoded = chunkedBody(body, [1, 2, 15, 16, 17, 255, 256, 4095, 4096, 65535, 65536, 100000], { upper: true })
  const head = Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n')
  const wire = Buffer.concat([head, encoded])
  for (const step of [1 << 16, 1000, 7, 3]) {
    const cuts = []
    for (let k = step; k < wire.length; k += step) cuts.push(k)
    const r = parse(wire, { cuts })
    t.same(r.errors, [], `reads of ${step}`)
    t.same(r.problems, [])
    t.equal(r.messages.length, 1)
    t.ok(r.messages[0].body === body.toString('latin1'), `body reassembled from reads of ${step}`)
    t.equal(r.messages[0].bytes, wire.length, `bytes from reads of ${step}`)
  }
  const lower = Buffer.concat([head, chunkedBody(body, [0x3abc, 0xfff], { ext: ';e=1' })])
  const r = parse(lower, { cuts: [head.length + 2, head.length + 3] })
  t.ok(r.messages[0].body === body.toString('latin1'), 'lower-case sizes with extensions')
  t.equal(r.messages[0].bytes, lower.length)

  const quiet = parse(wire, { wantBody: false, cuts: [5000, 70000] })
  t.equal(quiet.events.filter((e) => e.type === 'body').length, 0, 'no onBody when wantBody is off')
  t.same(quiet.messages.map((m) => [m.status, m.bytes]), [[200, wire.length]])
})

t.test('chunked: a chunk size cut between its digits', async (t) => {
  const head = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'
  const body = 'z'.repeat(0x123)
  const wire = head + '123\r\n' + body + '\r\n0\r\n\r\n'
  for (const cut of [head.length + 1, head.length + 2, head.length + 3, head.length + 4]) {
    const r = parse(wire, { cuts: [cut] })
    t.same(r.messages.map((m) => [m.body.length, m.bytes]), [[0x123, wire.length]], `cut at ${cut - head.length} of the size line`)
  }
})

t.test('chunked: last chunk alone is an empty body; trailers of any length', async (t) => {
  const empty = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'
  const r = everySplit(t, empty + OK)
  t.same(r.messages.map((m) => [m.status, m.body, m.bytes]), [[200, '', empty.length], [200, 'hello', OK.length]])
  t.equal(r.events.filter((e) => e.type === 'body').length, 1, 'the only onBody is the second response\'s')

  const trailers = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n' +
    'Server-Timing: ' + 'x'.repeat(5000) + '\r\nA: b\r\n\r\n'
  const r2 = parse(trailers + OK, { cuts: [trailers.length - 2000, trailers.length - 1] })
  t.same(r2.messages.map((m) => [m.body, m.bytes]), [['hi', trailers.length], ['hello', OK.length]])
})

t.test('chunked: only when it is the last transfer coding; it wins over Content-Length', async (t) => {
  const body = '3\r\nabc\r\n0\r\n\r\n'
  const on = ['chunked', 'Chunked', 'CHUNKED', 'gzip, chunked', 'gzip,chunked', 'gzip ,  chunked  ', 'x-custom, gzip, chunked']
  for (const te of on) {
    const wire = `HTTP/1.1 200 OK\r\nTransfer-Encoding: ${te}\r\n\r\n${body}`
    const r = parse(wire + OK)
    t.same(r.messages.map((m) => [m.body, m.bytes]), [['abc', wire.length], ['hello', OK.length]], te)
  }
  // Found by fuzz/: we let chunked win over Content-Length; llhttp 9
  // refuses both together (request smuggling), which way round they come.
  for (const [first, second, code] of [['Content-Length: 100', 'Transfer-Encoding: chunked', 'HPE_INVALID_TRANSFER_ENCODING'],
    ['Transfer-Encoding: chunked', 'Content-Length: 100', 'HPE_INVALID_CONTENT_LENGTH'],
    ['Content-Length: 3', 'Transfer-Encoding: gzip', 'HPE_INVALID_TRANSFER_ENCODING']]) {
    const both = `HTTP/1.1 200 OK\r\n${first}\r\n${second}\r\n\r\n` + body
    t.same(parse(both + OK).errors.map((e) => e.code), [code], `${first} then ${second}`)
  }

  for (const te of ['chunked, gzip', 'gzip', 'chunkedx', 'x-chunked']) {
    const wire = `HTTP/1.1 200 OK\r\nTransfer-Encoding: ${te}\r\n\r\n${body}`
    const open = parse(wire)
    t.same(open.messages, [], `${te}: not chunked, so read until close`)
    const closed = parse(wire, { eof: true })
    t.same(closed.messages.map((m) => [m.body, m.bytes, m.close]), [[body, wire.length, true]], te)
  }
  const twoFields = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n' + body
  t.same(parse(twoFields).messages.map((m) => m.body), ['abc'], 'the last field decides, as in a combined list')
})

// ---------------------------------------------------------------------------
// read until close

t.test('no Content-Length nor Transfer-Encoding: the body ends when the connection does', async (t) => {
  const wire = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nstreamed until close'
  const rec = recorder()
  const p = new ResponseParser(rec.handler)
  p.wantBody = true
  p.reset()
  p.execute(Buffer.from(wire))
  p.execute(Buffer.from(' and more'))
  p.execute(Buffer.from('HTTP/1.1 200 OK\r\n\r\n'))
  t.equal(rec.events.filter((e) => e.type === 'complete').length, 0, 'not complete while open, whatever arrives')
  t.equal(p.idle, false)
  p.finish()
  const s = summarize(rec.events)
  const all = wire + ' and more' + 'HTTP/1.1 200 OK\r\n\r\n'
  t.same(s.messages.map(({ status, body, bytes, close }) => ({ status, body, bytes, close })),
    [{ status: 200, body: 'streamed until close and moreHTTP/1.1 200 OK\r\n\r\n', bytes: all.length, close: true }])
  t.same(s.errors, [])
  const seen = rec.events.length
  p.finish()
  t.equal(rec.events.length, seen, 'a second finish() does nothing')
  t.equal(p.idle, true)
})

t.test('read until close: split anywhere, empty body, keep-alive header does not matter', async (t) => {
  const wire = 'HTTP/1.1 200 OK\r\nConnection: keep-alive\r\n\r\nuntil the end'
  const r = everySplit(t, wire, { eof: true })
  t.same(r.messages.map((m) => [m.status, m.body, m.bytes, m.close]), [[200, 'until the end', wire.length, true]])

  const empty = 'HTTP/1.1 200 OK\r\nX-A: b\r\n\r\n'
  const e = parse(empty, { eof: true })
  t.same(e.messages.map((m) => [m.status, m.body, m.bytes, m.close]), [[200, '', empty.length, true]])
  t.equal(e.events.filter((x) => x.type === 'body').length, 0)

  const http10 = 'HTTP/1.0 200 OK\r\n\r\nold style'
  t.same(parse(http10, { eof: true, cuts: [5, 20] }).messages.map((m) => [m.body, m.bytes, m.close]), [['old style', http10.length, true]])
})

t.test('finish() on a response cut short is an HPE_INCOMPLETE parse error', async (t) => {
  const cases = {
    'in the status line': 'HTTP/1.1 20',
    'in the headers': 'HTTP/1.1 200 OK\r\nContent-Len',
    'before the blank line': 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n',
    'in a Content-Length body': 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel',
    'in a chunk': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel',
    'before the last chunk': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n',
    'in the trailers': 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: y\r\n',
    'after an interim response': 'HTTP/1.1 100 Continue\r\n\r\n',
    'after a complete response': OK + 'H'
  }
  for (const [name, wire] of Object.entries(cases)) {
    const r = parse(wire, { eof: true })
    t.equal(r.thrown, null, name)
    t.same(r.errors.map((e) => [e.code, e.isParseError, e.name]), [['HPE_INCOMPLETE', true, 'ResponseParseError']], name)
    t.equal(r.errors[0].message, 'connection closed before the response was complete', name)
    t.same(r.messages.map((m) => m.body), wire.startsWith(OK) ? ['hello'] : [], name)
  }
  for (const wire of ['', OK, OK + '\r\n', '\r\n']) {
    const r = parse(wire, { eof: true })
    t.same(r.errors, [], `no error at EOF between responses: ${JSON.stringify(wire.slice(-4))}`)
  }
})

// ---------------------------------------------------------------------------
// responses without a body

t.test('HEAD: the handler returning true ends the response at its headers', async (t) => {
  const headRes = 'HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n'
  const chunkedHead = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'
  const closeHead = 'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n'
  const wire = headRes + OK + chunkedHead + closeHead + OK
  const r = everySplit(t, wire, { head: [true, false, true, true, false] })
  t.same(r.errors, [])
  t.same(r.messages.map((m) => [m.status, m.body, m.bytes, m.close]), [
    [200, '', headRes.length, false],
    [200, 'hello', OK.length, false],
    [200, '', chunkedHead.length, false],
    [200, '', closeHead.length, false],
    [200, 'hello', OK.length, false]
  ], 'Content-Length, chunked and close-delimited headers are ignored for HEAD')
  const noBodyEvents = parse(headRes, { head: true })
  t.equal(noBodyEvents.events.filter((e) => e.type === 'body').length, 0)
  t.equal(noBodyEvents.parser.idle, true, 'a HEAD response does not wait for the close')

  const falsy = parse(headRes.replace('1234', '2') + 'ab', { head: () => undefined })
  t.same(falsy.messages.map((m) => m.body), ['ab'], 'any other return value: the body is read')
})

t.test('204 and 304 have no body even with Content-Length or Transfer-Encoding', async (t) => {
  const parts = [
    'HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n',
    'HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n',
    'HTTP/1.1 304 Not Modified\r\nETag: "x"\r\n\r\n',
    'HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n',
    OK
  ]
  const r = everySplit(t, parts.join(''))
  t.same(r.errors, [])
  t.same(r.messages.map((m) => [m.status, m.body, m.bytes]), parts.map((p, k) => [Number(p.slice(9, 12)), k === 4 ? 'hello' : '', p.length]))
  t.same(r.messages.map((m) => m.close), [false, false, false, false, false])
})

t.test('101 Switching Protocols completes at its headers and closes', async (t) => {
  const wire = 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nContent-Length: 5\r\n\r\n'
  const r = parse(wire)
  t.same(r.messages.map((m) => [m.status, m.headerStatus, m.body, m.bytes, m.close]), [[101, 101, '', wire.length, true]])
})

t.test('interim 100 Continue and 103 Early Hints are skipped; the final response is counted once', async (t) => {
  const interim = 'HTTP/1.1 100 Continue\r\n\r\n'
  const hints = 'HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\nLink: </script.js>; rel=preload\r\n\r\n'
  const r = everySplit(t, interim + OK, { wantHeaders: true })
  t.equal(r.events.filter((e) => e.type === 'headers').length, 1, 'onHeadersComplete once')
  t.same(r.messages.map((m) => [m.status, m.headerStatus, m.body]), [[200, 200, 'hello']])
  t.same(r.messages[0].headers, ['Content-Length', '5', 'Content-Type', 'text/plain'], 'headers are the final response\'s')
  // The byte count is what the connection carried for this request, the
  // interim responses included.
  t.equal(r.messages[0].bytes, interim.length + OK.length)

  const all = interim + hints + interim + OK + hints + OK
  const r2 = everySplit(t, all, { wantHeaders: true })
  t.same(r2.messages.map((m) => [m.status, m.body]), [[200, 'hello'], [200, 'hello']])
  t.same(r2.messages.map((m) => m.bytes), [interim.length * 2 + hints.length + OK.length, hints.length + OK.length])
  t.equal(r2.messages[0].bytes + r2.messages[1].bytes, all.length, 'every byte counted once')

  const rec = recorder()
  const p = new ResponseParser(rec.handler)
  p.reset()
  p.execute(Buffer.from(hints))
  t.equal(p.idle, false, 'not idle after an interim response: the final one is due')
  t.equal(rec.events.length, 0, 'nothing reported for an interim response')
  p.execute(Buffer.from(OK))
  t.same(summarize(rec.events).messages.map((m) => [m.status, m.bytes]), [[200, hints.length + OK.length]])
  t.equal(p.idle, true)
})

t.test('interim responses with a Content-Length or chunked header have no body either', async (t) => {
  const interim = 'HTTP/1.1 100 Continue\r\nContent-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n'
  const r = parse(interim + OK)
  t.same(r.messages.map((m) => [m.status, m.body, m.bytes]), [[200, 'hello', interim.length + OK.length]])
})

// ---------------------------------------------------------------------------
// connection management

t.test('Connection: close sets shouldClose; other values do not', async (t) => {
  const cases = [
    ['Connection: close', true],
    ['Connection: Close', true],
    ['connection:close', true],
    ['CONNECTION: CLOSE', true],
    ['Connection: keep-alive, close', true],
    ['Connection: close, TE', true],
    ['Connection:  Upgrade ,close ', true],
    ['Connection: \tclose ', true],
    ['Connection: \tclose\t', false],
    ['Connection: close x', false],
    ['Connection: x close', false],
    ['Connection: keep-alive', false],
    ['Connection: closed', false],
    ['Connection: xclose', false],
    ['Connection: upgrade', false],
    ['Connection: ', false],
    ['X-Connection: close', false],
    ['Connections: close', false],
    ['Proxy-Connection: close', true],
    ['X-Note: Connection: close', false]
  ]
  for (const [line, close] of cases) {
    const wire = `HTTP/1.1 200 OK\r\n${line}\r\nContent-Length: 1\r\n\r\nx`
    const r = parse(wire)
    t.same(r.errors, [], line)
    t.same(r.messages.map((m) => [m.close, m.bytes]), [[close, wire.length]], line)
  }
  const both = 'HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'
  t.equal(parse(both).messages[0].close, true, 'close in any of several Connection fields')
})

t.test('HTTP/1.0: closes unless keep-alive; shouldClose is per response', async (t) => {
  const cases = [
    ['HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n', true],
    ['HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n', false],
    ['HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n', false],
    // As llhttp: in HTTP/1.0 keep-alive keeps it open, close or not.
    ['HTTP/1.0 200 OK\r\nConnection: keep-alive, close\r\nContent-Length: 0\r\n\r\n', false],
    ['HTTP/1.0 200 OK\r\nKeep-Alive: timeout=5\r\nContent-Length: 0\r\n\r\n', true],
    ['HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n', false],
    ['HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n', false]
  ]
  for (const [wire, close] of cases) {
    t.same(parse(wire).messages.map((m) => [m.close, m.bytes]), [[close, wire.length]], JSON.stringify(wire.split('\r\n').slice(0, 2)))
  }
  const stream = 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'
  for (const next of ['HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n', 'HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n']) {
    const r = parse('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n' + next + OK)
    t.same(r.messages.map((m) => m.close), [false, false, false], 'flags do not leak into the next response')
  }
  t.same(parse(stream).messages.map((m) => m.close), [true])
})

// ---------------------------------------------------------------------------
// wantHeaders

t.test('wantHeaders: every header as a flat [name, value, ...] list, names as sent', async (t) => {
  const wire = 'HTTP/1.1 200 OK\r\n' +
    'X-One: 1\r\n' +
    'content-length: 5\r\n' +
    'X-Spaced:   padded  value \t \r\n' +
    'Set-Cookie: a=b\r\n' +
    'Set-Cookie: c=d; Path=/\r\n' +
    'X-Empty:\r\n' +
    'X-Blank:    \r\n' +
    'X-Colon: a:b: c\r\n' +
    'X-Tab:\tv\tw\r\n' +
    'X-Latin1: caf\xe9 \xa0\r\n' +
    "!#$%&'*+-.^_`|~: token chars\r\n" +
    'Connection: Keep-Alive\r\n' +
    '\r\nhello'
  const r = everySplit(t, wire, { wantHeaders: true })
  t.same(r.errors, [])
  t.same(r.messages[0].headers, [
    'X-One', '1',
    'content-length', '5',
    'X-Spaced', 'padded  value',
    'Set-Cookie', 'a=b',
    'Set-Cookie', 'c=d; Path=/',
    'X-Empty', '',
    'X-Blank', '',
    'X-Colon', 'a:b: c',
    'X-Tab', 'v\tw',
    'X-Latin1', 'caf\xe9 \xa0',
    "!#$%&'*+-.^_`|~", 'token chars',
    'Connection', 'Keep-Alive'
  ], 'order, case and duplicates kept; only SP/HTAB trimmed around values; latin1 bytes kept')
  t.equal(r.messages[0].body, 'hello')
  t.equal(r.messages[0].bytes, wire.length)
})

t.test('wantHeaders: null when off, a fresh list per response, switched between responses', async (t) => {
  const off = parse(OK + OK)
  t.same(off.events.filter((e) => e.type === 'headers').map((e) => e.headers), [null, null])

  const lists = []
  const rec = recorder({ onHeaders: (status, headers) => lists.push(headers) })
  const p = new ResponseParser(rec.handler)
  p.wantHeaders = true
  p.reset()
  p.execute(Buffer.from(OK + 'HTTP/1.1 204 No Content\r\nX-B: 2\r\n\r\n'))
  t.same(lists, [['Content-Length', '5', 'Content-Type', 'text/plain'], ['X-B', '2']])
  t.not(lists[0], lists[1], 'not the same array')
  p.wantHeaders = false
  p.execute(Buffer.from(OK))
  t.equal(lists[2], null, 'turned off: null from the next response on')
  p.wantHeaders = true
  p.execute(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'))
  t.same(lists[3], ['Content-Length', '0'])
  t.same(summarize(rec.events).messages.map((m) => m.status), [200, 204, 200, 200])

  const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\nX-Trailer: t\r\n\r\n'
  t.same(parse(chunked, { wantHeaders: true }).messages[0].headers, ['Transfer-Encoding', 'chunked'], 'trailers are not headers')
})

t.test('wantHeaders: long names and values cut across many reads', async (t) => {
  const name = 'X-' + 'N'.repeat(3000)
  const value = 'v'.repeat(10000)
  const wire = `HTTP/1.1 200 OK\r\n${name}: ${value}\r\nContent-Length: 2\r\n\r\nok`
  const cuts = []
  for (let k = 7; k < wire.length; k += 97) cuts.push(k)
  const r = parse(wire, { wantHeaders: true, cuts })
  t.same(r.errors, [])
  t.same(r.messages[0].headers, [name, value, 'Content-Length', '2'])
  t.equal(r.messages[0].bytes, wire.length)
  // No limit on line length: without wantHeaders the long line is skipped.
  const quiet = parse(wire, { cuts })
  t.same(quiet.messages.map((m) => [m.body, m.bytes]), [['ok', wire.length]])
})

// ---------------------------------------------------------------------------
// malformed input

const BAD = [
  ['garbage status line', 'garbage\r\n\r\n', 'HPE_INVALID_CONSTANT'],
  ['lower-case protocol', 'http/1.1 200 OK\r\n\r\n', 'HPE_INVALID_CONSTANT'],
  ['wrong protocol', 'HTTX/1.1 200 OK\r\n\r\n', 'HPE_INVALID_CONSTANT'],
  ['HTTP/2', 'HTTP/2 200 OK\r\n\r\n', 'HPE_INVALID_CONSTANT'],
  ['HTTP/2.0', 'HTTP/2.0 200 OK\r\n\r\n', 'HPE_INVALID_CONSTANT'],
  ['leading space', ' HTTP/1.1 200 OK\r\n\r\n', 'HPE_INVALID_CONSTANT'],
  ['a body where a response should start', 'hello', 'HPE_INVALID_CONSTANT'],
  ['non-digit minor version', 'HTTP/1.x 200 OK\r\n\r\n', 'HPE_INVALID_VERSION'],
  ['two-digit minor version', 'HTTP/1.10 200 OK\r\n\r\n', 'HPE_INVALID_VERSION'],
  ['no space after the version', 'HTTP/1.1200 OK\r\n\r\n', 'HPE_INVALID_VERSION'],
  ['letter in the status', 'HTTP/1.1 2x0 OK\r\n\r\n', 'HPE_INVALID_STATUS'],
  ['four-digit status', 'HTTP/1.1 2000 OK\r\n\r\n', 'HPE_INVALID_STATUS'],
  ['two-digit status', 'HTTP/1.1 20 OK\r\n\r\n', 'HPE_INVALID_STATUS'],
  ['HTTP/1.2', 'HTTP/1.2 200 OK\r\n\r\n', 'HPE_INVALID_VERSION'],
  ['HTTP/1.9', 'HTTP/1.9 200 OK\r\n\r\n', 'HPE_INVALID_VERSION'],
  ['no dot after the major version', 'HTTP/1x1 200 OK\r\n\r\n', 'HPE_INVALID_VERSION'],
  ['CR inside the reason phrase', 'HTTP/1.1 200 O\rK\r\n\r\n', 'HPE_STRICT'],
  ['space at the start of the first header line', 'HTTP/1.1 200 OK\r\n Content-Length: 0\r\n\r\n', 'HPE_UNEXPECTED_SPACE'],
  ['tab after the status', 'HTTP/1.1 200\tOK\r\n\r\n', 'HPE_INVALID_STATUS'],
  ['CR without LF in the status line', 'HTTP/1.1 200\rX\r\n\r\n', 'HPE_STRICT'],
  ['header line without a colon (framing name)', 'HTTP/1.1 200 OK\r\nContent-Length\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
  ['space in a framing header name', 'HTTP/1.1 200 OK\r\nContent Length: 5\r\n\r\nhello', 'HPE_INVALID_HEADER_TOKEN'],
  ['space before the colon', 'HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\nhello', 'HPE_INVALID_HEADER_TOKEN'],
  ['header name starting with a separator', 'HTTP/1.1 200 OK\r\n(X): 1\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
  ['empty header name', 'HTTP/1.1 200 OK\r\n: value\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
  ['obsolete line folding', 'HTTP/1.1 200 OK\r\nX-A: 1\r\n  folded\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
  ['NUL in a Connection value', 'HTTP/1.1 200 OK\r\nConnection: cl\x00ose\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
  ['control character in a Transfer-Encoding value', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunk\x01ed\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
  ['CR without LF in a framing header', 'HTTP/1.1 200 OK\r\nConnection: close\rX: y\r\n\r\n', 'HPE_STRICT'],
  ['CR without LF after the headers', 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\rX', 'HPE_STRICT'],
  ['letters in Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\n', 'HPE_INVALID_CONTENT_LENGTH'],
  ['digits then letters in Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 5a\r\n\r\nhello', 'HPE_INVALID_CONTENT_LENGTH'],
  ['negative Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n', 'HPE_INVALID_CONTENT_LENGTH'],
  ['signed Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: +5\r\n\r\nhello', 'HPE_INVALID_CONTENT_LENGTH'],
  ['fractional Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 1.5\r\n\r\n', 'HPE_INVALID_CONTENT_LENGTH'],
  ['hex Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 0x10\r\n\r\n', 'HPE_INVALID_CONTENT_LENGTH'],
  ['two numbers in Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 5 5\r\n\r\nhello', 'HPE_INVALID_CONTENT_LENGTH'],
  ['a list in Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\nhello', 'HPE_INVALID_CONTENT_LENGTH'],
  ['empty Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n', 'HPE_INVALID_CONTENT_LENGTH'],
  ['blank Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length:   \r\n\r\n', 'HPE_INVALID_CONTENT_LENGTH'],
  ['Content-Length too large', 'HTTP/1.1 200 OK\r\nContent-Length: 9007199254740992\r\n\r\n', 'HPE_INVALID_CONTENT_LENGTH'],
  ['tab after the Content-Length digits', 'HTTP/1.1 200 OK\r\nContent-Length: 3\t\r\n\r\nabc', 'HPE_INVALID_CONTENT_LENGTH'],
  ['control character in Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 3\x01\r\n\r\nabc', 'HPE_INVALID_CONTENT_LENGTH'],
  ['an empty Content-Length folded onto the next line', 'HTTP/1.1 200 OK\r\nContent-Length:\r\n 3\r\n\r\nabc', 'HPE_INVALID_HEADER_TOKEN'],
  ['DEL in a Connection value', 'HTTP/1.1 200 OK\r\nConnection: cl\x7fose\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
  ['Content-Length and Transfer-Encoding', 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n', 'HPE_INVALID_TRANSFER_ENCODING'],
  ['Transfer-Encoding and Content-Length', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n', 'HPE_INVALID_CONTENT_LENGTH'],
  ['conflicting Content-Length', 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 3\r\n\r\nhello', 'HPE_UNEXPECTED_CONTENT_LENGTH'],
  ['the same Content-Length twice', 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello', 'HPE_UNEXPECTED_CONTENT_LENGTH'],
  ['conflicting Content-Length, the second 0 and in lower case', 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-length: 0\r\n\r\nhello', 'HPE_UNEXPECTED_CONTENT_LENGTH'],
  ['letters as a chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 'HPE_INVALID_CHUNK_SIZE'],
  ['negative chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n', 'HPE_INVALID_CHUNK_SIZE'],
  ['chunk size followed by junk', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5x\r\nhello\r\n0\r\n\r\n', 'HPE_INVALID_CHUNK_SIZE'],
  ['an extension without a size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n;ext\r\n', 'HPE_INVALID_CHUNK_SIZE'],
  ['empty chunk size line', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\r\n', 'HPE_INVALID_CHUNK_SIZE'],
  ['0x prefix on a chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0x5\r\nhello\r\n', 'HPE_INVALID_CHUNK_SIZE'],
  ['chunk size too large', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n20000000000000\r\n', 'HPE_INVALID_CHUNK_SIZE'],
  ['space after a chunk extension\'s ;', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1; a\r\nx\r\n0\r\n\r\n', 'HPE_STRICT'],
  ['chunk extension name with a separator', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;a b\r\nx\r\n0\r\n\r\n', 'HPE_STRICT'],
  ['chunk extension value with a space', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;a=b c\r\nx\r\n0\r\n\r\n', 'HPE_STRICT'],
  ['unterminated quoted chunk extension', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;a="b\r\nx\r\n0\r\n\r\n', 'HPE_STRICT'],
  ['bad quoted-pair in a chunk extension', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;a="\\\x01"\r\nx\r\n0\r\n\r\n', 'HPE_STRICT'],
  ['line end right after a chunk extension\'s ;', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;\r\nx\r\n0\r\n\r\n', 'HPE_STRICT'],
  // Found by fuzz/: a bare LF there was taken as an empty extension name,
  // where the CRLF it stands for is an error.
  ['bare LF right after a chunk extension\'s ;', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;\nx\r\n0\r\n\r\n', 'HPE_STRICT'],
  ['CR inside a chunk extension', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;a\rb\r\nx\r\n0\r\n\r\n', 'HPE_STRICT'],
  ['a trailer line without a colon', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nContent-Length\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
  ['obsolete line folding in the trailers', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nX: 1\r\n 2\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
  ['Content-Length in the trailers', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nContent-Length: 1\r\n\r\n', 'HPE_INVALID_CONTENT_LENGTH'],
  ['CR without LF after a chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\rhello', 'HPE_STRICT'],
  ['chunk longer than its size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhello\r\n0\r\n\r\n', 'HPE_STRICT'],
  ['CR without LF after chunk data', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\rX', 'HPE_STRICT'],
  ['CR without LF after the trailers', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\rX', 'HPE_STRICT']
]

t.test('malformed input: onParseError with a ResponseParseError, nothing thrown, split anywhere', async (t) => {
  for (const [name, wire, code] of BAD) {
    t.test(name, async (t) => {
      const r = everySplit(t, wire, { wantHeaders: false })
      t.same(r.errors.map((e) => [e.code, e.name, e.isParseError]), [[code, 'ResponseParseError', true]], 'one error, with its code')
      t.type(r.errors[0].message, 'string')
      t.ok(r.errors[0].message.length > 0, 'with a message')
      t.same(r.messages, [], 'no response reported')
      const withHeaders = parse(wire, { wantHeaders: true })
      t.same(withHeaders.errors.map((e) => e.code), [code], 'the same with wantHeaders')
    })
  }
})

t.test('malformed input: the error messages', async (t) => {
  const msg = (wire) => parse(wire).errors.map((e) => e.message)[0]
  t.equal(msg('xyz'), 'expected "HTTP/1." at the start of a response')
  t.equal(msg('HTTP/1.x 200'), 'invalid HTTP version')
  t.equal(msg('HTTP/1.1 2x0'), 'invalid status code')
  t.equal(msg('HTTP/1.1 200 OK\r\nContent-Length: x\r\n'), 'invalid content-length')
  t.equal(msg('HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n'), 'empty content-length')
  t.equal(msg('HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999\r\n'), 'content-length is too large')
  t.equal(msg('HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n'), 'duplicate content-length')
  t.equal(msg('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nq'), 'invalid chunk size')
  t.equal(msg('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n' + 'f'.repeat(14)), 'chunk size is too large')
  t.equal(msg('HTTP/1.1 200 OK\r\nX y\r\n'), undefined, 'not an error without wantHeaders (see below)')
  t.equal(msg('HTTP/1.1 200 OK\r\nConnection y\r\n'), 'invalid character in a header name')
  t.equal(msg('HTTP/1.1 200 OK\r\nConnection: \x00\r\n'), 'invalid character in a header value')
})

t.test('malformed input: the parser ignores everything until reset(), then works again', async (t) => {
  for (const [name, wire] of BAD) {
    const rec = recorder()
    const p = new ResponseParser(rec.handler)
    p.wantBody = true
    p.reset()
    let thrown = null
    try {
      p.execute(Buffer.from(wire, 'latin1'))
      p.execute(Buffer.from(OK))
      p.execute(Buffer.from(OK), 0, OK.length)
      p.finish()
    } catch (err) {
      thrown = err
    }
    t.equal(thrown, null, `${name}: nothing thrown`)
    t.same(rec.problems, [], `${name}: no call after the error`)
    // Chunk errors come after the headers (and maybe some body) were reported.
    const types = rec.events.map((e) => e.type)
    t.equal(types.filter((x) => x === 'error').length, 1, `${name}: one error`)
    t.equal(types[types.length - 1], 'error', `${name}: the error is the last thing reported`)
    t.notOk(types.includes('complete'), `${name}: no response completes`)
    if (!/Transfer-Encoding: chunked/.test(wire)) t.same(types, ['error'], `${name}: only the error reported`)
    t.ok(rec.events[rec.events.length - 1].err instanceof ResponseParseError)

    p.reset()
    rec.revive()
    t.equal(p.idle, true, `${name}: idle after reset()`)
    const next = 'HTTP/1.1 201 Created\r\nContent-Length: 3\r\n\r\nabc'
    p.execute(Buffer.from(next + OK))
    const s = summarize(rec.events)
    t.same(s.messages.map((m) => [m.status, m.body, m.bytes, m.close]), [[201, 'abc', next.length, false], [200, 'hello', OK.length, false]],
      `${name}: parses again after reset(), with fresh byte counts and flags`)
  }
})

t.test('malformed input after good responses: those are reported, then the error', async (t) => {
  const close = 'HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx'
  const r = everySplit(t, OK + close + 'HTTP/1.1 200 OK\r\nContent-Length: nope\r\n\r\n' + OK)
  t.same(r.messages.map((m) => [m.status, m.body, m.bytes, m.close]), [[200, 'hello', OK.length, false], [200, 'x', close.length, false]])
  t.same(r.errors.map((e) => e.code), ['HPE_INVALID_CONTENT_LENGTH'])

  const trailing = parse(OK + 'HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort' + 'garbage')
  t.same(trailing.messages.map((m) => m.body), ['hello', 'shortgarba'], 'bytes up to the length are body')
  t.same(trailing.errors.map((e) => e.code), ['HPE_INVALID_CONSTANT'], 'the rest is not a response')
})

t.test('reset() mid-response drops it; abort() ignores the rest of the input', async (t) => {
  const rec = recorder()
  const p = new ResponseParser(rec.handler)
  p.wantBody = true
  p.reset()
  p.execute(Buffer.from('HTTP/1.1 200 OK\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel'))
  p.reset()
  rec.revive()
  p.execute(Buffer.from(OK))
  const s = summarize(rec.events)
  t.same(s.messages.map((m) => [m.status, m.body, m.bytes, m.close]), [[200, 'hello', OK.length, false]],
    'the next response parses with its own length and flags')

  const rec2 = recorder()
  const p2 = new ResponseParser(rec2.handler)
  p2.reset()
  p2.execute(Buffer.from('HTTP/1.1 200 OK\r\nContent-Len'))
  p2.abort()
  p2.execute(Buffer.from('gth: 5\r\n\r\nhello' + OK))
  p2.finish()
  t.same(rec2.events.map((e) => e.type), ['headers'].slice(0, 0), 'nothing at all after abort(), not even an error at finish()')
  p2.reset()
  p2.execute(Buffer.from(OK))
  t.same(summarize(rec2.events).messages.map((m) => m.bytes), [OK.length], 'reset() after abort() revives it')
})

t.test('a handler may abort() from onMessageComplete or onHeadersComplete', async (t) => {
  let n = 0
  const parserRef = {}
  const r1 = recorder({ onComplete: () => { if (++n === 1) parserRef.p.abort() } })
  parserRef.p = new ResponseParser(r1.handler)
  parserRef.p.reset()
  parserRef.p.execute(Buffer.from(OK + OK + OK))
  t.same(summarize(r1.events).messages.map((m) => m.bytes), [OK.length], 'the pipelined rest is not parsed')
  t.same(summarize(r1.events).errors, [])

  const ref2 = {}
  const r2 = recorder({ onHeaders: () => ref2.p.abort(), head: true })
  ref2.p = new ResponseParser(r2.handler)
  ref2.p.reset()
  ref2.p.execute(Buffer.from(OK + OK))
  t.same(r2.events.map((e) => e.type), ['headers'], 'aborting in onHeadersComplete stops before completion')
})

t.test('a handler may reset() from onMessageComplete and parsing goes on', async (t) => {
  const ref = {}
  const r = recorder({ onComplete: () => ref.p.reset() })
  ref.p = new ResponseParser(r.handler)
  ref.p.wantBody = true
  ref.p.reset()
  ref.p.execute(Buffer.from(OK + 'HTTP/1.1 202 Accepted\r\nContent-Length: 2\r\n\r\nok'))
  t.same(summarize(r.events).messages.map((m) => [m.status, m.body]), [[200, 'hello'], [202, 'ok']])
})

t.test('leniencies of the header fast path (wantHeaders off)', async (t) => {
  // Without wantHeaders, a header that does not frame the message is
  // skipped unread from its first non-matching name byte on, so a line
  // with no colon or odd bytes in a name or value passes; with wantHeaders
  // the same line is an error.
  const wire = 'HTTP/1.1 200 OK\r\nX-Weird line without colon\r\nX(odd: v\x01\r\nContent-Length: 2\r\n\r\nok'
  const quiet = parse(wire)
  t.same(quiet.errors, [])
  t.same(quiet.messages.map((m) => [m.body, m.bytes]), [['ok', wire.length]])
  t.same(parse(wire, { wantHeaders: true }).errors.map((e) => e.code), ['HPE_INVALID_HEADER_TOKEN'])
  t.same(parse('HTTP/1.1 200 OK\r\nX-A: \x00\r\n\r\n', { wantHeaders: true }).errors.map((e) => e.code), ['HPE_INVALID_HEADER_TOKEN'],
    'control characters in any value are rejected with wantHeaders')
})

t.test('execute() honours start and end within a larger buffer', async (t) => {
  const wire = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=a\r\nabc\r\n0\r\nT: 1\r\n\r\n'
  // Cut inside the extension and the trailer: the line feed after `end`
  // in the big buffer must not be taken for theirs.
  const cuts = [wire.indexOf(';ext') + 2, wire.indexOf('T: 1') + 2]
  const r = parseInRanges(wire + OK, cuts)
  t.same(r.problems, [])
  t.same(r.messages.map((m) => [m.status, m.body, m.bytes]), [[200, 'abc', wire.length], [200, 'hello', OK.length]])
  t.same(r.errors, [])

  const rec = recorder()
  const p = new ResponseParser(rec.handler)
  p.wantBody = true
  p.reset()
  const buf = Buffer.from('xx' + OK + 'yy')
  p.execute(buf, 2, 2 + OK.length)
  p.execute(buf, 5, 5)
  t.same(summarize(rec.events).messages.map((m) => [m.body, m.bytes]), [['hello', OK.length]], 'an empty range does nothing')
})

t.test('byte counts add up to the stream for every kind of framing', async (t) => {
  const parts = [
    'HTTP/1.1 100 Continue\r\n\r\n' + OK,
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1a\r\n' + 'q'.repeat(26) + '\r\n0\r\nX: y\r\n\r\n',
    'HTTP/1.1 304 Not Modified\r\nContent-Length: 100\r\n\r\n',
    'HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n',
    'HTTP/1.0 200 OK\r\nX-A: b\r\n\r\nclose-delimited tail'
  ]
  const all = parts.join('')
  const r = everySplit(t, all, { eof: true, wantHeaders: true })
  t.same(r.errors, [])
  t.same(r.messages.map((m) => m.bytes), parts.map((p) => p.length))
  t.equal(r.messages.reduce((a, m) => a + m.bytes, 0), all.length)
  t.same(r.messages.map((m) => m.close), [false, false, false, false, true])
})

// ---------------------------------------------------------------------------
// Where fuzz/ (our parser against Node's own, llhttp) found us disagreeing;
// each now answers as llhttp does.

t.test('after a response that closes the connection, only line ends may follow (HPE_CLOSED_CONNECTION)', async (t) => {
  // We used to parse on, and count the responses a server sent after
  // saying Connection: close.
  const closing = [
    'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx',
    'HTTP/1.1 200 OK\r\nProxy-Connection: close\r\nContent-Length: 1\r\n\r\nx',
    'HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nConnection: close\r\n\r\n',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nTransfer-Encoding: gzip\r\n\r\n'
  ]
  for (const wire of closing) {
    const r = everySplit(t, wire + '\r\n\n' + OK)
    t.same(r.messages.map((m) => [m.body, m.close]), [['x', true]], JSON.stringify(wire))
    t.same(r.errors.map((e) => [e.code, e.message]), [['HPE_CLOSED_CONNECTION', 'data after a response that closed the connection']])
    const clean = parse(wire + '\r\n', { eof: true })
    t.same([clean.messages.length, clean.errors], [1, []], 'line ends and then EOF are fine')
    t.equal(clean.parser.idle, true)
  }
  // An interim response can close the connection too; its final response
  // then never comes.
  const interim = 'HTTP/1.1 100 Continue\r\nConnection: close\r\n\r\n'
  t.same(parse(interim + OK).errors.map((e) => e.code), ['HPE_CLOSED_CONNECTION'])
  t.same(parse(interim, { eof: true }).errors.map((e) => e.code), ['HPE_INCOMPLETE'])
  t.same(parse('HTTP/1.0 103 Early Hints\r\n\r\n' + OK).errors.map((e) => e.code), ['HPE_CLOSED_CONNECTION'])
})

t.test('101 Switching Protocols: what follows is another protocol and is ignored', async (t) => {
  const wire = 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'
  const r = everySplit(t, wire + '\x81\x05hello' + OK, { eof: true })
  t.same(r.messages.map((m) => [m.status, m.bytes, m.close]), [[101, wire.length, true]])
  t.same(r.errors, [])
})

t.test('Transfer-Encoding and Connection values of any length are read whole', async (t) => {
  // Values were kept to 256 bytes, so a token past that went unseen.
  const long = 'x'.repeat(300)
  const chunked = `HTTP/1.1 200 OK\r\nTransfer-Encoding: ${long}, chunked\r\n\r\n1\r\na\r\n0\r\n\r\n`
  t.same(everySplit(t, chunked + OK).messages.map((m) => [m.body, m.bytes]), [['a', chunked.length], ['hello', OK.length]])
  const close = `HTTP/1.1 200 OK\r\nConnection: keep-alive,${' '.repeat(300)}close\r\nContent-Length: 0\r\n\r\n`
  t.same(everySplit(t, close).messages.map((m) => m.close), [true])
})

t.test('Transfer-Encoding is read token by token, as llhttp reads it', async (t) => {
  const body = '1\r\na\r\n0\r\n\r\n'
  const cases = [
    ['chunked ', true],
    ['chunked\t', false], // only spaces may follow the last coding
    ['gzip\t,chunked', true],
    ['gzip ,\tchunked', true],
    ['chunked , gzip', false],
    ['x chunked', false],
    ['chunked,', false],
    [',chunked', true]
  ]
  for (const [value, isChunked] of cases) {
    const wire = `HTTP/1.1 200 OK\r\nTransfer-Encoding: ${value}\r\n\r\n${body}`
    const r = parse(wire, { eof: true })
    t.same(r.messages.map((m) => m.body), [isChunked ? 'a' : body], JSON.stringify(value))
  }
  // An empty field changes nothing (it used to undo an earlier chunked).
  const empty = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: \r\n\r\n' + body
  t.same(parse(empty).messages.map((m) => m.body), ['a'])
})

t.test('an empty Connection field does not reuse the previous one\'s token', async (t) => {
  // Found by fuzz/: the Connection token machine was reset only when a
  // value began, so an empty field re-read the previous field's last token
  // (keep-alive kept an HTTP/1.0 connection open, close closed an HTTP/1.1 one).
  const keepAlive = 'HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n'
  const http10 = 'HTTP/1.0 200 OK\r\nConnection:\r\nContent-Length: 0\r\n\r\n'
  t.same(everySplit(t, keepAlive + http10).messages.map((m) => m.close), [false, true])
  const close = 'HTTP/1.1 200 OK\r\nConnection: close\r\nConnection: \r\nContent-Length: 0\r\n\r\n'
  t.same(parse(close).messages.map((m) => m.close), [true], 'a token already taken stays')
  const p = recorder()
  const parser = new ResponseParser(p.handler)
  parser.reset()
  parser.execute(Buffer.from('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'))
  parser.reset()
  p.revive()
  parser.execute(Buffer.from('HTTP/1.1 200 OK\r\nConnection:\r\nContent-Length: 0\r\n\r\n'))
  t.same(summarize(p.events).messages.map((m) => m.close), [true, false], 'nor after reset()')
})

t.test('status codes 000 to 099 are accepted, as llhttp accepts them', async (t) => {
  for (const code of ['000', '001', '099']) {
    const wire = `HTTP/1.1 ${code} Odd\r\nContent-Length: 1\r\n\r\nx`
    t.same(everySplit(t, wire).messages.map((m) => [m.status, m.body]), [[Number(code), 'x']])
  }
})

t.test('a status line may end in CR CR (llhttp 9.3 takes the second CR for the LF)', async (t) => {
  const wire = 'HTTP/1.1 200 OK\r\rContent-Length: 1\r\n\r\nx'
  t.same(everySplit(t, wire).messages.map((m) => [m.status, m.body, m.bytes]), [[200, 'x', wire.length]])
})

t.test('leading zeros do not count towards the length limits', async (t) => {
  // A limit on digits (15 for Content-Length, 12 for chunk sizes) refused these.
  const cl = 'HTTP/1.1 200 OK\r\nContent-Length: 0000000000000000000000001\r\n\r\nx'
  t.same(everySplit(t, cl).messages.map((m) => m.body), ['x'])
  const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n00000000000000000000001\r\nx\r\n0\r\n\r\n'
  t.same(everySplit(t, chunked).messages.map((m) => m.body), ['x'])
  // Up to 2^53 - 1 is taken (the body would never end here); past it is an error.
  t.same(parse('HTTP/1.1 200 OK\r\nContent-Length: 9007199254740991\r\n\r\n').errors, [])
  t.same(parse('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1fffffffffffff\r\n').errors, [])
})

t.test('chunk extensions: checked as llhttp checks them, at most 16384 bytes of names and values per chunk', async (t) => {
  const good = [';a', ';a=b', ';a=b;c', ';a="quoted string"', ';a="esc\\"aped\\\\"', ';=v', ';;x', ';a=', ';a=b"c"', ';a="\t\x80"', ' ;a', '\t\t;a=b']
  for (const ext of good) {
    const wire = `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1${ext}\r\nx\r\n0${ext}\r\n\r\n`
    const r = everySplit(t, wire)
    t.same([r.messages.map((m) => m.body), r.errors], [['x'], []], JSON.stringify(ext))
  }
  // Node (kMaxChunkExtensionsSize) counts the names and values, quotes
  // included, not the ';' and '='; more than 16384 is an error.
  const sized = (ext) => `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1${ext}\r\nx\r\n0\r\n\r\n`
  const codes = (wire) => parse(wire).errors.map((e) => e.code)
  t.same(codes(sized(';' + 'a'.repeat(16384))), [])
  t.same(codes(sized(';' + 'a'.repeat(16385))), ['HPE_CHUNK_EXTENSIONS_OVERFLOW'])
  t.same(codes(sized(';a=' + 'b'.repeat(16383))), [])
  t.same(codes(sized(';a=' + 'b'.repeat(16384))), ['HPE_CHUNK_EXTENSIONS_OVERFLOW'])
  t.same(codes(sized(';a="' + 'b'.repeat(16381) + '"')), [])
  t.same(codes(sized(';a="' + 'b'.repeat(16382) + '"')), ['HPE_CHUNK_EXTENSIONS_OVERFLOW'])
  // Per chunk, not per response.
  const twice = `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;${'a'.repeat(9000)}\r\nx\r\n1;${'a'.repeat(9000)}\r\ny\r\n0\r\n\r\n`
  t.same(parse(twice).messages.map((m) => m.body), ['xy'])
  // Endless extension bytes are stopped, one byte at a time too.
  const endless = parse(sized(';' + 'a'.repeat(20000)), { cuts: 'bytes' })
  t.same(endless.errors.map((e) => e.code), ['HPE_CHUNK_EXTENSIONS_OVERFLOW'])
})

t.test('trailers are header lines: checked, framing ones honoured, never delivered', async (t) => {
  const head = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n1\r\nx\r\n0\r\n'
  const ok = everySplit(t, head + 'X-Trailer: yes\r\nConnection: keep-alive\r\n\r\n' + OK, { wantHeaders: true })
  t.same(ok.messages.map((m) => [m.body, m.close]), [['x', false], ['hello', false]])
  t.same(ok.messages[0].headers, ['Transfer-Encoding', 'chunked', 'X-A', '1'], 'the trailers are not added to the headers')
  // Without wantHeaders a trailer line is skipped as a header line is.
  t.same(parse(head + 'X y\r\n\r\n').errors, [])
  t.same(parse(head + 'X y\r\n\r\n', { wantHeaders: true }).errors.map((e) => e.code), ['HPE_INVALID_HEADER_TOKEN'])
})

t.test('Content-Length with Transfer-Encoding is accepted on 1xx, 204 and 304 (no body, nothing to mistake)', async (t) => {
  const parts = [
    'HTTP/1.1 100 Continue\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n',
    'HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n',
    'HTTP/1.1 304 Not Modified\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n'
  ]
  const r = everySplit(t, parts.join('') + OK)
  t.same(r.messages.map((m) => m.status), [204, 304, 200])
  t.same(r.errors, [])
  // A 101 or a HEAD answer may not: that is decided before the handler is asked.
  t.same(parse('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n', { head: true }).errors.map((e) => e.code), ['HPE_INVALID_TRANSFER_ENCODING'])
})

// ---------------------------------------------------------------------------
// The head limit

t.test('head limit: maxHeaderSize bytes of status line and header lines, 16384 by default', async (t) => {
  const p = new ResponseParser(recorder().handler)
  t.equal(p.maxHeaderSize, 16384)
  // The head is everything from the status line to the blank line, line
  // ends included: exactly maxHeaderSize bytes pass, one more fails.
  const headOf = (size) => {
    const start = 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nX-Pad: '
    return start + 'p'.repeat(size - start.length - 4) + '\r\n\r\n'
  }
  for (const wantHeaders of [false, true]) {
    for (const max of [100, 1000, 16384]) {
      // Cut everywhere where that is quick; in socket-sized reads otherwise.
      const check = max > 1000 ? (wire, opts) => parse(wire, { ...opts, cuts: [4096, 8192, 12288, 16383, 16384] }) : (wire, opts) => everySplit(t, wire, opts)
      const fits = headOf(max)
      t.equal(fits.length, max)
      const a = check(fits + 'x' + OK, { wantHeaders, maxHeaderSize: max })
      t.same([a.messages.map((m) => m.body), a.errors], [['x', 'hello'], []], `${max} bytes, wantHeaders ${wantHeaders}`)
      const b = check(headOf(max + 1) + 'x' + OK, { wantHeaders, maxHeaderSize: max })
      t.same([b.messages, b.errors.map((e) => [e.code, e.message])], [[], [['HPE_HEADER_OVERFLOW', `response head larger than ${max} bytes`]]], `${max + 1} bytes, wantHeaders ${wantHeaders}`)
    }
  }
})

t.test('head limit: each head apart (interim responses, pipelined responses), trailers on their own', async (t) => {
  const opts = { maxHeaderSize: 64 }
  const interim = 'HTTP/1.1 100 Continue ' + 'c'.repeat(64 - 26) + '\r\n\r\n'
  t.equal(interim.length, 64)
  const short = 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx'
  const r = everySplit(t, interim + short + short + interim + short, opts)
  t.same([r.messages.length, r.errors], [3, []], 'heads of 64 bytes each, one after the other')
  const trailers = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n'
  const fits = 'T: ' + 't'.repeat(64 - 7) + '\r\n\r\n'
  t.equal(fits.length, 64)
  t.same(everySplit(t, trailers + fits + short, opts).errors, [], 'trailers of 64 bytes')
  t.same(parse(trailers + 'T: t' + fits.slice(3)).errors, [], 'the default is far off')
  t.same(everySplit(t, trailers + 'T: t' + fits.slice(3), opts).errors.map((e) => [e.code, e.message]), [['HPE_HEADER_OVERFLOW', 'trailers larger than 64 bytes']])
})

t.test('head limit: endless headers are stopped within the read that passes it, on the fast path too', async (t) => {
  for (const wantHeaders of [false, true]) {
    const rec = recorder()
    const p = new ResponseParser(rec.handler)
    p.wantHeaders = wantHeaders
    p.reset()
    p.execute(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 1\r\n'))
    const line = Buffer.from('X-Endless: ' + 'e'.repeat(1000) + '\r\n')
    let reads = 0
    while (rec.events.length === 0 && reads < 100) {
      p.execute(line)
      reads++
    }
    t.equal(reads, 17, `wantHeaders ${wantHeaders}: 36 + 17 reads of 1013 bytes pass 16384`)
    t.same(summarize(rec.events).errors.map((e) => e.code), ['HPE_HEADER_OVERFLOW'])
    // One endless line, fed in pieces, is stopped the same way.
    const rec2 = recorder()
    const p2 = new ResponseParser(rec2.handler)
    p2.wantHeaders = wantHeaders
    p2.reset()
    p2.execute(Buffer.from('HTTP/1.1 200 OK\r\nX-One-Line: '))
    const piece = Buffer.alloc(4096, 0x61)
    reads = 0
    while (rec2.events.length === 0 && reads < 100) {
      p2.execute(piece)
      reads++
    }
    t.equal(reads, 4, `wantHeaders ${wantHeaders}: one line without end, stopped at the 4th read of 4096`)
  }
})

t.test('head limit: the error does not depend on where reads end', async (t) => {
  // An oversized head with a bad byte further on: the limit wins once the
  // head has passed it before that byte, however the input was cut.
  const wire = 'HTTP/1.1 200 ' + 'R'.repeat(80) + '\r\nContent-Length: 3\t\r\n\r\nabc'
  const r = everySplit(t, wire, { maxHeaderSize: 64 })
  t.same(r.errors.map((e) => e.code), ['HPE_HEADER_OVERFLOW'])
  const r2 = everySplit(t, wire, { maxHeaderSize: 200 })
  t.same(r2.errors.map((e) => e.code), ['HPE_INVALID_CONTENT_LENGTH'])
})

// The head cache: a head equal byte for byte to the last one read whole is
// not parsed again; its framing comes from the copy.
const NGINX_HEAD = 'HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Wed, 25 Nov 2026 11:58:39 GMT\r\n' +
  'Content-Type: text/plain\r\nContent-Length: 14\r\nConnection: keep-alive\r\n\r\n'

function parseAll (wire, { wantHeaders = false, head, wantBody = true } = {}) {
  const rec = recorder({ head })
  const p = new ResponseParser(rec.handler)
  p.wantHeaders = wantHeaders
  p.wantBody = wantBody
  p.reset()
  p.execute(toBuf(wire))
  return { p, rec, r: summarize(rec.events) }
}

t.test('head cache: repeated heads frame each response as a full parse would', async (t) => {
  const one = NGINX_HEAD + 'Hello, world!\n'
  const { p, rec, r } = parseAll(one.repeat(10))
  t.same(rec.problems, [])
  t.equal(r.messages.length, 10)
  for (const m of r.messages) {
    t.equal(m.status, 200)
    t.equal(m.body.toString(), 'Hello, world!\n')
    t.equal(m.bytes, one.length)
  }
  t.equal(p.lastHeadLen, NGINX_HEAD.length, 'the head is kept')
  t.equal(p.lastHeadMisses, 0)
})

t.test('head cache: one byte changed in a framing field is a miss and is framed by its own value', async (t) => {
  const a = NGINX_HEAD + 'Hello, world!\n'
  // Same length, another Content-Length.
  const b = NGINX_HEAD.replace('Content-Length: 14', 'Content-Length: 15') + 'Hello, world!!\n'
  const c = NGINX_HEAD.replace('HTTP/1.1 200', 'HTTP/1.1 503') + 'Hello, world!\n'
  const { rec, r } = parseAll(a + b + a + c + a)
  t.same(rec.problems, [])
  t.same(r.messages.map((m) => [m.status, m.body.toString()]), [
    [200, 'Hello, world!\n'], [200, 'Hello, world!!\n'], [200, 'Hello, world!\n'], [503, 'Hello, world!\n'], [200, 'Hello, world!\n']
  ])
  t.same(r.errors, [])
})

t.test('head cache: a HEAD answer is asked for each time, not taken from the copy', async (t) => {
  const full = NGINX_HEAD + 'Hello, world!\n'
  const { rec, r } = parseAll(full + NGINX_HEAD + full, { head: [false, true, false] })
  t.same(rec.problems, [])
  t.same(r.messages.map((m) => m.body.toString()), ['Hello, world!\n', '', 'Hello, world!\n'])
  t.same(r.messages.map((m) => m.bytes), [full.length, NGINX_HEAD.length, full.length])
})

t.test('head cache: a head cut across reads is parsed, and the cache is used again after it', async (t) => {
  const one = NGINX_HEAD + 'Hello, world!\n'
  const rec = recorder()
  const p = new ResponseParser(rec.handler)
  p.reset()
  const wire = toBuf(one.repeat(4))
  const cut = one.length + 30
  p.execute(wire, 0, cut)
  p.execute(wire, cut, wire.length)
  const r = summarize(rec.events)
  t.same(rec.problems, [])
  t.same(r.messages.map((m) => m.bytes), [one.length, one.length, one.length, one.length])
})

t.test('head cache: a head differing in any one byte, at any alignment, is a miss', async (t) => {
  const a = NGINX_HEAD + 'Hello, world!\n'
  const swap = (c) => /[0-9]/.test(c) ? String((Number(c) + 1) % 10) : /[a-z]/i.test(c) ? (c === 'x' ? 'y' : 'x') : null
  let checked = 0
  for (let k = 0; k < NGINX_HEAD.length; k++) {
    const other = swap(NGINX_HEAD[k])
    if (other === null) continue
    const b = NGINX_HEAD.slice(0, k) + other + NGINX_HEAD.slice(k + 1) + 'Hello, world!\n'
    // Line ends before a response are skipped: they move the heads in
    // the buffer against the 4-byte words compared.
    const shift = '\n'.repeat(k % 4)
    // One buffer, as a plain socket reads into one: the second A is
    // compared through Buffer#compare, B through the buffer's DataView.
    const { p, r } = parseAll(shift + a + a + b + a)
    t.ok(p.lastHeadMisses >= 1 || r.errors.length > 0, `byte ${k} ('${NGINX_HEAD[k]}' → '${other}') is not taken for the kept head`)
    checked++
  }
  t.ok(checked > 100)
  // Its last bytes, past the last whole word: heads of each length mod 4,
  // and a B whose head goes on where A's ends (with a second
  // Content-Length: an error once parsed).
  for (let pad = 0; pad < 4; pad++) {
    const head = NGINX_HEAD.replace('nginx/1.22.1', 'nginx/1.22.1' + 'x'.repeat(pad))
    const b = head.slice(0, -2) + 'Content-Length: 14\r\n\r\n' + 'Hello, world!\n'
    const { r } = parseAll(head + 'Hello, world!\n' + head + 'Hello, world!\n' + b)
    t.same(r.errors.map((e) => e.code), ['HPE_UNEXPECTED_CONTENT_LENGTH'], `head of ${head.length} bytes: B is parsed, not taken for A`)
  }
  const same = parseAll(a + a + a + a)
  t.equal(same.p.lastHeadMisses, 0, 'the same head is a hit every time')
  t.equal(same.r.messages.length, 4)
})

t.test('head cache: kept across a new connection, the close it announced included', async (t) => {
  const closing = NGINX_HEAD.replace('keep-alive', 'close     ') + 'Hello, world!\n'
  const rec = recorder()
  const p = new ResponseParser(rec.handler)
  p.reset()
  p.execute(toBuf(closing))
  p.reset()
  p.execute(toBuf(closing))
  const r = summarize(rec.events)
  t.same(r.messages.map((m) => m.close), [true, true], 'the copy says the connection closes')
  t.equal(p.lastHeadLen, NGINX_HEAD.length)
})

t.test('head cache: heads that differ every time turn it off', async (t) => {
  let wire = ''
  for (let k = 0; k < 12; k++) wire += NGINX_HEAD.replace('11:58:39', `11:58:${String(k).padStart(2, '0')}`) + 'Hello, world!\n'
  const { p, r } = parseAll(wire)
  t.equal(r.messages.length, 12)
  t.equal(p.lastHeadLen, 0, 'no head kept after 8 misses in a row')
  // One change a second (a Date line) does not: a hit resets the count.
  let steady = ''
  for (let k = 0; k < 12; k++) steady += (NGINX_HEAD.replace('11:58:39', `11:58:${String(k).padStart(2, '0')}`) + 'Hello, world!\n').repeat(3)
  const s = parseAll(steady)
  t.equal(s.r.messages.length, 36)
  t.equal(s.p.lastHeadLen, NGINX_HEAD.length)
})

t.test('head cache: with wantHeaders on, every response gets its own header list', async (t) => {
  const one = NGINX_HEAD + 'Hello, world!\n'
  const { r } = parseAll(one.repeat(3), { wantHeaders: true })
  t.equal(r.messages.length, 3)
  for (const m of r.messages) t.equal(m.headers.length, 10)
})

t.test('head cache: interim responses and heads over 512 bytes are not kept', async (t) => {
  const interim = 'HTTP/1.1 100 Continue\r\n\r\n'
  const a = parseAll(interim + NGINX_HEAD + 'Hello, world!\n')
  t.equal(a.p.lastHeadLen, NGINX_HEAD.length, 'the final head is kept, not the interim one')
  const long = 'HTTP/1.1 200 OK\r\nX-Big: ' + 'x'.repeat(600) + '\r\nContent-Length: 2\r\n\r\nok'
  const b = parseAll(long.repeat(3))
  t.equal(b.r.messages.length, 3)
  t.equal(b.p.lastHeadLen, 0)
})
