'use strict'

// A session's controls across worker threads: each call put to every
// worker by message, the replies gathered in worker order (a cut's
// snapshots, a peek's figures) or combined (a drain is done when every
// worker's is), the waits bounded; once the run is over, what is pending
// and what is asked later answered without the workers. Driven with
// workers that only record what they are sent, on a fake clock where a
// wait runs out.

const t = require('tap')
const { WorkerControls } = require('../../lib/engine/worker-controls')
const { useFakeClock } = require('../helpers/fake-clock')

const recorders = (n) => Array.from({ length: n }, () => ({ sent: [], postMessage (msg) { this.sent.push(msg) } }))

// Controls over `n` recording workers; `answered` the snapshots the run
// has of those that ended.
function controlsOf (n, answered = []) {
  const workers = recorders(n)
  return { workers, controls: new WorkerControls(workers, () => answered) }
}

t.test('setRate: each worker its part of the whole run\'s rate', async (t) => {
  const { workers, controls } = controlsOf(4)
  controls.setRate(100)
  t.same(workers.map((w) => w.sent), new Array(4).fill([{ type: 'setRate', rate: 25 }]))
})

t.test('cut: each worker\'s snapshot, in worker order', async (t) => {
  const { workers, controls } = controlsOf(2)
  const cut = controls.cut()
  t.same(workers.map((w) => w.sent), [[{ type: 'cut' }], [{ type: 'cut' }]])
  controls.reply(1, { type: 'cut', raw: { from: 1 } })
  controls.reply(0, { type: 'peek', figures: { stray: true } })
  controls.reply(0, { type: 'cut', raw: { from: 0 } })
  t.same(await cut, [{ from: 0 }, { from: 1 }], 'a reply of another kind does not count')
})

t.test('peek: each worker\'s figures; null when one has not answered within a second', async (t) => {
  useFakeClock(t)
  const { workers, controls } = controlsOf(2)
  const peek = controls.peek([50, 100], 3000)
  t.same(workers[0].sent, [{ type: 'peek', limitsMs: [50, 100], remainingMs: 3000 }])
  controls.reply(1, { type: 'peek', figures: { responses: 2 } })
  controls.reply(0, { type: 'peek', figures: { responses: 1 } })
  t.same(await peek, [{ responses: 1 }, { responses: 2 }])
  const at = Date.now()
  const silent = controls.peek([50], 1000)
  controls.reply(0, { type: 'peek', figures: { responses: 1 } })
  t.equal(await silent, null, 'a sum without worker 1 would be no bound')
  const waited = Date.now() - at
  t.ok(waited >= 950 && waited < 5000, `null after ${waited} ms`)
})

t.test('drain: done when every worker\'s is; not done when one\'s is not, or one is silent', async (t) => {
  useFakeClock(t)
  const { workers, controls } = controlsOf(2)
  const both = controls.drain(200)
  t.same(workers[1].sent, [{ type: 'drain', timeoutMs: 200 }])
  controls.reply(0, { type: 'drained', drained: true })
  controls.reply(1, { type: 'drained', drained: true })
  t.equal(await both, true)
  const one = controls.drain(200)
  controls.reply(0, { type: 'drained', drained: false })
  controls.reply(1, { type: 'drained', drained: true })
  t.equal(await one, false)
  const at = Date.now()
  const silent = controls.drain(0)
  controls.reply(0, { type: 'drained', drained: true })
  t.equal(await silent, false, 'a worker stuck: the wait is bounded')
  const waited = Date.now() - at
  t.ok(waited >= 950 && waited < 5000, `its limit and a second more: ${waited} ms`)
})

t.test('the run over: what is pending answered, later calls answered at once, nothing sent', async (t) => {
  const last = [{ from: 0 }, { from: 1 }]
  const { workers, controls } = controlsOf(2, last)
  const cut = controls.cut()
  const peek = controls.peek([50], 1000)
  const drain = controls.drain(60000)
  controls.end(null)
  t.same(await cut, last, 'a cut: the workers\' last snapshots')
  t.equal(await peek, null, 'a peek: no bound')
  t.equal(await drain, true, 'a drain: done')
  const sent = workers.map((w) => w.sent.length)
  t.same(await controls.cut(), last)
  t.equal(await controls.peek([50], 1000), null)
  t.equal(await controls.drain(60000), true)
  t.same(workers.map((w) => w.sent.length), sent, 'no worker asked')
})

t.test('the run failed: a cut pending or asked later gets the failure', async (t) => {
  const { controls } = controlsOf(2, [{ from: 0 }])
  const failure = new Error('worker 1 exited with code 1')
  const cut = controls.cut()
  const peek = controls.peek([50], 1000)
  controls.end(failure)
  await t.rejects(cut, failure)
  t.equal(await peek, null)
  await t.rejects(controls.cut(), failure)
  t.equal(await controls.drain(10), true)
})
