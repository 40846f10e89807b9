'use strict'

// Resource limits checked before a run: open files, local ports, workers;
// and how connections and amounts are divided between workers.

const t = require('tap')
const autocannon = require('../..')
const { buildConfig } = require('../../lib/config/config')
const { checkLimits, checkWorkers, warnings, openFileLimit, localPortRange, connectionsPerAddress } = require('../../lib/config/limits')
const { share } = require('../../lib/core/share')
const { workerConfig } = require('../../lib/engine/workers')

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 524288               files
Max locked memory         8388608              8388608              bytes
`

t.test('the open-file limit and the local port range, as Linux shows them', async (t) => {
  t.equal(openFileLimit(LIMITS), 1024, 'the soft limit')
  t.equal(openFileLimit(LIMITS.replace('1024  ', 'unlimited')), Infinity)
  t.equal(openFileLimit(null), null, 'not Linux: unknown')
  t.same(localPortRange('32768\t60999\n'), [32768, 60999])
  t.equal(localPortRange('junk'), null)
  t.equal(localPortRange(null), null)
  // This machine's own, if it has /proc.
  const own = openFileLimit()
  t.ok(own === null || own > 0, `this process: ${own}`)
})

t.test('connections beyond the open-file limit or the local ports are refused before the run', async (t) => {
  const config = (opts) => buildConfig({ url: 'http://127.0.0.1:3000', ...opts })
  const probe = { limit: 1024, open: 20, range: [32768, 60999] }
  t.doesNotThrow(() => checkLimits(config({ connections: 900 }), probe), '900 of 1024')
  t.throws(() => checkLimits(config({ connections: 1000 }), probe), {
    code: 'AC_TOO_MANY_CONNECTIONS',
    message: '1000 connections need about 1052 open files, but this process may open 1024 (ulimit -n): raise the limit (ulimit -n 2048) or use fewer connections'
  })
  t.throws(() => checkLimits(config({ connections: 900, workers: 20 }), { ...probe, cores: 8 }), { code: 'AC_TOO_MANY_CONNECTIONS' }, 'workers need descriptors too')
  const big = { limit: Infinity, open: 20, range: [32768, 60999] }
  t.doesNotThrow(() => checkLimits(config({ connections: 28232 }), big), 'as many as there are ports')
  t.throws(() => checkLimits(config({ connections: 28233 }), big), {
    code: 'AC_TOO_MANY_CONNECTIONS',
    message: /^28233 connections to 127\.0\.0\.1:3000 need more local ports than the 28232 there are \(net\.ipv4\.ip_local_port_range 32768-60999\)/
  })
  // Spread over two addresses, each gets half.
  t.doesNotThrow(() => checkLimits(buildConfig({ url: ['http://127.0.0.1:3000', 'http://127.0.0.2:3000'], connections: 50000 }), big))
  t.doesNotThrow(() => checkLimits(buildConfig({ url: 'http://127.0.0.1:3000', socketPath: '/tmp/x.sock', connections: 50000 }), big), 'no ports for a Unix socket')
  t.same([...connectionsPerAddress(buildConfig({ url: ['http://[::1]:3000', 'http://[::1]:3000/x', 'http://localhost:80'], connections: 5 }))],
    [['[::1]:3000', 4], ['localhost:80', 1]], 'counted per address, whatever the path')
  t.doesNotThrow(() => checkLimits(config({ connections: 1e6 }), { limit: null, open: 0, range: null }), 'nothing known: nothing refused')
})

t.test('the library refuses too many connections, with the code', async (t) => {
  const limit = openFileLimit()
  if (limit === null || limit === Infinity) return t.skip('no finite open-file limit on this machine')
  await t.rejects(autocannon({ url: 'http://127.0.0.1:9', connections: limit + 1 }), { code: 'AC_TOO_MANY_CONNECTIONS', message: /ulimit -n/ })
})

t.test('workers: one connection each at least (as autocannon), at most one per request of an amount; a warning beyond the cores', async (t) => {
  const over = buildConfig({ url: 'http://127.0.0.1:9', workers: 4, connections: 2 })
  t.equal(over.connections, 4, 'each worker runs one')
  t.same(warnings(over, 8), [{ code: 'AC_WORKERS_OVER_CONNECTIONS', message: '4 workers for 2 connections: each worker runs one, so 4 connections run' }])
  const few = buildConfig({ url: 'http://127.0.0.1:9', workers: 4, connections: 2, amount: 3 })
  t.same([few.connections, few.amount], [4, 4], 'one connection and one request per worker at least')
  t.same(warnings(few, 8).map((w) => w.message), [
    '4 workers for 2 connections: each worker runs one, so 4 connections run',
    '4 workers for an amount of 3: each worker makes at least one request, so 4 requests are made'
  ])
  await t.rejects(autocannon({ url: 'http://127.0.0.1:9', workers: 4, connections: 10, amount: 3 }), { message: 'connections cannot be greater than amount' })
  t.same(warnings(buildConfig({ url: 'http://127.0.0.1:9', workers: 4, connections: 10 }), 2), [{
    code: 'AC_WORKERS_OVER_CORES',
    message: '4 workers on 2 CPU cores: they compete for the cores; more than 2 rarely generates more load'
  }])
  t.same(warnings(buildConfig({ url: 'http://127.0.0.1:9', workers: 2, connections: 10 }), 2), [])
  t.same(warnings(buildConfig({ url: 'http://127.0.0.1:9', connections: 10 }), 1), [], 'no workers, no warning')

  // Through process.emitWarning, once per run.
  const seen = []
  const onWarning = (w) => seen.push(w)
  process.on('warning', onWarning)
  t.teardown(() => process.removeListener('warning', onWarning))
  const cores = require('os').availableParallelism()
  const instance = autocannon({ url: 'http://127.0.0.1:9', workers: cores + 1, connections: cores + 1, duration: 0.2 })
  instance.stop()
  await instance.catch(() => {})
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(seen.filter((w) => w.code === 'AC_WORKERS_OVER_CORES').length, 1, 'one warning')
})

t.test('workers: at most 4 per core, and what the free memory holds at 32 MB each', async (t) => {
  const config = (workers) => buildConfig({ url: 'http://127.0.0.1:3000', workers, connections: workers })
  const GB = 1024 * 1024 * 1024
  t.doesNotThrow(() => checkWorkers(config(8), { cores: 2, free: 16 * GB }), '4 per core')
  t.throws(() => checkWorkers(config(9), { cores: 2, free: 16 * GB }), {
    code: 'AC_TOO_MANY_WORKERS',
    message: '9 workers (-w, workers) are more than this machine can run: at most 8, 4 for each of its 2 CPU cores (threads beyond the cores only compete for them): use -w 8 or fewer'
  })
  t.throws(() => checkWorkers(config(5), { cores: 1, free: 16 * GB }), { message: /at most 4, 4 for each of its 1 CPU core \(/ }, 'one core')
  t.doesNotThrow(() => checkWorkers(config(64), { cores: 16, free: 2048 * 1024 * 1024 }), '64 × 32 MB fit in 2048 MB')
  t.throws(() => checkWorkers(config(64), { cores: 16, free: 2047 * 1024 * 1024 }), {
    code: 'AC_TOO_MANY_WORKERS',
    message: '64 workers (-w, workers) need about 2048 MB (32 MB each), more than the 2047 MB of memory free: use -w 63 or fewer'
  })
  t.throws(() => checkWorkers(config(2), { cores: 16, free: 10 * 1024 * 1024 }), { message: /use -w 1 or fewer$/ }, 'at least one')
  t.doesNotThrow(() => checkWorkers(buildConfig({ url: 'http://127.0.0.1:3000' }), { cores: 1, free: 0 }), 'no workers: nothing to check')
  // Checked first: too many workers is not told as too many open files.
  t.throws(() => checkLimits(config(1000), { limit: 1024, open: 20, range: null, cores: 2 }), { code: 'AC_TOO_MANY_WORKERS' })
  // The library, on this machine: more than 4 per core is refused before the run.
  const cores = require('os').availableParallelism()
  await t.rejects(autocannon({ url: 'http://127.0.0.1:9', workers: 4 * cores + 1, duration: 1 }), { code: 'AC_TOO_MANY_WORKERS', message: new RegExp(`^${4 * cores + 1} workers \\(-w, workers\\)`) })
})

t.test('shares add up to the whole, the first ones one larger', async (t) => {
  t.same([0, 1].map((i) => share(101, 2, i)), [51, 50])
  t.same([0, 1, 2].map((i) => share(10, 3, i)), [4, 3, 3])
  t.same([0, 1, 2, 3].map((i) => share(4, 4, i)), [1, 1, 1, 1])
  for (let total = 1; total <= 60; total++) {
    for (let parts = 1; parts <= total; parts++) {
      let sum = 0
      let min = Infinity
      let max = 0
      for (let i = 0; i < parts; i++) {
        const s = share(total, parts, i)
        sum += s
        min = Math.min(min, s)
        max = Math.max(max, s)
      }
      if (sum !== total || max - min > 1 || min < 1) t.fail(`share(${total}, ${parts})`)
    }
  }
  // Workers use it for connections and amounts.
  const config = buildConfig({ url: 'http://127.0.0.1:9', workers: 3, connections: 10, amount: 101 })
  const parts = [0, 1, 2].map((i) => workerConfig(config, i))
  t.same(parts.map((o) => o.connections), [4, 3, 3])
  t.same(parts.map((o) => o.amount), [34, 34, 33])
})
