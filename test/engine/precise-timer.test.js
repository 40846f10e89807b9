'use strict'

// The precise timer: replaced by a new arm, silenced by cancel, never
// firing early on a wake-up before its time, still firing without its
// helper thread. How close to its time it fires, and what it is for
// (Poisson arrivals a real server sees as exponential gaps at -R 500 and
// -R 1000), on the real clock: test/e2e/precise-timer-precision.test.js.

const t = require('tap')
const { performance } = require('perf_hooks')
const { PreciseTimer } = require('../../lib/engine/precise-timer')

// Until its helper thread says it runs, the timer leans on its fallback.
function helped (timer) {
  return new Promise((resolve) => {
    const poll = () => timer.helped ? resolve() : setTimeout(poll, 5)
    poll()
  })
}

t.test('a new arm replaces the last; cancel silences it; close ends the helper', async (t) => {
  let fired = 0
  const timer = new PreciseTimer(() => fired++)
  await helped(timer)
  timer.arm(performance.now() + 5)
  timer.arm(performance.now() + 30)
  await new Promise((resolve) => setTimeout(resolve, 15))
  t.equal(fired, 0, 'the first time was replaced')
  await new Promise((resolve) => setTimeout(resolve, 30))
  t.equal(fired, 1, 'the second fired, once')
  timer.arm(performance.now() + 5)
  timer.cancel()
  timer.cancel()
  await new Promise((resolve) => setTimeout(resolve, 20))
  t.equal(fired, 1, 'cancelled: nothing fired')
  // (Unref'd, the helper would not hold the test's process open for this.)
  timer.worker.ref()
  const exited = new Promise((resolve) => timer.worker.once('exit', resolve))
  timer.close()
  t.equal(await exited, 0, 'the helper thread exits')
  timer.arm(performance.now() + 2)
  await new Promise((resolve) => setTimeout(resolve, 20))
  t.equal(fired, 2, 'without its helper, the fallback timer fires')
  timer.cancel()
})

t.test('armed before the helper runs: the fallback fires, on time or after', async (t) => {
  const times = []
  const timer = new PreciseTimer(() => times.push(performance.now()))
  t.teardown(() => timer.close())
  const at = performance.now() + 3
  timer.arm(at)
  await new Promise((resolve) => setTimeout(resolve, 40))
  t.equal(times.length, 1, 'fired once')
  t.ok(times[0] >= at, 'not before its time')
})

t.test('a fallback that wakes early waits on; a helper that dies leaves the fallback to fire', async (t) => {
  const times = []
  const timer = new PreciseTimer(() => times.push(performance.now()))
  t.teardown(() => timer.close())
  await helped(timer)
  const at = performance.now() + 15
  timer.arm(at)
  // As Node's timers may: a wake-up before the due time.
  timer.fired()
  t.equal(times.length, 0, 'not before its time')
  await new Promise((resolve) => setTimeout(resolve, 40))
  t.equal(times.length, 1, 'then once')
  t.ok(times[0] >= at)

  const later = performance.now() + 30
  timer.arm(later)
  timer.worker.ref()
  await timer.worker.terminate()
  t.equal(timer.helped, false, 'the helper is gone')
  await new Promise((resolve) => setTimeout(resolve, 60))
  t.equal(times.length, 2, 'the fallback fired in its place')
  t.ok(times[1] >= later)
})
