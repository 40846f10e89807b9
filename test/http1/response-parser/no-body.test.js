'use strict'

// lib/http1/response-parser.js, driven directly with a recording handler
// (test/helpers/parser-harness.js), no socket. Responses without a body
// whatever their headers say: HEAD answers, 1xx (interim ones skipped, 101
// ending the protocol), 204 and 304. Some cases here are where fuzz/ (our
// parser against Node's own, llhttp) found us disagreeing; each now answers
// as llhttp does.

const t = require('tap')
const { ResponseParser } = require('../../../lib/http1/response-parser')
const { recorder, summarize, parse, everySplit, OK } = require('../../helpers/parser-harness')

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

t.test('101 Switching Protocols: what follows is another protocol and is ignored', async (t) => {
  const wire = 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n'
  const r = everySplit(t, wire + '\x81\x05hello' + OK, { eof: true })
  t.same(r.messages.map((m) => [m.status, m.bytes, m.close]), [[101, wire.length, true]])
  t.same(r.errors, [])
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
