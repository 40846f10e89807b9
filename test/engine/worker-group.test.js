'use strict'

// A run's worker threads from their start to their end: each started on
// worker.js with its data, told to go once all are ready (and never after
// a stop), a worker still starting a second after the stop dropped, the
// end once every worker has answered or been dropped, and any failure
// (an error, an exit before the snapshot) the run's. Driven with workers
// that are message ports (what the group sees of a thread), on a fake
// clock where the group waits on its timer.

const t = require('tap')
const path = require('path')
// The group is loaded anew (worker_threads mocked), its errors module
// with it: what it makes is told by name, not instanceof.
const { AutocannonError, toMessage } = require('../../lib/core/errors')
const { PortWorker, withPortWorkers } = require('../helpers/port-workers')
const { useFakeClock } = require('../helpers/fake-clock')

// A group of `count` PortWorkers: { group, workers, ends, messages, finished, gone }.
function groupOf (t, count) {
  const { WorkerGroup } = withPortWorkers(t, 'engine/worker-group')
  const ends = []
  const messages = []
  const finished = []
  // Each go() call: how many workers had been told to go by then.
  const gone = []
  const group = new WorkerGroup(count, (i) => ({ index: i }), {
    go: () => gone.push(PortWorker.made.filter((w) => w.posted.includes('go')).length),
    message: (i, msg) => messages.push([i, msg.type]),
    finished: (i) => finished.push([i, ends.length]),
    end: (err, raws) => ends.push({ err, raws })
  })
  return { group, workers: PortWorker.made, ends, messages, finished, gone }
}

const until = async (ready, ms = 5000) => {
  const at = Date.now()
  while (!ready() && Date.now() - at < ms) await new Promise((resolve) => setTimeout(resolve, 20))
}

t.test('started on worker.js with their data; told to go once every one is ready', async (t) => {
  const { group, workers, gone } = groupOf(t, 3)
  t.ok(group.workers.length === 3 && group.workers.every((w, i) => w === workers[i]), 'the threads, in order')
  t.same(workers.map((w) => path.relative(path.join(__dirname, '..', '..'), w.file)), new Array(3).fill(path.join('lib', 'engine', 'worker.js')))
  t.same(workers.map((w) => w.workerData), [{ index: 0 }, { index: 1 }, { index: 2 }])
  workers[0].send({ type: 'ready' })
  workers[2].send({ type: 'ready' })
  t.same(workers.map((w) => w.posted), [[], [], []], 'two of three ready: none goes')
  t.same(gone, [], 'nor is the run told they went')
  workers[1].send({ type: 'ready' })
  t.same(workers.map((w) => w.posted), [['go'], ['go'], ['go']])
  t.same(gone, [3], 'the run told once, when all three were told')
})

t.test('what is not its own goes to `message`; the end once each has its snapshot, in worker order', async (t) => {
  const { group, workers, ends, messages, finished } = groupOf(t, 2)
  for (const w of workers) w.send({ type: 'ready' })
  workers[1].send({ type: 'tick', counter: 1, bytes: 2 })
  workers[0].send({ type: 'cut', raw: {} })
  t.same(messages, [[1, 'tick'], [0, 'cut']])
  workers[1].send({ type: 'done', raw: { from: 1 } })
  t.same(group.answered(), [{ from: 1 }])
  t.same(ends, [], 'one of two: not yet')
  workers[0].send({ type: 'done', raw: { from: 0 } })
  t.same(finished, [[1, 0], [0, 0]], 'each worker\'s end told before the run\'s')
  t.same(ends, [{ err: null, raws: [{ from: 0 }, { from: 1 }] }])
  for (const w of workers) w.emit('exit', 0)
  group.settle()
  t.equal(ends.length, 1, 'once')
})

t.test('stopped before all are ready: each told at once, none told to go', async (t) => {
  const { group, workers, ends, gone } = groupOf(t, 2)
  group.stop()
  group.stop()
  t.same(workers.map((w) => w.posted), [['stop'], ['stop']], 'once')
  for (const w of workers) w.send({ type: 'ready' })
  t.same(workers.map((w) => w.posted), [['stop'], ['stop']], 'no go after a stop')
  t.same(gone, [], 'nor is the run told they went')
  for (const w of workers) w.send({ type: 'done', raw: { n: 1 } })
  t.same(ends, [{ err: null, raws: [{ n: 1 }, { n: 1 }] }])
})

