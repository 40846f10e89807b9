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
  const long = after.filter((us) => us >= 30000)
  t.equal(long.length, 1, `one long sample for the pause (${after.join(', ')} µs)`)
  // Due at most PERIOD_MS before the pause began, read at its end.
  t.ok(long[0] >= 50000 - GRANULARITY_MS * 1000 && long[0] <= 60000 + PERIOD_MS * 1000 + 20000, `${long[0]} µs for a 60 ms pause`)
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
  t.ok(late.delays[0] >= 2000 && late.delays[0] < 2500, `${late.delays[0]} µs`)
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

t.test('busy(): the share since the last call, 0 before the start', async (t) => {
  const { m } = monitor()
  t.equal(m.busy(), 0, 'not started')
  m.start()
  block(40)
  const busy = m.busy()
  t.ok(busy > 0.8 && busy <= 1, `busy ${busy} after holding the loop`)
  t.equal(busy, Math.round(busy * 1000) / 1000, 'to three places')
  await sleep(100)
  const idle = m.busy()
  t.ok(idle < 0.2, `${idle} after waiting: since the last call only`)
  m.stop()
})

t.test('stop(): no sample after it', async (t) => {
  const { m, delays } = monitor()
  m.start()
  m.stop()
  t.equal(m.timer, null)
  await sleep(30)
  t.same(delays, [])
})
