'use strict'

// A templated message's parts (lib/grpc/message-template.js): the
// envelope a config carries, the sample fills the check before the run
// makes, a message filled and framed.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const protobuf = require('protobufjs')
const { envelope, isEnvelope, openEnvelope, sampleFills, sampleFill, encodeFilled } = require('../../lib/grpc/message-template')

const root = protobuf.Root.fromJSON({ nested: { p: { nested: { M: { fields: { s: { type: 'string', id: 1 }, n: { type: 'int32', id: 2 } } } } } } })

t.test('the envelope: plain text, read back as the type, the flag and the text', async (t) => {
  const body = envelope({ root: root.toJSON(), type: 'p.M', gzip: true, text: '{"s":"{{seq}}"}' })
  t.type(body, 'string')
  t.ok(isEnvelope(body))
  t.notOk(isEnvelope('{"s":"{{seq}}"}'))
  t.notOk(isEnvelope(Buffer.from(body)))
  // Across a thread it is cloned: a copy reads the same.
  const opened = openEnvelope(structuredClone(body))
  t.equal(opened.type.fullName, '.p.M')
  t.equal(opened.gzip, true)
  t.equal(opened.text, '{"s":"{{seq}}"}')
  t.equal(openEnvelope(body), openEnvelope(body), 'read once per thread')
})

t.test('sample fills: every choice, every line, the int from its lowest to its highest', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mt-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'l.txt')
  fs.writeFileSync(file, 'x\ny\nz\n')
  const fills = sampleFills(`{{pick a|b|c|d|e}} {{int 1 9}} {{line ${file}}} {{seq}}`)
  const parts = fills.map((f) => f.split(' '))
  t.same(new Set(parts.map((p) => p[0])), new Set(['a', 'b', 'c', 'd', 'e']))
  t.equal(Math.min(...parts.map((p) => Number(p[1]))), 1)
  t.equal(Math.max(...parts.map((p) => Number(p[1]))), 9)
  t.same(new Set(parts.map((p) => p[2])), new Set(['x', 'y', 'z']))
  t.same(parts.map((p) => Number(p[3])), parts.map((p, i) => i), '{{seq}} counts')
  t.equal(sampleFills('{"s":"no template"}').length, 2)
  t.equal(sampleFills(`{{pick ${Array.from({ length: 5000 }, (_, i) => i).join('|')}}}`).length, 1001, 'at most a thousand and one')
  t.equal(sampleFill('{"s":"{{seq}}-{{int 4 6}}-{{pick é|b}}"}'), '{"s":"0-4-é"}', 'the first call\'s values, UTF-8 kept')
})

t.test('a filled text → its framed message', async (t) => {
  const type = root.lookupType('p.M')
  const framed = encodeFilled(type, false, '{"s":"ann","n":7}')
  t.same([...framed], [0, 0, 0, 0, 7, 0x0a, 3, 0x61, 0x6e, 0x6e, 0x10, 7])
  const zipped = encodeFilled(type, true, '{"n":7}')
  t.equal(zipped[0], 1)
  t.same([...require('zlib').gunzipSync(zipped.subarray(5))], [0x10, 7])
})
