'use strict'

// The rate plan on a fake clock: intended send times, catching up, waiting
// with one timer, lateness, per-connection staggering.

const t = require('tap')
const { performance } = require('perf_hooks')
const { createScheduler, LATE_MS } = require('../../lib/engine/scheduler')
const { Recorder } = require('../../lib/engine/recorder')

function harness (t, config) {
  let now = 1000
  const realNow = performance.now
  const realSetTimeout = global.setTimeout
  const realClearTimeout = global.clearTimeout
  const timers = new Map()
  let nextId = 1
  performance.now = () => now
  global.setTimeout = (fn, ms) => {
    const id = nextId++
    timers.set(id, { fn, at: now + ms })
    return id
  }
  global.clearTimeout = (id) => timers.delete(id)
  t.teardown(() => {
    performance.now = realNow
    global.setTimeout = realSetTimeout
    global.clearTimeout = realClearTimeout
  })
  const scheduler = createScheduler({ connections: 1, pipelining: 10, ...config })
  const recorder = new Recorder()
  scheduler.start(recorder)
  const clients = []
  for (let i = 0; i < (config.connections || 1); i++) clients.push({ index: i, pumps: 0, pump () { this.pumps++ } })
  return {
    scheduler,
    recorder,
    clients,
    timers,
    advance (ms) { now += ms },
    get now () { return now },
    // Fires the due timers, as the event loop would.
    fire () {
      for (const [id, timer] of [...timers]) {
        if (timer.at <= now) {
          timers.delete(id)
          timer.fn()
        }
      }
    }
  }
}

t.test('overall rate: request i is planned at t0 + i / rate', async (t) => {
  const h = harness(t, { overallRate: 1000 })
  const [c] = h.clients
  const t0 = h.now
  t.equal(h.scheduler.take(c, 10), 1, 'only the first request is due at t0')
  t.equal(h.scheduler.planned[0], t0)
  t.equal(h.timers.size, 1, 'one timer for the next due request')
  t.equal([...h.timers.values()][0].at, t0 + 1, 'set for t0 + 1 ms')

  h.advance(5.5)
  t.equal(h.scheduler.take(c, 10), 5, 'catching up: every request whose time has passed')
  t.same([...h.scheduler.planned.subarray(0, 5)], [t0 + 1, t0 + 2, t0 + 3, t0 + 4, t0 + 5], 'each keeps its own planned time')
  t.equal(h.recorder.late, 0, 'less than LATE_MS behind is on time')
  t.equal(h.recorder.lateness.totalCount, 6, 'lateness recorded for every request')
  t.equal(h.recorder.lateness.maxValue >= 4500 - 5, true, 'in microseconds')
})

t.test('a request that waits for a connection keeps its time and counts as late', async (t) => {
  const h = harness(t, { overallRate: 100 })
  const [c] = h.clients
  const t0 = h.now
  h.scheduler.take(c, 1)
  h.advance(1000) // the connection was busy for a second
  t.equal(h.scheduler.take(c, 3), 3)
  t.same([...h.scheduler.planned.subarray(0, 3)], [t0 + 10, t0 + 20, t0 + 30], 'planned times from the plan, not from now')
  t.equal(h.recorder.late, 3, `more than ${LATE_MS} ms behind is late`)
  t.ok(h.recorder.lateness.maxValue >= 989000, 'lateness is how far behind the plan')
})

