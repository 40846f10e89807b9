'use strict'

// The response parser on its own: a byte-level state machine fed Buffers
// cut anywhere, with no socket or timer behind it.

const t = require('tap')
const { ResponseParser } = require('../lib/http1/response-parser')
const { ResponseParseError } = require('../lib/core/errors')

// Feeds `input` cut at `cuts`; returns what the handler saw.
function parse (input, { cuts = [], head = false, wantBody = false, wantHeaders = false, eof = false } = {}) {
  const seen = { messages: [], bodies: [], headers: [], errors: [] }
  let body = []
  const parser = new ResponseParser({
    onHeadersComplete (status, headers) {
      if (headers !== null) seen.headers.push(headers)
      return head
    },
    onBody (buf, start, end) { body.push(Buffer.from(buf.subarray(start, end))) },
    onMessageComplete (status, bytes, close) {
      seen.messages.push({ status, bytes, close })
      seen.bodies.push(Buffer.concat(body).toString())
      body = []
    },
    onParseError (err) { seen.errors.push(err) }
  })
  parser.wantBody = wantBody
  parser.wantHeaders = wantHeaders
  parser.reset()
  const buf = Buffer.isBuffer(input) ? input : Buffer.from(input, 'latin1')
  let prev = 0
  for (const cut of [...cuts, buf.length]) {
    parser.execute(buf, prev, cut)
    prev = cut
  }
  if (eof) parser.finish()
  seen.parser = parser
  return seen
}

// The same stream cut at every single position, and one byte at a time,
// must give exactly what the whole stream gives.
function everySplit (t, input, opts = {}) {
  const whole = parse(input, opts)
  const strip = ({ messages, bodies, headers, errors }) => JSON.stringify({ messages, bodies, headers, errors: errors.map((e) => e.code) })
  const expected = strip(whole)
  let differing = 0
  for (let k = 1; k < input.length; k++) {
    if (strip(parse(input, { ...opts, cuts: [k] })) !== expected) differing++
  }
  const bytes = []
  for (let k = 1; k < input.length; k++) bytes.push(k)
  t.equal(strip(parse(input, { ...opts, cuts: bytes })), expected, 'one byte at a time')
  t.equal(differing, 0, `cut at each of ${input.length - 1} positions`)
  return whole
}

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello'

t.test('content-length bodies, and the wire length of each response', async (t) => {
  const r = parse(OK, { wantBody: true })
  t.same(r.messages, [{ status: 200, bytes: OK.length, close: false }])
  t.same(r.bodies, ['hello'])

  const empty = 'HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n'
  t.same(parse(empty).messages, [{ status: 201, bytes: empty.length, close: false }])

  const big = 'x'.repeat(100000)
  const large = `HTTP/1.1 200 OK\r\nContent-Length: ${big.length}\r\n\r\n${big}`
  const r2 = parse(large, { wantBody: true, cuts: [10, 70, 5000, 65536] })
  t.equal(r2.messages[0].bytes, large.length)
  t.equal(r2.bodies[0], big)
})

t.test('pipelined responses in one buffer, and split anywhere', async (t) => {
  const stream = [OK, 'HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nnop', 'HTTP/1.1 500 Oops\r\ncontent-length: 0\r\n\r\n', OK].join('')
  const r = everySplit(t, stream, { wantBody: true })
  t.same(r.messages.map((m) => m.status), [200, 404, 500, 200])
  t.same(r.bodies, ['hello', 'nop', '', 'hello'])
  t.equal(r.messages.reduce((a, m) => a + m.bytes, 0), stream.length, 'bytes add up to the stream')
})

