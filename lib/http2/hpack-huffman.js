'use strict'

// The Huffman code of HPACK (RFC 7541 Appendix B). The code is canonical
// (codes of one length are consecutive, in the order of their symbols, and
// each length continues where the shorter one ended), so the table below is
// only each symbol's code length; the codes follow from it. 256 is EOS.
//
// Decoding runs a byte at a time through a table built when the module
// loads (so not during a run's first response): for each of the 256
// internal nodes of the code tree and each input byte, the node the byte
// leads to and the (at most two: the shortest code is 5 bits) symbols it
// completes. One lookup per input byte, where a table of half bytes needs
// two. A value nobody reads is only checked (huffmanValid), which is
// faster still.
//
// Encoding is done once per request shape: speed does not matter there.

const LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28,
  28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28,
  6, 10, 10, 12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6,
  5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10,
  13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
  7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6,
  15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5,
  6, 7, 6, 5, 5, 6, 7, 7, 7, 7, 7, 15, 11, 14, 13, 28,
  20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23,
  24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22, 23, 23, 24,
  22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23,
  21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22, 23,
  26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25,
  19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27,
  20, 24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23,
  26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26,
  30
]

const EOS = 256

// Codes reach 30 bits: kept below 2^31, so plain numbers (not int32
// arithmetic past 31 bits) hold them.
const CODES = new Uint32Array(257)
{
  const order = LENGTHS.map((_, s) => s).sort((a, b) => LENGTHS[a] - LENGTHS[b] || a - b)
  let code = 0
  for (let k = 1; k < order.length; k++) {
    code = (code + 1) * 2 ** (LENGTHS[order[k]] - LENGTHS[order[k - 1]])
    CODES[order[k]] = code
  }
}

// A decoding table entry (Uint32): bits 0-7 the next node, bit 8 whether
// the string may end there (at the root, or 1 to 7 bits down the all-ones
// path: padding is a prefix of EOS, at most 7 bits, RFC 7541 §5.2), bit 9
// failure (the byte completes EOS), bits 10-11 how many symbols the byte
// completes, bits 12-19 and 20-27 those symbols.
const ACCEPT = 0x100
const FAIL = 0x200

function buildTable () {
  // The code tree, as child arrays over node numbers; leaves hold symbols.
  const size = 2 * 257
  const child0 = new Int16Array(size).fill(-1)
  const child1 = new Int16Array(size).fill(-1)
  const symbol = new Int16Array(size).fill(-1)
  let nodes = 1
  for (let s = 0; s <= EOS; s++) {
    let n = 0
    for (let b = LENGTHS[s] - 1; b >= 0; b--) {
      const children = Math.floor(CODES[s] / 2 ** b) % 2 === 1 ? child1 : child0
      if (children[n] === -1) children[n] = nodes++
      n = children[n]
    }
    symbol[n] = s
  }
  // Internal nodes numbered 0..255 in tree order, the root 0.
  const internal = new Int16Array(nodes).fill(-1)
  let count = 0
  for (let n = 0; n < nodes; n++) if (symbol[n] === -1) internal[n] = count++
  const accepting = new Uint8Array(count)
  for (let n = 0, depth = 0; depth <= 7; n = child1[n], depth++) accepting[internal[n]] = 1

  // What each half byte does from each node (at most one symbol: 4 bits
  // complete no more than one code), then each byte as two half bytes:
  // 4096 walks of 4 bits instead of 65536 of 8.
  const nibble = new Int32Array(count * 16)
  for (let n = 0; n < nodes; n++) {
    if (symbol[n] === -1) {
      for (let v = 0; v < 16; v++) {
        let m = n
        let emitted = -1
        for (let b = 3; b >= 0; b--) {
          m = (v >> b) & 1 ? child1[m] : child0[m]
          if (symbol[m] === -1) continue
          // EOS: failure, as a negative entry.
          emitted = symbol[m] === EOS ? -2 : symbol[m]
          m = 0
          if (emitted === -2) break
        }
        nibble[(internal[n] << 4) | v] = emitted === -2 ? -1 : (internal[m] | ((emitted + 1) << 8))
      }
    }
  }
  const out = new Uint32Array(count * 256)
  for (let node = 0; node < count; node++) {
    for (let byte = 0; byte < 256; byte++) {
      const hi = nibble[(node << 4) | (byte >> 4)]
      const lo = hi === -1 ? -1 : nibble[((hi & 0xff) << 4) | (byte & 15)]
      if (lo === -1) {
        out[(node << 8) | byte] = FAIL
        continue
      }
      const first = (hi >> 8) - 1
      const second = (lo >> 8) - 1
      let entry = (lo & 0xff) | (accepting[lo & 0xff] === 1 ? ACCEPT : 0)
      if (first >= 0) entry |= (second >= 0 ? 0x800 | (second << 20) : 0x400) | (first << 12)
      else if (second >= 0) entry |= 0x400 | (second << 12)
      out[(node << 8) | byte] = entry
    }
  }
  return out
}

const TABLE = buildTable()

// Decodes buf[start..end) into out from outPos on; returns the position
// after the last byte written, or -1 when the string is not valid (EOS
// inside, or padding that is longer than 7 bits or not all ones). `out`
// must have room for (end - start) * 8 / 5 bytes after outPos.
function huffmanDecode (buf, start, end, out, outPos) {
  const t = TABLE
  let node = 0
  let entry = ACCEPT
  let o = outPos
  for (let i = start; i < end; i++) {
    entry = t[(node << 8) | buf[i]]
    if ((entry & FAIL) !== 0) return -1
    const n = entry & 0xc00
    if (n !== 0) {
      out[o++] = (entry >>> 12) & 0xff
      if (n === 0x800) out[o++] = (entry >>> 20) & 0xff
    }
    node = entry & 0xff
  }
  return (entry & ACCEPT) !== 0 ? o : -1
}

// Whether buf[start..end) is a valid Huffman string, as huffmanDecode
// would find, without writing it out: faster, for the values nobody reads
// but that must still be checked.
function huffmanValid (buf, start, end) {
  const t = TABLE
  let entry = ACCEPT
  for (let i = start; i < end; i++) {
    entry = t[((entry & 0xff) << 8) | buf[i]]
    if ((entry & FAIL) !== 0) return false
  }
  return (entry & ACCEPT) !== 0
}

// Bytes of the Huffman coding of data[start..end).
function huffmanLength (data, start = 0, end = data.length) {
  let bits = 0
  for (let i = start; i < end; i++) bits += LENGTHS[data[i]]
  return Math.ceil(bits / 8)
}

// The Huffman coding of data[start..end), padded with ones.
function huffmanEncode (data, start = 0, end = data.length) {
  const out = Buffer.alloc(huffmanLength(data, start, end))
  let o = 0
  let acc = 0
  let bits = 0
  for (let i = start; i < end; i++) {
    const code = CODES[data[i]]
    let left = LENGTHS[data[i]]
    while (left > 0) {
      const take = Math.min(left, 8 - bits)
      acc = (acc << take) | (Math.floor(code / 2 ** (left - take)) & ((1 << take) - 1))
      bits += take
      left -= take
      if (bits === 8) {
        out[o++] = acc
        acc = 0
        bits = 0
      }
    }
  }
  if (bits > 0) out[o] = (acc << (8 - bits)) | (0xff >> bits)
  return out
}

module.exports = { huffmanDecode, huffmanValid, huffmanEncode, huffmanLength, HUFFMAN_CODES: CODES, HUFFMAN_LENGTHS: LENGTHS }
