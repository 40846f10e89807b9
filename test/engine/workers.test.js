'use strict'

// The main thread's side of -w: each worker handed its part of the run as
// its config (workerConfig), and --abortOnFail judged here on all the
// workers' samples together: counts summed, latencies added, judged at
// the sample every running worker has reached, the verdict once. Driven
// with workers that are message ports (what runWorkers sees of a thread),
// on a fake clock where the run waits on its timers. With real threads
// against a loopback server: test/e2e/workers-abort-threads.test.js.

const t = require('tap')
const { EventEmitter } = require('events')
const { buildConfig } = require('../../lib/config/config')
const { workerConfig } = require('../../lib/engine/workers')
const { createLatencyHistogram, pack } = require('../../lib/results/histogram')
// Workers as runWorkers sees them: they take messages and send theirs.
const { PortWorker, withPortWorkers } = require('../helpers/port-workers')
const { useFakeClock } = require('../helpers/fake-clock')

const url = 'http://127.0.0.1:9'
const sum = (list) => list.reduce((a, b) => a + b, 0)
const shards = (opts, count) => Array.from({ length: count }, (_, index) => buildConfig({ url, ...opts, shard: { index, count } }))

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

t.test('workerConfig: a worker\'s part, frozen, without what the main thread keeps', async (t) => {
  const startAt = Date.now() + 60000
  const config = buildConfig({ url, workers: 3, connections: 10, amount: 100, overallRate: 30, thresholds: ['p99 < 1s'], abortOnFail: true, startAt })
  const parts = [0, 1, 2].map((i) => workerConfig(config, i))
  t.same(parts.map((p) => [p.connections, p.amount, p.overallRate]), [[4, 34, 10], [3, 33, 10], [3, 33, 10]])
  t.same(parts.map((p) => [p.workerIndex, p.workersOfShard, p.workers]), [[0, 3, 0], [1, 3, 0], [2, 3, 0]], 'where it sends from; a worker has no workers')
  t.ok(parts.every((p) => p.abortOnFail === false), 'the thresholds are judged in the main thread, on all workers')
  t.same(parts[0].thresholds, ['p99 < 1s'], 'which a worker still has')
  t.ok(parts.every((p) => p.startAt === undefined), 'the start time is handed beside the config')
  t.ok(parts.every((p) => Object.isFrozen(p)), 'frozen')
  t.equal(config.abortOnFail, true, 'the whole left as it was')
  t.equal(config.startAt, startAt)
  t.equal(parts[1].urls, config.urls, 'the targets as the main thread made them')
})

// runWorkers on PortWorkers: { workers, events, aborts, done }.
function fanOut (t, opts) {
  const { runWorkers } = withPortWorkers(t, 'engine/workers')
  const config = buildConfig({ url, duration: 10, ...opts })
  const events = new EventEmitter()
  const aborts = []
  events.on('abort', (verdict) => aborts.push(verdict))
  const ended = []
  const controls = runWorkers(config, events, {}, (err, raws) => ended.push({ err, raws }))
  const workers = PortWorker.made
  t.teardown(() => { for (const w of workers) if (!w.exited) w.send({ type: 'done', raw: {} }) })
  for (const w of workers) w.send({ type: 'ready' })
  return { config, controls, workers, events, aborts, ended }
}

// A worker's sample: its counts so far, its interval's latencies (ms).
function sample (elapsedS, figures, latenciesMs = []) {
  const h = createLatencyHistogram()
  for (const ms of latenciesMs) h.recordValue(ms * 1000)
  return {
    type: 'sample',
    elapsedS,
    latency: new Uint8Array(pack(h)),
    figures: { completed: 0, sent: 0, errors: 0, timeouts: 0, non2xx: 0, bytes: 0, ...figures }
  }
}

const ABORT = { workers: 2, connections: 2, abortOnFail: true }

t.test('each worker handed its part, and told to report its samples only with --abortOnFail', async (t) => {
  const { config, workers } = fanOut(t, { ...ABORT, thresholds: ['errors < 3'] })
  t.equal(workers.length, 2)
  t.same(workers.map((w) => w.workerData.config), [workerConfig(config, 0), workerConfig(config, 1)])
  t.same(workers.map((w) => w.workerData.reportSamples), [true, true])
  t.same(workers.map((w) => w.posted), [['go'], ['go']], 'once all are ready, each told to go')
  const plain = fanOut(t, { workers: 2, connections: 2, thresholds: ['errors < 3'] })
  t.same(plain.workers.map((w) => w.workerData.reportSamples), [false, false])
  plain.workers[0].send(sample(1, { errors: 9 }))
  plain.workers[1].send(sample(1, { errors: 9 }))
  t.same(plain.aborts, [], 'without --abortOnFail a sample is not judged')
})