t.test('stopped: a worker still starting a second later is dropped, the run ends with the others', async (t) => {
  useFakeClock(t)
  const { group, workers, ends } = groupOf(t, 3)
  workers[1].send({ type: 'ready' })
  workers[2].send({ type: 'ready' })
  const stoppedAt = Date.now()
  group.stop()
  workers[2].send({ type: 'done', raw: { worker: 2 } })
  await until(() => workers[0].terminated)
  t.ok(Date.now() - stoppedAt >= 950, `dropped ${Date.now() - stoppedAt} ms after the stop`)
  t.same(workers.map((w) => w.terminated), [true, false, false], 'only the one still starting')
  t.same(ends, [], 'a worker that is running is waited for')
  workers[0].emit('exit', 1)
  workers[0].emit('error', new Error('terminated'))
  t.same(ends, [], 'what a dropped worker does is no failure')
  workers[1].send({ type: 'done', raw: { worker: 1 } })
  t.same(ends, [{ err: null, raws: [{ worker: 1 }, { worker: 2 }] }])
})

t.test('stopped, and none had started a second later: the run fails, saying so', async (t) => {
  useFakeClock(t)
  const { group, workers, ends } = groupOf(t, 2)
  group.stop()
  await until(() => ends.length > 0)
  t.equal(ends.length, 1)
  t.match(ends[0].err, { code: 'AC_WORKER_FAILED', message: 'the run was stopped, and none of its 2 workers had started 1 s later' })
  t.same(workers.map((w) => w.terminated), [true, true])
})

t.test('a failure is the run\'s, once, and ends every worker', async (t) => {
  const crashed = groupOf(t, 2)
  crashed.workers[1].emit('error', new Error('out of memory'))
  crashed.workers[0].emit('error', new Error('again'))
  t.equal(crashed.ends.length, 1, 'the first failure only')
  t.match(crashed.ends[0].err, { code: 'AC_WORKER_FAILED', message: 'worker 1 failed: out of memory' })
  t.same(crashed.workers.map((w) => w.terminated), [true, true])

  const exited = groupOf(t, 2)
  exited.workers[1].send({ type: 'done', raw: {} })
  exited.workers[1].emit('exit', 1)
  t.same(exited.ends, [], 'an exit after its snapshot is no failure')
  exited.workers[0].emit('exit', 3)
  t.match(exited.ends[0].err, { code: 'AC_WORKER_FAILED', message: 'worker 0 exited with code 3' })
})

t.test('an error a worker reports: ours as it is, the user\'s as the cause', async (t) => {
  const ours = groupOf(t, 1)
  ours.workers[0].send({ type: 'error', error: toMessage(new AutocannonError('AC_FILE_UNREADABLE', 'cannot read hooks.js')) })
  t.equal(ours.ends[0].err.name, 'AutocannonError')
  t.match(ours.ends[0].err, { code: 'AC_FILE_UNREADABLE', message: 'cannot read hooks.js' })
  t.equal(ours.ends[0].err.cause, undefined, 'not wrapped')

  const theirs = groupOf(t, 1)
  theirs.workers[0].send({ type: 'error', error: toMessage(new TypeError('setupClient threw')) })
  t.match(theirs.ends[0].err, { name: 'AutocannonError', code: 'AC_WORKER_FAILED', message: 'setupClient threw' })
  t.not(theirs.ends[0].err.cause.name, 'AutocannonError')
  t.equal(theirs.ends[0].err.cause.message, 'setupClient threw', 'the user\'s error, as the cause')
})

t.test('a failure after the end still ends with it (the run\'s callback hears it)', async (t) => {
  const { workers, ends } = groupOf(t, 1)
  workers[0].send({ type: 'ready' })
  workers[0].send({ type: 'done', raw: {} })
  workers[0].emit('error', new Error('a hook\'s timer threw'))
  t.equal(ends.length, 2)
  t.equal(ends[0].err, null)
  t.match(ends[1].err, { code: 'AC_WORKER_FAILED', message: 'worker 0 failed: a hook\'s timer threw' })
})
