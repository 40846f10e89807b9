'use strict'

// require('autocannon/lib/subargAliases'): --warmup's group with its long names.

const t = require('tap')
const ours = require('../../lib/compat/subargAliases')
const theirs = require('autocannon-upstream/lib/subargAliases')

t.test('as autocannon 9\'s: a copy, warmup\'s c and d also as connections and duration', async (t) => {
  const cases = [
    { _: ['http://a'], warmup: { _: [], c: 1, d: 2 }, c: 10 },
    { _: [], warmup: { connections: 3 } },
    { _: [] },
    { warmup: true },
    { warmup: { c: 1, d: 2, x: [1, { y: 2 }] } }
  ]
  for (const args of cases) {
    const before = JSON.stringify(args)
    t.same(ours(args), theirs(args), before)
    t.equal(JSON.stringify(args), before, 'the arguments are not changed')
  }
  const args = { warmup: { c: 1, list: [1] } }
  const out = ours(args)
  t.not(out.warmup, args.warmup, 'a deep copy')
  t.not(out.warmup.list, args.warmup.list)
  t.same(out.warmup, { c: 1, list: [1], connections: 1 })
})
