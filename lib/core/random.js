'use strict'

// Seeded randomness, for what must replay from a seed: the gaps of Poisson
// arrivals (lib/engine/arrivals.js) and the resampling of a comparison
// (lib/compare). Not for anything secret.

// sfc32 (Chris Doty-Humphrey's small fast counting generator, from
// PractRand): 128 bits of state, so streams seeded apart do not run into
// each other's sequences (a 32-bit state such as mulberry32's would: a
// thousand connections drawing a million gaps each overlap for sure);
// passes PractRand and BigCrush; uniform in [0, 1) with 32 bits.
function seededRandom (seed) {
  let a = 0x9e3779b9
  let b = 0x243f6a88
  let c = 0xb7e15162
  let d = seed >>> 0
  const next = () => {
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
  // A fresh state's first outputs still follow the seed closely.
  for (let i = 0; i < 15; i++) next()
  return next
}

// splitmix32's finaliser: spreads a word's bits over the whole word, so
// seeds 1, 2, 3 start unrelated streams.
function mix (h) {
  h = Math.imul(h ^ (h >>> 16), 0x21f0aaad)
  h = Math.imul(h ^ (h >>> 15), 0x735a2d97)
  return (h ^ (h >>> 15)) >>> 0
}

// The seed of one stream: a run's seed mixed with where the stream runs
// (shard, worker, connection), so that parts given one seed do not draw
// the same numbers.
function streamSeed (seed, ...parts) {
  let h = mix(seed >>> 0)
  for (const part of parts) h = mix((h + Math.imul(part + 1, 0x9e3779b9)) >>> 0)
  return h
}

module.exports = { seededRandom, streamSeed }
