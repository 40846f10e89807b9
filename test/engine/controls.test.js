'use strict'

// A session's controls of a run (lib/engine/controls.js) with a real
// Recorder and a rate plan, connections and clock that say what the test
// wants: the windows cut() hands out, peek()'s bound on what can end,
// drain() and setRate().

const t = require('tap')
const { performance } = require('perf_hooks')
const { Controls } = require('../../lib/engine/controls')
const { Recorder } = require('../../lib/engine/recorder')

const EPOCH = 1700000000000
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// A scheduler that notes its calls; dueBy() answers from `dues` in turn.
function fakeScheduler ({ dues = [], owed = 0, mostDue = 0, targetRate = 50 } = {}) {
  const calls = []
  return {
    calls,
    targetRate,
    setRate: (rate) => calls.push(['setRate', rate]),
    pause: () => calls.push(['pause']),
    dueBy: (now) => { calls.push(['dueBy', typeof now]); return dues.shift() },
    owed: (now) => { calls.push(['owed', typeof now]); return owed },
    mostDueWithin: (ms) => { calls.push(['mostDueWithin', ms]); return mostDue }
  }
}

function controls ({ scheduler = null, inFlight = () => 0, beganAt = 1000, ended = () => false, busy = 0.25, lastPauseAt = -Infinity, lastPauseCause = 0 } = {}) {
  const recorder = new Recorder()
  const c = new Controls({
    recorder,
    scheduler,
    connections: { inFlight },
    clock: { beganAt, epochAt: (t) => EPOCH + t },
    loopMonitor: { busy: () => busy, lastPauseAt, lastPauseCause },
    ended
  })
  return { controls: c, recorder }
}

t.test('cut(): the window since the start, then since the last cut, with what it measured', async (t) => {
  const scheduler = fakeScheduler({ dues: [10, 25] })
  const { controls: c, recorder } = controls({ scheduler, inFlight: () => 4, beganAt: 1000 })
  recorder.started(5)
  recorder.response(200, 10, 1000)
  recorder.response(503, 10, 1000)
  const before = performance.now()
  const first = c.cut()
  const after = performance.now()
  t.equal(first.start.getTime(), EPOCH + 1000, 'the first window starts when the run began')
  t.ok(first.finish.getTime() >= Math.floor(EPOCH + before) && first.finish.getTime() <= EPOCH + after, 'and ends now')
  t.equal(c.cutAt >= before && c.cutAt <= after, true, 'the cut is noted')
  t.same({
    sent: first.totalRequests,
    completed: first.totalCompletedRequests,
    non2xx: first.non2xx,
    inFlight: first.inFlight,
    planned: first.planned,
    targetRate: first.targetRate,
    busy: first.busy
  }, { sent: 5, completed: 2, non2xx: 1, inFlight: 4, planned: 10, targetRate: 50, busy: 0.25 })
  t.type(first.latencies, Uint8Array, 'packed: cheap to take between steps')

  recorder.started(1)
  const second = c.cut()
  t.equal(second.start.getTime(), first.finish.getTime(), 'the next window starts where the last ended')
  t.same({ sent: second.totalRequests, completed: second.totalCompletedRequests, planned: second.planned },
    { sent: 1, completed: 0, planned: 15 }, 'only what came after the cut; planned since it (25 - 10)')
})

t.test('cut() with a start time reached late: from when the run began', async (t) => {
  const { controls: c } = controls({ beganAt: 5000 })
  t.equal(c.cut().start.getTime(), EPOCH + 5000)
})

t.test('without a rate plan: nothing planned, no target rate', async (t) => {
  const { controls: c } = controls()
  const raw = c.cut()
  t.equal(raw.planned, 0)
  t.equal(raw.targetRate, 0)
  t.equal(c.plannedSince(performance.now()), 0)
})

