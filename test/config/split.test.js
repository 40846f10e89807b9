'use strict'

// One splitter for shards and workers: the parts add up to the whole
// (connections, amount, -O exactly; rates evenly), a per-connection rate
// stays, a ramp is split again at every level, each part knows where it
// sends from; a worker's part crosses to its thread as data and is frozen
// there as buildConfig froze it.

const t = require('tap')
const { structuredClone } = globalThis
const { buildConfig } = require('../../lib/config/config')
const { shardPart, workerPart, fitToWorkers, ratePart, received } = require('../../lib/config/split')

const url = 'http://127.0.0.1:9'
const sum = (list) => list.reduce((a, b) => a + b, 0)
const near = (a, b) => Math.abs(a - b) < 1e-9

t.test('shards and workers alike: whole numbers add up, rates divide evenly, connectionRate stays', async (t) => {
  const whole = buildConfig({ url, connections: 10, amount: 101, maxOverallRequests: 0, overallRate: 1000, connectionRate: 7, workers: 3 })
  const byShard = [0, 1, 2].map((index) => shardPart(whole, { index, count: 3 }))
  const byWorker = [0, 1, 2].map((index) => workerPart(whole, index))
  for (const [what, parts] of [['shards', byShard], ['workers', byWorker]]) {
    t.same(parts.map((p) => p.connections), [4, 3, 3], `${what}: -c 10 is 4 + 3 + 3`)
    t.same(parts.map((p) => p.amount), [34, 34, 33], `${what}: -a 101`)
    t.same(parts.map((p) => p.maxOverallRequests), [0, 0, 0], `${what}: -O not set stays not set`)
    t.ok(near(sum(parts.map((p) => p.overallRate)), 1000) && parts.every((p) => near(p.overallRate, 1000 / 3)), `${what}: -R 1000 divided evenly`)
    t.same(parts.map((p) => p.connectionRate), [7, 7, 7], `${what}: -r is per connection`)
  }
  const capped = buildConfig({ url, connections: 10, maxOverallRequests: 11 })
  t.same([0, 1].map((index) => shardPart(capped, { index, count: 2 }).maxOverallRequests), [6, 5], '-O 11 over 2 shards')
  t.same([0, 1].map((index) => workerPart({ ...capped, workers: 2 }, index).maxOverallRequests), [6, 5], '-O 11 over 2 workers')
})

t.test('stages: each rate divided, each duration kept, and the rate the first ramps from', async (t) => {
  const whole = buildConfig({ url, connections: 8, workers: 4, overallRate: 100, stages: '10s:1000,20s:0' })
  for (const p of [shardPart(whole, { index: 1, count: 4 }), workerPart(whole, 1)]) {
    t.same(p.stages, [{ duration: 10, rate: 250 }, { duration: 20, rate: 0 }])
    t.equal(p.overallRate, 25)
    t.equal(p.duration, 30)
    t.ok(Object.isFrozen(p.stages) && Object.isFrozen(p.stages[0]), 'the part\'s stages are frozen')
  }
  t.same(whole.stages.map((s) => s.rate), [1000, 0], 'the whole is left as it was')
})

t.test('where each part sends from: indexes, shares of a ramp, the shard kept', async (t) => {
  const shard = buildConfig({ url, connectionStages: '0s:9,1s:9', workers: 2, shard: '1/3', seed: 7 })
  t.equal(shard.shardIndex, 1)
  t.same(shard.connectionShares, [[1, 3]], 'the shard\'s share of the ramp')
  t.equal(shard.connections, 3)
  const workers = [0, 1].map((index) => workerPart(shard, index))
  t.same(workers.map((w) => w.connectionShares), [[[1, 3], [0, 2]], [[1, 3], [1, 2]]], 'then each worker\'s, in turn')
  t.same(workers.map((w) => [w.workerIndex, w.workersOfShard, w.shardIndex, w.workers]), [[0, 2, 1, 0], [1, 2, 1, 0]])
  t.match(workers.map((w) => w.shard), [{ index: 1, count: 3 }, { index: 1, count: 3 }], 'the shard stays known: {{seq}} strides over every shard\'s workers')
  t.same(workers.map((w) => w.seed), [7, 7], 'the run\'s seed, which the indexes vary')
  t.same(buildConfig({ url, workers: 2, connections: 4 }).connectionShares, undefined, 'no ramp, no shares')
})

