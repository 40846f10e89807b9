'use strict'

// Shards divide a run as workers do, through the same share() (the parts
// themselves: test/config/config.test.js, test/config/split.test.js,
// test/engine/workers.test.js). Indexes are 0-based; auto/N reads
// JOB_COMPLETION_INDEX.

const t = require('tap')
const { share } = require('../../lib/core/share')
const { parseCli } = require('../../lib/cli/args')
const { run } = require('../helpers/cli')

const url = 'http://127.0.0.1:9'

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

t.test('--shard I/N and auto/N', async (t) => {
  t.same(parseCli(['--shard', '1/4', url], {}).shard, { index: 1, count: 4 })
  t.same(parseCli(['--shard', 'auto/4', url], { JOB_COMPLETION_INDEX: '3' }).shard, { index: 3, count: 4 })
  t.throws(() => parseCli(['--shard', 'auto/4', url], {}), { code: 'AC_INVALID_ARGUMENT', message: /JOB_COMPLETION_INDEX, which is not set/ })
  t.throws(() => parseCli(['--shard', 'auto/4', url], { JOB_COMPLETION_INDEX: '4' }), { message: /JOB_COMPLETION_INDEX is "4", not a whole number from 0 to 3/ })
  t.throws(() => parseCli(['--shard', 'auto/4', url], { JOB_COMPLETION_INDEX: 'x' }), { message: /JOB_COMPLETION_INDEX is "x"/ })
  t.throws(() => parseCli(['--shard', '4/4', url], {}), { code: 'AC_INVALID_ARGUMENT', message: /Invalid value for --shard: "4\/4".*0-based/ })

  const out = await run(['--shard', 'auto/2', '-d', '1', url], { extraEnv: {} })
  t.equal(out.code, 1)
  t.equal(out.stderr.trim().split('\n').length, 1, 'one line')
  t.match(out.stderr, /JOB_COMPLETION_INDEX/)
  const few = await run(['--shard', '0/4', '-c', '2', url])
  t.equal(few.code, 1)
  t.match(few.stderr, /^Error: 4 shards need connections \(-c\) of at least 4/)
})
