'use strict'

// --har: a HAR (its content, as JSON text, or a file) read into `requests`
// entries per target origin: each entry's method, path, headers (the
// framing ones and HTTP/2's pseudo-headers dropped) and body (its text, or
// its url-encoded params), in the HAR's order; a HAR that cannot be read
// or is not one refused in autocannon's words, ours in err.detail.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { requestsByOrigin, harEntries } = require('../../lib/config/har')
const { makeHar, entry } = require('../helpers/har')
const { tempDir } = require('../helpers/recording')
const { thrown } = require('../helpers/thrown')

const ORIGIN = 'http://localhost:3000'

// A HAR of these entries, its requests for ORIGIN.
function harOf (...entries) {
  return { log: { entries } }
}

function requestsOf (har) {
  return requestsByOrigin(har, [{ origin: ORIGIN }], { warn: () => {} }).get(ORIGIN)
}

t.test('requestsByOrigin maps origins to requests', async (t) => {
  const targets = [{ origin: 'http://localhost:3000' }]
  const warnings = []
  const map = requestsByOrigin(makeHar('http://localhost:3000'), targets, { warn: (code, m) => warnings.push([code, m]) })
  t.same([...map.keys()], ['http://localhost:3000'])
  t.same(map.get('http://localhost:3000').map((r) => r.path), ['/index.html?lang=en', '/api/login', '/api/prefs'])
  t.equal(map.get('http://localhost:3000')[0].body, null, 'no body: none, whatever the run\'s body')
  t.same(map.get('http://localhost:3000')[0].headers, { Accept: 'text/html' }, 'HTTP/2 pseudo-headers dropped')
  t.equal(warnings.length, 1)
})

t.test('each entry as a request: method, path, headers, body', async (t) => {
  t.strictSame(requestsOf(makeHar(ORIGIN)), [
    { method: 'GET', path: '/index.html?lang=en', headers: { Accept: 'text/html' }, body: null },
    { method: 'POST', path: '/api/login', headers: { 'Content-Type': 'application/json' }, body: '{"user":"jane"}' },
    { method: 'PUT', path: '/api/prefs', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'theme=dark%20mode&lang=en' }
  ], 'Content-Length dropped (ours to compute), params url-encoded')
  const [request] = requestsOf(harOf(entry('patch', `${ORIGIN}#frag`, {
    headers: [
      { name: 'X-Twice', value: 'a' },
      { name: 'x-other', value: 'b' },
      { name: 'X-Twice', value: 'c' },
      { name: 'Transfer-Encoding', value: 'chunked' },
      { name: 'CONNECTION', value: 'close' },
      { name: ':method', value: 'PATCH' }
    ]
  })))
  t.equal(request.method, 'PATCH', 'the method in capitals')
  t.equal(request.path, '/', 'no path is /, and the fragment is not sent')
  t.strictSame(request.headers, { 'X-Twice': ['a', 'c'], 'x-other': 'b' }, 'a repeated header is a list; framing headers dropped whatever their case')
  const params = requestsOf(harOf(entry('POST', `${ORIGIN}/f`, { postData: { params: [{ name: 'a b', value: 'x&y=z' }, { name: 'empty' }] } })))
  t.equal(params[0].body, 'a%20b=x%26y%3Dz&empty=', 'names and values encoded; a param without a value is empty')
  const both = requestsOf(harOf(entry('POST', `${ORIGIN}/f`, { postData: { text: 'the text', params: [{ name: 'p', value: 'q' }] } })))
  t.equal(both[0].body, 'the text', 'the text over the params')
  for (const postData of [{ mimeType: 'text/plain' }, { params: [] }, { text: 5 }]) {
    t.equal(requestsOf(harOf(entry('POST', `${ORIGIN}/f`, { postData })))[0].body, null, `no body from ${JSON.stringify(postData)}`)
  }
})

t.test('the HAR as content, JSON text, a Buffer or a file; the origins as the targets have them', async (t) => {
  const har = makeHar(ORIGIN)
  const paths = (got) => got.map((r) => r.path)
  const expected = ['/index.html?lang=en', '/api/login', '/api/prefs']
  t.same(paths(requestsOf(JSON.stringify(har))), expected, 'JSON text')
  t.same(paths(requestsOf(`  \n${JSON.stringify(har)}`)), expected, 'JSON text after blanks')
  t.same(paths(requestsOf(Buffer.from(JSON.stringify(har)))), expected, 'a Buffer')
  const file = path.join(tempDir(t), 'session.har')
  fs.writeFileSync(file, JSON.stringify(har))
  t.same(paths(requestsOf(file)), expected, 'a file path')
  const map = requestsByOrigin(makeHar('http://a.test', 'https://b.test:8443'), [{ origin: 'https://b.test:8443' }, { origin: 'http://a.test' }], { warn: () => {} })
  t.same([...map.keys()], ['http://a.test', 'https://b.test:8443'], 'each origin, in the HAR\'s order')
  t.same(map.get('https://b.test:8443').map((r) => r.path), ['/app.js', '/logo.png'])
  t.ok(Object.isFrozen(map.get('http://a.test')), 'an origin\'s list is frozen')
})

