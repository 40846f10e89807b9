'use strict'

const t = require('tap')
const { ID_LENGTH, ID_MARKER, IdSource, hasIds, replaceIds } = require('../../lib/client/ids')

// autocannon's ids (hyperid's, urlSafe and fixedLength): a UUID in
// URL-safe base64, '-', ten digits.
const HYPERID = /^[A-Za-z0-9_-]{22}-\d{10}$/

t.test('fresh ids: autocannon\'s shape, 33 characters, all different', async (t) => {
  const source = new IdSource()
  const ids = Array.from({ length: 1000 }, () => source.next())
  t.equal(new Set(ids).size, 1000)
  t.ok(ids.every((id) => HYPERID.test(id)), ids[0])
  t.equal(ID_LENGTH, 33)
  t.ok(ids.every((id) => id.length === ID_LENGTH))
  t.equal(ids[0].slice(-11), '-0000000000', 'the counter starts at 0')
  t.equal(ids[999].slice(-11), '-0000000999')
  t.ok(ids.every((id) => id.slice(0, 23) === ids[0].slice(0, 23)), 'one prefix for a source')
  const uuid = Buffer.from(ids[0].slice(0, 22), 'base64url').toString('hex')
  t.match(uuid, /^[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/, 'the prefix is a random (version 4) UUID, as hyperid\'s')
  t.equal(ID_MARKER.length, ID_LENGTH, 'the marker is as long as an id, so a Content-Length holds')
  t.match(ID_MARKER, /^~[0-9a-z~]+~$/)
})

t.test('each source (a connection) has its own prefix and counter', async (t) => {
  const a = new IdSource()
  const b = new IdSource()
  a.next()
  const [firstB, secondA] = [b.next(), a.next()]
  t.not(firstB.slice(0, 22), secondA.slice(0, 22))
  t.equal(firstB.slice(-10), '0000000000')
  t.equal(secondA.slice(-10), '0000000001')
})

t.test('at 2^31-1 a new prefix, the counter from 0, as hyperid', async (t) => {
  const source = new IdSource()
  const before = source.next()
  source.count = 2 ** 31 - 2
  t.equal(source.next().slice(-10), '2147483646')
  const after = source.next()
  t.equal(after.slice(-10), '0000000000')
  t.not(after.slice(0, 22), before.slice(0, 22))
  t.ok(HYPERID.test(after))
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
