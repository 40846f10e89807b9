'use strict'

// lib/http1/response-parser.js, driven directly with a recording handler
// (test/helpers/parser-harness.js), no socket. The head cache: a head equal
// byte for byte to the last one read whole is not parsed again; it must
// frame each response as a full parse would.

const t = require('tap')
const { ResponseParser } = require('../../../lib/http1/response-parser')
const { toBuf, recorder, summarize } = require('../../helpers/parser-harness')

// The head cache: a head equal byte for byte to the last one read whole is
// not parsed again; its framing comes from the copy.
const NGINX_HEAD = 'HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Wed, 25 Nov 2026 11:58:39 GMT\r\n' +
  'Content-Type: text/plain\r\nContent-Length: 14\r\nConnection: keep-alive\r\n\r\n'

function parseAll (wire, { wantHeaders = false, head, wantBody = true } = {}) {
  const rec = recorder({ head })
  const p = new ResponseParser(rec.handler)
  p.wantHeaders = wantHeaders
  p.wantBody = wantBody
  p.reset()
  p.execute(toBuf(wire))
  return { p, rec, r: summarize(rec.events) }
}

t.test('head cache: repeated heads frame each response as a full parse would', async (t) => {
  const one = NGINX_HEAD + 'Hello, world!\n'
  const { p, rec, r } = parseAll(one.repeat(10))
  t.same(rec.problems, [])
  t.equal(r.messages.length, 10)
  for (const m of r.messages) {
    t.equal(m.status, 200)
    t.equal(m.body.toString(), 'Hello, world!\n')
    t.equal(m.bytes, one.length)
  }
  t.equal(p.lastHeadLen, NGINX_HEAD.length, 'the head is kept')
  t.equal(p.lastHeadMisses, 0)
})

t.test('head cache: one byte changed in a framing field is a miss and is framed by its own value', async (t) => {
  const a = NGINX_HEAD + 'Hello, world!\n'
  // Same length, another Content-Length.
  const b = NGINX_HEAD.replace('Content-Length: 14', 'Content-Length: 15') + 'Hello, world!!\n'
  const c = NGINX_HEAD.replace('HTTP/1.1 200', 'HTTP/1.1 503') + 'Hello, world!\n'
  const { rec, r } = parseAll(a + b + a + c + a)
  t.same(rec.problems, [])
  t.same(r.messages.map((m) => [m.status, m.body.toString()]), [
    [200, 'Hello, world!\n'], [200, 'Hello, world!!\n'], [200, 'Hello, world!\n'], [503, 'Hello, world!\n'], [200, 'Hello, world!\n']
  ])
  t.same(r.errors, [])
})

t.test('head cache: a HEAD answer is asked for each time, not taken from the copy', async (t) => {
  const full = NGINX_HEAD + 'Hello, world!\n'
  const { rec, r } = parseAll(full + NGINX_HEAD + full, { head: [false, true, false] })
  t.same(rec.problems, [])
  t.same(r.messages.map((m) => m.body.toString()), ['Hello, world!\n', '', 'Hello, world!\n'])
  t.same(r.messages.map((m) => m.bytes), [full.length, NGINX_HEAD.length, full.length])
})

t.test('head cache: a head cut across reads is parsed, and the cache is used again after it', async (t) => {
  const one = NGINX_HEAD + 'Hello, world!\n'
  const rec = recorder()
  const p = new ResponseParser(rec.handler)
  p.reset()
  const wire = toBuf(one.repeat(4))
  const cut = one.length + 30
  p.execute(wire, 0, cut)
  p.execute(wire, cut, wire.length)
  const r = summarize(rec.events)
  t.same(rec.problems, [])
  t.same(r.messages.map((m) => m.bytes), [one.length, one.length, one.length, one.length])
})