t.test('late for want of a connection, or because the thread was late', async (t) => {
  // Every connection busy when the requests fell due: back-pressure.
  const busy = harness(t, { overallRate: 100 })
  const [c] = busy.clients
  busy.scheduler.take(c, 1)
  busy.advance(1000)
  busy.scheduler.take(c, 3)
  t.equal(busy.recorder.lateNoConnection, 3, 'no connection was free: none waited for them')
  t.equal(busy.recorder.lateHeld, 0, 'none charged to the thread')

  // A connection waited for them, and the thread woke it late (its timer
  // held 20 ms): the thread's lateness, charged to the cause of its pause
  // at the loop monitor's next sample.
  const paused = harness(t, { overallRate: 1000, connections: 2 })
  const [a, b] = paused.clients
  paused.scheduler.take(a, 1)
  t.equal(paused.scheduler.take(b, 10), 0, 'b waits for the next due request')
  paused.advance(20)
  t.equal(paused.scheduler.take(a, 10), 10, 'a took what was due while b waited')
  t.equal(paused.recorder.late, 10, 'planned 1 to 10 ms in, all over LATE_MS late at 20')
  t.equal(paused.recorder.lateNoConnection, 0)
  t.equal(paused.recorder.lateHeld, 10)

  // Woken late: the woken connections took due requests; the one still
  // due after they filled up is taken later by a response: a connection
  // had waited after it fell due, so the thread is charged.
  const woken = harness(t, { overallRate: 1000, connections: 1, pipelining: 1 })
  const [w] = woken.clients
  w.pump = () => woken.scheduler.take(w, 1)
  woken.scheduler.take(w, 1)
  woken.advance(0.5)
  t.equal(woken.scheduler.take(w, 1), 0, 'waits')
  woken.advance(20)
  woken.fire()
  t.equal(woken.recorder.late, 1, 'the woken connection took one, 19.5 ms late')
  woken.advance(1)
  woken.scheduler.take(w, 1)
  t.equal(woken.recorder.lateNoConnection, 0, 'the one after it: a connection waited for it')
  t.equal(woken.recorder.lateHeld, 2)
  // From the wake on, the connection was busy: requests 3 to 20, due
  // before it, had a connection waiting for them; 21, due after it, not.
  woken.advance(30)
  for (let k = 3; k <= 20; k++) woken.scheduler.take(w, 1)
  t.equal(woken.recorder.lateNoConnection, 0, 'due before the wake: the thread\'s')
  woken.scheduler.take(w, 1)
  t.equal(woken.recorder.lateNoConnection, 1, 'due after every connection was busy')
  t.equal(woken.recorder.lateHeld, 20)

  // Each late request is told (the loop monitor samples a late loop then).
  const told = harness(t, { overallRate: 100 })
  let lateSeen = 0
  told.scheduler.start(told.recorder, () => lateSeen++)
  told.scheduler.take(told.clients[0], 1)
  told.advance(1000)
  told.scheduler.take(told.clients[0], 3)
  t.equal(lateSeen, 3)
})

t.test('one timer for all waiting connections, and no spinning', async (t) => {
  const h = harness(t, { overallRate: 1000, connections: 3 })
  const [a, b, c] = h.clients
  t.equal(h.scheduler.take(a, 1), 1)
  t.equal(h.scheduler.take(b, 1), 0, 'the next slot is not due yet')
  t.equal(h.scheduler.take(c, 1), 0)
  t.equal(h.scheduler.take(b, 1), 0, 'asking again does not queue twice')
  t.equal(h.timers.size, 1, 'a single timer whatever the number of waiting connections')
  h.advance(0.5)
  h.fire()
  t.equal(b.pumps + c.pumps, 0, 'nothing woken before the due time')
  h.advance(0.5)
  h.fire()
  t.equal(b.pumps, 1, 'woken once at the due time')
  t.equal(c.pumps, 1)
  t.equal(h.timers.size, 0, 'no timer left when nobody waits')
})

t.test('per-connection rate: staggered plans, summed target', async (t) => {
  const h = harness(t, { connectionRate: 10, connections: 4 })
  const t0 = h.now
  t.equal(h.scheduler.targetRate, 40)
  t.equal(h.scheduler.take(h.clients[0], 5), 1)
  t.equal(h.scheduler.planned[0], t0)
  h.advance(100)
  for (const c of h.clients) h.scheduler.take(c, 1)
  // Connection k starts k/4 of an interval (100 ms) after connection 0.
  h.advance(1000)
  const firsts = h.clients.map((c) => {
    h.scheduler.take(c, 1)
    return h.scheduler.planned[0] - t0
  })
  t.same(firsts, [200, 125, 150, 175], 'each connection on its own plan, 25 ms apart')
})

t.test('the plan starts when the first connection is ready to send, not when the run starts: the time spent connecting is not planned', async (t) => {
  const h = harness(t, { overallRate: 1000, connections: 2 })
  const [a, b] = h.clients
  h.advance(50) // started 50 ms ago; no connection ready until now
  const ready = h.now
  t.equal(h.scheduler.dueBy(ready), 0, 'nothing due while connecting')
  t.equal(h.scheduler.take(a, 10), 1, 'no burst of the 50 requests the connecting time would have made due')
  t.equal(h.scheduler.planned[0], ready, 'request 0 planned at the first ready connection')
  h.advance(20)
  t.equal(h.scheduler.take(b, 10), 10, 'a connection ready later takes from the same plan')
  t.equal(h.scheduler.planned[0], ready + 1)
})

