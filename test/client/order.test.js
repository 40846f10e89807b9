'use strict'

const t = require('tap')
const { sharedOrder } = require('../../lib/client/order')
const { seededRandom } = require('../../lib/core/random')

t.test('sequential: one cursor for all who pick, round and round', async (t) => {
  const order = sharedOrder('sequential', 3, null)
  t.same(Array.from({ length: 7 }, () => order.pick()), [0, 1, 2, 0, 1, 2, 0])
})

t.test('random: drawn from the seeded generator, every entry reachable, the same seed the same picks', async (t) => {
  const picks = (seed) => {
    const order = sharedOrder('random', 4, seededRandom(seed))
    return Array.from({ length: 400 }, () => order.pick())
  }
  const a = picks(7)
  t.same(a, picks(7))
  t.notSame(a, picks(8))
  t.same([...new Set(a)].sort(), [0, 1, 2, 3])
  t.ok(a.every((i) => Number.isInteger(i) && i >= 0 && i < 4))
})