t.test('chunked: extensions, trailers, sizes in either case, split anywhere', async (t) => {
  const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n' +
    '5;name=value\r\nhello\r\n' +
    'A\r\n0123456789\r\n' +
    'b \r\n abcdefghij\r\n' +
    '0\r\nX-Trailer: yes\r\nX-Other: 1\r\n\r\n'
  const r = everySplit(t, chunked + OK, { wantBody: true })
  t.same(r.messages.map((m) => m.status), [200, 200])
  t.equal(r.bodies[0], 'hello0123456789 abcdefghij', 'chunks reassembled, extensions and trailers dropped')
  t.equal(r.messages[0].bytes, chunked.length)
  t.equal(r.bodies[1], 'hello', 'the next response follows the trailers')

  const bare = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n'
  t.same(parse(bare, { wantBody: true }).bodies, ['abc'], 'chunked as the last coding')
  const lowerHex = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nf\r\n' + 'y'.repeat(15) + '\r\n0\r\n\r\n'
  t.equal(parse(lowerHex, { wantBody: true }).bodies[0].length, 15)
})

t.test('a body read until the server closes', async (t) => {
  const res = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nstreamed until close'
  const open = parse(res, { wantBody: true })
  t.equal(open.messages.length, 0, 'not complete while the connection is open')
  const closed = parse(res, { wantBody: true, eof: true, cuts: [30, 50] })
  t.same(closed.messages, [{ status: 200, bytes: res.length, close: true }])
  t.same(closed.bodies, ['streamed until close'])
})

t.test('no body for HEAD, 1xx, 204 and 304, whatever the headers say', async (t) => {
  const head = parse('HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n' + OK, { head: true })
  t.same(head.messages.map((m) => m.status), [200, 200], 'a HEAD answer ends at its headers')

  const stream = 'HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n' +
    'HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\nTransfer-Encoding: chunked\r\n\r\n' + OK
  const r = everySplit(t, stream, { wantBody: true })
  t.same(r.messages.map((m) => m.status), [204, 304, 200])
  t.same(r.bodies, ['', '', 'hello'])
})

t.test('interim 100 Continue and 103 Early Hints are skipped', async (t) => {
  const interim = 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n'
  const r = everySplit(t, interim + OK, { wantBody: true })
  t.same(r.messages.map((m) => m.status), [200], 'one final response')
  t.equal(r.messages[0].bytes, interim.length + OK.length, 'interim bytes count with the final response')
  t.same(r.bodies, ['hello'])
})

t.test('connection: close and HTTP/1.0', async (t) => {
  t.equal(parse('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n').messages[0].close, true)
  t.equal(parse('HTTP/1.1 200 OK\r\nConnection: Keep-Alive, Close\r\nContent-Length: 0\r\n\r\n').messages[0].close, true, 'a token in a list, any case')
  t.equal(parse('HTTP/1.1 200 OK\r\nConnection: closed\r\nContent-Length: 0\r\n\r\n').messages[0].close, false, 'only the whole token')
  t.equal(parse('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n').messages[0].close, true, 'HTTP/1.0 closes by default')
  t.equal(parse('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n').messages[0].close, false, 'unless it says keep-alive')
})

t.test('all headers only when asked for', async (t) => {
  const res = 'HTTP/1.1 200 OK\r\nX-One: 1\r\nContent-Length: 5\r\nX-Spaced:   padded value  \r\nSet-Cookie: a=b\r\n\r\nhello'
  t.same(parse(res).headers, [], 'none decoded by default')
  const r = everySplit(t, res, { wantHeaders: true })
  t.same(r.headers, [['X-One', '1', 'Content-Length', '5', 'X-Spaced', 'padded value', 'Set-Cookie', 'a=b']])
})

t.test('a header line nobody needs is skipped without being validated', async (t) => {
  // Once a name cannot be a framing header the rest of the line is skipped
  // unread (the fast path); with wantHeaders every byte is checked.
  const res = 'HTTP/1.1 200 OK\r\nBad Name: x\r\nContent-Length: 2\r\n\r\nok'
  t.same(parse(res).messages.map((m) => m.status), [200])
  const strict = parse(res, { wantHeaders: true })
  t.equal(strict.errors.length, 1)
  t.equal(strict.errors[0].code, 'HPE_INVALID_HEADER_TOKEN')
})

