'use strict'

// Unit tests of lib/http1/request-encoder.js: the exact bytes of encoded requests,
// and what is refused and with which error. The helpers it shares:
// test/core/http-syntax.test.js, test/core/url.test.js.

const t = require('tap')
const { encodeRequest, http1Encoding } = require('../../lib/http1/request-encoder')
const { InvalidOptionError } = require('../../lib/core/errors')
const { RequestSequence } = require('../../lib/client/request-sequence')

const latin1 = (buf) => buf.toString('latin1')

// Splits an encoded request into its head lines and body bytes.
function split (buf) {
  const end = buf.indexOf('\r\n\r\n')
  const lines = buf.subarray(0, end).toString('latin1').split('\r\n')
  return { requestLine: lines[0], headers: lines.slice(1), body: buf.subarray(end + 4) }
}

const count = (headers, name) => headers.filter((h) => h.slice(0, h.indexOf(':')).toLowerCase() === name).length

function throwsOption (t, fn, option, message, what) {
  let err = null
  try {
    fn()
  } catch (e) {
    err = e
  }
  t.ok(err instanceof InvalidOptionError, `${what}: throws an InvalidOptionError`)
  if (!err) return
  t.equal(err.name, 'InvalidOptionError', what)
  t.equal(err.code, 'AC_INVALID_OPTION', what)
  t.equal(err.option, option, `${what}: names the option`)
  // Where autocannon has words for it, they are the message (method and
  // body: test/e2e/upstream-messages.test.js) and ours is the detail.
  t.equal(err.upstream ? `invalid option "${err.option}": ${err.detail}` : err.message, message, `${what}: message`)
  if (option === 'method') t.ok(err.message.endsWith(' HTTP method is not supported'), `${what}: autocannon's message`)
  if (option === 'body') t.equal(err.message, 'body must be either a string or a buffer', `${what}: autocannon's message`)
}

// A test name safe for TAP output (no raw line or paragraph separators).
const show = (s) => JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))

// ---------------------------------------------------------------------------
// request line

t.test('request line: method, path, HTTP/1.1', async (t) => {
  const cases = [
    [{ method: 'GET', path: '/' }, 'GET / HTTP/1.1'],
    [{}, 'GET / HTTP/1.1'],
    [{ method: 'DELETE' }, 'DELETE / HTTP/1.1'],
    [{ path: '/a/b?c=1&d=%20e' }, 'GET /a/b?c=1&d=%20e HTTP/1.1'],
    [{ method: 'OPTIONS', path: '*' }, 'OPTIONS * HTTP/1.1'],
    [{ path: 'http://example.com/x' }, 'GET http://example.com/x HTTP/1.1'],
    [{ method: 'PURGE', path: '/cache' }, 'PURGE /cache HTTP/1.1'],
    [{ method: 'M-SEARCH', path: '*' }, 'M-SEARCH * HTTP/1.1'],
    [{ method: 'get', path: '/' }, 'get / HTTP/1.1'],
    [{ path: "/~!$&'()*+,;=:@[]{}|^`\"<>\\" }, "GET /~!$&'()*+,;=:@[]{}|^`\"<>\\ HTTP/1.1"]
  ]
  for (const [req, line] of cases) {
    const buf = encodeRequest({ host: 'h', ...req })
    t.ok(Buffer.isBuffer(buf), 'a Buffer')
    t.equal(split(buf).requestLine, line, JSON.stringify(req))
    t.equal(latin1(buf).indexOf(line + '\r\n'), 0, 'first line, ended by CRLF')
  }
})

t.test('request line: a GET is exactly these bytes', async (t) => {
  t.equal(latin1(encodeRequest({ method: 'GET', path: '/a?b=1', host: '127.0.0.1:3000' })),
    'GET /a?b=1 HTTP/1.1\r\nHost: 127.0.0.1:3000\r\nConnection: keep-alive\r\n\r\n')
  t.equal(latin1(encodeRequest({ host: 'example.com' })),
    'GET / HTTP/1.1\r\nHost: example.com\r\nConnection: keep-alive\r\n\r\n')
})

