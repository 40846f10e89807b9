'use strict'

// The session: runs one after another under one stop(). Its waits end on
// stop, a stopped session starts no further round, and the steps of a
// stepped run add up to what the server saw.

const t = require('tap')
const autocannon = require('../..')
const { Session } = require('../../lib/engine/session')
const { SteppedRun } = require('../../lib/search/stepped-run')
const { aggregateResult } = require('../../lib/results/result')
const { httpServer } = require('../helpers/servers')

// A run that settles when told to, or when stopped.
function fakeRun (value) {
  let resolve
  const promise = new Promise((_resolve) => { resolve = _resolve })
  return {
    stops: 0,
    stop () { this.stops++; resolve(`${value} (stopped)`) },
    end () { resolve(value) },
    then: (a, b) => promise.then(a, b)
  }
}

t.test('run: the current run, cleared once it settles', async (t) => {
  const session = new Session()
  const run = fakeRun('a')
  const out = session.run(() => run)
  t.equal(session.current, run)
  run.end()
  t.equal(await out, 'a')
  t.equal(session.current, null)
})

t.test('run: a failed run rejects, and is no longer current', async (t) => {
  const session = new Session()
  const failing = { stop () {}, then: (a, b) => Promise.reject(new Error('boom')).then(a, b) }
  await t.rejects(session.run(() => failing), /boom/)
  t.equal(session.current, null)
})

t.test('stop: stops the current run, wakes a sleep, calls onStop once', async (t) => {
  const session = new Session()
  let stops = 0
  session.onStop = () => stops++
  const run = fakeRun('a')
  const out = session.run(() => run)
  const started = Date.now()
  const slept = session.sleep(60000)
  session.stop()
  session.stop()
  await slept
  t.ok(Date.now() - started < 1000, 'the sleep ended at the stop')
  t.equal(run.stops, 1)
  t.equal(await out, 'a (stopped)')
  t.equal(stops, 1, 'onStop once')
  const after = Date.now()
  await session.sleep(60000)
  t.ok(Date.now() - after < 100, 'a stopped session does not sleep')
})

t.test('run after stop: started, stopped at once, still settles', async (t) => {
  const session = new Session()
  session.stop()
  const run = fakeRun('late')
  t.equal(await session.run(() => run), 'late (stopped)')
  t.equal(run.stops, 1)
})

t.test('rounds: until more() says no, or the session stops', async (t) => {
  const session = new Session()
  const seen = []
  const last = await session.rounds((i) => {
    const run = fakeRun(i)
    seen.push(i)
    setImmediate(() => run.end())
    return run
  }, (result) => result < 3)
  t.same(seen, [0, 1, 2, 3])
  t.equal(last, 3)

  const stopping = new Session()
  let started = 0
  const out = await stopping.rounds((i) => {
    started++
    const run = fakeRun(i)
    if (i === 1) setImmediate(() => stopping.stop())
    else setImmediate(() => run.end())
    return run
  }, () => true)
  t.equal(started, 2, 'no round after the stop')
  t.equal(out, '1 (stopped)', 'the stopped round\'s result is the last')
})

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
