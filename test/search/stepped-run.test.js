'use strict'

// One step of a capacity search on a run's controls
// (lib/search/stepped-run.js), here a recording fake: the order of the
// calls (drain, the new rate, an unrecorded warm-up cut away, the measured
// window cut out), a watch that settles the window early, and a step that
// ends at once when the session stops or the run fails. On real runs:
// test/e2e/session-stepped-runs.test.js and
// test/e2e/early-verdict-stepped-runs.test.js.

const t = require('tap')
const { performance } = require('perf_hooks')
const { SteppedRun } = require('../../lib/search/stepped-run')
const { Session } = require('../../lib/engine/session')

// Controls that record what they are asked, with the time it came.
function controls ({ onPeek } = {}) {
  const t0 = performance.now()
  const calls = []
  let cuts = 0
  const at = () => Math.round(performance.now() - t0)
  return {
    calls,
    drain: async (ms) => { calls.push(['drain', ms, at()]) },
    setRate: (rate) => { calls.push(['setRate', rate, at()]) },
    cut: async () => { cuts++; calls.push(['cut', cuts, at()]); return { window: cuts } },
    peek: async (limitsMs, mostMs) => { calls.push(['peek', limitsMs, at()]); return onPeek ? onPeek(mostMs, limitsMs) : {} }
  }
}

t.test('drain, the rate, the warm-up cut away, then the window cut out', async (t) => {
  const c = controls()
  const stepped = new SteppedRun(new Session(), c, { drainMs: 1234 })
  const out = await stepped.step({ rate: 500, warmup: 0.1, duration: 0.2 })
  t.same(out, { raws: [{ window: 2 }], settled: null, behind: null }, 'the second cut is the window')
  t.same(c.calls.map(([name, arg]) => [name, arg]), [['drain', 1234], ['setRate', 500], ['peek', []], ['cut', 1], ['cut', 2]], 'the warm-up\'s plan checked before the window opens')
  const [, , , warmupCut, windowCut] = c.calls.map((call) => call[2])
  t.ok(warmupCut >= 95, `the warm-up lasted its 0.1 s (${warmupCut} ms)`)
  t.ok(windowCut - warmupCut >= 195, `the window its 0.2 s (${windowCut - warmupCut} ms)`)
})

// A pause of the sending thread at the warm-up's end (the machine's other
// processes had its core): the requests due in it go at once after it, and
// their answers come at once. A window opened then counts the warm-up's
// requests as its own (achieved above its target) and their wait as its
// latency: it opens once the thread owes nothing and has run 100 ms since.
t.test('a pause at the warm-up\'s end: the window opens once the plan has caught up', async (t) => {
  const peeks = [
    { owed: 14, sincePauseMs: 3 },
    { owed: 0, sincePauseMs: 60 },
    { owed: 0, sincePauseMs: 160 }
  ]
  const c = controls({ onPeek: () => peeks.shift() || {} })
  const stepped = new SteppedRun(new Session(), c)
  await stepped.step({ rate: 373, warmup: 0.1, duration: 0.1 })
  t.same(c.calls.map(([name]) => name), ['drain', 'setRate', 'peek', 'peek', 'peek', 'cut', 'cut'], 'the window waited for three looks')
  const at = Object.fromEntries(c.calls.map(([name, , ms], i) => [`${name}${i}`, ms]))
  t.ok(at.cut5 - at.peek2 >= 190, `two waits of 100 ms before the window (${at.cut5 - at.peek2} ms)`)

  // A pause before the warm-up began (the drain's) is not the warm-up's.
  const before = controls({ onPeek: () => ({ owed: 3, sincePauseMs: 10000 }) })
  await new SteppedRun(new Session(), before).step({ rate: 373, warmup: 0.1, duration: 0.1 })
  t.same(before.calls.map(([name]) => name), ['drain', 'setRate', 'peek', 'cut', 'cut'], 'no wait')
  // Owed without a pause: every connection busy, the server's back-pressure.
  const busy = controls({ onPeek: () => ({ owed: 30, sincePauseMs: Infinity }) })
  await new SteppedRun(new Session(), busy).step({ rate: 373, warmup: 0.1, duration: 0.1 })
  t.same(busy.calls.map(([name]) => name), ['drain', 'setRate', 'peek', 'cut', 'cut'], 'no wait')
  // Workers: each thread's own figures; one that paused holds the window.
  const workers = [[{ owed: 0, sincePauseMs: Infinity }, { owed: 2, sincePauseMs: 20 }], [{ owed: 0, sincePauseMs: Infinity }, { owed: 0, sincePauseMs: 150 }]]
  const threads = controls({ onPeek: () => workers.shift() || [] })
  await new SteppedRun(new Session(), threads).step({ rate: 373, warmup: 0.1, duration: 0.1 })
  t.same(threads.calls.map(([name]) => name), ['drain', 'setRate', 'peek', 'peek', 'cut', 'cut'])
  // A machine that never lets it catch up: the window opens after 2 s more.
  const starved = controls({ onPeek: () => ({ owed: 5, sincePauseMs: 1.4, pauseCause: 'starved' }) })
  const started = performance.now()
  const out = await new SteppedRun(new Session(), starved).step({ rate: 373, warmup: 0.1, duration: 0.1 })
  const took = performance.now() - started
  t.ok(took >= 2100 && took < 3500, `bounded: ${Math.round(took)} ms`)
  t.same(out.behind, { owed: 5, sincePauseMs: 1, cause: 'starved' }, 'and it says what held it')
})