t.test('request line: paths beyond ASCII are sent as UTF-8 bytes', async (t) => {
  const buf = encodeRequest({ path: '/日本/café?q=€&e=😀', host: 'h' })
  const expected = Buffer.concat([Buffer.from('GET '), Buffer.from('/日本/café?q=€&e=😀', 'utf8'), Buffer.from(' HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\n\r\n')])
  t.same(buf, expected, 'UTF-8, not one (cut) byte per character')
  t.equal(buf.indexOf(Buffer.from([0xe6, 0x97, 0xa5])), 5, '日 is e6 97 a5')
  t.equal(split(encodeRequest({ path: '/é', host: 'h' })).requestLine, 'GET /\xc3\xa9 HTTP/1.1', 'é is c3 a9, not latin1 e9')
  t.equal(latin1(encodeRequest({ path: '/%E6%97%A5', host: 'h' })).split('\r\n')[0], 'GET /%E6%97%A5 HTTP/1.1', 'percent-encoding left alone')
})

t.test('request line: invalid methods and paths are refused', async (t) => {
  const badMethods = ['', 'GE T', 'GET\r\nX: y', 'GET\n', 'G(ET', 'GET/', 'G\u00c9T', 'GET\u0000']
  for (const method of badMethods) {
    throwsOption(t, () => encodeRequest({ method, host: 'h' }), 'method',
      `invalid option "method": ${JSON.stringify(method)} must be an HTTP token such as GET or POST`, JSON.stringify(method))
  }
  throwsOption(t, () => encodeRequest({ method: 42, host: 'h' }), 'method',
    'invalid option "method": 42 must be an HTTP token such as GET or POST', 'non-string method')
  throwsOption(t, () => encodeRequest({ method: null, host: 'h' }), 'method',
    'invalid option "method": null must be an HTTP token such as GET or POST', 'null method')

  throwsOption(t, () => encodeRequest({ path: '', host: 'h' }), 'path',
    'invalid option "path": "" must be a non-empty string', 'empty path')
  throwsOption(t, () => encodeRequest({ path: 7, host: 'h' }), 'path',
    'invalid option "path": 7 must be a non-empty string', 'non-string path')
  for (const path of ['/a b', '/a\tb', '/a\r\nHost: evil', '/a\nb', '/a\rb', '/\u0000', '/\u007f', '/\u001b[0m', ' /']) {
    throwsOption(t, () => encodeRequest({ path, host: 'h' }), 'path',
      `invalid option "path": ${JSON.stringify(path)} must not contain spaces or control characters`, JSON.stringify(path))
  }
})

// ---------------------------------------------------------------------------
// Host

t.test('Host: right after the request line, before the user\'s headers', async (t) => {
  const { headers } = split(encodeRequest({ host: 'example.com:8080', headers: { Accept: '*/*', 'X-A': 'b' } }))
  t.same(headers, ['Host: example.com:8080', 'Connection: keep-alive', 'Accept: */*', 'X-A: b'])
})

t.test('Host: left out when no host is given', async (t) => {
  t.equal(latin1(encodeRequest({})), 'GET / HTTP/1.1\r\nConnection: keep-alive\r\n\r\n')
  t.equal(latin1(encodeRequest({ host: '' })), 'GET / HTTP/1.1\r\nConnection: keep-alive\r\n\r\n')
  t.equal(latin1(encodeRequest({ host: null })), 'GET / HTTP/1.1\r\nConnection: keep-alive\r\n\r\n')
})

t.test('Host: the user\'s own, in any case, replaces ours and is not doubled', async (t) => {
  for (const name of ['Host', 'host', 'HOST', 'hOsT']) {
    const buf = encodeRequest({ host: '127.0.0.1:3000', headers: { 'X-Before': '1', [name]: 'virtual.example', 'X-After': '2' } })
    const { headers } = split(buf)
    t.equal(count(headers, 'host'), 1, `${name}: one Host`)
    t.same(headers, ['Connection: keep-alive', 'X-Before: 1', `${name}: virtual.example`, 'X-After: 2'], `${name}: the user's, where they put it`)
  }
  const nulled = split(encodeRequest({ host: 'h:1', headers: { Host: undefined } })).headers
  t.same(nulled, ['Host: h:1', 'Connection: keep-alive'], 'a Host of undefined is no Host: ours is sent')
})

