'use strict'

// lib/http1/response-parser.js, driven directly with a recording handler
// (test/helpers/parser-harness.js), no socket. The head limit:
// maxHeaderSize bytes of status line and header lines (and of trailers),
// each head apart, stopped within the read that passes it.

const t = require('tap')
const { ResponseParser } = require('../../../lib/http1/response-parser')
const { recorder, summarize, parse, everySplit, OK } = require('../../helpers/parser-harness')

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
  const wire = 'HTTP/1.1 200 ' + 'R'.repeat(80) + '\r\nContent-Length: 3\x01\r\n\r\nabc'
  const r = everySplit(t, wire, { maxHeaderSize: 64 })
  t.same(r.errors.map((e) => e.code), ['HPE_HEADER_OVERFLOW'])
  const r2 = everySplit(t, wire, { maxHeaderSize: 200 })
  t.same(r2.errors.map((e) => e.code), ['HPE_INVALID_CONTENT_LENGTH'])
})
