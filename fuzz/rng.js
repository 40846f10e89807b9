'use strict'

// A small seeded PRNG (sfc32, seeded through splitmix32) so that a case is
// the same bytes on every machine and every run: case k of seed S is
// generated from its own stream, hash(S, k), whatever ran before it.

function splitmix32 (a) {
  return function () {
    a |= 0
    a = (a + 0x9e3779b9) | 0
    let t = a ^ (a >>> 16)
    t = Math.imul(t, 0x21f0aaad)
    t = t ^ (t >>> 15)
    t = Math.imul(t, 0x735a2d97)
    return (t ^ (t >>> 15)) >>> 0
  }
}

class Rng {
  constructor (seed, stream = 0) {
    const mix = splitmix32((seed >>> 0) ^ Math.imul(stream >>> 0, 0x85ebca6b) ^ (Math.floor(stream / 0x100000000) >>> 0))
    this.a = mix()
    this.b = mix()
    this.c = mix()
    this.d = mix() | 1
    for (let k = 0; k < 12; k++) this.u32()
  }

  u32 () {
    let { a, b, c, d } = this
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    this.a = a
    this.b = b
    this.c = c
    this.d = d
    return t >>> 0
  }

  // 0 <= x < n
  int (n) {
    return n <= 1 ? 0 : this.u32() % n
  }

  // lo <= x <= hi
  range (lo, hi) {
    return lo + this.int(hi - lo + 1)
  }

  chance (p) {
    return this.u32() / 0x100000000 < p
  }

  pick (list) {
    return list[this.int(list.length)]
  }

  // Picks from [[weight, value], ...].
  weighted (list) {
    let total = 0
    for (const [w] of list) total += w
    let x = this.int(total)
    for (const [w, v] of list) {
      if (x < w) return v
      x -= w
    }
    return list[list.length - 1][1]
  }

  bytes (n, alphabet) {
    const out = Buffer.allocUnsafe(n)
    for (let k = 0; k < n; k++) out[k] = alphabet ? alphabet.charCodeAt(this.int(alphabet.length)) : this.int(256)
    return out
  }

  // A sorted set of distinct cut points in (0, length).
  cuts (length, count) {
    const set = new Set()
    const max = Math.min(count, length - 1)
    while (set.size < max) set.add(1 + this.int(length - 1))
    return [...set].sort((x, y) => x - y)
  }
}

module.exports = { Rng }
