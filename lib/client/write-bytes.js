'use strict'

// Values written as text straight into a buffer, the bytes String() and a
// hex table would give, without making the string: numbers' digits and
// v4 UUIDs. Each returns the position after what it wrote.

const POW10 = Array.from({ length: 16 }, (_, i) => 10 ** i)
// 00 to 99, two bytes each.
const PAIRS = Uint8Array.from({ length: 200 }, (_, i) => 48 + (i & 1 ? (i >> 1) % 10 : Math.floor((i >> 1) / 10)))

// Digits of a safe integer ≥ 0.
function digitCount (v) {
  if (v < 1e8) {
    if (v < 1e4) return v < 100 ? (v < 10 ? 1 : 2) : (v < 1000 ? 3 : 4)
    return v < 1e6 ? (v < 1e5 ? 5 : 6) : (v < 1e7 ? 7 : 8)
  }
  let n = 9
  while (n < 16 && v >= POW10[n]) n++
  return n
}

// v: a safe integer ≥ 0.
function writeDigits (buf, pos, v) {
  const end = pos + digitCount(v)
  let p = end
  if (v <= 0x7fffffff) {
    // Two digits at a time.
    while (v >= 100) {
      const q = (v / 100) | 0
      const r = (v - q * 100) << 1
      buf[--p] = PAIRS[r + 1]
      buf[--p] = PAIRS[r]
      v = q
    }
    if (v >= 10) {
      buf[--p] = PAIRS[(v << 1) + 1]
      buf[--p] = PAIRS[v << 1]
    } else {
      buf[--p] = 48 + v
    }
  } else {
    // Beyond 32 bits: the same in doubles, exact below 2^53.
    do {
      const q = Math.floor(v / 10)
      buf[--p] = 48 + (v - q * 10)
      v = q
    } while (v !== 0)
  }
  return end
}

// Any integer, as String(v) writes it (exponents and all beyond 2^53).
function writeNumber (buf, pos, v) {
  if (v >= 0 && v <= Number.MAX_SAFE_INTEGER) return writeDigits(buf, pos, v)
  if (v < 0 && v >= -Number.MAX_SAFE_INTEGER) {
    buf[pos] = 45 // -
    return writeDigits(buf, pos + 1, -v)
  }
  return pos + buf.latin1Write(String(v), pos)
}

const DASH = 45

// Each 16-bit value's 4 hex digits, as the 32-bit big-endian word of their
// bytes: a UUID is then 8 lookups and 12 stores. Made on first use
// (256 kB); faster than a byte's table (512 B, twice the lookups) even with
// the caches churned between batches, as a run churns them.
let HEX4 = null

function hexTable () {
  const hex = (v) => v.toString(16).padStart(2, '0')
  const pair = new Uint16Array(256)
  for (let v = 0; v < 256; v++) pair[v] = (hex(v).charCodeAt(0) << 8) | hex(v).charCodeAt(1)
  const table = new Uint32Array(65536)
  for (let v = 0; v < 65536; v++) table[v] = ((pair[v >>> 8] << 16) | pair[v & 255]) >>> 0
  return table
}

const UUID_LENGTH = 36

// 128 random bits from four 32-bit draws, with the version (4) and
// variant (10) bits set: xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx. view: a
// DataView of the buffer.
function writeUuid (view, pos, random) {
  if (HEX4 === null) HEX4 = hexTable()
  const a = random() * 0x100000000 >>> 0
  const b = ((random() * 0x100000000 >>> 0) & 0xffff0fff) | 0x4000
  const c = ((random() * 0x100000000 >>> 0) & 0x3fffffff) | 0x80000000
  const d = random() * 0x100000000 >>> 0
  view.setUint32(pos, HEX4[a >>> 16])
  view.setUint32(pos + 4, HEX4[a & 0xffff])
  view.setUint8(pos + 8, DASH)
  view.setUint32(pos + 9, HEX4[b >>> 16])
  view.setUint8(pos + 13, DASH)
  view.setUint32(pos + 14, HEX4[b & 0xffff])
  view.setUint8(pos + 18, DASH)
  view.setUint32(pos + 19, HEX4[c >>> 16])
  view.setUint8(pos + 23, DASH)
  view.setUint32(pos + 24, HEX4[c & 0xffff])
  view.setUint32(pos + 28, HEX4[d >>> 16])
  view.setUint32(pos + 32, HEX4[d & 0xffff])
  return pos + UUID_LENGTH
}

module.exports = { writeDigits, writeNumber, writeUuid, UUID_LENGTH }
