'use strict'

// lib/http1/response-parser.js, driven directly with a recording handler
// (test/helpers/parser-harness.js), no socket. Keep-alive and close:
// Connection and the HTTP version decide whether the connection ends with a
// response, and nothing may follow one that closes it. Some cases here are
// where fuzz/ (our parser against Node's own, llhttp) found us disagreeing;
// each now answers as llhttp does.

const t = require('tap')
const { ResponseParser } = require('../../../lib/http1/response-parser')
const { recorder, summarize, parse, everySplit, OK } = require('../../helpers/parser-harness')

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
    // Optional whitespace is spaces and tabs (RFC 9110), as llhttp 9.4 reads it.
    ['Connection: \tclose\t', true],
    ['Connection: close\t, x', true],
    ['Connection: close\tx', false],
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
