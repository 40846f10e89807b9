'use strict'

// lib/http1/template-writer.js: the bytes written straight into a buffer
// are those of the requests as text (a reference made here with strings,
// the way the holes are specified): Content-Length the body's bytes; a
// reused slab never shows last batch's bytes, and a kept one is never
// written again. Numbers and UUIDs: test/client/write-bytes.test.js.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { compile } = require('../../lib/http1/template')
const { createState } = require('../../lib/client/templates')
const { TemplateWriter } = require('../../lib/http1/template-writer')
const { encodeRequest } = require('../../lib/http1/request-encoder')
const { seededRandom } = require('../../lib/core/random')
const { tempDir } = require('../helpers/recording')
const { uuidText } = require('../helpers/uuid-text')

const encode = (req) => encodeRequest({ ...req, host: '127.0.0.1:3000' })

// One request as latin1 text: the holes drawn in the order they are sent
// in, {{seq}} and {{now}} once per request.
function reference (compiled, state, conn) {
  const once = {}
  const value = (hole) => {
    switch (hole.kind) {
      case 'seq': return (once.seq = once.seq !== undefined ? once.seq : String(state.nextSeq()))
      case 'now': return (once.now = once.now !== undefined ? once.now : String(Date.now()))
      case 'conn': return String(conn)
      case 'uuid': return uuidText(state.random)
      case 'int': return String(hole.low + Math.floor(state.random() * hole.span))
      case 'pick': return hole.options[Math.floor(state.random() * hole.options.length)]
      case 'line': return state.nextLine(hole)
      default: return null
    }
  }
  const join = ({ parts, holes }, values) => parts.reduce((out, p, i) => out + p + (i < holes.length ? values[i] : ''), '')
  const head = compiled.head.holes.map(value)
  if (compiled.body === null) return join(compiled.head, head)
  const body = join(compiled.body, compiled.body.holes.map(value))
  if (compiled.head.clAt !== -1) head[compiled.head.clAt] = String(body.length)
  return join(compiled.head, head) + body
}

t.test('batches, reused slabs and fresh buffers: the bytes of the requests as text', async (t) => {
  const dir = tempDir(t, 'ac-tplw-')
  fs.writeFileSync(path.join(dir, 'short.txt'), 'alpha\nbéta\n\ngamma delta\n')
  // Lines far longer than the others: the slab grows mid-batch.
  fs.writeFileSync(path.join(dir, 'long.txt'), ['a', 'b'.repeat(100000), 'c', 'e'.repeat(5000)].join('\n'))
  const templates = [
    { method: 'GET', path: '/items/{{seq}}', headers: { 'x-request-id': '{{uuid}}' } },
    { method: 'GET', path: '/{{conn}}/{{seq}}/{{seq}}', headers: { a: '{{int -5 5}}', b: '{{pick a|bbb|é}}', c: '{{now}}' } },
    { method: 'POST', path: '/u/{{int 1 1000000}}', headers: { 'x-id': '{{uuid}}' }, body: '{"pick":"{{pick red|green|blue}}","seq":{{seq}},"at":{{now}}}' },
    { method: 'POST', path: '/{{line short.txt}}', headers: { 'x-c': '{{conn}}' }, body: '{{line short.txt}}{{int 0 99999999999}}{{seq}}' },
    { method: 'PUT', path: '/{{int -100000000000000000000 100000000000000000000}}', headers: {}, body: 'i={{int 9007199254740990 9007199254740999}}' },
    { method: 'POST', path: '/{{seq}}', headers: { l: '{{line long.txt}}' }, body: Buffer.from('{{line long.txt}}\u00ff') },
    { method: 'GET', path: '/{{seq}}', headers: { l: '{{line long.txt}}', m: '{{pick x|' + 'y'.repeat(3000) + '}}' } },
    // Chunked, with holes outside the body (holes in a chunked body are
    // refused: test/http1/template.test.js).
    { method: 'POST', path: '/{{seq}}', headers: { 'Transfer-Encoding': 'chunked' }, body: 'xy' }
  ]
  for (const template of templates) {
    // Strides that cross a power of ten every few requests, and rarely.
    for (const [stride, offset] of [[1, 0], [7, 3], [1000003, 5]]) {
      const ours = compile(template, encode, { dir })
      const theirs = compile(template, encode, { dir })
      const state = createState({ random: seededRandom(42), stride, offset })
      const expected = createState({ random: seededRandom(42), stride, offset })
      const writer = new TemplateWriter(ours, 3)
      const random = seededRandom(7)
      const realNow = Date.now
      let now = 1700000000000
      t.teardown(() => { Date.now = realNow })
      let failed = null
      for (let i = 0; i < 400 && failed === null; i++) {
        const n = 1 + Math.floor(random() * 12)
        const mode = random()
        // {{now}} gains digits now and then.
        if (i % 100 === 99) now *= 10
        Date.now = () => now
        const got = mode < 0.15 ? writer.fresh(state, n) : writer.batch(state, n)
        if (mode > 0.9) writer.kept()
        let want = ''
        for (let k = 0; k < n; k++) want += reference(theirs, expected, 3)
        Date.now = realNow
        if (got.latin1Slice(0, got.length) !== want) failed = `batch ${i} of ${n}: ${JSON.stringify(got.latin1Slice(0, 300))}…, not ${JSON.stringify(want.slice(0, 300))}…`
      }
      t.equal(failed, null, `${JSON.stringify(template).slice(0, 70)}…, seq stride ${stride}`)
    }
  }
})

t.test('a batch is written where the last one was, unless that one was kept', async (t) => {
  const compiled = compile({ method: 'GET', path: '/{{seq}}', headers: {} }, encode)
  const writer = new TemplateWriter(compiled, 0)
  const state = createState({ random: seededRandom(1) })
  const first = writer.batch(state, 3)
  const request = (seq) => `GET /${seq} HTTP/1.1\r\nHost: 127.0.0.1:3000\r\nConnection: keep-alive\r\n\r\n`
  t.equal(first.latin1Slice(0, first.length), request(0) + request(1) + request(2))
  const second = writer.batch(state, 3)
  t.equal(second.buffer, first.buffer, 'the same memory')
  t.match(second.latin1Slice(0, second.length), /^GET \/3 [^]*GET \/4 [^]*GET \/5 /)
  writer.kept()
  const third = writer.batch(state, 3)
  t.not(third.buffer, second.buffer, 'a kept batch is left as it is')
  t.match(second.latin1Slice(0, second.length), /^GET \/3 [^]*GET \/4 [^]*GET \/5 /, 'and still says what it said')
  t.match(third.latin1Slice(0, third.length), /^GET \/6 [^]*GET \/7 [^]*GET \/8 /)
  const fresh = writer.fresh(state, 1)
  writer.batch(state, 3)
  t.match(fresh.latin1Slice(0, fresh.length), /^GET \/9 HTTP/, 'fresh bytes are not written over')
})
