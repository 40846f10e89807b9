'use strict'

// The sending thread's health (lib/engine/loop-monitor.js): how late its
// timers run, against an absolute schedule (a pause is one sample, as
// long as the pause), the millisecond of a timer's own lateness not
// counted, and the share of the time the loop was busy.

const t = require('tap')
const { performance } = require('perf_hooks')
const { LoopMonitor, PERIOD_MS, GRANULARITY_MS, HOLDS_US, OWN, STARVED } = require('../../lib/engine/loop-monitor')

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

// One sample, and not the timer it arms for the next.
function sampleOnce (m) {
  m.sample()
  clearTimeout(m.timer)
  m.timer = null
}

// A recorder that keeps what each sample says of its pause's cause.
function splitMonitor () {
  const samples = []
  return { m: new LoopMonitor({ loopDelay: (us, ownUs, cause) => samples.push({ us, ownUs, cause }) }), samples }
}

// performance.now() held at its present value until the test ends.
function holdClock (t) {
  const held = performance.now()
  const own = Object.getOwnPropertyDescriptor(performance, 'now')
  Object.defineProperty(performance, 'now', { value: () => held, configurable: true, writable: true })
  t.teardown(() => {
    if (own) Object.defineProperty(performance, 'now', own)
    else delete performance.now
  })
  return held
}

// A thread CPU clock set by hand (µs).
function handClock () {
  const c = { us: 0, closed: false, read: () => c.us, close: () => { c.closed = true } }
  return c
}

t.test('a pause is split by the thread\'s CPU time: its own work, the rest not running', async (t) => {
  const { m, samples } = splitMonitor()
  const clock = handClock()
  m.start(clock)
  m.stop()
  t.ok(clock.closed, 'stop() lets the clock go')
  m.clock = clock
  // The monitor's clock held still while it samples: the figures below are
  // of the times set here, not of how long a loaded machine took between
  // two lines.
  const now = holdClock(t)
  // 20 ms since the last sample, due 12 ms ago (11 ms late after the
  // timer's millisecond); at its usual pace of half the time the thread
  // used 4 of the 8 ms before it was due: of the 14 ms it used, 10 were
  // the pause.
  m.pace = 0.5
  m.at = now - 20
  m.due = now - 12
  clock.us = m.cpuAt + 14000
  sampleOnce(m)
  const [s] = samples
  t.ok(s.us >= 11000 && s.us < 11900, `${s.us} µs late`)
  t.ok(Math.abs(s.ownUs - 10000) < 600, `${s.ownUs} µs of it its own work`)
  t.equal(s.cause, OWN, 'mostly its own')
  t.equal(m.lastCause, OWN)
  t.ok(Math.abs(m.lastPauseAt - performance.now()) < 50, 'when the last pause ended, for a search step\'s window (stepped-run.js)')
  t.equal(m.lastPauseCause, OWN, 'and whose it was')
  t.equal(m.pace, 0.5, 'a pause does not move the usual pace')
  // The same pause with 2 ms of CPU time: the thread was not running.
  m.at = performance.now() - 20
  m.due = m.at + 8
  m.cpuAt = clock.us
  clock.us += 2000
  sampleOnce(m)
  t.equal(samples[1].ownUs, 0, 'no CPU time beyond its usual pace: none of it its own')
  t.equal(samples[1].cause, STARVED)
  t.equal(m.lastPauseCause, STARVED)
  // More CPU time than the pause was long: the pause, no more.
  m.at = performance.now() - 20
  m.due = m.at + 8
  m.cpuAt = clock.us
  clock.us += 50000
  sampleOnce(m)
  t.equal(samples[2].ownUs, samples[2].us, 'all of it its own')
  clock.closed = false
  m.stop()
  t.ok(clock.closed)
})

