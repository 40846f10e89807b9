'use strict'

// The session: runs one after another under one stop(). Its waits end on
// stop, and a stopped session starts no further round. The steps of a
// stepped run adding up to what the server saw:
// test/e2e/session-stepped-runs.test.js.

const t = require('tap')
const { Session } = require('../../lib/engine/session')

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

t.test('run: a run that is not awaitable settles through its settled() (an autocannon() instance of -f)', async (t) => {
  const session = new Session()
  const run = { stop () {}, settled: () => Promise.resolve('rounds') }
  t.equal(await session.run(() => run), 'rounds')
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
