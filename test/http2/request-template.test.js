'use strict'

// lib/http2/request-template.js: {{…}} filled into HTTP/2 frames. Each
// request, decoded back (frames by hand, the block by the HPACK decoder),
// has the path, header values and body that HTTP/1.1's template writer
// writes for the same template from a state with the same seed: the same
// holes, drawn in the same order, {{seq}} numbered the same. Values of 127
// octets and more (a length of several octets), blocks and bodies above a
// frame, and requests kept while many more are made.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { compile } = require('../../lib/http1/template')
const { createState } = require('../../lib/client/templates')
const { TemplateWriter } = require('../../lib/http1/template-writer')
const { encodeRequest } = require('../../lib/http1/request-encoder')
const { h2Encoding } = require('../../lib/http2/request-frames')
const { compileH2 } = require('../../lib/http2/request-template')
const { seededRandom } = require('../../lib/core/random')
const { tempDir } = require('../helpers/recording')
const { framesOf, fieldsOf, END_STREAM, END_HEADERS } = require('../helpers/h2-framing')

const HOST = '127.0.0.1:3000'
const BASE = { host: HOST }

// HTTP/1.1's request as text → { path, headers (lower-case names), body }.
function h1Parts (bytes) {
  const text = bytes.latin1Slice(0, bytes.length)
  const at = text.indexOf('\r\n\r\n')
  const [line, ...lines] = text.slice(0, at).split('\r\n')
  const headers = {}
  for (const l of lines) {
    const colon = l.indexOf(':')
    headers[l.slice(0, colon).toLowerCase()] = l.slice(colon + 1).trim()
  }
  return { method: line.split(' ')[0], path: line.split(' ')[1], headers, body: Buffer.from(text.slice(at + 4), 'latin1') }
}

// An HTTP/2 request object → the same, checked to be well framed.
function h2Parts (t, req) {
  const frames = framesOf(req.frames)
  t.equal(frames[0].type, 'HEADERS')
  let block = Buffer.alloc(0)
  let k = 0
  for (; k < frames.length && (frames[k].type === 'HEADERS' || frames[k].type === 'CONTINUATION'); k++) block = Buffer.concat([block, frames[k].payload])
  t.equal(frames[k - 1].flags & END_HEADERS, END_HEADERS, 'the block ends with END_HEADERS')
  t.same(block, req.block, 'block is the frames\' block')
  let body = null
  if (k < frames.length) {
    body = Buffer.concat(frames.slice(k).map((f) => f.payload))
    t.ok(frames.slice(k).every((f) => f.type === 'DATA'))
    t.equal(frames[frames.length - 1].flags & END_STREAM, END_STREAM, 'the last DATA ends the stream')
    t.equal(frames[0].flags & END_STREAM, 0)
    t.same(req.body, body, 'body is the frames\' body')
    t.same(req.head, req.frames.subarray(0, req.head.length), 'head: the HEADERS alone')
    t.same(framesOf(req.head).map((f) => f.type).pop(), frames[k - 1].type)
  } else {
    t.equal(frames[0].flags & END_STREAM, END_STREAM, 'no body: HEADERS end the stream')
    t.equal(req.body, null)
  }
  const fields = fieldsOf(block)
  const headers = {}
  for (const [name, value] of fields) if (!name.startsWith(':')) headers[name] = value
  const pseudo = Object.fromEntries(fields.filter(([n]) => n.startsWith(':')))
  return { method: pseudo[':method'], path: pseudo[':path'], authority: pseudo[':authority'], headers, body: body || Buffer.alloc(0) }
}

