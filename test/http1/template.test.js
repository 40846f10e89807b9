'use strict'

// {{…}} in the URL path, headers and body, over HTTP/1.1
// (lib/http1/template.js): compiled once into chunks and holes, filled per
// request; {{line}} in the file's order; the random ones replayed by the
// seed. The holes themselves: test/client/templates.test.js. Through the
// library and the CLI: test/e2e/templates.test.js.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { compile, fill } = require('../../lib/http1/template')
const { createState } = require('../../lib/client/templates')
const { encodeRequest } = require('../../lib/http1/request-encoder')
const { seededRandom } = require('../../lib/core/random')

const encode = (req) => encodeRequest({ ...req, host: 'h' })

function split (buf) {
  const text = buf.toString('latin1')
  const end = text.indexOf('\r\n\r\n')
  const lines = text.slice(0, end).split('\r\n')
  const headers = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 2)]))
  return { requestLine: lines[0], headers, body: Buffer.from(text.slice(end + 4), 'latin1') }
}

t.test('compile and fill: holes in the path, a header and the body; Content-Length follows the body', async (t) => {
  const compiled = compile({
    method: 'POST',
    path: '/users/%7B%7Bseq%7D%7D?c={{conn}}',
    headers: { 'X-Req': '{{uuid}}', 'X-Static': 'same' },
    body: '{"id":{{seq}},"n":{{int 1 3}},"k":"{{pick a|bb|ccc}}","é":"{{pick ü|x}}"}'
  }, encode)
  t.ok(compiled.body, 'the body has holes of its own')
  const state = createState({ random: seededRandom(1) })
  const seen = { n: new Set(), k: new Set() }
  for (let i = 0; i < 200; i++) {
    const { requestLine, headers, body } = split(fill(compiled, state, 7))
    t.equal(requestLine, `POST /users/${i}?c=7 HTTP/1.1`)
    t.match(headers['x-req'], /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a v4 uuid')
    t.equal(headers['x-static'], 'same')
    t.equal(Number(headers['content-length']), body.length, 'Content-Length is the body\'s bytes')
    const json = JSON.parse(body.toString('utf8'))
    t.equal(json.id, i, '{{seq}} is one value per request')
    seen.n.add(json.n)
    seen.k.add(json.k)
    t.ok(['ü', 'x'].includes(json['é']), 'UTF-8 values as UTF-8 bytes')
  }
  t.same([...seen.n].sort(), [1, 2, 3], '{{int 1 3}}: 1 to 3')
  t.same([...seen.k].sort(), ['a', 'bb', 'ccc'])
  t.equal(compile({ method: 'GET', path: '/', headers: {}, body: 'plain' }, encode), null, 'no template: nothing compiled')
  const headOnly = compile({ method: 'GET', path: '/{{pick a b|c}}', headers: {}, body: undefined }, encode)
  t.equal(headOnly.body, null)
  const values = new Set()
  for (let i = 0; i < 50; i++) values.add(split(fill(headOnly, state, 0)).requestLine)
  t.same([...values].sort(), ['GET /a%20b HTTP/1.1', 'GET /c HTTP/1.1'], 'a value in the path is percent-encoded where it must be')
})

t.test('the same seed fills the same values; {{line}} goes round the file in order', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-tpl-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  fs.writeFileSync(path.join(dir, 'names.txt'), 'alpha\nbeta\ngamma\n')
  const compiled = compile({ method: 'GET', path: '/{{line names.txt}}/{{uuid}}/{{int 1 1000}}', headers: {} }, encode, { dir })
  const draw = (seed) => {
    const state = createState({ random: seededRandom(seed) })
    return Array.from({ length: 7 }, () => split(fill(compiled, state, 0)).requestLine)
  }
  t.same(draw(5), draw(5))
  t.notSame(draw(5), draw(6))
  t.same(draw(5).map((l) => l.split('/')[1]), ['alpha', 'beta', 'gamma', 'alpha', 'beta', 'gamma', 'alpha'])
  const state = createState({ random: Math.random, stride: 4, offset: 3 })
  const seqs = compile({ method: 'GET', path: '/{{seq}}', headers: {} }, encode)
  t.same([0, 1, 2].map(() => split(fill(seqs, state, 0)).requestLine), ['GET /3 HTTP/1.1', 'GET /7 HTTP/1.1', 'GET /11 HTTP/1.1'], 'k * stride + offset')
})

t.test('compiling: text in braces that is no template, control characters, a chunked body', async (t) => {
  t.equal(compile({ method: 'POST', path: '/', headers: {}, body: 'Hi {{name}}' }, encode), null)
  t.throws(() => compile({ method: 'GET', path: '/', headers: { X: '{{pick a|b\nc}}' } }, encode), /control characters/)
  t.throws(() => compile({ method: 'POST', path: '/', headers: { 'Transfer-Encoding': 'chunked' }, body: 'n={{seq}}' }, encode), /chunked body: the chunk size would be wrong/)
  t.ok(compile({ method: 'POST', path: '/{{seq}}', headers: { 'Transfer-Encoding': 'chunked' }, body: 'plain' }, encode), 'holes outside a chunked body are fine')
})