t.test('what cannot be read: autocannon\'s message, ours in the detail', async (t) => {
  const dir = tempDir(t)
  const broken = path.join(dir, 'broken.har')
  fs.writeFileSync(broken, 'this is not json')
  const missing = path.join(dir, 'missing.har')
  const cases = [
    ['{ "log": ', /^Failed to load HAR file content: .*JSON/, '"(HAR content)" is not valid JSON'],
    [broken, /^Failed to load HAR file content: Unexpected token/, `${JSON.stringify(broken)} is not valid JSON`],
    [missing, `Failed to load HAR file content: ENOENT: no such file or directory, open '${missing}'`, `${JSON.stringify(missing)} cannot be read: the file does not exist`]
  ]
  for (const [har, message, detail] of cases) {
    const err = thrown(() => requestsOf(har))
    // A file that cannot be read or is not JSON: the code for files.
    const [name, code] = har === broken || har === missing ? ['UnreadableFileError', 'AC_FILE_UNREADABLE'] : ['InvalidOptionError', 'AC_INVALID_OPTION']
    t.match(err, { name, code, option: 'har', message, detail }, detail)
    t.notMatch(err.message, /\n/, 'one line')
  }
})

t.test('what is not a HAR: autocannon\'s reason, entry by entry', async (t) => {
  const ok = { method: 'GET', url: `${ORIGIN}/`, headers: [] }
  const cases = [
    [{}, 'no entries found'],
    [{ log: {} }, 'no entries found'],
    [{ log: { entries: [] } }, 'no entries found'],
    [{ log: { entries: 'x' } }, 'no entries found'],
    [harOf({ request: ok }, {}), 'invalid request in entry #2'],
    [harOf({ request: 'GET /' }), 'invalid request in entry #1'],
    [harOf({ request: { ...ok, headers: 'nope' } }), 'invalid headers array in entry #1'],
    [harOf({ request: ok }, { request: { ...ok, headers: [{ name: 'a', value: 'b' }, { name: 'c' }] } }), 'invalid name or value in header #2 of entry #2'],
    [harOf({ request: { ...ok, method: '' } }), 'entry #1 has no "method"'],
    [harOf({ request: { ...ok, url: '/relative' } }), 'entry #1 has an invalid "url": "/relative"'],
    // Found here, before the run, not when the request is first encoded.
    [harOf({ request: { ...ok, method: 'GE T' } }), 'entry #1 has an invalid "method": "GE T" is not an HTTP method such as GET or POST'],
    [harOf({ request: { ...ok, headers: [{ name: 'x-a', value: 'b\r\nx-b: c' }] } }), 'header #1 of entry #1: "x-a" header value must not contain CR, LF or other control characters'],
    [harOf({ request: ok }, { request: { ...ok, headers: [{ name: 'a', value: 'b' }, { name: 'bad name', value: 'v' }] } }), /^header #2 of entry #2: "bad name" is not a valid header name/]
  ]
  for (const [har, reason] of cases) {
    t.throws(() => harEntries(har), { message: reason }, `harEntries: ${reason}`)
    t.match(thrown(() => requestsOf(har)), {
      code: 'AC_INVALID_OPTION',
      option: 'har',
      message: typeof reason === 'string' ? `Could not parse HAR content: ${reason}` : /^Could not parse HAR content: header #2/,
      detail: typeof reason === 'string' ? `"(HAR content)" is not a HAR: ${reason}` : /^"\(HAR content\)" is not a HAR: header #2/
    }, `requestsByOrigin: ${reason}`)
  }
  const file = path.join(tempDir(t), 'empty.har')
  fs.writeFileSync(file, JSON.stringify({ log: { entries: [] } }))
  t.match(thrown(() => requestsOf(file)), { message: 'Could not parse HAR content: no entries found', detail: '"(HAR content)" is not a HAR: no entries found' }, 'a file read, then found no HAR: the detail says so of its content')
})

t.test('harEntries: each entry\'s origin beside its request', async (t) => {
  const got = harEntries(harOf(entry('GET', 'HTTPS://Example.COM:443/a?b=1'), entry('GET', 'http://[::1]:8080/')))
  t.same(got.map((e) => e.origin), ['https://example.com', 'http://[::1]:8080'], 'as URL writes an origin, so it meets the target\'s')
  t.same(got.map((e) => e.request.path), ['/a?b=1', '/'])
})
