'use strict'

// Unit tests of lib/http2/hpack-huffman.js: the code of RFC 7541 Appendix B
// and seeded round trips. Invalid padding and EOS, in strings and in header
// blocks: test/http2/hpack.test.js.

const t = require('tap')
const { huffmanDecode, huffmanEncode, huffmanLength, HUFFMAN_CODES, HUFFMAN_LENGTHS } = require('../../lib/http2/hpack-huffman')
const { seededRandom } = require('../../lib/core/random')

// RFC 7541 C.6.3's cookie.
const COOKIE = 'foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1'

t.test('Huffman: the code of RFC 7541 Appendix B', async (t) => {
  // The canonical construction against codes copied from the RFC.
  const rfc = [
    [0, 0x1ff8, 13], [1, 0x7fffd8, 23], [9, 0xffffea, 24], [10, 0x3ffffffc, 30], [22, 0x3ffffffe, 30],
    [32, 0x14, 6], [48, 0x0, 5], [58, 0x5c, 7], [92, 0x7fff0, 19], [97, 0x3, 5], [122, 0x7b, 7],
    [126, 0x1ffd, 13], [127, 0xffffffc, 28], [128, 0xfffe6, 20], [195, 0x7fff1, 19], [220, 0xffffffd, 28],
    [249, 0xffffffe, 28], [255, 0x3ffffee, 26], [256, 0x3fffffff, 30]
  ]
  for (const [sym, code, length] of rfc) {
    t.equal(HUFFMAN_CODES[sym], code, `symbol ${sym}: code 0x${code.toString(16)}`)
    t.equal(HUFFMAN_LENGTHS[sym], length, `symbol ${sym}: ${length} bits`)
  }
  // A prefix code: Kraft's sum is exactly 1.
  t.equal(HUFFMAN_LENGTHS.reduce((sum, l) => sum + 2 ** -l, 0), 1, 'complete and prefix-free')
  t.equal(huffmanEncode(Buffer.from('www.example.com')).toString('hex'), 'f1e3c2e5f23a6ba0ab90f4ff', 'C.4.1\'s string')
  t.equal(huffmanEncode(Buffer.from('no-cache')).toString('hex'), 'a8eb10649cbf', 'C.4.2\'s string')
  t.equal(huffmanEncode(Buffer.from(COOKIE)).toString('hex'),
    '94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007', 'C.6.3\'s cookie')
})

t.test('Huffman: seeded random strings round-trip', async (t) => {
  const random = seededRandom(7541)
  const out = Buffer.alloc(1024)
  let failures = 0
  let bytes = 0
  for (let n = 0; n < 3000; n++) {
    const length = Math.floor(random() * 120)
    // Half of them header-like text, half any octets.
    const text = n % 2 === 0
    const data = Buffer.alloc(length)
    for (let k = 0; k < length; k++) data[k] = text ? 32 + Math.floor(random() * 95) : Math.floor(random() * 256)
    const coded = huffmanEncode(data)
    if (coded.length !== huffmanLength(data)) failures++
    const end = huffmanDecode(coded, 0, coded.length, out, 3)
    if (end !== 3 + length || !out.subarray(3, end).equals(data)) failures++
    bytes += length
  }
  t.equal(failures, 0, `3000 strings (${bytes} octets) decode to what was encoded`)
  t.equal(huffmanDecode(Buffer.alloc(0), 0, 0, out, 0), 0, 'the empty string')
})