t.test('a sample that is no pause: its late requests go to the last pause\'s cause, else to what its CPU time says', async (t) => {
  const { m, samples } = splitMonitor()
  const clock = handClock()
  m.clock = clock
  m.pace = 0.1
  const onTime = (usedUs, lastCause) => {
    m.lastCause = lastCause
    m.at = performance.now() - 10
    m.due = performance.now()
    m.cpuAt = clock.us
    clock.us += usedUs
    sampleOnce(m)
    return samples[samples.length - 1]
  }
  const pausedAt = m.lastPauseAt
  t.same(onTime(100, STARVED), { us: 0, ownUs: null, cause: STARVED }, 'the pause just seen: the machine\'s')
  t.equal(m.lastPauseAt, pausedAt, 'a sample on time is no pause: the last one stays')
  t.equal(m.lastCause, 0, 'this one was no pause')
  t.equal(onTime(100, OWN).cause, OWN)
  t.equal(onTime(200, 0).cause, STARVED, 'no pause, little CPU time: the thread was held off the CPU')
  t.equal(onTime(6000, 0).cause, OWN, 'no pause, CPU time beyond its pace: its own work')
  t.ok(m.pace > 0.1, `the usual pace moves with on-time samples (${m.pace.toFixed(3)})`)
  m.stop()
})

t.test('on the real clock: a pause of work is ours, a pause asleep is not', async (t) => {
  const { m, samples } = splitMonitor()
  m.start()
  await sleep(50)
  const at = samples.length
  // Work until the thread has had 25 ms of CPU time (on a loaded machine
  // that takes longer): the pause is its own.
  const { work } = require('../helpers/pause-injector')
  work(25)
  await sleep(25)
  const worked = samples.slice(at).reduce((a, b) => (b.ownUs || 0) > (a.ownUs || 0) ? b : a)
  t.ok(worked.ownUs >= 14000, `25 ms of CPU time: ${worked.ownUs} µs of a ${worked.us} µs pause its own`)
  const slept = samples.length
  // Blocked 40 ms without running (as when descheduled).
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 40)
  await sleep(25)
  const held = samples.slice(slept).reduce((a, b) => b.us > a.us ? b : a)
  t.ok(held.us >= 25000, `the pause was seen (${held.us} µs)`)
  t.ok(held.ownUs < 5000, `not running: ${held.ownUs} µs of it own`)
  t.equal(held.cause, STARVED)
  m.stop()
})

t.test('a short pause after a long one: the late requests are the long one\'s', async (t) => {
  const { m, samples } = splitMonitor()
  const clock = handClock()
  m.clock = clock
  m.lastCause = STARVED
  // 2 ms late, all of it its own work (what the long pause left to do).
  m.at = performance.now() - 13
  m.due = performance.now() - 3
  m.cpuAt = clock.us
  clock.us += 12000
  sampleOnce(m)
  t.ok(samples[0].us >= 2000 && samples[0].us < HOLDS_US, `a short pause (${samples[0].us} µs)`)
  t.equal(samples[0].ownUs, samples[0].us, 'its own work')
  t.equal(samples[0].cause, STARVED, 'the requests it finds late were held by the long pause before')
  t.equal(m.lastCause, 0, 'and it holds none itself')
  m.stop()
})

t.test('late(): a late request samples a late loop at once, before the work the pause left', async (t) => {
  const { m, samples } = splitMonitor()
  m.start(handClock())
  m.late()
  t.equal(samples.length, 0, 'a loop on time: nothing')
  const timer = m.timer
  m.due = performance.now() - 30
  m.late()
  t.equal(samples.length, 1, 'a loop 30 ms late: sampled now')
  t.ok(samples[0].us >= 28000, `${samples[0].us} µs`)
  t.not(m.timer, timer, 'the next sample armed anew, the old one dropped')
  m.late()
  t.equal(samples.length, 1, 'once per pause')
  m.stop()
  m.due = performance.now() - 30
  m.late()
  t.equal(samples.length, 1, 'stopped: never')
})