t.test('the workers\' counts summed, judged once every worker has sent the sample', async (t) => {
  const { workers, aborts } = fanOut(t, { ...ABORT, thresholds: ['errors < 3'] })
  workers[0].send(sample(1, { errors: 2 }))
  t.same(aborts, [], 'one worker\'s sample: the other\'s is awaited')
  workers[1].send(sample(1, { errors: 1 }))
  t.same(aborts, [{ threshold: 'errors < 3', at: 1, value: 3, unit: '' }], '2 + 1 errors: the sum fails')
  t.same(workers.map((w) => w.posted), [['go', 'stop'], ['go', 'stop']], 'and every worker is stopped')
  workers[0].send(sample(2, { errors: 50 }))
  workers[1].send(sample(2, { errors: 50 }))
  t.equal(aborts.length, 1, 'one verdict: later samples are not judged')
  t.same(workers.map((w) => w.posted), [['go', 'stop'], ['go', 'stop']], 'nor stopped again')
})

t.test('a worker ahead waits for the others; its later counts count when they catch up', async (t) => {
  const { workers, aborts } = fanOut(t, { ...ABORT, thresholds: ['errors < 5'] })
  workers[0].send(sample(1, { errors: 1 }))
  workers[0].send(sample(2, { errors: 9 }))
  t.same(aborts, [], 'worker 0 at its second sample, worker 1 at none: nothing judged')
  workers[1].send(sample(1, { errors: 0 }))
  t.same(aborts, [{ threshold: 'errors < 5', at: 1, value: 9, unit: '' }], 'judged at worker 1\'s first sample, with what worker 0 has counted since')
})

t.test('counts each worker\'s latest, not the sum of its samples', async (t) => {
  const { workers, aborts } = fanOut(t, { ...ABORT, thresholds: ['errors < 5'] })
  for (const s of [1, 2, 3]) {
    workers[0].send(sample(s, { errors: 2 }))
    workers[1].send(sample(s, { errors: 2 }))
  }
  t.same(aborts, [], 'counts so far: 2 + 2 at every sample, never 5')
})

t.test('a worker done no longer holds the judgement back', async (t) => {
  const { workers, aborts, ended } = fanOut(t, { ...ABORT, thresholds: ['errors < 3'] })
  workers[1].send(sample(1, { errors: 2 }))
  workers[1].send({ type: 'done', raw: { from: 1 } })
  workers[1].exited = true
  workers[0].send(sample(1, { errors: 0 }))
  t.same(aborts, [], 'its counts still count: 2 < 3')
  workers[0].send(sample(2, { errors: 1 }))
  t.same(aborts, [{ threshold: 'errors < 3', at: 2, value: 3, unit: '' }], 'judged at the running worker\'s samples alone')
  workers[0].send({ type: 'done', raw: { from: 0 } })
  workers[0].exited = true
  t.equal(ended.length, 1)
  t.equal(ended[0].err, null)
  t.same(ended[0].raws, [{ from: 0, aborted: aborts[0] }, { from: 1 }], 'the verdict goes with the first worker\'s snapshot')
})

t.test('latencies: every worker\'s intervals in one histogram', async (t) => {
  const { workers, aborts } = fanOut(t, { ...ABORT, thresholds: ['p50 < 100ms'] })
  workers[0].send(sample(1, { completed: 3 }, [10, 10, 10]))
  workers[1].send(sample(1, { completed: 2 }, [500, 500]))
  t.same(aborts, [], 'p50 of 10, 10, 10, 500, 500: 10 ms')
  workers[0].send(sample(2, { completed: 3 }, []))
  workers[1].send(sample(2, { completed: 4 }, [500, 500]))
  t.equal(aborts.length, 1, 'the second intervals added to the first: 3 of 7 at 10 ms, p50 500 ms')
  t.match(aborts[0], { threshold: 'p50 < 100ms', at: 2, unit: 'ms' })
  t.ok(aborts[0].value >= 499 && aborts[0].value <= 501, `p50 ${aborts[0].value} ms`)
})

t.test('abortAfter: nothing judged before it', async (t) => {
  const { workers, aborts } = fanOut(t, { ...ABORT, thresholds: ['errors < 1'], abortAfter: 2 })
  workers[0].send(sample(1, { errors: 5 }))
  workers[1].send(sample(1, { errors: 5 }))
  t.same(aborts, [], 'at 1 s of 2')
  workers[0].send(sample(2, { errors: 5 }))
  workers[1].send(sample(2, { errors: 5 }))
  t.same(aborts, [{ threshold: 'errors < 1', at: 2, value: 10, unit: '' }])
})