t.test('Host: a host with CR/LF or control characters is refused', async (t) => {
  for (const host of ['h\r\nX-Injected: 1', 'h\n', 'h\u0000', 'h\u007f']) {
    throwsOption(t, () => encodeRequest({ host }), 'host',
      `invalid option "host": ${JSON.stringify(host)} must be a string without CR, LF or other control characters`, JSON.stringify(host))
  }
  throwsOption(t, () => encodeRequest({ host: 80 }), 'host',
    'invalid option "host": 80 must be a string without CR, LF or other control characters', 'non-string host')
})

// ---------------------------------------------------------------------------
// user headers

t.test('user headers: names keep their case, order is kept, arrays repeat the header', async (t) => {
  const { headers } = split(encodeRequest({
    host: 'h',
    headers: {
      'X-Custom-Header': 'Value',
      'x-lower': 'v',
      'X-UPPER': 'V',
      Accept: ['a/b', 'c/d'],
      'Set-Cookie': ['a=1', 'b=2', 'c=3'],
      'X-Number': 3,
      'X-Zero': 0,
      'X-Bool': false,
      'X-Empty': '',
      'X-Spaces': '  padded  ',
      'X-Tab': 'a\tb',
      'X-Obs': 'caf\u00e9',
      "!#$%&'*+-.^_`|~09azAZ": 'tchars'
    }
  }))
  t.same(headers, [
    'Host: h',
    'Connection: keep-alive',
    'X-Custom-Header: Value',
    'x-lower: v',
    'X-UPPER: V',
    'Accept: a/b',
    'Accept: c/d',
    'Set-Cookie: a=1',
    'Set-Cookie: b=2',
    'Set-Cookie: c=3',
    'X-Number: 3',
    'X-Zero: 0',
    'X-Bool: false',
    'X-Empty: ',
    'X-Spaces:   padded  ',
    'X-Tab: a\tb',
    'X-Obs: caf\u00c3\u00a9',
    "!#$%&'*+-.^_`|~09azAZ: tchars"
  ])
  const buf = encodeRequest({ host: 'h', headers: { 'X-Obs': 'caf\u00e9' } })
  t.ok(buf.includes(Buffer.from([0x63, 0x61, 0x66, 0xc3, 0xa9, 0x0d, 0x0a])), 'é as UTF-8 (c3 a9), as autocannon sends it')
})

t.test('user headers: values beyond ASCII go out as their UTF-8 bytes, as autocannon sends them', async (t) => {
  for (const value of ['\u0100', '\u010a', '日本', '😀', 'a\u2028b', 'Jürgen']) {
    const buf = encodeRequest({ host: 'h', headers: { 'X-Value': value } })
    const expected = Buffer.concat([Buffer.from('GET / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\nX-Value: '), Buffer.from(value, 'utf8'), Buffer.from('\r\n\r\n')])
    t.same(buf, expected, show(value))
  }
  const upstream = require('autocannon-upstream/lib/httpRequestBuilder')
  const theirs = upstream({ hostname: '127.0.0.1', port: 3000, method: 'GET', path: '/', headers: { 'X-Name': 'Jürgen 日本' } })()
  const ours = encodeRequest({ host: '127.0.0.1:3000', headers: { 'X-Name': 'Jürgen 日本' } })
  const value = (buf) => buf.subarray(buf.indexOf('X-Name: '), buf.indexOf('\r\n', buf.indexOf('X-Name: ')))
  t.same(value(ours), value(theirs), 'the same bytes as autocannon 9 for the value')
})

