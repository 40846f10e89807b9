'use strict'

// Stepped runs on a session (lib/engine/session.js) against a real
// server: each step's window is its own and drains first, the steps add
// up to what the server saw, and a step stopped mid-way gives no window.
// The session on its own: test/engine/session.test.js.

const t = require('tap')
const autocannon = require('../..')
const { Session } = require('../../lib/engine/session')
const { SteppedRun } = require('../../lib/search/stepped-run')
const { aggregateResult } = require('../../lib/results/result')
const { httpServer } = require('../helpers/servers')

t.test('a stepped run: each step\'s window is its own, and drains first', async (t) => {
  let arrived = 0
  const url = await httpServer(t, (req, res) => {
    arrived++
    setTimeout(() => res.end('ok'), 20)
  })
  const session = new Session()
  let instance
  const done = session.run(() => {
    instance = autocannon({ url, connections: 10, overallRate: 100, duration: 60 })
    return instance
  })
  await new Promise((resolve) => instance.once('start', resolve))
  const stepped = new SteppedRun(session, instance.run, { drainMs: 2000 })
  const first = await stepped.step({ rate: 200, warmup: 0.3, duration: 1 })
  const second = await stepped.step({ rate: 400, warmup: 0.3, duration: 1 })
  const before = arrived
  session.stop()
  await done
  const a = aggregateResult(first.raws, {})
  const b = aggregateResult(second.raws, {})
  t.ok(Math.abs(a.requests.total - 200) <= 30, `~200 responses in step 1 (${a.requests.total})`)
  t.ok(Math.abs(b.requests.total - 400) <= 50, `~400 responses in step 2 (${b.requests.total})`)
  t.equal(a.errors + b.errors, 0)
  // The window's own health, not the run's since its start.
  t.ok(a.generator.cpu > 0 && a.generator.cpu <= 1, `generator busy ${a.generator.cpu}`)
  t.type(a.generator.loopDelay.p99, 'number')
  t.ok(a.generator.loopDelay.max < 1000, 'loop delay in ms')
  t.ok(before >= a.requests.total + b.requests.total, 'the server saw every request the steps counted')
})

t.test('a stepped run stopped mid-step gives no window', async (t) => {
  const url = await httpServer(t, (req, res) => res.end('ok'))
  const session = new Session()
  let instance
  const done = session.run(() => {
    instance = autocannon({ url, connections: 2, overallRate: 50, duration: 60 })
    return instance
  })
  await new Promise((resolve) => instance.once('start', resolve))
  const stepped = new SteppedRun(session, instance.run)
  setTimeout(() => session.stop(), 300)
  const started = Date.now()
  t.equal(await stepped.step({ rate: 100, warmup: 0.1, duration: 30 }), null)
  t.ok(Date.now() - started < 5000, 'the step ended with the stop')
  await done
})
