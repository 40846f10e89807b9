'use strict'

// Shards divide a run as workers do, through the same share(): the parts
// add up to the whole, rates are divided, and a shard's workers divide its
// part again. Indexes are 0-based; auto/N reads JOB_COMPLETION_INDEX.

const t = require('tap')
const { buildConfig } = require('../../lib/config/config')
const { workerConfig } = require('../../lib/engine/workers')
const { share } = require('../../lib/core/share')
const { parseArguments } = require('../../lib/cli/args')
const { run } = require('../helpers/cli')

const url = 'http://127.0.0.1:9'
const sum = (list) => list.reduce((a, b) => a + b, 0)
const shards = (opts, count) => Array.from({ length: count }, (_, index) => buildConfig({ url, ...opts, shard: { index, count } }))

t.test('connections, amount and -O: the parts add up to the whole', async (t) => {
  t.same(shards({ connections: 10 }, 3).map((c) => c.connections), [4, 3, 3], '-c 10 over 3 shards')
  t.same(shards({ connections: 10, amount: 101 }, 2).map((c) => c.amount), [51, 50], '-a 101 over 2 shards')
  t.same(shards({ connections: 10, maxOverallRequests: 7 }, 3).map((c) => c.maxOverallRequests), [3, 2, 2])
  for (const count of [1, 2, 3, 4, 7, 16]) {
    for (const connections of [16, 17, 100, 1001]) {
      const parts = shards({ connections, amount: connections * 3 + 1 }, count)
      t.equal(sum(parts.map((c) => c.connections)), connections, `${connections} connections over ${count}`)
      t.equal(sum(parts.map((c) => c.amount)), connections * 3 + 1, `amount over ${count}`)
      parts.forEach((c, i) => t.equal(c.connections, share(connections, count, i)))
    }
  }
})

t.test('shards and workers divide through the one share()', async (t) => {
  // Both modules are loaded with a share() that marks its answers: each
  // division that comes out marked went through it.
  const calls = []
  const marked = { share: (total, parts, index) => { calls.push([total, parts, index]); return share(total, parts, index) } }
  const splitter = t.mockRequire('../../lib/config/split', { '../../lib/core/share': marked })
  const { buildConfig: build } = t.mockRequire('../../lib/config/config', { '../../lib/config/split': splitter })
  const { workerConfig: split } = t.mockRequire('../../lib/engine/workers', { '../../lib/config/split': splitter })
  const config = build({ url, connections: 10, amount: 100, shard: { index: 1, count: 3 }, workers: 2 })
  t.same(calls, [[10, 3, 1], [100, 3, 1]], 'the shard\'s part of connections and amount')
  calls.length = 0
  const parts = [0, 1].map((i) => split(config, i))
  t.same(calls, [[3, 2, 0], [33, 2, 0], [3, 2, 1], [33, 2, 1]], 'the workers\' parts of the shard\'s part')
  t.same(parts.map((p) => p.connections), [2, 1])
  t.same(parts.map((p) => p.amount), [17, 16])
})

t.test('shards × workers: every connection and request once', async (t) => {
  let connections = 0
  let amount = 0
  for (const config of shards({ connections: 10, amount: 1000, workers: 2 }, 3)) {
    const parts = [0, 1].map((i) => workerConfig(config, i))
    connections += sum(parts.map((p) => p.connections))
    amount += sum(parts.map((p) => p.amount))
    for (const p of parts) {
      t.same([p.shard, p.shardIndex], [config.shard, config.shard.index], 'a worker keeps its shard, which it does not divide again')
      t.equal(p.startAt, undefined, 'nor gets the start time in its config')
    }
  }
  t.equal(connections, 10)
  t.equal(amount, 1000)
})

t.test('rates are divided; a per-connection rate is not', async (t) => {
  t.same(shards({ connections: 8, overallRate: 1000 }, 4).map((c) => c.overallRate), [250, 250, 250, 250])
  t.same(shards({ connections: 8, overallRate: 1000 }, 3).map((c) => c.overallRate * 3), [1000, 1000, 1000])
  t.same(shards({ connections: 8, connectionRate: 10 }, 4).map((c) => c.connectionRate), [10, 10, 10, 10], 'each connection keeps its rate')
  const [one] = shards({ connections: 8, overallRate: 100, stages: '10s:1000,20s:0' }, 4)
  t.same(one.stages.map((s) => s.rate), [250, 0])
  t.same(one.stages.map((s) => s.duration), [10, 20], 'durations stay')
  t.equal(one.overallRate, 25, 'the rate the first stage ramps from too')
  t.equal(one.duration, 30)
})

t.test('too many shards, bad shards', async (t) => {
  t.throws(() => buildConfig({ url, connections: 3, shard: { index: 0, count: 4 } }), { code: 'AC_TOO_MANY_SHARDS', message: /4 shards need connections \(-c\) of at least 4.*it is 3/ })
  t.throws(() => buildConfig({ url, connections: 10, amount: 3, shard: { index: 3, count: 4 } }), { code: 'AC_TOO_MANY_SHARDS', message: /amount/ })
  t.throws(() => buildConfig({ url, connections: 10, maxOverallRequests: 3, shard: '0/4' }), { code: 'AC_TOO_MANY_SHARDS', message: /-O/ })
  for (const bad of [{ index: 4, count: 4 }, { index: -1, count: 4 }, { index: 0, count: 0 }, { index: 1.5, count: 4 }, '1/0', 'auto/4', 'x', 3]) {
    t.throws(() => buildConfig({ url, shard: bad }), { code: 'AC_INVALID_OPTION', option: 'shard', message: /0-based/ }, JSON.stringify(bad))
  }
  t.same(buildConfig({ url, shard: '2/4' }).shard, { index: 2, count: 4 }, '"I/N" in the library too')
  t.same(buildConfig({ url, shard: { index: '1', count: '4' } }).shard, { index: 1, count: 4 })
})

t.test('--shard I/N and auto/N', async (t) => {
  t.same(parseArguments(['--shard', '1/4', url], {}).shard, { index: 1, count: 4 })
  t.same(parseArguments(['--shard', 'auto/4', url], { JOB_COMPLETION_INDEX: '3' }).shard, { index: 3, count: 4 })
  t.throws(() => parseArguments(['--shard', 'auto/4', url], {}), { code: 'AC_INVALID_ARGUMENT', message: /JOB_COMPLETION_INDEX, which is not set/ })
  t.throws(() => parseArguments(['--shard', 'auto/4', url], { JOB_COMPLETION_INDEX: '4' }), { message: /JOB_COMPLETION_INDEX is "4", not a whole number from 0 to 3/ })
  t.throws(() => parseArguments(['--shard', 'auto/4', url], { JOB_COMPLETION_INDEX: 'x' }), { message: /JOB_COMPLETION_INDEX is "x"/ })
  t.throws(() => parseArguments(['--shard', '4/4', url], {}), { code: 'AC_INVALID_ARGUMENT', message: /Invalid value for --shard: "4\/4".*0-based/ })

  const out = await run(['--shard', 'auto/2', '-d', '1', url], { extraEnv: {} })
  t.equal(out.code, 1)
  t.equal(out.stderr.trim().split('\n').length, 1, 'one line')
  t.match(out.stderr, /JOB_COMPLETION_INDEX/)
  const few = await run(['--shard', '0/4', '-c', '2', url])
  t.equal(few.code, 1)
  t.match(few.stderr, /^Error: 4 shards need connections \(-c\) of at least 4/)
})
