'use strict'

// mulberry32: a small seeded generator, so that a failure can be re-run
// with the seed its test printed. random(seed)() → [0, 1).
function random (seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6D2B79F5) >>> 0
    let x = a
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
}

module.exports = { random }
