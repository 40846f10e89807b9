'use strict'

// --targets FILE, vegeta's plain format: `METHOD URL` lines, their headers,
// an `@file` body relative to the targets file, blank lines between
// requests, `#` comments. Each line that is none of these refused by its
// number; the requests grouped by the targets' origins.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { parseTargets, requestsByOrigin } = require('../../lib/config/targets')
const { tempDir } = require('../helpers/recording')

const tmpdir = (t) => tempDir(t, 'ac-targets-')

t.test('parse: requests, headers, body files, comments; bad lines by number', async (t) => {
  const dir = tmpdir(t)
  fs.writeFileSync(path.join(dir, 'b.bin'), 'BODY')
  const entries = parseTargets('GET http://a:1/x?y=1\nA: 1\nA: 2\n\n\nput http://a:1/z\n@b.bin\n', 't.txt', dir)
  t.same(entries.map((e) => [e.origin, e.request.method, e.request.path, e.line]), [['http://a:1', 'GET', '/x?y=1', 1], ['http://a:1', 'PUT', '/z', 6]])
  t.same(entries[0].request.headers, { A: ['1', '2'] })
  t.equal(entries[1].request.body.toString(), 'BODY')
  t.equal(entries[0].request.body, null)
  const bad = (text, re) => t.throws(() => parseTargets(text, 't.txt', dir), { code: 'AC_INVALID_OPTION', option: 'targets', message: re })
  bad('GET\n', /line 1: "GET" is not a request line/)
  bad('GET http://a:1/\nnot a header\n', /line 2: "not a header" is not a header/)
  bad('GET notaurl\n', /line 1: "notaurl" is not a URL/)
  bad('GET ftp://a/\n', /line 1: .*only http/)
  bad('GET http://a:1/\n@missing.bin\n', /line 2: the body file .*missing\.bin cannot be read: it does not exist/)
  bad('GET http://a:1/\n@b.bin\n@b.bin\n', /line 3: a second body file/)
  bad('# only a comment\n', /no request in the file/)
})

t.test('each request exactly: CRLF lines, comments inside a request, framing headers dropped, frozen', async (t) => {
  const dir = tmpdir(t)
  fs.writeFileSync(path.join(dir, 'body.json'), '{"a":1}')
  const text = [
    '# users',
    '  GET https://api.test/users?page=2  ',
    'X-Account: 8675309',
    '# a comment does not end the request',
    'Content-Length: 99',
    'transfer-encoding: chunked',
    'Connection: close',
    'Accept:   text/plain  ',
    '',
    'delete http://api.test:8080/users/1#top',
    '@ body.json',
    ''
  ].join('\r\n')
  const entries = parseTargets(text, 'targets.txt', dir)
  t.same(entries.map((e) => e.origin), ['https://api.test', 'http://api.test:8080'])
  t.same(entries.map((e) => e.line), [2, 10], 'the request line\'s number')
  t.strictSame(entries[0].request, { method: 'GET', path: '/users?page=2', headers: { 'X-Account': '8675309', Accept: 'text/plain' }, body: null },
    'the framing headers are ours to write')
  t.equal(entries[1].request.method, 'DELETE', 'the method in capitals')
  t.equal(entries[1].request.path, '/users/1', 'no fragment')
  t.ok(Buffer.isBuffer(entries[1].request.body) && entries[1].request.body.toString() === '{"a":1}', 'the body file\'s bytes, blanks after @ skipped')
  t.ok(entries.every((e) => Object.isFrozen(e.request)), 'each request frozen')
})

t.test('the refusals, word for word', async (t) => {
  const dir = tmpdir(t)
  const message = (text) => {
    try {
      parseTargets(text, 'x.txt', dir)
    } catch (err) {
      return err.message
    }
    return null
  }
  const said = (rest) => `invalid option "targets": "x.txt" ${rest}`
  t.equal(message('GET http://a/ extra\n'), said('line 1: "GET http://a/ extra" is not a request line (METHOD URL)'))
  t.equal(message('G(T http://a/\n'), said('line 1: "G(T http://a/" is not a request line (METHOD URL)'), 'a method is a token')
  t.equal(message(`GET http://a/${'x'.repeat(80)} y\n`), said(`line 1: ${JSON.stringify(`GET http://a/${'x'.repeat(80)} y`.slice(0, 60))} is not a request line (METHOD URL)`), 'a long line cut at 60 characters')
  t.equal(message('GET mailto:x@y\n'), said('line 1: "mailto:x@y": only http:// and https:// are supported'))
  t.equal(message('GET http://a/\nno-colon-here-at-all\n'), said('line 2: "no-colon-her"… is not a header (Name: value) nor a body file (@path); requests are separated by a blank line'))
  t.equal(message('GET http://a/\n: value\n'), said('line 2: ": value" is not a header (Name: value) nor a body file (@path); requests are separated by a blank line'), 'a header has a name')
  t.equal(message('GET http://a/\nBad Name: v\n'), said('line 2: "Bad Name: v" is not a header (Name: value) nor a body file (@path); requests are separated by a blank line'), 'a name is a token')
  t.equal(message('GET http://a/\nX: a\u0007b\n'), said('line 2: "X: a\\u0007b" is not a header (Name: value) nor a body file (@path); requests are separated by a blank line'), 'a value has no control characters')
  t.equal(message('\n\n# nothing\n'), said('line 4: no request in the file (a METHOD URL line)'), 'the last line\'s number')
  t.equal(message(''), said('line 1: no request in the file (a METHOD URL line)'))
})

t.test('requestsByOrigin: the file read, its bodies beside it, its requests per target origin', async (t) => {
  const dir = tmpdir(t)
  fs.mkdirSync(path.join(dir, 'sub'))
  fs.writeFileSync(path.join(dir, 'sub', 'b.bin'), 'NEXT TO THE FILE')
  const file = path.join(dir, 'sub', 'targets.txt')
  fs.writeFileSync(file, 'GET http://a.test/1\n\nPOST http://a.test/2\n@b.bin\n\nGET http://elsewhere.test/3\n')
  const warnings = []
  const map = requestsByOrigin(file, [{ origin: 'http://a.test' }, { origin: 'http://b.test' }], { warn: (code, message) => warnings.push([code, message]) })
  t.same([...map.keys()], ['http://a.test'])
  t.same(map.get('http://a.test').map((r) => `${r.method} ${r.path}`), ['GET /1', 'POST /2'])
  t.equal(map.get('http://a.test')[1].body.toString(), 'NEXT TO THE FILE', 'an @file relative to the targets file, not to the working directory')
  t.same(warnings, [
    ['AC_TARGETS_OTHER_ORIGIN', 'skipping requests to \'http://elsewhere.test\' as the target is http://a.test, http://b.test (1 targets entry)'],
    ['AC_TARGETS_NO_ENTRY', 'no targets entry for http://b.test: requesting the URL itself']
  ])
  const missing = path.join(dir, 'missing.txt')
  t.throws(() => requestsByOrigin(missing, [{ origin: 'http://a.test' }]), {
    code: 'AC_INVALID_OPTION',
    option: 'targets',
    message: `invalid option "targets": ${JSON.stringify(missing)} cannot be read: the file does not exist`
  })
  t.throws(() => requestsByOrigin(dir, [{ origin: 'http://a.test' }]), { option: 'targets', message: /cannot be read: EISDIR/ }, 'another reason, the system\'s words')
})