t.test('head cache: a head differing in any one byte, at any alignment, is a miss', async (t) => {
  const a = NGINX_HEAD + 'Hello, world!\n'
  const swap = (c) => /[0-9]/.test(c) ? String((Number(c) + 1) % 10) : /[a-z]/i.test(c) ? (c === 'x' ? 'y' : 'x') : null
  let checked = 0
  for (let k = 0; k < NGINX_HEAD.length; k++) {
    const other = swap(NGINX_HEAD[k])
    if (other === null) continue
    const b = NGINX_HEAD.slice(0, k) + other + NGINX_HEAD.slice(k + 1) + 'Hello, world!\n'
    // Line ends before a response are skipped: they move the heads in
    // the buffer against the 4-byte words compared.
    const shift = '\n'.repeat(k % 4)
    // One buffer, as a plain socket reads into one: the second A is
    // compared through Buffer#compare, B through the buffer's DataView.
    const { p, r } = parseAll(shift + a + a + b + a)
    t.ok(p.lastHeadMisses >= 1 || r.errors.length > 0, `byte ${k} ('${NGINX_HEAD[k]}' → '${other}') is not taken for the kept head`)
    checked++
  }
  t.ok(checked > 100)
  // Its last bytes, past the last whole word: heads of each length mod 4,
  // and a B whose head goes on where A's ends (with a second
  // Content-Length: an error once parsed).
  for (let pad = 0; pad < 4; pad++) {
    const head = NGINX_HEAD.replace('nginx/1.22.1', 'nginx/1.22.1' + 'x'.repeat(pad))
    const b = head.slice(0, -2) + 'Content-Length: 14\r\n\r\n' + 'Hello, world!\n'
    const { r } = parseAll(head + 'Hello, world!\n' + head + 'Hello, world!\n' + b)
    t.same(r.errors.map((e) => e.code), ['HPE_UNEXPECTED_CONTENT_LENGTH'], `head of ${head.length} bytes: B is parsed, not taken for A`)
  }
  const same = parseAll(a + a + a + a)
  t.equal(same.p.lastHeadMisses, 0, 'the same head is a hit every time')
  t.equal(same.r.messages.length, 4)
})

t.test('head cache: kept across a new connection, the close it announced included', async (t) => {
  const closing = NGINX_HEAD.replace('keep-alive', 'close     ') + 'Hello, world!\n'
  const rec = recorder()
  const p = new ResponseParser(rec.handler)
  p.reset()
  p.execute(toBuf(closing))
  p.reset()
  p.execute(toBuf(closing))
  const r = summarize(rec.events)
  t.same(r.messages.map((m) => m.close), [true, true], 'the copy says the connection closes')
  t.equal(p.lastHeadLen, NGINX_HEAD.length)
})

t.test('head cache: heads that differ every time turn it off', async (t) => {
  let wire = ''
  for (let k = 0; k < 12; k++) wire += NGINX_HEAD.replace('11:58:39', `11:58:${String(k).padStart(2, '0')}`) + 'Hello, world!\n'
  const { p, r } = parseAll(wire)
  t.equal(r.messages.length, 12)
  t.equal(p.lastHeadLen, 0, 'no head kept after 8 misses in a row')
  // One change a second (a Date line) does not: a hit resets the count.
  let steady = ''
  for (let k = 0; k < 12; k++) steady += (NGINX_HEAD.replace('11:58:39', `11:58:${String(k).padStart(2, '0')}`) + 'Hello, world!\n').repeat(3)
  const s = parseAll(steady)
  t.equal(s.r.messages.length, 36)
  t.equal(s.p.lastHeadLen, NGINX_HEAD.length)
})

t.test('head cache: with wantHeaders on, every response gets its own header list', async (t) => {
  const one = NGINX_HEAD + 'Hello, world!\n'
  const { r } = parseAll(one.repeat(3), { wantHeaders: true })
  t.equal(r.messages.length, 3)
  for (const m of r.messages) t.equal(m.headers.length, 10)
})

t.test('head cache: interim responses and heads over 512 bytes are not kept', async (t) => {
  const interim = 'HTTP/1.1 100 Continue\r\n\r\n'
  const a = parseAll(interim + NGINX_HEAD + 'Hello, world!\n')
  t.equal(a.p.lastHeadLen, NGINX_HEAD.length, 'the final head is kept, not the interim one')
  const long = 'HTTP/1.1 200 OK\r\nX-Big: ' + 'x'.repeat(600) + '\r\nContent-Length: 2\r\n\r\nok'
  const b = parseAll(long.repeat(3))
  t.equal(b.r.messages.length, 3)
  t.equal(b.p.lastHeadLen, 0)
})