t.test('the head autocannon 9 writes, byte for byte: plain, headers, a body, a Content-Length of the user\'s, a Host of the user\'s', async (t) => {
  const upstream = require('autocannon-upstream/lib/httpRequestBuilder')
  const cases = {
    plain: {},
    headers: { headers: { 'x-a': '1', Accept: 'text/plain' } },
    body: { method: 'POST', body: 'hello' },
    'body and headers': { method: 'PUT', body: Buffer.from('héllo'), headers: { 'content-type': 'text/plain', 'x-b': ['1', '2'].join(',') } },
    'the user\'s Content-Length': { method: 'POST', body: 'hello', headers: { 'Content-Length': '5', 'x-b': '2' } },
    'the user\'s Host': { headers: { 'x-a': '1', host: 'example.com' } }
  }
  for (const [name, req] of Object.entries(cases)) {
    const theirs = upstream({ hostname: '127.0.0.1', port: 3000 })({ path: '/p?q=1', ...req, headers: { ...req.headers } })
    const ours = encodeRequest({ host: '127.0.0.1:3000', path: '/p?q=1', ...req })
    t.equal(latin1(ours), latin1(theirs), name)
  }
})

t.test('user headers: undefined and null values are left out, before any check', async (t) => {
  t.equal(latin1(encodeRequest({ host: 'h', headers: { 'x-a': undefined, 'x-b': null, 'x-c': 3, 'bad name': undefined } })),
    'GET / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\nx-c: 3\r\n\r\n')
  t.equal(latin1(encodeRequest({ host: 'h', headers: {} })), latin1(encodeRequest({ host: 'h' })), 'empty headers object')
  t.equal(latin1(encodeRequest({ host: 'h', headers: null })), latin1(encodeRequest({ host: 'h' })), 'null headers')
})

t.test('user headers: names that are not tokens are refused', async (t) => {
  const bad = ['X A', 'X:A', 'X-A:', '(x)', 'x@y', 'x,y', 'x;y', 'x=y', 'x/y', 'x"y', 'x[y]', 'x{y}', 'x?y', 'x\\y',
    'x<y>', 'X\r\nInjected', 'X\n', 'X\t', 'X\u0000', 'X\u007f', 'caf\u00e9', '日本', '']
  for (const name of bad) {
    throwsOption(t, () => encodeRequest({ host: 'h', headers: { [name]: 'v' } }), 'headers',
      `invalid option "headers": ${JSON.stringify(name)} header name is not a valid HTTP token`, JSON.stringify(name))
  }
  throwsOption(t, () => encodeRequest({ host: 'h', headers: { 'Content Length': '5' } }), 'headers',
    'invalid option "headers": "Content Length" header name is not a valid HTTP token', 'a framing-looking bad name')
})

t.test('user headers: values with CR, LF or control characters are refused', async (t) => {
  const bad = ['a\r\nX-Injected: 1', 'a\rb', 'a\nb', '\r\n', 'a\u0000', '\u0001', '\u001f', 'a\u007f']
  for (const value of bad) {
    throwsOption(t, () => encodeRequest({ host: 'h', headers: { 'X-Value': value } }), 'headers',
      'invalid option "headers": "X-Value" header value must not contain CR, LF or other control characters', show(value))
  }
  throwsOption(t, () => encodeRequest({ host: 'h', headers: { Accept: ['ok', 'bad\r\nX: y'] } }), 'headers',
    'invalid option "headers": "Accept" header value must not contain CR, LF or other control characters', 'one bad value in an array')
  throwsOption(t, () => encodeRequest({ host: 'h', headers: { Host: 'a\r\nb' } }), 'headers',
    'invalid option "headers": "Host" header value must not contain CR, LF or other control characters', 'the user\'s Host')
  throwsOption(t, () => encodeRequest({ host: 'h', headers: { Connection: 'close\nX: y' } }), 'headers',
    'invalid option "headers": "Connection" header value must not contain CR, LF or other control characters', 'the user\'s Connection')
  throwsOption(t, () => encodeRequest({ host: 'h', headers: { 'X-Obj': { toString: () => 'a\nb' } } }), 'headers',
    'invalid option "headers": "X-Obj" header value must not contain CR, LF or other control characters', 'checked after String()')
})

// ---------------------------------------------------------------------------
// bodies and Content-Length