t.test('stop clears the timer and grants nothing more', async (t) => {
  const h = harness(t, { overallRate: 1000 })
  const [c] = h.clients
  t.equal(h.scheduler.take(c, 1), 1, 'the plan starts at the first take')
  h.advance(3)
  t.equal(h.scheduler.take(c, 4), 3)
  t.equal(h.timers.size, 1)
  h.scheduler.stop()
  t.equal(h.timers.size, 0)
  t.equal(h.scheduler.take(c, 1), 0, 'nothing after stop')
  t.equal(h.scheduler.targetRate, 1000)
})

t.test('overall rate: a long plan stays on i / rate, with no drift', async (t) => {
  const h = harness(t, { overallRate: 3, pipelining: 1 })
  const [c] = h.clients
  const t0 = h.now
  const planned = []
  // One request per take, the clock jumping to each due time in turn.
  for (let i = 0; i < 3000; i++) {
    if (h.scheduler.take(c, 1) === 1) planned.push(h.scheduler.planned[0])
    h.advance(t0 + (i + 1) * 1000 / 3 - h.now) // the exact due time, not a sum of thirds
  }
  t.equal(planned.length, 3000)
  let off = 0
  for (let i = 0; i < planned.length; i++) {
    if (Math.abs(planned[i] - (t0 + i * 1000 / 3)) > 1e-6) off++
  }
  t.equal(off, 0, 'every planned time is t0 + i × 333.33 ms')
  t.ok(Math.abs(planned[2999] - t0 - 999666.6667) < 1e-3, 'request 2999 at t0 + 999.67 s')
})

t.test('per-connection rate: connection k is planned at t0 + (i + k/connections) / rate', async (t) => {
  const h = harness(t, { connectionRate: 50, connections: 5, pipelining: 100 })
  const t0 = h.now
  t.equal(h.scheduler.targetRate, 250, '50 req/s × 5 connections')
  h.scheduler.take(h.clients[0], 1) // starts the plan
  h.advance(1000)
  const all = []
  for (const c of h.clients) {
    const n = h.scheduler.take(c, 100)
    const times = [...h.scheduler.planned.subarray(0, n)].map((x) => x - t0)
    const first = c.index === 0 ? 1 : 0
    const expected = []
    for (let i = first; (i + c.index / 5) * 20 <= 1000; i++) expected.push((i + c.index / 5) * 20)
    t.same(times.map((x) => +x.toFixed(6)), expected.map((x) => +x.toFixed(6)), `connection ${c.index}: 20 ms apart, offset ${c.index * 4} ms`)
    all.push(...times)
    if (c.index === 0) all.push(0)
  }
  all.sort((a, b) => a - b)
  const gaps = new Set()
  for (let i = 1; i < all.length; i++) gaps.add(+(all[i] - all[i - 1]).toFixed(6))
  t.same([...gaps], [4], 'together the connections are evenly spaced, 1/250 s apart')
  t.equal(all.length, 251, 'a second of plan at 250 req/s (both ends included)')
})

t.test('catching up: each request gets its own planned time and lateness', async (t) => {
  const h = harness(t, { overallRate: 100 })
  const [c] = h.clients
  const t0 = h.now
  t.equal(h.scheduler.take(c, 1), 1)
  h.advance(45) // requests 1..4 are due (10, 20, 30, 40 ms); 5 is not
  t.equal(h.scheduler.take(c, 10), 4, 'all four due, not more')
  t.same([...h.scheduler.planned.subarray(0, 4)], [t0 + 10, t0 + 20, t0 + 30, t0 + 40])
  t.equal(h.timers.size, 1, 'then it waits for request 5')
  t.equal([...h.timers.values()][0].at, t0 + 50, 'woken at its planned time')
  // Lateness in µs: 0 for the first, then 35, 25, 15, 5 ms.
  const l = h.recorder.lateness
  t.equal(l.totalCount, 5)
  for (const us of [0, 35000, 25000, 15000, 5000]) t.equal(l.getCountAtValue(us), 1, `${us} µs recorded`)
  t.equal(h.recorder.late, 3, `35, 25 and 15 ms are late; exactly ${LATE_MS} ms is not`)
})

