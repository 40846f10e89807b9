'use strict'

// --shard I/N read as { index, count } (0-based), auto/N from the index a
// Kubernetes Indexed Job sets; anything else is not a shard (null).

const t = require('tap')
const { parseShard } = require('../../lib/config/shard')

t.test('I/N, { index, count } and auto/N', async (t) => {
  t.same(parseShard('0/4'), { index: 0, count: 4 })
  t.same(parseShard(' 3 / 4 '), { index: 3, count: 4 })
  t.same(parseShard({ index: '1', count: '2' }), { index: 1, count: 2 })
  t.same(parseShard('auto/4', { JOB_COMPLETION_INDEX: '2' }), { index: 2, count: 4 })
  for (const bad of ['4/4', '-1/4', '1/0', '1.5/4', 'x', '', { index: 0 }, { index: 2, count: 2 }, null, 3, 'auto/4']) {
    t.equal(parseShard(bad), null, `not a shard: ${JSON.stringify(bad)}`)
  }
})

t.test('auto/N without a usable index says what to do', async (t) => {
  t.throws(() => parseShard('auto/3', {}), { code: 'AC_INVALID_ARGUMENT', message: /JOB_COMPLETION_INDEX, which is not set.*--shard 0\/3/ })
  t.throws(() => parseShard('auto/3', { JOB_COMPLETION_INDEX: '3' }), { message: /is "3", not a whole number from 0 to 2/ })
})
