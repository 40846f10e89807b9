'use strict'

// lib/http1/response-parser.js, driven directly with a recording handler
// (test/helpers/parser-harness.js), no socket. Bodies framed by
// Content-Length: completed at their last byte, however the reads are cut;
// one field only; leading zeros. Some cases here are where fuzz/ (our
// parser against Node's own, llhttp) found us disagreeing; each now answers
// as llhttp does.

const t = require('tap')
const { ResponseParser } = require('../../../lib/http1/response-parser')
const { recorder, summarize, parse, everySplit, noise, OK } = require('../../helpers/parser-harness')

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
  for (const line of ['content-length: 3', 'CONTENT-LENGTH: 3', 'Content-length:3', 'Content-Length: \t 3  ', 'cOnTeNt-LeNgTh:   3   ', 'Content-Length: 00000000000000000000003', 'Content-Length: 3\t', 'Content-Length: 3 \t ']) {
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