t.test('a waiting request keeps its intended time: latency from the plan shows the queue', async (t) => {
  // One connection, pipelining 1, a server taking 50 ms per request, a plan
  // of one request every 10 ms: request i leaves at 50·i but was meant for
  // 10·i, so its corrected latency grows by 40 ms per request.
  const h = harness(t, { overallRate: 100, pipelining: 1 })
  const [c] = h.clients
  const t0 = h.now
  const latencies = []
  for (let i = 0; i < 10; i++) {
    t.equal(h.scheduler.take(c, 1), 1, `request ${i} granted as soon as the connection is free`)
    const planned = h.scheduler.planned[0]
    t.equal(planned, t0 + i * 10, `request ${i} keeps its planned time t0 + ${i * 10} ms`)
    h.advance(50)
    latencies.push(h.now - planned)
  }
  t.same(latencies, [50, 90, 130, 170, 210, 250, 290, 330, 370, 410])
  t.equal(h.recorder.late, 9, 'every request after the first left late')
  t.equal(h.recorder.lateness.getCountAtValue(360000), 1, 'the last left 360 ms behind its plan')
})

t.test('no busy-wait: one pending timer, re-armed only when an earlier wake is needed', async (t) => {
  const h = harness(t, { connectionRate: 10, connections: 4, pipelining: 1 })
  const sets = []
  const clears = []
  const fakeSet = global.setTimeout
  const fakeClear = global.clearTimeout
  global.setTimeout = (fn, ms) => {
    sets.push(ms)
    return fakeSet(fn, ms)
  }
  global.clearTimeout = (id) => {
    clears.push(id)
    return fakeClear(id)
  }
  const [a, b, c, d] = h.clients
  t.equal(h.scheduler.take(a, 1), 1, 'connection 0 is due at t0')
  // Due at t0 + 75, 50, 25 ms: each earlier one replaces the timer.
  t.equal(h.scheduler.take(d, 1), 0)
  t.equal(h.scheduler.take(c, 1), 0)
  t.equal(h.scheduler.take(b, 1), 0)
  t.same(sets, [75, 50, 25], 'a timer set for each earlier due time')
  t.equal(clears.length, 2, 'and the previous one cleared each time')
  t.equal(h.timers.size, 1, 'one timer pending')
  t.equal(h.scheduler.take(a, 1), 0, 'connection 0, due later (t0 + 100), does not add one')
  t.equal(sets.length, 3)
  t.equal(h.timers.size, 1)

  // A run of 1 s on this clock: connections pump when woken, the timer
  // callback is the only way back in. Count the timers it took.
  // Responses are instant: a connection sends while requests are due,
  // then take() registers it to wait.
  for (const cl of h.clients) {
    cl.sent = 0
    cl.pump = function () { while (h.scheduler.take(this, 1) === 1) this.sent++ }
  }
  let wakes = 0
  while (h.now < 2000) {
    if (h.timers.size !== 1) break
    const next = Math.min(...[...h.timers.values()].map((x) => x.at))
    t.ok(next > h.now - 1e-9, 'the timer is never set in the past')
    h.advance(next - h.now)
    h.fire()
    wakes++
    if (wakes > 100) break
  }
  const sent = h.clients.reduce((s, cl) => s + cl.sent, 0)
  t.equal(sent, 40, '40 requests in the second at 4 × 10 req/s (t0 + 25 ms to t0 + 1000 ms)')
  t.same(h.clients.map((cl) => cl.sent), [10, 10, 10, 10], 'each connection at its own 10 req/s')
  t.equal(wakes, 40, 'one wake per request, nothing in between')
  t.equal(h.timers.size, 1, 'still a single timer pending')
})

t.test('stop: a pending wake pumps no one', async (t) => {
  const h = harness(t, { overallRate: 10, connections: 2 })
  const [a, b] = h.clients
  h.scheduler.take(a, 1)
  h.scheduler.take(b, 1)
  const [timer] = h.timers.values()
  h.scheduler.stop()
  timer.fn() // a timer callback already queued when stop() ran
  t.equal(b.pumps, 0)
  t.equal(h.scheduler.take(b, 1), 0)
})

