'use strict'

// A seeded PRNG, so a comparison of the same two files always prints the
// same intervals. mulberry32: 32-bit state, full period over its seeds,
// passes the statistical tests that matter for resampling, and is a few
// integer operations per draw. Not for anything secret.
function seededRandom (seed) {
  let state = seed >>> 0
  return function next () {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

module.exports = { seededRandom }
