'use strict'

// The request encoder on its own: the exact bytes of a request, built once
// per template.

const t = require('tap')
const { encodeRequest } = require('../lib/http1/request-encoder')
const { isToken, isValidHeaderValue } = require('../lib/core/http-syntax')
const { hostHeader } = require('../lib/core/url')
const { InvalidOptionError } = require('../lib/core/errors')

const text = (buf) => buf.toString('latin1')

t.test('request line, Host and keep-alive', async (t) => {
  t.equal(text(encodeRequest({ method: 'GET', path: '/a?b=1', host: '127.0.0.1:3000' })),
    'GET /a?b=1 HTTP/1.1\r\nHost: 127.0.0.1:3000\r\nConnection: keep-alive\r\n\r\n')
  t.equal(text(encodeRequest({ host: 'example.com' })),
    'GET / HTTP/1.1\r\nHost: example.com\r\nConnection: keep-alive\r\n\r\n', 'GET / by default')
})

t.test('Host carries the port only when it is not the default', async (t) => {
  t.equal(hostHeader(new URL('http://127.0.0.1:3000/')), '127.0.0.1:3000')
  t.equal(hostHeader(new URL('http://localhost/')), 'localhost')
  t.equal(hostHeader(new URL('http://localhost:80/')), 'localhost')
  t.equal(hostHeader(new URL('https://localhost:443/')), 'localhost')
  t.equal(hostHeader(new URL('https://localhost:8443/')), 'localhost:8443')
  t.equal(hostHeader(new URL('http://localhost:443/')), 'localhost:443', '443 is not the default for http')
  t.equal(hostHeader(new URL('http://[::1]:8080/')), '[::1]:8080')
})

t.test('user headers keep their case; Host and Connection are not doubled', async (t) => {
  const req = text(encodeRequest({
    host: '127.0.0.1:3000',
    headers: { 'X-Custom-Header': 'Value', host: 'virtual.example', connection: 'close', accept: ['a/b', 'c/d'] }
  }))
  t.equal(req, 'GET / HTTP/1.1\r\nX-Custom-Header: Value\r\nhost: virtual.example\r\nconnection: close\r\naccept: a/b\r\naccept: c/d\r\n\r\n')
  t.equal(req.match(/host:/gi).length, 1, 'one Host')
  t.equal(req.match(/connection:/gi).length, 1, 'one Connection')

  const skipped = text(encodeRequest({ host: 'h', headers: { 'x-a': undefined, 'x-b': null, 'x-c': 3 } }))
  t.equal(skipped, 'GET / HTTP/1.1\r\nHost: h\r\nx-c: 3\r\nConnection: keep-alive\r\n\r\n', 'undefined and null values are left out')
})

t.test('Content-Length from the body, never from the user', async (t) => {
  const utf8 = 'héllo → ✓'
  const req = encodeRequest({ method: 'POST', host: 'h', headers: { 'Content-Length': '1', 'Content-Type': 'text/plain' }, body: utf8 })
  const s = text(req)
  t.match(s, /\r\nContent-Length: 14\r\n\r\n/, 'the UTF-8 byte length, not the string length')
  t.equal(s.match(/content-length/gi).length, 1, 'the user\'s stale Content-Length is dropped')
  t.same(req.subarray(req.length - 14), Buffer.from(utf8), 'body bytes at the end')

  const bin = Buffer.from([0, 1, 2, 255])
  const r2 = encodeRequest({ method: 'PUT', host: 'h', body: bin })
  t.match(text(r2), /Content-Length: 4\r\n\r\n/)
  t.same(r2.subarray(r2.length - 4), bin)

  const u8 = encodeRequest({ method: 'POST', host: 'h', body: new Uint8Array([7, 8]) })
  t.same(u8.subarray(u8.length - 2), Buffer.from([7, 8]), 'a Uint8Array body')

  t.match(text(encodeRequest({ method: 'POST', host: 'h' })), /Content-Length: 0\r\n\r\n$/, 'a body-less POST states its length')
  t.notMatch(text(encodeRequest({ method: 'GET', host: 'h' })), /Content-Length/, 'a GET does not')
  t.notMatch(text(encodeRequest({ method: 'DELETE', host: 'h' })), /Content-Length/)
})

t.test('a user asking for chunked gets one chunk and the last-chunk', async (t) => {
  const req = text(encodeRequest({ method: 'POST', host: 'h', headers: { 'Transfer-Encoding': 'chunked' }, body: 'hello world' }))
  t.match(req, /Transfer-Encoding: chunked\r\n\r\nb\r\nhello world\r\n0\r\n\r\n$/)
  t.notMatch(req, /Content-Length/)
})

t.test('invalid methods, paths, header names and values are rejected by name', async (t) => {
  const bad = [
    [{ method: 'GE T' }, 'method'],
    [{ method: '' }, 'method'],
    [{ path: '' }, 'path'],
    [{ path: '/a b' }, 'path'],
    [{ path: '/a\r\nX: y' }, 'path'],
    [{ headers: { 'bad name': 'x' } }, 'headers'],
    [{ headers: { 'x:y': 'x' } }, 'headers'],
    [{ headers: { ünicode: 'x' } }, 'headers'],
    [{ headers: { 'x-inject': 'a\r\nEvil: 1' } }, 'headers'],
    [{ headers: { 'x-lf': 'a\nb' } }, 'headers'],
    [{ headers: { 'x-nul': 'a\u0000b' } }, 'headers'],
    [{ body: 42 }, 'body']
  ]
  for (const [req, option] of bad) {
    let error = null
    try {
      encodeRequest({ host: 'h', ...req })
    } catch (err) {
      error = err
    }
    t.ok(error instanceof InvalidOptionError, `${JSON.stringify(req)} is rejected`)
    t.equal(error && error.code, 'AC_INVALID_OPTION')
    t.match(error && error.message, `invalid option "${option}"`, `and names ${option}`)
  }
  t.throws(() => encodeRequest({ host: 'h', headers: { 'x-inject': 'a\r\nEvil: 1' } }), /must not contain CR, LF/)
})

t.test('token and value checks', async (t) => {
  t.equal(isToken('X-Request-Id'), true)
  t.equal(isToken("!#$%&'*+-.^_`|~"), true)
  t.equal(isToken(''), false)
  t.equal(isToken('a b'), false)
  t.equal(isToken('a(b)'), false)
  t.equal(isToken('é'), false)
  t.equal(isValidHeaderValue('text/html; charset=utf-8'), true)
  t.equal(isValidHeaderValue('tab\tok'), true)
  t.equal(isValidHeaderValue('café'), true, 'beyond ASCII is allowed')
  t.equal(isValidHeaderValue('a\rb'), false)
  t.equal(isValidHeaderValue('a\nb'), false)
  t.equal(isValidHeaderValue('a\u007fb'), false)
  t.equal(isValidHeaderValue('→'), true, 'beyond latin1 too: it goes out as UTF-8')
})