t.test('the run asks the plan only for what the budget allows (-a with -R)', async (t) => {
  const h = harness(t, {})
  const { EventEmitter } = require('events')
  const { buildConfig } = require('../../lib/config/config')
  const { Run } = require('../../lib/engine/run')
  const config = buildConfig({ url: 'http://127.0.0.1:1', overallRate: 100, amount: 3, connections: 2, pipelining: 2 })
  const run = new Run(config, new EventEmitter(), { onDone () {} })
  run.scheduler.start(run.recorder)
  t.teardown(() => run.scheduler.stop())
  const [a, b] = h.clients
  const t0 = h.now
  t.equal(run.handle.take(a, 2), 1, 'one due at t0')
  h.advance(100)
  t.equal(run.handle.take(a, 2), 2, 'two more: the budget of 3 is spent')
  for (let i = 0; i < 5; i++) {
    h.advance(100)
    t.equal(run.handle.take(i % 2 ? a : b, 2), 0, 'nothing once the budget is spent')
  }
  t.equal(run.recorder.lateness.totalCount, 3, 'lateness recorded for the 3 requests granted, no more')
  t.equal(run.recorder.late, 2, 'the two that left 90 and 80 ms behind; none counted for refused ones')
  t.equal(run.recorder.lateness.maxValue, 90000)
  t.equal(run.scheduler.next, 3, 'the plan moved by what was granted')
  run.handle.giveBack(1) // a request lost with its socket goes back to the budget
  t.equal(run.handle.take(a, 2), 1, 'and can go again, from the plan')
  t.equal(run.scheduler.planned[0], t0 + 30, 'request 3 of the plan, at t0 + 30 ms')
})

t.test('pause grants nothing and arms no timer until setRate starts a new plan', async (t) => {
  const h = harness(t, { overallRate: 1000, connections: 2 })
  const [a, b] = h.clients
  t.equal(h.scheduler.take(a, 1), 1)
  h.advance(2)
  h.scheduler.pause()
  t.equal(h.timers.size, 0, 'the wake-up timer is cleared')
  h.advance(50)
  t.equal(h.scheduler.take(a, 5), 0, 'nothing while paused, however late the plan is')
  t.equal(h.scheduler.take(b, 5), 0)
  t.equal(h.timers.size, 0, 'and no timer for it: nothing is due')
  h.fire()
  t.equal(a.pumps + b.pumps, 0, 'no connection is woken')
  const t1 = h.now
  h.scheduler.setRate(500)
  t.equal(a.pumps, 1, 'setRate wakes the waiting connections')
  t.equal(b.pumps, 1)
  t.equal(h.scheduler.take(a, 5), 1, 'one request is due at the new plan\'s start, not the 50 the old one owed')
  t.equal(h.scheduler.planned[0], t1)
  h.advance(2)
  t.equal(h.scheduler.take(b, 5), 1, 'then one every 2 ms')
  t.equal(h.scheduler.planned[0], t1 + 2)
})

t.test('owed: due requests no connection has taken; mostDueWithin: a bound on what the plan can still make due', async (t) => {
  const h = harness(t, { overallRate: 1000, connections: 2 })
  const [a] = h.clients
  t.equal(h.scheduler.take(a, 1), 1, 'request 0 at t0')
  h.advance(9.5)
  t.equal(h.scheduler.owed(h.now), 9, 'requests 1..9 are due and untaken')
  t.equal(h.scheduler.take(a, 4), 4)
  t.equal(h.scheduler.owed(h.now), 5)
  t.equal(h.scheduler.mostDueWithin(1000), 1001, 'even spacing: rate × time, plus one for the boundary')
  h.scheduler.setRate(2000)
  t.equal(h.scheduler.owed(h.now), 1, 'a new plan owes nothing of the old one: only its request 0, due at once')
  h.advance(3)
  t.equal(h.scheduler.owed(h.now), 7, 'requests 0..6 of the new plan (every 0.5 ms)')
  t.equal(h.scheduler.mostDueWithin(500), 1001)
  h.scheduler.pause()
  t.equal(h.scheduler.mostDueWithin(1000), 0, 'paused: nothing more is due')
  t.equal(h.scheduler.owed(h.now), 0, 'and nothing is owed')

  const p = harness(t, { overallRate: 1000, arrivals: 'poisson', seed: 3 })
  t.equal(p.scheduler.mostDueWithin(1000), 1000 + 1 + Math.ceil(8 * Math.sqrt(1000)), 'Poisson: 8 standard deviations above the mean')
  const s = harness(t, { overallRate: 100, stages: [{ duration: 10, rate: 100 }] })
  t.equal(s.scheduler.mostDueWithin(1000), Infinity, 'a stage plan is not bounded')
  const c = harness(t, { connectionRate: 10, connections: 4 })
  t.equal(c.scheduler.mostDueWithin(1000), 40 + 4, 'one per connection\'s plan for the boundaries')
  c.scheduler.take(c.clients[0], 1)
  c.advance(250)
  t.equal(c.scheduler.owed(c.now), 10, 'per-connection plans: 3 + 3 + 3 + 2 due, 1 taken')
})