t.test('Content-Length: computed from the bytes of a string body (UTF-8)', async (t) => {
  const cases = ['hello', 'héllo wörld', '€', '日本語テキスト', '😀👍', 'a\u0000b\r\n\r\nc', ' ']
  for (const body of cases) {
    const buf = encodeRequest({ method: 'POST', path: '/p', host: 'h', body })
    const bytes = Buffer.from(body, 'utf8')
    const { requestLine, headers, body: sent } = split(buf)
    t.equal(requestLine, 'POST /p HTTP/1.1')
    t.same(headers, ['Host: h', 'Connection: keep-alive', `Content-Length: ${bytes.length}`], `${JSON.stringify(body)}: ${bytes.length} bytes`)
    t.same(sent, bytes, `${JSON.stringify(body)}: body is the UTF-8 bytes`)
    t.equal(buf.length, buf.indexOf('\r\n\r\n') + 4 + bytes.length, 'nothing after the body')
  }
  t.equal(latin1(encodeRequest({ method: 'POST', host: 'h', body: 'héllo' })).match(/Content-Length: (\d+)/)[1], '6', 'bytes, not characters')
  t.equal(latin1(encodeRequest({ method: 'POST', host: 'h', body: '😀' })).match(/Content-Length: (\d+)/)[1], '4', 'a surrogate pair is 4 bytes')
})

t.test('Content-Length: Buffer and Uint8Array bodies are sent as they are', async (t) => {
  const bin = Buffer.from([0x00, 0xff, 0x0d, 0x0a, 0x80, 0xc3, 0x28, 0x0a])
  const buf = encodeRequest({ method: 'PUT', path: '/bin', host: 'h', body: bin })
  t.equal(latin1(buf.subarray(0, buf.indexOf('\r\n\r\n') + 4)),
    'PUT /bin HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\nContent-Length: 8\r\n\r\n')
  t.same(split(buf).body, bin, 'binary bytes unchanged')

  const backing = new Uint8Array([9, 9, 1, 2, 3, 9])
  const view = backing.subarray(2, 5)
  const u8 = encodeRequest({ method: 'POST', host: 'h', body: view })
  t.same(split(u8).body, Buffer.from([1, 2, 3]), 'only the bytes of the view')
  t.match(latin1(u8), /\r\nContent-Length: 3\r\n\r\n/)

  const slice = Buffer.from('xxabcxx').subarray(2, 5)
  t.same(split(encodeRequest({ method: 'POST', host: 'h', body: slice })).body, Buffer.from('abc'), 'a Buffer slice')

  const empty = encodeRequest({ method: 'POST', host: 'h', body: Buffer.alloc(0) })
  t.equal(latin1(empty), 'POST / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n')
  t.equal(latin1(encodeRequest({ method: 'GET', host: 'h', body: '' })),
    'GET / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n', 'an empty string body is a body of 0 bytes')
  t.equal(latin1(encodeRequest({ method: 'GET', host: 'h', body: 'q' })),
    'GET / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nq', 'a GET may have a body')
})

t.test('Content-Length: the user\'s is dropped and ours is sent, once, where the user put theirs', async (t) => {
  for (const name of ['Content-Length', 'content-length', 'CONTENT-LENGTH']) {
    const buf = encodeRequest({ method: 'POST', host: 'h', headers: { [name]: '999', 'X-A': 'b' }, body: 'héllo' })
    const { headers, body } = split(buf)
    t.equal(count(headers, 'content-length'), 1, `${name}: one Content-Length`)
    t.same(headers, ['Host: h', 'Connection: keep-alive', 'Content-Length: 6', 'X-A: b'], `${name}: the right one`)
    t.equal(body.toString(), 'héllo')
  }
  const noBody = split(encodeRequest({ method: 'GET', host: 'h', headers: { 'Content-Length': '5' } })).headers
  t.same(noBody, ['Host: h', 'Connection: keep-alive'], 'a stale length without a body is dropped')
  const post = split(encodeRequest({ method: 'POST', host: 'h', headers: { 'content-length': '5' } })).headers
  t.same(post, ['Host: h', 'Connection: keep-alive', 'Content-Length: 0'])
  const bad = split(encodeRequest({ method: 'POST', host: 'h', headers: { 'Content-Length': 'x\r\ny' }, body: 'a' })).headers
  t.same(bad, ['Host: h', 'Connection: keep-alive', 'Content-Length: 1'], 'dropped before its value is looked at')
})

