'use strict'

// The sending thread's health (lib/engine/loop-monitor.js): how late its
// timers run, against an absolute schedule (a pause is one sample, as
// long as the pause), the millisecond of a timer's own lateness not
// counted, and the share of the time the loop was busy.

const t = require('tap')
const { performance } = require('perf_hooks')
const { LoopMonitor, PERIOD_MS, GRANULARITY_MS } = require('../../lib/engine/loop-monitor')

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// Holds the event loop for `ms`.
function block (ms) {
  const until = performance.now() + ms
  while (performance.now() < until);
}

function monitor () {
  const delays = []
  return { m: new LoopMonitor({ loopDelay: (us) => delays.push(us) }), delays }
}

t.test('a pause is one sample, as long as the pause', async (t) => {
  const { m, delays } = monitor()
  m.start()
  await sleep(35)
  const before = delays.length
  t.ok(before >= 1, `samples every ${PERIOD_MS} ms (${before} so far)`)
  block(60)
  await sleep(25)
  m.stop()
  const after = delays.slice(before)
  const longest = Math.max(...after)
  // Due at most PERIOD_MS before the pause began, read at its end (how
  // much later depends on the machine's load: no upper bound here; the
  // arithmetic is held below with due times set by hand).
  t.ok(longest >= 50000 - GRANULARITY_MS * 1000, `${longest} µs for a 60 ms pause`)
  // Not caught up on afterwards: the timers the pause missed are not
  // samples of their own (they would come in a burst, six of them).
  t.ok(after.length <= 4, `one sample per period after it (${after.join(', ')} µs)`)
  t.ok(delays.every((us) => Number.isInteger(us) && us >= 0), 'whole microseconds, never negative')
})

t.test('a timer a little late is not a pause', async (t) => {
  // Due at 10 ms, read at 10.5: within the timer's own millisecond.
  const { m, delays } = monitor()
  m.due = performance.now() - 0.5
  m.sample()
  m.stop()
  t.same(delays, [0])
  // Read 3 ms late: 2 ms counted.
  const late = monitor()
  late.m.due = performance.now() - 3
  late.m.sample()
  late.m.stop()
  t.ok(late.delays[0] >= 2000 && late.delays[0] < 2900, `${late.delays[0]} µs`)
})

t.test('after a pause the schedule skips what it missed', async (t) => {
  const { m } = monitor()
  const now = performance.now()
  m.due = now - 35
  m.sample()
  m.stop()
  // Due 35 ms ago: the next due is the first on its grid after now.
  t.ok(m.due > now && m.due <= now + PERIOD_MS + 1, `next due ${(m.due - now).toFixed(2)} ms from now`)
  t.equal(Math.round((m.due - (now - 35)) * 1000) % (PERIOD_MS * 1000), 0, 'on the same grid')
})

t.test('busy(): the share of the time the loop was busy', async (t) => {
  const { m } = monitor()
  t.equal(m.busy(), 0, 'not started')
  m.start()
  block(150)
  const busy = m.busy()
  m.stop()
  t.ok(busy > 0.8 && busy <= 1, `busy ${busy} after holding the loop`)
})

t.test('busy(): since the last call, to three places', async (t) => {
  // perf_hooks' counters, set by hand: cumulative active and idle ms.
  const real = performance.eventLoopUtilization
  let now = { active: 0, idle: 0 }
  performance.eventLoopUtilization = (a, b) => {
    if (a === undefined) return { ...now }
    const active = a.active - b.active
    const total = active + a.idle - b.idle
    return { active, idle: a.idle - b.idle, utilization: active / total }
  }
  t.teardown(() => { performance.eventLoopUtilization = real })
  const { m } = monitor()
  m.start()
  m.stop()
  now = { active: 150, idle: 50 }
  t.equal(m.busy(), 0.75)
  now = { active: 160, idle: 90 }
  t.equal(m.busy(), 0.2, 'the 50 ms since the last call (10 busy), not the 250 since the start')
  now = { active: 161, idle: 92 }
  t.equal(m.busy(), 0.333, '1 ms in 3')
})

t.test('stop(): no sample after it', async (t) => {
  const { m, delays } = monitor()
  m.start()
  m.stop()
  t.equal(m.timer, null)
  await sleep(30)
  t.same(delays, [])
})