t.test('too many shards: refused on the whole, alike in every shard', async (t) => {
  const whole = buildConfig({ url, connections: 3, amount: 5, maxOverallRequests: 6 })
  for (const index of [0, 3]) {
    t.throws(() => shardPart(whole, { index, count: 4 }), { code: 'AC_TOO_MANY_SHARDS', message: /^4 shards need connections \(-c\) of at least 4, one for each \(it is 3\)/ })
  }
  t.throws(() => shardPart({ ...whole, connections: 6 }, { index: 0, count: 6 }), { code: 'AC_TOO_MANY_SHARDS', message: /amount \(-a\).*it is 5/ })
  t.throws(() => shardPart({ ...whole, connections: 9, amount: 9 }, { index: 0, count: 7 }), { code: 'AC_TOO_MANY_SHARDS', message: /maxOverallRequests \(-O\).*it is 6/ })
})

t.test('fitted to its workers: at least a connection and a request each; a cap below them refused', async (t) => {
  const few = fitToWorkers({ workers: 4, connections: 2, amount: 3, maxOverallRequests: 0 })
  t.same([few.connections, few.connectionsAsked, few.amount, few.amountAsked], [4, 2, 4, 3])
  const plain = { workers: 0, connections: 2, amount: 1, maxOverallRequests: 1 }
  t.equal(fitToWorkers(plain), plain, 'no workers: nothing to fit')
  const enough = fitToWorkers({ workers: 2, connections: 2, amount: 2, maxOverallRequests: 2 })
  t.same([enough.connectionsAsked, enough.amountAsked], [undefined, undefined])
  t.throws(() => fitToWorkers({ workers: 3, connections: 3, amount: 0, maxOverallRequests: 2 }), { code: 'AC_INVALID_OPTION', option: 'maxOverallRequests', message: /2 is fewer than the 3 workers/ })
  t.throws(() => buildConfig({ url, workers: 3, maxOverallRequests: 2 }), { option: 'maxOverallRequests' }, 'buildConfig fits its workers')
})

t.test('a search\'s step rate is divided as the split divides', async (t) => {
  t.ok(near(ratePart(1000, 3) * 3, 1000))
  t.equal(ratePart(90, 3), workerPart(buildConfig({ url, workers: 3, connections: 3, overallRate: 90 }), 2).overallRate)
})

t.test('received: a worker\'s part, cloned across threads, frozen again with its Buffers', async (t) => {
  const config = buildConfig({
    url: [`${url}/a`, 'http://127.0.0.1:8/b'],
    proxy: 'http://u:pw@127.0.0.1:3128',
    workers: 2,
    body: Buffer.from([0, 1, 255]),
    requests: [{ path: '/r', body: Buffer.from('xyz') }],
    initialContext: { n: { m: 1 } },
    stages: '1s:10'
  })
  const part = workerPart(config, 1)
  const clone = structuredClone(part)
  t.notOk(Buffer.isBuffer(clone.body), 'a structured clone makes a Buffer a Uint8Array')
  const got = received(clone)
  t.ok(Buffer.isBuffer(got.body) && got.body.equals(Buffer.from([0, 1, 255])), 'the body is a Buffer again, byte for byte')
  t.ok(Buffer.isBuffer(got.requests[0].body) && got.requests[0].body.toString() === 'xyz')
  t.same(got.urls, config.urls, 'the targets as the main thread made them (auth, proxy, protocol)')
  t.equal(got.urls[0].proxy, got.urls[1].proxy, 'one proxy object, shared as it was')
  for (const [what, value] of [['config', got], ['urls', got.urls], ['a target', got.urls[0]], ['its proxy', got.urls[0].proxy], ['requests', got.requests], ['a request', got.requests[0]], ['stages', got.stages], ['headers', got.headers]]) {
    t.ok(Object.isFrozen(value), `${what} frozen`)
  }
  t.notOk(Object.isFrozen(got.initialContext.n), 'the user\'s own objects as given, unfrozen as in the main thread')
  t.same([got.connections, got.workerIndex, got.workers, got.stages[0].rate], [part.connections, 1, 0, 5])
})