t.test('Content-Length: 0 for a body-less POST, PUT or PATCH only', async (t) => {
  for (const method of ['POST', 'PUT', 'PATCH']) {
    t.equal(latin1(encodeRequest({ method, host: 'h' })), `${method} / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n`, method)
    t.equal(latin1(encodeRequest({ method, host: 'h', body: null })), `${method} / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n`, `${method} with a null body`)
  }
  for (const method of ['GET', 'HEAD', 'DELETE', 'OPTIONS', 'post', 'Put']) {
    t.equal(latin1(encodeRequest({ method, host: 'h' })), `${method} / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\n\r\n`, method)
  }
})

t.test('bodies of other types are refused', async (t) => {
  const cases = [
    [42, '42'],
    [{ a: 1 }, '{"a":1}'],
    [['a'], '["a"]'],
    [true, 'true'],
    [new ArrayBuffer(2), '{}']
  ]
  for (const [body, shown] of cases) {
    throwsOption(t, () => encodeRequest({ method: 'POST', host: 'h', body }), 'body',
      `invalid option "body": ${shown} must be a string or a Buffer`, shown)
  }
})

// ---------------------------------------------------------------------------
// keep-alive and Transfer-Encoding

t.test('Connection: keep-alive unless the user says otherwise, never twice', async (t) => {
  const def = split(encodeRequest({ host: 'h', headers: { 'X-A': '1' } })).headers
  t.same(def, ['Host: h', 'Connection: keep-alive', 'X-A: 1'], 'before the user\'s headers, as autocannon writes it')
  for (const [name, value] of [['Connection', 'close'], ['connection', 'Close'], ['CONNECTION', 'keep-alive'], ['Connection', 'Upgrade']]) {
    const { headers } = split(encodeRequest({ host: 'h', headers: { [name]: value } }))
    t.equal(count(headers, 'connection'), 1, `${name}: ${value}: one Connection`)
    t.same(headers, ['Host: h', `${name}: ${value}`], `${name}: ${value}: the user's`)
  }
  const post = split(encodeRequest({ method: 'POST', host: 'h', headers: { Connection: 'close' }, body: 'x' })).headers
  t.same(post, ['Host: h', 'Connection: close', 'Content-Length: 1'])
  const nulled = split(encodeRequest({ host: 'h', headers: { Connection: null } })).headers
  t.same(nulled, ['Host: h', 'Connection: keep-alive'], 'a null Connection is no Connection')
})

