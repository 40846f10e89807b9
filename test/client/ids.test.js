'use strict'

const t = require('tap')
const { ID_MARKER, makeIdPrefix, freshId, hasIds, replaceIds } = require('../../lib/client/ids')

t.test('fresh ids: 27 characters, all different, printable', async (t) => {
  makeIdPrefix()
  const ids = Array.from({ length: 1000 }, freshId)
  t.equal(new Set(ids).size, 1000)
  t.ok(ids.every((id) => /^[0-9a-z-]{27}$/.test(id)), ids[0])
  t.equal(ID_MARKER.length, 27, 'the marker is as long as an id, so a Content-Length holds')
  t.match(ID_MARKER, /^~[0-9a-z~]+~$/)
})

t.test('hasIds: a tag in the path (also percent-encoded), a header value or the body', async (t) => {
  const none = { path: '/a', headers: { x: 'y' }, body: 'b' }
  t.equal(hasIds(none), false)
  t.equal(hasIds({ ...none, path: '/a/[<id>]' }), true)
  t.equal(hasIds({ ...none, path: '/a/[%3Cid%3E]' }), true)
  t.equal(hasIds({ ...none, headers: { x: 'v-[<id>]' } }), true)
  t.equal(hasIds({ ...none, body: Buffer.from('{"id":"[<id>]"}') }), true)
  t.equal(hasIds({ ...none, body: { not: '[<id>]' } }), false, 'only strings and Buffers carry tags')
})

t.test('replaceIds: every tag by the one id, the request untouched', async (t) => {
  const req = { method: 'POST', path: '/u/[<id>]?x=[%3Cid%3E]', headers: { a: '[<id>]', b: 'plain' }, body: '[<id>]-[<id>]' }
  const out = replaceIds(req, 'ID')
  t.same(out, { method: 'POST', path: '/u/ID?x=ID', headers: { a: 'ID', b: 'plain' }, body: 'ID-ID' })
  t.equal(req.path, '/u/[<id>]?x=[%3Cid%3E]', 'the original is not changed')
  t.equal(req.headers.a, '[<id>]')
  const plain = { path: '/', headers: { a: 'b' }, body: 'x' }
  t.equal(replaceIds(plain, 'ID'), plain, 'a request without tags is returned as it is')
  const bin = replaceIds({ path: '/', headers: {}, body: Buffer.from([0xff, 0x5b, 0x3c, 0x69, 0x64, 0x3e, 0x5d]) }, 'ID')
  t.same([...bin.body], [0xff, 0x49, 0x44], 'a Buffer body keeps its other bytes')
})
