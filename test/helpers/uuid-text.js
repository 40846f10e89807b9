'use strict'

// A v4 UUID as text from four 32-bit draws of `random`, in the order
// lib/client/write-bytes.js draws them: the reference its bytes are held to.
function uuidText (random) {
  const hex = (v, digits) => (v >>> 0).toString(16).padStart(digits, '0')
  const a = random() * 0x100000000 >>> 0
  const b = ((random() * 0x100000000 >>> 0) & 0xffff0fff) | 0x4000
  const c = ((random() * 0x100000000 >>> 0) & 0x3fffffff) | 0x80000000
  const d = random() * 0x100000000 >>> 0
  return `${hex(a, 8)}-${hex(b >>> 16, 4)}-${hex(b & 0xffff, 4)}-${hex(c >>> 16, 4)}-${hex(c & 0xffff, 4)}${hex(d, 8)}`
}

module.exports = { uuidText }
