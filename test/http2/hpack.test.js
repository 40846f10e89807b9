'use strict'

// Unit tests of lib/http2/hpack.js: the examples of RFC 7541 Appendix C
// (fields and dynamic table after each block, with and without the field
// list asked for), integers, Huffman strings with invalid padding and EOS
// (the code itself: test/http2/hpack-huffman.test.js), the table's size
// updates and limits, and the request encoder's blocks.

const t = require('tap')
const { Decoder, encodeRequestHeaders, encodeTableSizeUpdate, encodeInteger, encodeString, STATIC_TABLE } = require('../../lib/http2/hpack')
const { huffmanDecode, huffmanValid, huffmanEncode } = require('../../lib/http2/hpack-huffman')
const { CountedError, InvalidOptionError } = require('../../lib/core/errors')

const hex = (s) => Buffer.from(s.replace(/\s+/g, ''), 'hex')
const pairs = (flat) => {
  const out = []
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i], flat[i + 1]])
  return out
}

const feed = (decoder, block, wantHeaders = false) => decoder.decode(block, 0, block.length, wantHeaders)

function decodeAll (decoder, block, wantHeaders = true) {
  const status = decoder.decode(block, 0, block.length, wantHeaders)
  return { status, headers: decoder.headers === null ? null : pairs(decoder.headers) }
}

function compressionError (t, fn, pattern, what) {
  try {
    fn()
    t.fail(`${what}: no error`)
  } catch (err) {
    t.ok(err instanceof CountedError, `${what}: a CountedError`)
    t.equal(err.code, 'AC_H2_COMPRESSION_ERROR', `${what}: AC_H2_COMPRESSION_ERROR`)
    t.equal(err.http2Code, 9, `${what}: COMPRESSION_ERROR is 0x9`)
    t.equal(err.streamId, 0, `${what}: a connection error`)
    if (pattern) t.match(err.message, pattern, `${what}: says why`)
  }
}