t.test('a step run again after a pause: the pause comes after the drain, before the rate', async (t) => {
  const c = controls()
  await new SteppedRun(new Session(), c).step({ rate: 81, warmup: 0, duration: 0.1, pause: 0.3 })
  t.same(c.calls.map(([name]) => name), ['drain', 'setRate', 'peek', 'cut', 'cut'])
  const [drain, setRate] = c.calls
  t.ok(setRate[2] - drain[2] >= 295, `paused ${setRate[2] - drain[2]} ms, sending nothing`)
})

t.test('a watch: peeked every 250 ms, and the window cut where its failure is settled', async (t) => {
  let peeks = 0
  // The watch's peeks, not the look before the window opens (no limits).
  const c = controls({ onPeek: (mostMs, limitsMs) => limitsMs.length ? { peek: ++peeks } : {} })
  const watch = { limitsMs: [50], settle: (figures) => figures.peek === 2 ? 'p99 can no longer hold' : null }
  const stepped = new SteppedRun(new Session(), c)
  const started = performance.now()
  const out = await stepped.step({ rate: 100, warmup: 0, duration: 10 }, watch)
  const took = performance.now() - started
  t.equal(out.settled.reason, 'p99 can no longer hold')
  t.ok(out.settled.at >= 0.4 && out.settled.at <= 1, `settled at ${out.settled.at} s, on the second peek`)
  t.ok(took < 2000, `the step ended then (${Math.round(took)} ms), not after 10 s`)
  t.same(c.calls.filter(([name]) => name === 'peek').map((call) => call[1]), [[], [50], [50]], 'the look before the window, then the watch\'s limits asked for')
  t.same(out.raws, [{ window: 2 }])
})

t.test('stopped: no window; a failed run: its error, at once', async (t) => {
  const session = new Session()
  const stepped = new SteppedRun(session, controls())
  setTimeout(() => session.stop(), 100)
  t.equal(await stepped.step({ rate: 100, warmup: 0, duration: 30 }), null)

  const failing = new SteppedRun(new Session(), controls())
  const boom = new Error('a worker died')
  setTimeout(() => failing.fail(boom), 100)
  const started = performance.now()
  await t.rejects(failing.step({ rate: 100, warmup: 0, duration: 30 }, { limitsMs: [], settle: () => null }), boom)
  t.ok(performance.now() - started < 2000, 'not at the window\'s end')
  failing.fail(new Error('later'))
  await t.rejects(failing.step({ rate: 1, warmup: 0, duration: 1 }), boom, 'the first failure stays')
})
