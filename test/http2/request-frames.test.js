'use strict'

// A request as HTTP/2 frames (lib/http2/request-frames.js), read back with
// a frame reader written here from RFC 9113 §4.1 and HPACK's decoder: the
// pseudo-headers and fields, Content-Length, HEADERS alone or with the
// body's DATA, frames cut at 16384 octets, and a table size update first
// when the server asked for a smaller table.

const t = require('tap')
const { encodeH2Request, withTableSizeUpdate } = require('../../lib/http2/request-frames')
const { Decoder } = require('../../lib/http2/hpack')

const HEADERS = 0x1
const DATA = 0x0
const CONTINUATION = 0x9
const END_STREAM = 0x1
const END_HEADERS = 0x4

// [{ type, flags, stream, payload }] of a run of frames.
function frames (buf) {
  const out = []
  for (let at = 0; at < buf.length;) {
    const length = buf.readUIntBE(at, 3)
    out.push({ type: buf[at + 3], flags: buf[at + 4], stream: buf.readUInt32BE(at + 5) & 0x7fffffff, payload: buf.subarray(at + 9, at + 9 + length) })
    at += 9 + length
  }
  return out
}

function fields (block) {
  const d = new Decoder()
  d.decode(block, 0, block.length, true)
  const out = []
  for (let i = 0; i < d.headers.length; i += 2) out.push([d.headers[i], d.headers[i + 1]])
  return out
}

t.test('a GET: one HEADERS frame ending the stream, the pseudo-headers first', async (t) => {
  const req = encodeH2Request({ method: 'GET', path: '/a?b=1', host: 'example.com', headers: { 'X-Trace': 'on' } }, 'http')
  t.equal(req.body, null)
  t.equal(req.head, null, 'nothing to hold back')
  const [only, ...rest] = frames(req.frames)
  t.same(rest, [])
  t.same([only.type, only.flags, only.stream], [HEADERS, END_HEADERS | END_STREAM, 0], 'on stream 0: the client sets it per request')
  t.same(only.payload, req.block)
  t.same(fields(req.block), [[':method', 'GET'], [':scheme', 'http'], [':authority', 'example.com'], [':path', '/a?b=1'], ['x-trace', 'on']], 'names in lower case')
})

t.test('a POST: its length stated, HEADERS then DATA, or HEADERS alone to wait for the windows', async (t) => {
  const req = encodeH2Request({ method: 'POST', path: '/x', host: 'a.test:8080', body: 'héllo' }, 'https')
  t.same(req.body, Buffer.from('héllo'))
  t.same(fields(req.block).slice(1, 3), [[':scheme', 'https'], [':authority', 'a.test:8080']])
  t.same(fields(req.block).pop(), ['content-length', '6'], 'the UTF-8 bytes')
  t.same(frames(req.frames).map((f) => [f.type, f.flags]), [[HEADERS, END_HEADERS], [DATA, END_STREAM]])
  t.same(frames(req.frames)[1].payload, Buffer.from('héllo'))
  t.same(frames(req.head).map((f) => [f.type, f.flags]), [[HEADERS, END_HEADERS]], 'the HEADERS without END_STREAM')
  const empty = encodeH2Request({ method: 'PUT', path: '/', host: 'h', body: '' }, 'http')
  t.same(fields(empty.block).pop(), ['content-length', '0'], 'a PUT without a body states 0')
  t.equal(frames(empty.frames).length, 1)
  t.notOk(fields(encodeH2Request({ method: 'DELETE', path: '/', host: 'h' }, 'http').block).some(([n]) => n === 'content-length'), 'a DELETE states nothing')
  t.throws(() => encodeH2Request({ method: 'POST', path: '/', host: 'h', body: 42 }, 'http'), { code: 'AC_INVALID_OPTION', option: 'body' })
})

t.test('a body larger than a frame: DATA frames of 16384 octets, the last ending the stream', async (t) => {
  const body = Buffer.alloc(40000, 7)
  const req = encodeH2Request({ method: 'PUT', path: '/', host: 'h', body }, 'http')
  const data = frames(req.frames).filter((f) => f.type === DATA)
  t.same(data.map((f) => f.payload.length), [16384, 16384, 7232])
  t.same(data.map((f) => f.flags), [0, 0, END_STREAM])
  t.same(Buffer.concat(data.map((f) => f.payload)), body)
  const long = encodeH2Request({ method: 'GET', path: '/', host: 'h', headers: { 'x-big': 'v'.repeat(20000) } }, 'http')
  const kinds = frames(long.frames).map((f) => [f.type, f.flags])
  t.same(kinds, [[HEADERS, END_STREAM], [CONTINUATION, END_HEADERS]], 'a header block over 16384 octets goes on in CONTINUATION')
})

t.test('withTableSizeUpdate: the same request, its block led by an update to 0', async (t) => {
  const req = encodeH2Request({ method: 'POST', path: '/', host: 'h', body: 'x' }, 'http')
  const updated = withTableSizeUpdate(req)
  t.equal(updated.block[0], 0x20, 'a dynamic table size update to 0 (RFC 7541 §6.3)')
  t.same(updated.block.subarray(1), req.block)
  t.same(fields(updated.block), fields(req.block))
  t.same(frames(updated.frames).map((f) => f.type), [HEADERS, DATA])
  t.same(updated.body, req.body)
  t.same(frames(updated.head).map((f) => f.payload), [updated.block])
})