// RFC 7541 Appendix C.2 to C.6: each block, the fields it decodes to, and
// the dynamic table after it (newest first) with its size. Blocks of one
// C.x share a decoder; C.5 and C.6 use a 256-octet table.
const REQ1 = [[':method', 'GET'], [':scheme', 'http'], [':path', '/'], [':authority', 'www.example.com']]
const REQ2 = [...REQ1, ['cache-control', 'no-cache']]
const REQ3 = [[':method', 'GET'], [':scheme', 'https'], [':path', '/index.html'], [':authority', 'www.example.com'], ['custom-key', 'custom-value']]
const RES1 = [[':status', '302'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'], ['location', 'https://www.example.com']]
const RES2 = [[':status', '307'], ...RES1.slice(1)]
const COOKIE = 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1'
const RES3 = [[':status', '200'], ['cache-control', 'private'], ['date', 'Mon, 21 Oct 2013 20:13:22 GMT'], ['location', 'https://www.example.com'], ['content-encoding', 'gzip'], ['set-cookie', COOKIE]]
const T_REQ1 = [[':authority', 'www.example.com']]
const T_REQ2 = [['cache-control', 'no-cache'], ...T_REQ1]
const T_REQ3 = [['custom-key', 'custom-value'], ...T_REQ2]
const T_RES1 = [['location', 'https://www.example.com'], ['date', 'Mon, 21 Oct 2013 20:13:21 GMT'], ['cache-control', 'private'], [':status', '302']]
const T_RES2 = [[':status', '307'], ...T_RES1.slice(0, 3)]
const T_RES3 = [['set-cookie', COOKIE], ['content-encoding', 'gzip'], ['date', 'Mon, 21 Oct 2013 20:13:22 GMT']]

const EXAMPLES = [
  ['C.2.1 literal with indexing', 4096, [
    ['400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572', [['custom-key', 'custom-header']], [['custom-key', 'custom-header']], 55]
  ]],
  ['C.2.2 literal without indexing', 4096, [['040c 2f73 616d 706c 652f 7061 7468', [[':path', '/sample/path']], [], 0]]],
  ['C.2.3 literal never indexed', 4096, [['1008 7061 7373 776f 7264 0673 6563 7265 74', [['password', 'secret']], [], 0]]],
  ['C.2.4 indexed', 4096, [['82', [[':method', 'GET']], [], 0]]],
  ['C.3 requests without Huffman', 4096, [
    ['8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d', REQ1, T_REQ1, 57],
    ['8286 84be 5808 6e6f 2d63 6163 6865', REQ2, T_REQ2, 110],
    ['8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65', REQ3, T_REQ3, 164]
  ]],
  ['C.4 requests with Huffman', 4096, [
    ['8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff', REQ1, T_REQ1, 57],
    ['8286 84be 5886 a8eb 1064 9cbf', REQ2, T_REQ2, 110],
    ['8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf', REQ3, T_REQ3, 164]
  ]],
  ['C.5 responses without Huffman', 256, [
    ['4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d', RES1, T_RES1, 222],
    ['4803 3330 37c1 c0bf', RES2, T_RES2, 222],
    ['88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31', RES3, T_RES3, 215]
  ]],
  ['C.6 responses with Huffman', 256, [
    ['4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3', RES1, T_RES1, 222],
    ['4883 640e ffc1 c0bf', RES2, T_RES2, 222],
    ['88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed 4ee5 b106 3d50 07', RES3, T_RES3, 215]
  ]]
]

t.test('RFC 7541 Appendix C.2 to C.6: fields, status and dynamic table after each block', async (t) => {
  for (const [name, tableSize, blocks] of EXAMPLES) {
    // One decoder asked for the fields, one not: the tables must agree.
    const full = new Decoder(tableSize)
    const lean = new Decoder(tableSize)
    blocks.forEach(([wire, fields, table, size], k) => {
      const block = hex(wire)
      const what = `${name} #${k + 1}`
      const got = decodeAll(full, block)
      t.same(got.headers, fields, `${what}: the fields`)
      const status = fields[0][0] === ':status' ? Number(fields[0][1]) : 0
      t.equal(got.status, status, `${what}: :status ${status}`)
      t.same(full.entries(), table, `${what}: the dynamic table`)
      t.equal(full.size, size, `${what}: table size ${size}`)
      const bare = decodeAll(lean, block, false)
      t.equal(bare.headers, null, `${what}: no field list unless asked`)
      t.equal(bare.status, status, `${what}: the same status without the fields`)
      t.same(lean.entries(), table, `${what}: the same table without the fields`)
      t.equal(lean.size, size)
    })
  }
})

t.test('integers: RFC 7541 C.1 and the edges of each prefix', async (t) => {
  t.same(encodeInteger(10, 5), [0x0a], 'C.1.1: 10 in a 5-bit prefix')
  t.same(encodeInteger(1337, 5), [0x1f, 0x9a, 0x0a], 'C.1.2: 1337 in a 5-bit prefix')
  t.same(encodeInteger(42, 8), [0x2a], 'C.1.3: 42 in an 8-bit prefix')
  t.same(encodeInteger(30, 5, 0x20), [0x3e], 'flags kept in the first byte')

  // Decoded through the decoder's own reader, for prefixes 4 to 7 (those
  // HPACK uses).
  const decoder = new Decoder()
  const read = (bytes, bits) => {
    const max = (1 << bits) - 1
    const buf = Buffer.from(bytes)
    if ((buf[0] & max) < max) return [buf[0] & max, 1]
    return [decoder.integer(buf, 0, buf.length, max), decoder.pos]
  }
  t.same(read([0x1f, 0x9a, 0x0a], 5), [1337, 3], 'C.1.2 decoded')
  for (const bits of [4, 5, 6, 7]) {
    const max = (1 << bits) - 1
    for (const v of [0, 1, max - 1, max, max + 1, max + 127, max + 128, 16383, 2 ** 21, 2 ** 28 - 1]) {
      const bytes = encodeInteger(v, bits)
      t.same(read(bytes, bits), [v, bytes.length], `${v} in ${bits} bits (${bytes.length} bytes)`)
    }
  }
  t.same(encodeInteger(15, 4), [0x0f, 0x00], 'the prefix value itself needs a zero byte after it')
  t.same(read([0x0f, 0x80, 0x80, 0x00], 4), [15, 4], 'redundant zero continuation bytes are read')

  compressionError(t, () => decoder.integer(Buffer.from([0x1f, 0x9a]), 0, 2, 0x1f), /ends inside an integer/, 'an integer cut short')
  compressionError(t, () => decoder.integer(Buffer.from([0x1f, 0xff, 0xff, 0xff, 0xff, 0x01]), 0, 6, 0x1f), /longer than 5 bytes/, 'an integer of 6 bytes')
  // In a block: an indexed field whose index never ends.
  compressionError(t, () => new Decoder().decode(Buffer.from([0xff, 0x80]), 0, 2, false), /ends inside an integer/, 'an index cut short')
})

t.test('Huffman: invalid padding and EOS are refused (RFC 7541 §5.2)', async (t) => {
  const out = Buffer.alloc(64)
  // huffmanValid must agree with huffmanDecode on every case.
  let disagree = 0
  const dec = (bytes) => {
    const n = huffmanDecode(Buffer.from(bytes), 0, bytes.length, out, 0)
    if (huffmanValid(Buffer.from(bytes), 0, bytes.length) !== (n >= 0)) disagree++
    return n
  }
  // 'a' is 00011 (5 bits).
  t.equal(dec([0x1f]), 1, '\'a\' and 3 bits of ones: valid')
  t.equal(out[0], 0x61)
  t.equal(dec([0x18]), -1, 'padding of zeros')
  t.equal(dec([0x1d]), -1, 'padding with a zero in it')
  t.equal(dec([0x1f, 0xff]), -1, 'padding of 11 bits (a whole octet too many)')
  t.equal(dec([0xff]), -1, 'a string of padding alone (8 bits)')
  t.equal(dec([0xfe]), -1, 'bits of an unfinished code that are not all ones')
  // EOS is 30 ones: four octets of ones hold it, and 2 bits more.
  t.equal(dec([0xff, 0xff, 0xff, 0xff]), -1, 'EOS, then padding')
  t.equal(dec([0x1f, 0xff, 0xff, 0xff, 0xfc]), -1, '\'a\', then EOS')
  // '0' (00000) then 'a' then '0', across octet boundaries: valid.
  const mixed = huffmanEncode(Buffer.from('0a0a0a'))
  t.equal(dec([...mixed]), 6, 'codes across octet boundaries')
  t.equal(out.latin1Slice(0, 6), '0a0a0a')
  t.equal(disagree, 0, 'huffmanValid agrees with huffmanDecode')

  // In a block, an error of the connection.
  compressionError(t, () => new Decoder().decode(Buffer.from([0x04, 0x81, 0x18]), 0, 3, false), /Huffman/, 'a bad Huffman value nobody asked for')
  compressionError(t, () => new Decoder().decode(Buffer.from([0x04, 0x84, 0xff, 0xff, 0xff, 0xff]), 0, 6, false), /Huffman/, 'EOS in a value nobody asked for')
  compressionError(t, () => new Decoder().decode(Buffer.from([0x40, 0x81, 0x1f, 0x81, 0x18]), 0, 5, false), /Huffman/, 'a bad Huffman value to be indexed')
  compressionError(t, () => new Decoder().decode(Buffer.from([0x00, 0x81, 0xff, 0x01, 0x61]), 0, 5, true), /Huffman/, 'a bad Huffman name')
})

t.test('dynamic table: size updates, eviction, limits', async (t) => {
  const field = (name, value) => Buffer.concat([Buffer.from([0x40]), encodeString(Buffer.from(name)), encodeString(Buffer.from(value))])
  const d = new Decoder(4096)
  // Three entries of 32 + 1 + 31 = 64 octets each.
  const v = (c) => c.repeat(31)
  feed(d, Buffer.concat([field('a', v('x')), field('b', v('y')), field('c', v('z'))]))
  t.equal(d.size, 192)
  t.same(d.entries().map((e) => e[0]), ['c', 'b', 'a'], 'newest first')
  // A size update to 130: the oldest goes.
  let block = Buffer.concat([encodeTableSizeUpdate(130), Buffer.from([0xbe])])
  const r = decodeAll(d, block)
  t.same(r.headers, [['c', v('z')]], 'index 62 is the newest')
  t.same(d.entries().map((e) => e[0]), ['c', 'b'], 'evicted down to the new maximum')
  t.equal(d.size, 128)
  t.equal(d.maxSize, 130)
  // Inserting beyond the maximum evicts, oldest first.
  feed(d, field('d', v('w')))
  t.same(d.entries().map((e) => e[0]), ['d', 'c'])
  // An entry larger than the table empties it and is not kept (§4.4).
  feed(d, field('big', 'q'.repeat(200)))
  t.same(d.entries(), [], 'emptied by an entry that does not fit')
  t.equal(d.size, 0)
  // Two updates at the start of a block are fine, and 0 empties.
  feed(d, field('e', v('e')))
  block = Buffer.concat([encodeTableSizeUpdate(0), encodeTableSizeUpdate(4096), Buffer.from([0x82])])
  t.same(decodeAll(d, block).headers, [[':method', 'GET']])
  t.equal(d.count, 0, 'a size update to 0 empties the table')
  t.equal(d.maxSize, 4096)

  compressionError(t, () => feed(d, encodeTableSizeUpdate(4097)), /above our SETTINGS_HEADER_TABLE_SIZE of 4096/, 'an update above our limit')
  compressionError(t, () => feed(new Decoder(), Buffer.concat([Buffer.from([0x82]), encodeTableSizeUpdate(0)])), /after a header field/, 'an update after a field')

  // Our limit lowered (SETTINGS acknowledged): the next block must start
  // with an update to within it.
  const s = new Decoder(4096)
  s.setLimit(1024)
  compressionError(t, () => s.decode(Buffer.from([0x88]), 0, 1, false), /does not begin with the dynamic table size update/, 'no update after our limit went down')
  const s2 = new Decoder(4096)
  s2.setLimit(1024)
  t.equal(feed(s2, Buffer.concat([encodeTableSizeUpdate(512), Buffer.from([0x88])])), 200, 'an update within the new limit')
  t.equal(s2.decode(Buffer.from([0x88]), 0, 1, false), 200, 'only the next block must have it')
  // A limit raised keeps the entries, at the same indices.
  const kept = new Decoder(256)
  for (let k = 0; k < 6; k++) feed(kept, field(`k${k}`, v('v')))
  t.same(kept.entries().map((e) => e[0]), ['k5', 'k4', 'k3'], 'a 256-octet table holds three')
  kept.setLimit(8192)
  t.same(kept.entries().map((e) => e[0]), ['k5', 'k4', 'k3'], 'the same entries once the limit went up')
  t.same(decodeAll(kept, Buffer.from([0xc0])).headers, [['k3', v('v')]], 'index 64 is still the oldest')
  // A limit raised needs no update, and the table may then grow to it.
  const big = new Decoder(256)
  big.setLimit(65536)
  t.equal(big.decode(Buffer.from([0x88]), 0, 1, false), 200, 'no update needed when the limit goes up')
  feed(big, Buffer.concat([encodeTableSizeUpdate(65536)]))
  const many = []
  for (let k = 0; k < 1000; k++) many.push(field(`n${k}`, 'v'))
  feed(big, Buffer.concat(many))
  t.equal(big.count, 1000, 'a table of 1000 entries once the limit allows it')
  t.same(big.entries()[0], ['n999', 'v'])
  t.same(big.entries()[999], ['n0', 'v'])
  t.equal(decodeAll(big, Buffer.from(encodeInteger(62 + 999, 7, 0x80))).headers[0][0], 'n0', 'the oldest by its index')
})

t.test('indices out of range and truncated blocks are COMPRESSION_ERRORs', async (t) => {
  const d = new Decoder()
  compressionError(t, () => d.decode(Buffer.from([0x80]), 0, 1, false), /index 0/, 'index 0')
  compressionError(t, () => new Decoder().decode(Buffer.from([0xbe]), 0, 1, false), /index 62 is beyond the 61 static and 0 dynamic/, 'index 62 with an empty table')
  const one = new Decoder()
  feed(one, hex('400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572'))
  t.same(decodeAll(one, Buffer.from([0xbe])).headers, [['custom-key', 'custom-header']], 'index 62 with one entry')
  compressionError(t, () => one.decode(Buffer.from([0xbf]), 0, 1, false), /index 63/, 'index 63 with one entry')
  compressionError(t, () => new Decoder().decode(Buffer.from([0x7f, 0x00, 0x01, 0x61]), 0, 4, false), /index 63/, 'a literal\'s name index out of range')
  compressionError(t, () => new Decoder().decode(Buffer.from([0x04, 0x05, 0x61]), 0, 3, false), /runs past the end/, 'a string cut short')
  compressionError(t, () => new Decoder().decode(Buffer.from([0x04]), 0, 1, false), /ends before a string/, 'a field without its value')
  compressionError(t, () => new Decoder().decode(Buffer.from([0x00, 0x01, 0x61]), 0, 3, true), /ends before a string/, 'a new name without its value')
  compressionError(t, () => new Decoder().decode(Buffer.from([0x44, 0x05, 0x61]), 0, 3, false), /runs past the end/, 'a value to be indexed cut short')
  compressionError(t, () => new Decoder().decode(Buffer.from([0x04, 0x7f, 0x80]), 0, 3, false), /ends inside an integer/, 'a skipped value\'s length cut short')
  compressionError(t, () => new Decoder().decode(Buffer.from([0x44, 0x7f, 0x80]), 0, 3, false), /ends inside an integer/, 'a kept value\'s length cut short')
  // An error in the middle of a block leaves nothing half done to worry
  // about: the connection is closed (RFC 9113 §4.3).
})

t.test('long strings, read or skipped', async (t) => {
  const long = 'v'.repeat(300)
  for (const [what, value] of [['raw', Buffer.concat([Buffer.from(encodeInteger(300, 7, 0)), Buffer.from(long)])], ['Huffman', encodeString(Buffer.from(long))]]) {
    t.ok(value.length > 127, `${what}: a length past the 7-bit prefix`)
    // user-agent (58): without indexing, then with.
    const block = Buffer.concat([Buffer.from(encodeInteger(58, 4, 0x00)), value, Buffer.from(encodeInteger(58, 6, 0x40)), value, Buffer.from([0x88])])
    const skipped = new Decoder()
    t.equal(feed(skipped, block), 200, `${what}: skipped, then indexed`)
    t.same(skipped.entries(), [['user-agent', long]])
    const read = new Decoder()
    feed(read, block, true)
    t.same(pairs(read.headers), [['user-agent', long], ['user-agent', long], [':status', '200']], `${what}: read`)
  }
})

t.test(':status: as a number whichever way it was sent', async (t) => {
  const cases = [
    ['indexed static', Buffer.from([0x8d]), 404],
    ['literal, static name, raw', Buffer.concat([Buffer.from([0x08]), encodeString(Buffer.from('503'))]), 503],
    ['literal, static name, Huffman', Buffer.concat([Buffer.from([0x08, 0x82]), huffmanEncode(Buffer.from('201'))]), 201],
    ['literal, new name', Buffer.concat([Buffer.from([0x00]), encodeString(Buffer.from(':status')), encodeString(Buffer.from('418'))]), 418],
    ['literal, new name, Huffman', Buffer.concat([Buffer.from([0x10, 0x85]), huffmanEncode(Buffer.from(':status')), encodeString(Buffer.from('299'))]), 299],
    ['not three digits', Buffer.concat([Buffer.from([0x08]), encodeString(Buffer.from('20'))]), -1],
    ['a letter in it', Buffer.concat([Buffer.from([0x08]), encodeString(Buffer.from('2x0'))]), -1],
    ['no :status', Buffer.from([0x82]), 0],
    ['the first of two', Buffer.from([0x88, 0x8d]), 200]
  ]
  for (const [what, block, status] of cases) {
    t.equal(new Decoder().decode(block, 0, block.length, false), status, `${what}: ${status}`)
    t.equal(new Decoder().decode(block, 0, block.length, true), status, `${what}, fields asked for: ${status}`)
  }
  // Indexed into the dynamic table: the entry keeps its status.
  const d = new Decoder()
  feed(d, Buffer.concat([Buffer.from([0x48]), encodeString(Buffer.from('302'))]))
  t.equal(d.decode(Buffer.from([0xbe]), 0, 1, false), 302, 'a dynamic entry\'s status')
  feed(d, Buffer.concat([Buffer.from([0x7e]), encodeString(Buffer.from('301'))]))
  t.equal(d.decode(Buffer.from([0xbe]), 0, 1, false), 301, 'a dynamic entry named by a dynamic entry')
  // Within a larger buffer: only [start, end) is read.
  const framed = Buffer.from([0xff, 0x8d, 0xff])
  t.equal(new Decoder().decode(framed, 1, 2, false), 404, 'a block inside a larger buffer')
})

t.test('encodeRequestHeaders: the static table where it matches, literals never indexed otherwise', async (t) => {
  const block = encodeRequestHeaders({ method: 'GET', scheme: 'http', authority: 'www.example.com', path: '/' })
  t.equal(block.toString('hex'), '8286' + '018cf1e3c2e5f23a6ba0ab90f4ff' + '84', 'GET http / as in C.4.1, :authority without indexing')
  const post = encodeRequestHeaders({ method: 'POST', scheme: 'https', authority: 'a', path: '/index.html' })
  t.equal(post.toString('hex'), '8387' + '010161' + '85', 'POST https /index.html; a short value stays raw')

  const headers = {
    'X-Custom': 'Hello',
    Accept: '*/*',
    'Accept-Encoding': 'gzip, deflate',
    Connection: 'keep-alive, x-hop',
    'Keep-Alive': 'timeout=5',
    'Proxy-Connection': 'keep-alive',
    'Transfer-Encoding': 'chunked',
    Upgrade: 'websocket',
    'X-Hop': 'dropped: Connection names it',
    TE: 'trailers',
    Host: 'example.org:8080',
    'Content-Length': '999',
    Cookie: ['a=1', 'b=2'],
    Authorization: 'Bearer secret',
    'X-Spaces': '  padded\t',
    'X-Skip': undefined
  }
  const full = encodeRequestHeaders({ method: 'PUT', authority: 'ignored:1', path: '/p?q=1', headers, contentLength: 5 })
  const d = new Decoder()
  const got = decodeAll(d, full)
  t.same(got.headers, [
    [':method', 'PUT'],
    [':scheme', 'http'],
    [':authority', 'example.org:8080'],
    [':path', '/p?q=1'],
    ['x-custom', 'Hello'],
    ['accept', '*/*'],
    ['accept-encoding', 'gzip, deflate'],
    ['te', 'trailers'],
    ['cookie', 'a=1'],
    ['cookie', 'b=2'],
    ['authorization', 'Bearer secret'],
    ['x-spaces', 'padded'],
    ['content-length', '5']
  ], 'names lower-cased, connection-specific fields dropped, Host as :authority, our Content-Length')
  t.equal(d.count, 0, 'nothing inserted into the server\'s table')
  t.ok(full.includes(Buffer.from([0x90])), 'accept-encoding: gzip, deflate is static entry 16')
  // authorization (static name 23) goes never-indexed: 0001 + 4-bit prefix
  // 15, then 23 - 15.
  t.ok(full.includes(Buffer.from([0x1f, 0x08])), 'authorization is never indexed')
  t.same(decodeAll(d, full).headers, got.headers, 'the same block decodes the same again: it does not depend on the table')
  t.notOk(full.includes(Buffer.from('example.org')), 'values are Huffman-coded when that is shorter')
  t.notOk(full.includes(Buffer.from('x-custom')), 'and so are names')
  t.ok(full.includes(Buffer.from('*/*')), 'but raw when Huffman is no shorter (\'*/*\' takes 3 octets either way)')

  const te = decodeAll(new Decoder(), encodeRequestHeaders({ headers: { te: 'gzip' } })).headers
  t.notOk(te.some(([n]) => n === 'te'), 'TE other than trailers is dropped')
  const noAuthority = decodeAll(new Decoder(), encodeRequestHeaders({})).headers
  t.same(noAuthority, [[':method', 'GET'], [':scheme', 'http'], [':path', '/']], 'defaults: GET http /, no :authority without one')
  const utf8 = decodeAll(new Decoder(), encodeRequestHeaders({ headers: { 'x-name': 'café' } })).headers
  t.equal(Buffer.from(utf8[3][1], 'latin1').toString('utf8'), 'café', 'values beyond ASCII go as UTF-8, as over HTTP/1.1')

  const refuses = (shape, option, what) => t.throws(() => encodeRequestHeaders(shape), InvalidOptionError, what) &&
    t.throws(() => encodeRequestHeaders(shape), { option }, `${what}: names ${option}`)
  refuses({ headers: { 'bad name': 'x' } }, 'headers', 'a name that is not a token')
  refuses({ headers: { ':path': '/x' } }, 'headers', 'a pseudo-header among the headers')
  refuses({ headers: { x: 'a\r\nb' } }, 'headers', 'CR LF in a value')
  refuses({ method: 'G T' }, 'method', 'a method that is not a token')
  refuses({ path: '' }, 'path', 'an empty path')
  refuses({ path: '/a b' }, 'path', 'a space in the path')
  refuses({ authority: 'a\nb' }, 'host', 'a control character in the authority')

  t.equal(encodeTableSizeUpdate(0).toString('hex'), '20', 'size update to 0')
  t.equal(encodeTableSizeUpdate(4096).toString('hex'), '3fe11f', 'size update to 4096')
  t.equal(STATIC_TABLE.length, 62, '61 static entries after index 0')
  t.same(STATIC_TABLE[61], ['www-authenticate', ''])
})
