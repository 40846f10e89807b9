'use strict'

// lib/http1/response-parser.js, driven directly with a recording handler
// (test/helpers/parser-harness.js), no socket. Bodies delimited by the
// close of the connection (no Content-Length nor Transfer-Encoding): they
// end at finish(), and one cut short is an error.

const t = require('tap')
const { ResponseParser } = require('../../../lib/http1/response-parser')
const { recorder, summarize, parse, everySplit, OK } = require('../../helpers/parser-harness')

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
    t.same(r.errors.map((e) => [e.code, e.isCounted, e.name]), [['HPE_INCOMPLETE', true, 'CountedError']], name)
    t.equal(r.errors[0].message, 'connection closed before the response was complete', name)
    t.same(r.messages.map((m) => m.body), wire.startsWith(OK) ? ['hello'] : [], name)
  }
  for (const wire of ['', OK, OK + '\r\n', '\r\n']) {
    const r = parse(wire, { eof: true })
    t.same(r.errors, [], `no error at EOF between responses: ${JSON.stringify(wire.slice(-4))}`)
  }
})
