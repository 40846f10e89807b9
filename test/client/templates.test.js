'use strict'

// The templates both protocols fill (lib/client/templates.js): which
// values have any, a malformed one refused before the run naming the
// option and the position, the holes marked in a request, and the state
// their values draw from. Compiled into HTTP/1.1 bytes:
// test/http1/template.test.js; into HTTP/2 frames:
// test/http2/request-template.test.js.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { hasTemplate, check, markTemplate, createState } = require('../../lib/client/templates')

t.test('which values have templates: strings, a percent-encoded path, Buffers', async (t) => {
  t.equal(hasTemplate('/a/{{seq}}'), true)
  t.equal(hasTemplate('/a/%7B%7Bseq%7D%7D'), true)
  t.equal(hasTemplate(Buffer.from('x={{uuid}}')), true)
  t.equal(hasTemplate('/a/{seq}'), false)
  t.equal(hasTemplate(undefined), false)
  t.equal(hasTemplate(42), false)
})

t.test('malformed templates: the option and the position; other {{…}} are text', async (t) => {
  const bad = (value, option, re) => t.throws(() => check(value, option), { code: 'AC_INVALID_OPTION', option, message: re })
  bad('x {{int 5 1}}', 'body', /at character 3: \{\{int A B\}\} needs two integers, A <= B/)
  bad('{{int a b}}', 'body', /needs two integers/)
  bad('{{seq 1}}', 'headers', /at character 1: \{\{seq\}\} takes nothing/)
  bad('/a/{{pick a||b}}', 'url', /at character 4: \{\{pick a\|b\|c\}\} needs choices/)
  bad('{{line /nonexistent/file}}', 'body', /the file \/nonexistent\/file cannot be read: it does not exist/)
  bad('abc {{seq', 'body', /at character 5: "\{\{seq" without its "\}\}"/)
  bad('/x/%7B%7Bnow 1%7D%7D', 'url', /\{\{now\}\} takes nothing/)
  t.equal(check('Hello {{user.name}}, {{ }}', 'body'), false, 'a Mustache template is sent as it is')
  t.equal(check('/users/{{seq}}', 'url'), true)
  t.equal(check('no braces', 'body'), false)
})

t.test('marking a request: its holes in order, the head\'s before the body\'s; none is null', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-tpl-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  fs.writeFileSync(path.join(dir, 'names.txt'), 'alpha\nbeta\n')
  const marked = markTemplate({ method: 'POST', path: '/u/%7B%7Bseq%7D%7D', headers: { 'X-Id': '{{uuid}}', Accept: 'text/plain' }, body: '{"n":"{{line names.txt}}","k":{{int 1 9}}}' }, { dir })
  t.same(marked.holes.map((h) => h.kind), ['seq', 'uuid', 'line', 'int'])
  t.equal(marked.headHoles, 2)
  t.equal(marked.bodyHoles, true)
  t.same(marked.holes[2].lines, ['alpha', 'beta'], 'the file\'s lines, read once; a last newline ends the last line')
  t.same(marked.holes[3], { kind: 'int', low: 1, span: 9, inPath: false }, '{{int 1 9}}: nine values from 1')
  t.equal(marked.req.headers.Accept, 'text/plain', 'a header without holes is as it was')
  const path_ = marked.cut(marked.req.path)
  t.same([path_.parts, path_.holes.map((h) => h.kind)], [['/u/', ''], ['seq']], 'the path cut around its hole')
  // Values are sent as UTF-8 bytes, and in a path percent-encoded: once,
  // when marked.
  const inPath = markTemplate({ method: 'GET', path: '/{{pick a b|é}}', headers: { X: '{{pick é|c}}' } })
  t.same(inPath.holes.map((h) => h.options), [['a%20b', '%C3%A9'], ['\u00c3\u00a9', 'c']], 'in the path percent-encoded; in a header, UTF-8 bytes as latin1')
  t.equal(markTemplate({ method: 'GET', path: '/', headers: { A: 'b' } }), null)
  t.throws(() => markTemplate({ method: 'GET', path: '/', headers: { X: '{{pick a|b\nc}}' } }), /control characters/)
})

t.test('the state: seq is k * stride + offset, lines go round their file, one cursor per file', async (t) => {
  const state = createState({ random: Math.random, stride: 4, offset: 3 })
  t.same([state.nextSeq(), state.nextSeq(), state.nextSeq()], [3, 7, 11])
  const a = { file: '/a', lines: ['1', '2', '3'] }
  const b = { file: '/b', lines: ['x', 'y'] }
  t.same([a, a, b, a, b, b, a].map((h) => state.nextLine(h)), ['1', '2', 'x', '3', 'y', 'x', '1'])
  const again = createState({ random: Math.random })
  t.same([again.nextSeq(), again.nextSeq()], [0, 1], 'each state counts from its own start')
})

t.test('a URL\'s path and query keep their templates as written; other double braces are the parser\'s', async (t) => {
  const { urlPath } = require('../../lib/client/templates')
  t.equal(urlPath('http://h:1/a/{{int 1 5}}/b c?q={{pick a b|c#d}}&s={{seq}}#f {{seq}}'), '/a/{{int 1 5}}/b%20c?q={{pick a b|c#d}}&s={{seq}}', 'a "#" inside a template ends nothing')
  t.equal(urlPath('http://h/a/./b/../{{seq}}'), '/a/{{seq}}', 'dot segments outside templates are the parser\'s')
  t.equal(urlPath('http://h/{{line a/../b.txt}}'), '/{{line a/../b.txt}}', 'inside a template they are the file\'s')
  t.equal(urlPath('http://h/{{user.name}}?x={{ y }}'), '/%7B%7Buser.name%7D%7D?x={{%20y%20}}', 'not ours: as the parser encodes it')
  t.equal(urlPath('http://h?q={{int 1 2}}'), '/?q={{int 1 2}}', 'a query straight after the host')
})

t.test('values in a path and in a query: each percent-encoded by its part\'s set, as a browser does', async (t) => {
  const marked = markTemplate({ method: 'GET', path: '/{{pick a b|q?r|s#t|"<>`^|50%|it\'s|é}}?x={{pick a b|q?r|s#t|"<>`^|50%|it\'s|é}}&{{pick ?}}', headers: {} })
  t.same(marked.holes.map((h) => h.options), [
    ['a%20b', 'q%3Fr', 's%23t', '%22%3C%3E%60%5E', '50%', 'it\'s', '%C3%A9'],
    ['a%20b', 'q?r', 's%23t', '%22%3C%3E`^', '50%', 'it%27s', '%C3%A9'],
    ['?']
  ], 'path: ? # ` ^ encoded too; query: \' encoded; % as it is in both')
  t.same(marked.holes.map((h) => h.inQuery === true), [false, true, true])
  const afterHole = markTemplate({ method: 'GET', path: '/{{pick a?b}}/{{pick ?}}', headers: {} })
  t.same(afterHole.holes.map((h) => h.options), [['a%3Fb'], ['%3F']], 'a "?" inside a template starts no query')
})
