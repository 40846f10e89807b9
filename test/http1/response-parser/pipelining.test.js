'use strict'

// lib/http1/response-parser.js, driven directly with a recording handler
// (test/helpers/parser-harness.js), no socket. Several responses per read:
// pipelined responses each with their own wire length, line ends between
// them, ranges of a larger buffer, and byte counts that add up to the
// stream.

const t = require('tap')
const { ResponseParser } = require('../../../lib/http1/response-parser')
const { recorder, summarize, parseInRanges, everySplit, OK } = require('../../helpers/parser-harness')

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
