'use strict'

// HPACK against nghttp2 (what node:http2 is built on), both ways, on
// header lists generated from a fixed seed: responses a node:http2 server
// sends (nghttp2's encoder, with its dynamic table, indexing, eviction and
// Huffman choices) decoded by ours (lib/http2/hpack.js, through the bare
// client of test/helpers/h2-raw-client.js), and requests ours encodes
// decoded by nghttp2, as the server's 'stream' event reports them. Over
// 127.0.0.1, with the default table and with one of 256 octets (evictions
// all the time, and the size update nghttp2 then must send).

const t = require('tap')
const http2 = require('http2')
const { Rng } = require('../../fuzz/rng')
const { RawH2Client } = require('../helpers/h2-raw-client')

const SEED = 20261127
const CASES = 2000
const BATCH = 50

const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789'
const TOKEN = "abcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~"
const VISIBLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('') + '\t'
// Names from the static table, which nghttp2 refers to by index, and some
// of ours repeated across cases, which it indexes in the dynamic table.
const COMMON = ['content-type', 'cache-control', 'etag', 'vary', 'server', 'x-request-id', 'x-trace', 'accept', 'user-agent', 'x-a', 'x-b']
// What one side or the other will not carry as given: pseudo-headers,
// connection-specific fields, and names node:http2 or our encoder treat
// apart.
const RESERVED = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host', 'te', 'content-length', 'date', 'set-cookie', 'cookie'])

function text (rng, alphabet, lo, hi) {
  let s = ''
  const n = rng.range(lo, hi)
  for (let i = 0; i < n; i++) s += alphabet[rng.int(alphabet.length)]
  return s
}

// A value as both sides carry it: no whitespace at either end.
function value (rng) {
  const kind = rng.weighted([[5, LOWER], [4, VISIBLE], [1, '0123456789']])
  const long = rng.chance(0.05)
  return text(rng, kind, long ? 128 : 0, long ? 600 : 40).replace(/^[ \t]+|[ \t]+$/g, '')
}

function name (rng) {
  if (rng.chance(0.5)) return rng.pick(COMMON)
  const n = text(rng, TOKEN, 1, rng.chance(0.03) ? 200 : 24)
  // Not reserved, nor all digits (an object would put those first).
  return RESERVED.has(n) || /^[0-9]+$/.test(n) ? `x-${n}` : n
}

// Case k: an ordered list of distinct names with one value each, the same
// from the seed on every run. Values repeat across cases now and then, as
// a server's do.
function fields (k, salt) {
  const rng = new Rng(SEED, k * 2 + salt)
  const out = []
  const seen = new Set()
  const count = rng.range(0, 20)
  for (let i = 0; i < count; i++) {
    const n = name(rng)
    if (seen.has(n)) continue
    seen.add(n)
    out.push([n, rng.chance(0.3) ? `v${rng.int(8)}` : value(rng)])
  }
  return out
}

async function server (t) {
  const received = new Map()
  const srv = http2.createServer({ maxHeaderListPairs: 256 })
  srv.on('stream', (stream, headers, flags, raw) => {
    const k = Number(headers[':path'].slice(1))
    received.set(k, raw)
    const out = { ':status': 200 }
    for (const [n, v] of fields(k, 0)) out[n] = v
    stream.respond(out, { endStream: true, sendDate: false })
  })
  await new Promise((resolve) => srv.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => srv.close(resolve)))
  return { port: srv.address().port, received }
}

const pairs = (flat) => {
  const out = []
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i], flat[i + 1]])
  return out
}

// Where a list first differs, for the report.
function firstDifference ({ case: k, way, sent, got }) {
  let i = 0
  while (i < sent.length && i < got.length && sent[i][0] === got[i][0] && sent[i][1] === got[i][1]) i++
  return { case: k, way, at: i, sent: sent.slice(i, i + 2), got: got.slice(i, i + 2), lengths: [sent.length, got.length] }
}

async function both (t, settings, from, to) {
  const { port, received } = await server(t)
  const client = await RawH2Client.connect({ port }, settings)
  t.teardown(() => client.socket.destroy())
  // How much of the dynamic table nghttp2 made us use.
  const use = { references: 0, evicted: 0 }
  const { decoder } = client
  const slot = decoder.slot
  decoder.slot = function (index) {
    use.references++
    return slot.call(this, index)
  }
  const evict = decoder.evict
  decoder.evict = function (room) {
    const before = this.count
    evict.call(this, room)
    use.evicted += before - this.count
  }
  let responses = 0
  let requests = 0
  const wrong = []
  for (let k = from; k < to; k += BATCH) {
    const batch = []
    for (let j = k; j < Math.min(k + BATCH, to); j++) {
      const headers = Object.fromEntries(fields(j, 1))
      batch.push(client.request({ method: 'GET', scheme: 'http', authority: 'h2.test', path: `/${j}`, headers }).then((stream) => [j, stream]))
    }
    for (const [j, stream] of await Promise.all(batch)) {
      // nghttp2 -> ours: what the server was told to send, in its order.
      const sent = [[':status', '200'], ...fields(j, 0)]
      if (JSON.stringify(stream.headers) !== JSON.stringify(sent)) wrong.push({ case: j, way: 'nghttp2 -> ours', sent, got: stream.headers })
      else responses++
      // ours -> nghttp2: what we encoded, as the server read it.
      const ours = [[':method', 'GET'], [':scheme', 'http'], [':authority', 'h2.test'], [':path', `/${j}`], ...fields(j, 1)]
      const got = pairs(received.get(j))
      if (JSON.stringify(got) !== JSON.stringify(ours)) wrong.push({ case: j, way: 'ours -> nghttp2', sent: ours, got })
      else requests++
    }
    if (wrong.length > 0) break
  }
  t.same(wrong.slice(0, 3).map(firstDifference), [], 'every header list arrives as it was sent')
  t.equal(responses, to - from, `${responses} response header lists from nghttp2 decoded by ours`)
  t.equal(requests, to - from, `${requests} request header lists of ours decoded by nghttp2`)
  t.equal(client.error, null, 'no connection error')
  client.close()
  return use
}

t.test(`${CASES} header lists each way, the default 4096-octet table`, async (t) => {
  const use = await both(t, {}, 0, CASES)
  t.ok(use.references > 1000 && use.evicted > 100, `fields from nghttp2's dynamic table: ${use.references} references, ${use.evicted} entries evicted`)
})

t.test('500 more each way with a 256-octet table: evictions, and the size update', async (t) => {
  const use = await both(t, { headerTableSize: 256 }, CASES, CASES + 500)
  t.ok(use.evicted > 100, `${use.references} references, ${use.evicted} entries evicted`)
})

t.test('the generated lists reach what the differential is about', async (t) => {
  let long = 0
  let common = 0
  let empty = 0
  for (let k = 0; k < CASES; k++) {
    for (const [n, v] of fields(k, 0)) {
      if (v.length >= 128 || n.length >= 128) long++
      if (COMMON.includes(n)) common++
      if (v === '') empty++
    }
  }
  t.ok(long > 50, `${long} names or values past 127 octets (multi-octet lengths)`)
  t.ok(common > 1000, `${common} fields whose names repeat across lists (the dynamic table)`)
  t.ok(empty > 10, `${empty} empty values`)
})
