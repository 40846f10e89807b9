'use strict'

// Seeded randomness (lib/core/random.js): the same seed draws the same
// numbers, uniform in [0, 1). Streams of the parts of a run:
// test/engine/arrivals.test.js.

const t = require('tap')
const { seededRandom } = require('../../lib/core/random')

t.test('the seeded generator is deterministic and uniform enough', async (t) => {
  const a = seededRandom(7)
  const b = seededRandom(7)
  const draws = Array.from({ length: 10000 }, () => a())
  t.same(Array.from({ length: 10000 }, () => b()), draws, 'same seed, same draws')
  t.not(seededRandom(8)(), draws[0], 'another seed, other draws')
  t.ok(draws.every((d) => d >= 0 && d < 1))
  const mean = draws.reduce((s, d) => s + d, 0) / draws.length
  t.ok(Math.abs(mean - 0.5) < 0.01, `mean ${mean}`)
})
