'use strict'

// A whole split into parts (lib/core/share.js), as workers and shards
// split connections and amounts: the parts add up to the whole, the first
// ones one larger.

const t = require('tap')
const { share } = require('../../lib/core/share')

t.test('the first total % parts parts get one more', async (t) => {
  t.same([0, 1].map((i) => share(101, 2, i)), [51, 50])
  t.same([0, 1, 2].map((i) => share(10, 3, i)), [4, 3, 3])
  t.same([0, 1, 2, 3].map((i) => share(11, 4, i)), [3, 3, 3, 2])
  t.same([0, 1, 2].map((i) => share(2, 3, i)), [1, 1, 0], 'fewer than the parts: some get none')
  t.equal(share(7, 1, 0), 7)
})

t.test('the parts add up to the whole and differ by at most one', async (t) => {
  let wrong = 0
  for (let total = 0; total <= 200; total++) {
    for (let parts = 1; parts <= 24; parts++) {
      const all = Array.from({ length: parts }, (_, i) => share(total, parts, i))
      const sum = all.reduce((a, b) => a + b, 0)
      if (sum !== total || Math.max(...all) - Math.min(...all) > 1 || all.some((s, i) => i > 0 && s > all[i - 1])) wrong++
    }
  }
  t.equal(wrong, 0, 'every split of 0…200 over 1…24 parts')
})