t.test('lone LF line ends are accepted', async (t) => {
  const res = 'HTTP/1.1 200 OK\nContent-Length: 2\n\nok'
  t.same(parse(res, { wantBody: true }).bodies, ['ok'])
})

t.test('malformed input: a parse error, never an exception, until reset()', async (t) => {
  const cases = [
    ['garbage status line', 'GARBAGE\r\n\r\n', 'HPE_INVALID_CONSTANT'],
    ['wrong protocol', 'HTTP/2.0 200 OK\r\n\r\n', 'HPE_INVALID_CONSTANT'],
    ['bad version digit', 'HTTP/1.x 200 OK\r\n\r\n', 'HPE_INVALID_VERSION'],
    ['short status code', 'HTTP/1.1 20 OK\r\n\r\n', 'HPE_INVALID_STATUS'],
    ['letters in the status', 'HTTP/1.1 2x0 OK\r\n\r\n', 'HPE_INVALID_STATUS'],
    ['bad header name', 'HTTP/1.1 200 OK\r\n(Bad): x\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
    ['bad framing header name', 'HTTP/1.1 200 OK\r\nContent Length: 5\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
    ['control byte in a value', 'HTTP/1.1 200 OK\r\nConnection: a\u0001b\r\nContent-Length: 0\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
    ['non-numeric content-length', 'HTTP/1.1 200 OK\r\nContent-Length: 12abc\r\n\r\n', 'HPE_INVALID_CONTENT_LENGTH'],
    ['empty content-length', 'HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n', 'HPE_INVALID_CONTENT_LENGTH'],
    ['listed content-length', 'HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\nhello', 'HPE_INVALID_CONTENT_LENGTH'],
    ['huge content-length', 'HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999\r\n\r\n', 'HPE_INVALID_CONTENT_LENGTH'],
    ['bad chunk size', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 'HPE_INVALID_CHUNK_SIZE'],
    ['missing CRLF after chunk', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabcd\r\n', 'HPE_STRICT'],
    ['CR without LF', 'HTTP/1.1 200 OK\r\nContent-Length: 0\rX: 1\r\n\r\n', 'HPE_STRICT']
  ]
  for (const [name, input, code] of cases) {
    const r = parse(input + OK)
    t.equal(r.errors.length, 1, `${name}: one error`)
    t.ok(r.errors[0] instanceof ResponseParseError, `${name}: a ResponseParseError`)
    t.equal(r.errors[0] && r.errors[0].code, code, `${name}: ${code}`)
    t.equal(r.messages.length, 0, `${name}: nothing after the error is parsed`)
    r.parser.execute(Buffer.from(OK))
    t.equal(r.messages.length, 0, `${name}: input ignored until reset`)
    r.parser.reset()
    r.parser.execute(Buffer.from(OK))
    t.same(r.messages.map((m) => m.status), [200], `${name}: parses again after reset()`)
  }
})

t.test('a connection closed mid-response is an error; between responses it is not', async (t) => {
  const cut = parse('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf', { eof: true })
  t.equal(cut.errors.length, 1)
  t.equal(cut.errors[0].code, 'HPE_INCOMPLETE')
  const clean = parse(OK, { eof: true })
  t.same(clean.errors, [])
  t.equal(clean.messages.length, 1)
})

t.test('a handler may stop the parser from inside a callback', async (t) => {
  const statuses = []
  const parser = new ResponseParser({
    onHeadersComplete: () => false,
    onBody () {},
    onMessageComplete (status) {
      statuses.push(status)
      parser.abort()
    },
    onParseError () {}
  })
  parser.execute(Buffer.from(OK + OK + OK))
  t.same(statuses, [200], 'nothing is delivered after abort()')
  t.equal(parser.idle, false)
  parser.reset()
  t.equal(parser.idle, true)
})