t.test('peek(): the window so far, and the most requests it can end by its end', async (t) => {
  const scheduler = fakeScheduler({ owed: 3, mostDue: 7 })
  const { controls: c, recorder } = controls({ scheduler, inFlight: () => 4 })
  for (let i = 0; i < 3; i++) recorder.response(200, 10, 2000)
  recorder.requestErrors(2, 'read', 'ECONNRESET')
  const figures = c.peek([1, 5], 500)
  t.equal(figures.responses, 3)
  t.equal(figures.errors, 2)
  t.same(figures.above, [3, 0], '2 ms latencies: above 1 ms, not above 5')
  t.equal(figures.mostEnded, 3 + 2 + 4 + 3 + 7, 'ended, in flight, owed and what can still fall due')
  t.same(scheduler.calls.filter(([name]) => name === 'mostDueWithin'), [['mostDueWithin', 500]], 'within the time left')
  t.equal(recorder.totalCompleted + recorder.counter, 3, 'peek() takes nothing away')

  t.equal(figures.owed, 3, 'what the plan owes')
  t.equal(figures.sincePauseMs, Infinity, 'no pause yet')
  t.equal(figures.pauseCause, null)

  const unrated = controls({ inFlight: () => 4 }).controls
  t.equal(unrated.peek([1], 500).mostEnded, Infinity, 'without a plan: no bound')
  t.equal(unrated.peek([1], 500).owed, 0, 'without a plan: nothing owed')

  // The loop monitor's last pause: how long ago, and whose.
  const { OWN, STARVED } = require('../../lib/engine/loop-monitor')
  const paused = controls({ scheduler: fakeScheduler(), lastPauseAt: performance.now() - 40, lastPauseCause: STARVED }).controls.peek([], 0)
  t.ok(paused.sincePauseMs >= 40 && paused.sincePauseMs < 200, `${paused.sincePauseMs} ms since`)
  t.equal(paused.pauseCause, 'starved')
  t.equal(controls({ scheduler: fakeScheduler(), lastPauseAt: 0, lastPauseCause: OWN }).controls.peek([], 0).pauseCause, 'own')
})

t.test('drain(): pauses the plan, true once nothing is in flight, false at the timeout', async (t) => {
  {
    const scheduler = fakeScheduler()
    const { controls: c } = controls({ scheduler, inFlight: () => 0 })
    t.equal(await c.drain(1000), true, 'nothing in flight: at once')
    t.same(scheduler.calls, [['pause']])
  }
  {
    let inFlight = 3
    const { controls: c } = controls({ scheduler: fakeScheduler(), inFlight: () => inFlight })
    const start = performance.now()
    let answeredAt = 0
    setTimeout(() => { inFlight = 0; answeredAt = performance.now() }, 20)
    t.equal(await c.drain(2000), true, 'once the requests in flight are answered')
    const end = performance.now()
    t.ok(answeredAt > 0 && end >= answeredAt && end - start < 1000, `after they were (${(answeredAt - start).toFixed(1)} ms, drained at ${(end - start).toFixed(1)} ms)`)
  }
  {
    const { controls: c } = controls({ scheduler: fakeScheduler(), inFlight: () => 2 })
    const start = performance.now()
    t.equal(await c.drain(40), false, 'still in flight at the timeout')
    t.ok(performance.now() - start >= 39, 'not before it')
  }
  {
    let ended = false
    const { controls: c } = controls({ scheduler: fakeScheduler(), inFlight: () => 2, ended: () => ended })
    setTimeout(() => { ended = true }, 20)
    t.equal(await c.drain(2000), true, 'the run ended while draining')
  }
  {
    const scheduler = fakeScheduler()
    const { controls: c } = controls({ scheduler, inFlight: () => 2, ended: () => true })
    t.equal(await c.drain(10), true, 'an ended run has nothing to drain')
    t.same(scheduler.calls, [], 'and its plan is left alone')
  }
  t.equal(await controls({ inFlight: () => 2 }).controls.drain(10), true, 'without a plan: nothing to pause')
})

t.test('setRate(): to the plan, unless there is none or the run has ended', async (t) => {
  let ended = false
  const scheduler = fakeScheduler()
  const { controls: c } = controls({ scheduler, ended: () => ended })
  c.setRate(120)
  ended = true
  c.setRate(240)
  t.same(scheduler.calls, [['setRate', 120]])
  t.doesNotThrow(() => controls().controls.setRate(10), 'no plan: ignored')
})

t.test('drain() checks every few ms, not in a busy loop', async (t) => {
  let asked = 0
  const { controls: c } = controls({ scheduler: fakeScheduler(), inFlight: () => { asked++; return 1 } })
  await c.drain(50)
  await sleep(0)
  t.ok(asked >= 2 && asked <= 12, `${asked} checks in 50 ms`)
})
