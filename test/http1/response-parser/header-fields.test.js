'use strict'

// lib/http1/response-parser.js, driven directly with a recording handler
// (test/helpers/parser-harness.js), no socket. Header lines: line ends,
// every field as sent when wantHeaders asks for them, the fast path's
// leniencies when it does not, framing values of any length. Some cases
// here are where fuzz/ (our parser against Node's own, llhttp) found us
// disagreeing; each now answers as llhttp does.

const t = require('tap')
const { ResponseParser } = require('../../../lib/http1/response-parser')
const { recorder, summarize, parse, everySplit, OK } = require('../../helpers/parser-harness')

t.test('bare LF line ends are accepted', async (t) => {
  const wire = 'HTTP/1.1 200 OK\nContent-Length: 2\nX-A: b\n\nhi' +
    'HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n2\nhi\n0\n\n'
  const r = everySplit(t, wire, { wantHeaders: true })
  t.same(r.errors, [])
  t.same(r.messages.map((m) => [m.status, m.body]), [[200, 'hi'], [200, 'hi']])
  t.same(r.messages[0].headers, ['Content-Length', '2', 'X-A', 'b'])
  t.equal(r.messages[0].bytes + r.messages[1].bytes, wire.length)
})

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

t.test('Transfer-Encoding and Connection values of any length are read whole', async (t) => {
  // Values were kept to 256 bytes, so a token past that went unseen.
  const long = 'x'.repeat(300)
  const chunked = `HTTP/1.1 200 OK\r\nTransfer-Encoding: ${long}, chunked\r\n\r\n1\r\na\r\n0\r\n\r\n`
  t.same(everySplit(t, chunked + OK).messages.map((m) => [m.body, m.bytes]), [['a', chunked.length], ['hello', OK.length]])
  const close = `HTTP/1.1 200 OK\r\nConnection: keep-alive,${' '.repeat(300)}close\r\nContent-Length: 0\r\n\r\n`
  t.same(everySplit(t, close).messages.map((m) => m.close), [true])
})