t.test('the same requests as HTTP/1.1 from the same seed: path, headers, body and its length', async (t) => {
  const dir = tempDir(t, 'ac-h2tpl-')
  fs.writeFileSync(path.join(dir, 'short.txt'), 'alpha\nbéta\n\ngamma delta\n')
  fs.writeFileSync(path.join(dir, 'long.txt'), ['a', 'b'.repeat(20000), 'c', 'e'.repeat(300)].join('\n'))
  const line = (f) => `{{line ${path.join(dir, f)}}}`
  const templates = [
    { method: 'GET', path: '/item/{{seq}}', headers: {} },
    { method: 'GET', path: '/items/{{seq}}/{{conn}}', headers: { 'x-request-id': '{{uuid}}', accept: 'text/plain' } },
    { method: 'GET', path: '/{{conn}}/{{seq}}/{{seq}}', headers: { a: '{{int -5 5}}', b: '{{pick a|bbb|é}}', 'x-same': 'plain' } },
    { method: 'POST', path: '/u/{{int 1 1000000}}', headers: { 'x-id': '{{uuid}}', 'content-type': 'application/json' }, body: '{"pick":"{{pick red|green|blue}}","seq":{{seq}}}' },
    { method: 'POST', path: `/${line('short.txt')}`, headers: { 'x-c': '{{conn}}', authorization: 'Bearer {{seq}}' }, body: `${line('short.txt')}{{int 0 99999999999}}{{seq}}` },
    { method: 'PUT', path: '/p', headers: { long: `${'v'.repeat(130)}{{seq}}` }, body: 'i={{int 9007199254740990 9007199254740999}}' },
    { method: 'POST', path: '/{{seq}}', headers: { l: line('long.txt') }, body: Buffer.from(`${line('long.txt')}\u00ff`, 'latin1') },
    { method: 'POST', path: '/static-body/{{seq}}', headers: {}, body: 'the same body' }
  ]
  for (const template of templates) {
    const label = JSON.stringify(template).slice(0, 80)
    const h1 = new TemplateWriter(compile(template, (req) => encodeRequest({ ...req, host: HOST }), { name: 'request' }), 3)
    const h2 = compileH2(template, BASE, 'http', 'request', 3)
    t.ok(h2, `${label}: has holes`)
    const s1 = createState({ random: seededRandom(7), stride: 4, offset: 1 })
    const s2 = createState({ random: seededRandom(7), stride: 4, offset: 1 })
    const kept = []
    for (let i = 0; i < 12; i++) {
      const one = h1Parts(h1.fresh(s1, 1))
      const req = h2.fresh(s2)
      kept.push([one, req])
    }
    // Checked once all were made: none was written over by the next.
    for (const [one, req] of kept) {
      const two = h2Parts(t, req)
      t.equal(two.method, one.method, `${label}: method`)
      t.equal(two.path, one.path, `${label}: path`)
      t.equal(two.authority, HOST)
      for (const name of Object.keys(one.headers)) {
        if (name === 'host' || name === 'connection') continue
        t.equal(Buffer.from(two.headers[name], 'latin1').toString('utf8'), Buffer.from(one.headers[name], 'latin1').toString('utf8'), `${label}: ${name}`)
      }
      t.same(two.body, one.body, `${label}: body`)
      if (two.body.length > 0) t.equal(two.headers['content-length'], String(two.body.length), `${label}: content-length is the body's`)
    }
    t.not(kept[0][0].path + kept[0][0].body, kept[1][0].path + kept[1][0].body, `${label}: the requests differ`)
  }
})

t.test('{{seq}}: k × stride + offset, once per request however many holes say it', async (t) => {
  const h2 = compileH2({ method: 'POST', path: '/{{seq}}', headers: { 'x-seq': '{{seq}}', 'x-at': '{{now}}' }, body: 'n={{seq}} at={{now}}' }, BASE, 'https', 'request', 0)
  const state = createState({ random: Math.random, stride: 4, offset: 3 })
  const got = []
  const before = Date.now()
  for (let i = 0; i < 3; i++) {
    const r = h2Parts(t, h2.fresh(state))
    const at = Number(r.headers['x-at'])
    t.ok(at >= before && at <= Date.now(), `{{now}}: ${at}, the time it was made`)
    got.push([r.path, r.headers['x-seq'], r.body.toString()])
    t.equal(got[i][2].split(' at=')[1], r.headers['x-at'], '{{now}} once per request')
  }
  t.same(got.map((g) => [g[0], g[1], g[2].split(' ')[0]]), [['/3', '3', 'n=3'], ['/7', '7', 'n=7'], ['/11', '11', 'n=11']])
  const fields = fieldsOf(h2.fresh(state).block)
  t.same(fields.slice(0, 2), [[':method', 'POST'], [':scheme', 'https']])
})

t.test('a body of its holes filled to nothing: DATA of 0 octets, content-length 0', async (t) => {
  const dir = tempDir(t, 'ac-h2tpl0-')
  fs.writeFileSync(path.join(dir, 'l.txt'), 'x\n\ny\n')
  const h2 = compileH2({ method: 'POST', path: '/', headers: {}, body: `{{line ${path.join(dir, 'l.txt')}}}` }, BASE, 'http', 'request', 0)
  const state = createState({ random: Math.random })
  const bodies = [0, 1, 2].map(() => h2Parts(t, h2.fresh(state)))
  t.same(bodies.map((b) => [b.body.toString(), b.headers['content-length']]), [['x', '1'], ['', '0'], ['y', '1']])
})

t.test('h2Encoding: a writer for a request with holes, none without', async (t) => {
  const encoding = h2Encoding({ secure: false })
  t.equal(encoding.template({ method: 'GET', path: '/plain', headers: { a: 'b' } }, BASE, 'request', 0), null)
  t.equal(encoding.template({ method: 'GET', path: '/{{mustache}}', headers: {} }, BASE, 'request', 0), null, 'double braces that are not ours')
  const writer = encoding.template({ method: 'GET', path: '/{{seq}}', headers: {} }, BASE, 'request', 0)
  t.equal(h2Parts(t, writer.fresh(createState({ random: Math.random }))).path, '/0')
  t.throws(() => encoding.template({ method: 'GET', path: '/{{int 3 1}}', headers: {} }, BASE, 'request', 0), { code: 'AC_INVALID_OPTION' })
})