t.test('a rate: rps read as the rate achieved', async (t) => {
  const rated = fanOut(t, { ...ABORT, overallRate: 100, thresholds: ['rps > 50'] })
  rated.workers[0].send(sample(3, { completed: 6 }))
  rated.workers[1].send(sample(3, { completed: 4 }))
  t.same(rated.aborts, [{ threshold: 'rps > 50', at: 3, value: 10 / 3, unit: 'req/s' }], 'the rate, unrounded')
  const closed = fanOut(t, { ...ABORT, thresholds: ['rps > 50'] })
  closed.workers[0].send(sample(3, { completed: 6 }))
  closed.workers[1].send(sample(3, { completed: 4 }))
  t.same(closed.aborts, [{ threshold: 'rps > 50', at: 3, value: 3.33, unit: 'req/s' }], 'no rate: requests over the time, rounded')
})

t.test('stopped before every worker is ready: each is told at once, and none is told to go', async (t) => {
  const { runWorkers } = withPortWorkers(t, 'engine/workers')
  const ended = []
  const controls = runWorkers(buildConfig({ url, workers: 2, connections: 2 }), new EventEmitter(), {}, (err, raws) => ended.push({ err, raws }))
  const workers = PortWorker.made
  controls.stop()
  t.same(workers.map((w) => w.posted), [['stop'], ['stop']], 'a worker still starting reads it once it is ready')
  workers[0].send({ type: 'ready' })
  workers[1].send({ type: 'ready' })
  t.same(workers.map((w) => w.posted), [['stop'], ['stop']], 'no go after a stop')
  for (const w of workers) w.send({ type: 'done', raw: { n: 1 } })
  t.same(ended, [{ err: null, raws: [{ n: 1 }, { n: 1 }] }])
})

t.test('stopped: a worker still starting 1 s later is ended, the run ends with the others', async (t) => {
  useFakeClock(t)
  const { runWorkers } = withPortWorkers(t, 'engine/workers')
  const ended = []
  const controls = runWorkers(buildConfig({ url, workers: 3, connections: 3 }), new EventEmitter(), {}, (err, raws) => ended.push({ err, raws }))
  const workers = PortWorker.made
  // 0 never starts; 1 is running and answers late; 2 answers at once.
  workers[1].send({ type: 'ready' })
  workers[2].send({ type: 'ready' })
  const stoppedAt = Date.now()
  controls.stop()
  workers[2].send({ type: 'done', raw: { worker: 2 } })
  await new Promise((resolve) => setTimeout(resolve, 2500))
  t.same(ended, [], 'a worker that is running is waited for')
  t.same(workers.map((w) => w.terminated), [true, false, false], 'the one still starting is ended')
  workers[0].emit('exit', 1)
  workers[1].send({ type: 'done', raw: { worker: 1 } })
  t.same(ended, [{ err: null, raws: [{ worker: 1 }, { worker: 2 }] }], 'what the others measured')
  t.ok(Date.now() - stoppedAt >= 1000)
  // None had started: the run fails, saying so.
  PortWorker.made = []
  const silent = []
  runWorkers(buildConfig({ url, workers: 2, connections: 2 }), new EventEmitter(), {}, (err) => silent.push(err)).stop()
  const at = Date.now()
  while (silent.length === 0 && Date.now() - at < 5000) await new Promise((resolve) => setTimeout(resolve, 50))
  const waited = Date.now() - at
  t.ok(waited >= 950 && waited < 4000, `ended ${waited} ms after the stop`)
  t.match(silent[0], { code: 'AC_WORKER_FAILED', message: /none of its 2 workers had started/ })
  t.same(PortWorker.made.map((w) => w.terminated), [true, true])
})

t.test('a run of a duration ends by its deadline from the start, however long its workers take to start', async (t) => {
  useFakeClock(t)
  const { runWorkers } = withPortWorkers(t, 'engine/workers')
  const started = Date.now()
  let endedAt = 0
  runWorkers(buildConfig({ url, workers: 2, connections: 2, duration: 0.5 }), new EventEmitter(), {}, () => { endedAt = Date.now() })
  const workers = PortWorker.made
  // Neither is ever ready: the stop comes at 0.5 s + the 10 s allowance.
  while (!workers[0].posted.includes('stop') && Date.now() - started < 15000) await new Promise((resolve) => setTimeout(resolve, 50))
  const stopAt = Date.now() - started
  t.ok(stopAt >= 10400 && stopAt < 13000, `stopped at ${stopAt} ms`)
  t.same(workers.map((w) => w.posted), [['stop'], ['stop']])
  for (const w of workers) w.send({ type: 'done', raw: {} })
  t.ok(endedAt > 0, 'and ended')
  // An amount run has no deadline.
  PortWorker.made = []
  const counted = runWorkers(buildConfig({ url, workers: 2, connections: 2, amount: 10 }), new EventEmitter(), {}, () => {})
  const amountWorkers = PortWorker.made
  await new Promise((resolve) => setTimeout(resolve, 100))
  t.same(amountWorkers.map((w) => w.posted), [[], []], 'nothing posted to an amount run before it is ready')
  counted.stop()
  for (const w of amountWorkers) w.send({ type: 'done', raw: {} })
})
