'use strict'

// A gRPC call's frames (lib/grpc/call-frames.js), read back with a frame
// reader written here and HPACK's decoder: no content-length; a call
// without templates encoded once; a templated message filled, encoded and
// framed per call, one {{seq}} per call in message and metadata alike.

const t = require('tap')
const path = require('path')
const protobuf = require('protobufjs')
const { prepareCall } = require('../../lib/grpc/prepare')
const { grpcEncoding } = require('../../lib/grpc/call-frames')
const { createState } = require('../../lib/client/templates')
const { Decoder } = require('../../lib/http2/hpack')

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'grpc')
const PROTO = path.join(FIXTURES, 'echo.proto')
const TARGET = { secure: false }
const BASE = { host: '127.0.0.1:1' }

function frames (buf) {
  const out = []
  for (let at = 0; at < buf.length;) {
    const length = buf.readUIntBE(at, 3)
    out.push({ type: buf[at + 3], flags: buf[at + 4], payload: buf.subarray(at + 9, at + 9 + length) })
    at += 9 + length
  }
  return out
}

// { headers: {name: value}, message: decoded SayRequest or null }
function read (req, t) {
  const [head, data] = frames(req.frames)
  const d = new Decoder()
  d.decode(head.payload, 0, head.payload.length, true)
  const headers = {}
  for (let i = 0; i < d.headers.length; i += 2) headers[d.headers[i]] = d.headers[i + 1]
  let message = null
  if (data !== undefined) {
    t.equal(data.payload[0], 0, 'not compressed')
    t.equal(data.payload.readUInt32BE(1), data.payload.length - 5, 'the frame states the message\'s length')
    message = SayRequest.decode(data.payload.subarray(5)).toJSON()
  }
  return { headers, message }
}

const root = new protobuf.Root()
root.resolvePath = (origin, target) => path.resolve(FIXTURES, path.basename(target))
root.loadSync(PROTO, { keepCase: true })
const SayRequest = root.lookupType('bench.SayRequest')

// The entry a sequence gives the encoding: the prepared call's request.
function entryOf (out) {
  return { method: out.method, path: '/bench.Echo/Say', headers: out.headers, body: out.body }
}

const call = (grpc) => prepareCall({ url: 'http://127.0.0.1:1', grpc: { proto: PROTO, protoPath: [FIXTURES], call: 'bench.Echo/Say', ...grpc } })

t.test('a call without templates: encoded once, no content-length', async (t) => {
  const out = call({ data: '{"name":"ann","count":2}' })
  t.ok(Buffer.isBuffer(out.body), 'the message encoded before the run')
  const encoding = grpcEncoding(TARGET)
  t.equal(encoding.template(entryOf(out), BASE, 'request', 0), null, 'no writer: the sequence sends the same bytes')
  const { headers, message } = read(encoding.encode({ ...entryOf(out), host: BASE.host }), t)
  t.same(message, { name: 'ann', count: 2 })
  t.equal(headers['content-type'], 'application/grpc')
  t.notOk('content-length' in headers, 'no content-length')
})

t.test('metadata with a template: HTTP/2\'s writer, still no content-length', async (t) => {
  const out = call({ data: '{"name":"m"}', metadata: ['x-n: {{seq}}'] })
  const writer = grpcEncoding(TARGET).template(entryOf(out), BASE, 'request', 0)
  const state = createState({ random: Math.random })
  const seen = [0, 1, 2].map(() => read(writer.fresh(state), t))
  t.same(seen.map((s) => s.headers['x-n']), ['0', '1', '2'])
  t.ok(seen.every((s) => !('content-length' in s.headers)), 'no content-length')
  t.ok(seen.every((s) => s.message.name === 'm'))
})

t.test('a templated message: filled, encoded and framed per call', async (t) => {
  const out = call({ data: '{"name":"n-{{seq}}-{{pick a|b}}","count":{{int 3 5}},"meta":{"tag":"{{uuid}}"}}', metadata: ['x-n: {{seq}}'] })
  t.type(out.body, 'string', 'the message\'s envelope, plain data for the workers')
  const writer = grpcEncoding(TARGET).template(entryOf(out), BASE, 'request', 2)
  t.ok(writer, 'a writer')
  const state = createState({ random: Math.random, stride: 2, offset: 1 })
  const calls = []
  for (let i = 0; i < 40; i++) calls.push(read(writer.fresh(state), t))
  // Read once all were made: none was written over by the next.
  calls.forEach((c, i) => {
    const seq = 2 * i + 1
    t.match(c.message.name, new RegExp(`^n-${seq}-[ab]$`), `call ${i}: its name`)
    t.equal(c.headers['x-n'], String(seq), `call ${i}: the same {{seq}} in its metadata`)
    t.ok(c.message.count >= 3 && c.message.count <= 5, `call ${i}: count ${c.message.count} in 3..5, a number`)
    t.match(c.message.meta.tag, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    t.notOk('content-length' in c.headers)
  })
  t.same(new Set(calls.map((c) => c.message.count)), new Set([3, 4, 5]), 'every value of the int drawn')
  t.same(new Set(calls.map((c) => c.message.name.slice(-1))), new Set(['a', 'b']), 'both choices picked')
})

t.test('a templated message with gzip: each call compressed', async (t) => {
  const zlib = require('zlib')
  const out = call({ data: '{"name":"{{seq}}"}', compression: 'gzip' })
  const writer = grpcEncoding(TARGET).template(entryOf(out), BASE, 'request', 0)
  const state = createState({ random: Math.random })
  for (const seq of [0, 1]) {
    const data = frames(writer.fresh(state).frames)[1].payload
    t.equal(data[0], 1, 'compressed flag')
    t.same(SayRequest.decode(zlib.gunzipSync(data.subarray(5))).toJSON(), { name: String(seq) })
  }
})

t.test('a templated message is refused with setupRequest\'s encode', async (t) => {
  const out = call({ data: '{"name":"{{seq}}"}' })
  t.throws(() => grpcEncoding(TARGET).encode({ ...entryOf(out), host: BASE.host }), { code: 'AC_INVALID_OPTION', message: /setupRequest/ })
})

t.test('HTTP/2\'s template writer without content-length: a body with holes too', async (t) => {
  const { compileH2 } = require('../../lib/http2/request-template')
  const writer = compileH2({ method: 'POST', path: '/', headers: {}, body: 'n={{seq}}' }, BASE, 'http', 'request', 0, { statesLength: false })
  const state = createState({ random: Math.random })
  for (const seq of [0, 1]) {
    const [head, data] = frames(writer.fresh(state).frames)
    const d = new Decoder()
    d.decode(head.payload, 0, head.payload.length, true)
    t.notOk(d.headers.includes('content-length'), 'no content-length')
    t.equal(data.payload.toString(), `n=${seq}`)
  }
  const stated = compileH2({ method: 'POST', path: '/', headers: {}, body: 'n={{seq}}' }, BASE, 'http', 'request', 0)
  const [head] = frames(stated.fresh(state).frames)
  const d = new Decoder()
  d.decode(head.payload, 0, head.payload.length, true)
  t.equal(d.headers[d.headers.indexOf('content-length') + 1], '3', 'HTTP/2\'s own requests state it')
})
