'use strict'

// The rate plan on a fake clock: intended send times, catching up, waiting
// with one timer, lateness, per-connection staggering.

const t = require('tap')
const { performance } = require('perf_hooks')
const { createScheduler, LATE_MS } = require('../lib/scheduler')
const { Recorder } = require('../lib/recorder')

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

t.test('giveBack returns unsent requests to the plan; stop clears the timer', async (t) => {
  const h = harness(t, { overallRate: 1000 })
  const [c] = h.clients
  const t0 = h.now
  t.equal(h.scheduler.take(c, 1), 1, 'the plan starts at the first take')
  h.advance(3)
  t.equal(h.scheduler.take(c, 4), 3)
  h.scheduler.giveBack(c, 2)
  t.equal(h.scheduler.take(c, 4), 2, 'the two given back are due again')
  t.same([...h.scheduler.planned.subarray(0, 2)], [t0 + 2, t0 + 3])
  t.equal(h.timers.size, 1)
  h.scheduler.stop()
  t.equal(h.timers.size, 0)
  t.equal(h.scheduler.take(c, 1), 0, 'nothing after stop')
  t.equal(h.scheduler.targetRate, 1000)
})
