'use strict'

// lib/http1/response-parser.js, driven directly with a recording handler
// (test/helpers/parser-harness.js), no socket. The status line: the
// version, any reason phrase or none, the status code itself, and its line
// end. Some cases here are where fuzz/ (our parser against Node's own,
// llhttp) found us disagreeing; each now answers as llhttp does.

const t = require('tap')
const { everySplit } = require('../../helpers/parser-harness')

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

t.test('status codes 000 to 099 are accepted, as llhttp accepts them', async (t) => {
  for (const code of ['000', '001', '099']) {
    const wire = `HTTP/1.1 ${code} Odd\r\nContent-Length: 1\r\n\r\nx`
    t.same(everySplit(t, wire).messages.map((m) => [m.status, m.body]), [[Number(code), 'x']])
  }
})

// Read as a 200 without headers, its headers would be taken for the body.
// llhttp 9.4 refuses it so; 9.3 took the second CR for the LF (fuzz/known.js).
t.test('a status line ending in CR CR (LF) is refused, as llhttp refuses it', async (t) => {
  for (const wire of ['HTTP/1.1 200 OK\r\r\nContent-Length: 2\r\n\r\nhi', 'HTTP/1.1 200 OK\r\rContent-Length: 2\r\n\r\nhi']) {
    const r = everySplit(t, wire)
    t.same([r.messages, r.errors.map((e) => [e.code, e.message])], [[], [['HPE_STRICT', 'expected LF after CR in the status line']]], JSON.stringify(wire))
  }
})