t.test('Transfer-Encoding: chunked sends the body as one chunk', async (t) => {
  const body = 'héllo wörld, a body of some length'
  const bytes = Buffer.from(body)
  const buf = encodeRequest({ method: 'POST', path: '/up', host: 'h', headers: { 'transfer-encoding': 'chunked', 'Content-Length': '3' }, body })
  const expected = Buffer.concat([
    Buffer.from('POST /up HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n'),
    Buffer.from(bytes.length.toString(16) + '\r\n'), bytes, Buffer.from('\r\n0\r\n\r\n')
  ])
  t.same(buf, expected, 'hex size of the bytes, the bytes, the last chunk; no Content-Length')
  t.equal(bytes.length.toString(16), '24')

  const big = Buffer.alloc(300, 0x61)
  const bigBuf = encodeRequest({ method: 'POST', host: 'h', headers: { 'Transfer-Encoding': 'Chunked' }, body: big })
  t.equal(latin1(bigBuf.subarray(bigBuf.indexOf('\r\n\r\n') + 4, bigBuf.indexOf('\r\n\r\n') + 9)), '12c\r\n', 'lower-case hex size')
  t.equal(latin1(bigBuf).match(/Transfer-Encoding/gi).length, 1, 'one Transfer-Encoding')

  t.equal(latin1(encodeRequest({ method: 'POST', host: 'h', headers: { 'Transfer-Encoding': 'gzip, chunked' } })),
    'POST / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 'no body: the last chunk only')
  t.equal(latin1(encodeRequest({ method: 'POST', host: 'h', headers: { 'Transfer-Encoding': 'chunked' }, body: '' })),
    'POST / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', 'empty body: the last chunk only')
  t.equal(latin1(encodeRequest({ method: 'POST', host: 'h', headers: { 'Transfer-Encoding': ['gzip', 'chunked'] }, body: 'ab' })),
    'POST / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n', 'an array value')
})

t.test('Transfer-Encoding other than chunked is dropped and Content-Length used', async (t) => {
  t.equal(latin1(encodeRequest({ method: 'POST', host: 'h', headers: { 'Transfer-Encoding': 'gzip' }, body: 'abc' })),
    'POST / HTTP/1.1\r\nHost: h\r\nConnection: keep-alive\r\nContent-Length: 3\r\n\r\nabc')
})

// ---------------------------------------------------------------------------
// through an HTTP proxy (--proxy)

const basic = (user, pass) => 'Basic ' + Buffer.from(`${user}:${pass}`).toString('base64')

t.test('absolute form, for an HTTP proxy: decided when the bytes are built', async (t) => {
  const form = { origin: 'http://a.test:81', proxyAuthorization: basic('u', 'p') }
  const bytes = encodeRequest({ method: 'GET', path: '/x?y=1', host: 'a.test:81', headers: { Accept: '*/*' } }, form)
  t.equal(bytes.toString('latin1'),
    'GET http://a.test:81/x?y=1 HTTP/1.1\r\nHost: a.test:81\r\nConnection: keep-alive\r\nAccept: */*\r\n' +
    `Proxy-Authorization: ${basic('u', 'p')}\r\n\r\n`)
  t.equal(encodeRequest({ method: 'POST', path: '/', host: 'a.test', body: 'hi' }, { origin: 'http://a.test' }).toString('latin1'),
    'POST http://a.test/ HTTP/1.1\r\nHost: a.test\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nhi', 'no credentials, no Proxy-Authorization')
  t.match(encodeRequest({ method: 'OPTIONS', path: '*', host: 'a.test' }, form).toString('latin1'), /^OPTIONS \* HTTP\/1\.1\r\n/, '"*" stays as it is')
  const own = encodeRequest({ path: '/', host: 'a.test', headers: { 'proxy-authorization': 'Bearer mine' } }, form).toString('latin1')
  t.match(own, /proxy-authorization: Bearer mine\r\n/)
  t.equal(own.split('roxy-Authorization').length + own.split('roxy-authorization').length, 3, 'the user\'s own Proxy-Authorization wins, once')
  t.equal(encodeRequest({ path: '/x', host: 'a.test' }).toString('latin1'), 'GET /x HTTP/1.1\r\nHost: a.test\r\nConnection: keep-alive\r\n\r\n', 'without it: origin form')

  // A connection's sequence builds its bytes once, absolute form included;
  // hooks and [<id>] replacement get it too.
  const base = { method: 'GET', path: '/p', headers: {}, host: 'a.test:81', absoluteForm: form }
  const plain = new RequestSequence(base, undefined, { encoding: http1Encoding })
  t.equal(plain.staticBytes.toString('latin1').split('\r\n')[0], 'GET http://a.test:81/p HTTP/1.1')
  t.equal(plain.next(), plain.staticBytes, 'the same Buffer every time: nothing per request')
  const ids = new RequestSequence(base, [{ path: '/i/[<id>]' }], { encoding: http1Encoding, idReplacement: true })
  t.match(ids.next().toString('latin1'), /^GET http:\/\/a\.test:81\/i\/[A-Za-z0-9_-]{22}-\d{10} HTTP\/1\.1\r\n/)
  const hooked = new RequestSequence(base, [{ setupRequest: (req) => ({ ...req, path: '/hooked' }) }], { encoding: http1Encoding })
  t.match(hooked.next().toString('latin1'), /^GET http:\/\/a\.test:81\/hooked HTTP\/1\.1\r\n[^]*Proxy-Authorization: /)
})
