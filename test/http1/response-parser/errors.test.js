'use strict'

// lib/http1/response-parser.js, driven directly with a recording handler
// (test/helpers/parser-harness.js), no socket. Malformed input: one
// CountedError with its code and message, split anywhere, nothing
// thrown; then nothing until reset(). And starting over: reset() and
// abort(), also from inside the handler.

const t = require('tap')
const { ResponseParser } = require('../../../lib/http1/response-parser')
const { CountedError } = require('../../../lib/core/errors')
const { recorder, summarize, parse, everySplit, OK } = require('../../helpers/parser-harness')

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
  ['tab between Content-Length digits', 'HTTP/1.1 200 OK\r\nContent-Length: 3\t3\r\n\r\nabc', 'HPE_INVALID_CONTENT_LENGTH'],
  // As llhttp 9.4 (Node 22, 24) refuses them; 9.3 took both (fuzz/known.js).
  ['an empty Transfer-Encoding', 'HTTP/1.1 200 OK\r\nTransfer-Encoding:\r\n\r\nabc', 'HPE_INVALID_TRANSFER_ENCODING'],
  ['a Transfer-Encoding of spaces on a 204', 'HTTP/1.1 204 No Content\r\nTransfer-Encoding:  \r\n\r\n', 'HPE_INVALID_TRANSFER_ENCODING'],
  ['an empty Transfer-Encoding folded onto the next line', 'HTTP/1.1 200 OK\r\nTransfer-Encoding:\r\n chunked\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
  ['an empty Transfer-Encoding in the trailers', 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nTransfer-Encoding:\r\n\r\n', 'HPE_INVALID_TRANSFER_ENCODING'],
  ['a status line ending in CR CR LF', 'HTTP/1.1 200 OK\r\r\nContent-Length: 2\r\n\r\nhi', 'HPE_STRICT'],
  ['a status line ending in CR CR', 'HTTP/1.1 200 OK\r\rContent-Length: 2\r\n\r\nhi', 'HPE_STRICT'],
  ['a status code ending in CR CR LF', 'HTTP/1.1 200\r\r\nContent-Length: 2\r\n\r\nhi', 'HPE_STRICT'],
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

t.test('malformed input: onParseError with a CountedError, nothing thrown, split anywhere', async (t) => {
  for (const [name, wire, code] of BAD) {
    t.test(name, async (t) => {
      const r = everySplit(t, wire, { wantHeaders: false })
      t.same(r.errors.map((e) => [e.code, e.name, e.isCounted]), [[code, 'CountedError', true]], 'one error, with its code')
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
    t.ok(rec.events[rec.events.length - 1].err instanceof CountedError)

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
