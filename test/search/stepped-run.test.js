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
    peek: async (limitsMs, mostMs) => { calls.push(['peek', limitsMs, at()]); return onPeek ? onPeek(mostMs) : {} }
  }
}

t.test('drain, the rate, the warm-up cut away, then the window cut out', async (t) => {
  const c = controls()
  const stepped = new SteppedRun(new Session(), c, { drainMs: 1234 })
  const out = await stepped.step({ rate: 500, warmup: 0.1, duration: 0.2 })
  t.same(out, { raws: [{ window: 2 }], settled: null }, 'the second cut is the window')
  t.same(c.calls.map(([name, arg]) => [name, arg]), [['drain', 1234], ['setRate', 500], ['cut', 1], ['cut', 2]])
  const [, , warmupCut, windowCut] = c.calls.map((call) => call[2])
  t.ok(warmupCut >= 95, `the warm-up lasted its 0.1 s (${warmupCut} ms)`)
  t.ok(windowCut - warmupCut >= 195, `the window its 0.2 s (${windowCut - warmupCut} ms)`)
})

t.test('a watch: peeked every 250 ms, and the window cut where its failure is settled', async (t) => {
  let peeks = 0
  const c = controls({ onPeek: () => ({ peek: ++peeks }) })
  const watch = { limitsMs: [50], settle: (figures) => figures.peek === 2 ? 'p99 can no longer hold' : null }
  const stepped = new SteppedRun(new Session(), c)
  const started = performance.now()
  const out = await stepped.step({ rate: 100, warmup: 0, duration: 10 }, watch)
  const took = performance.now() - started
  t.equal(out.settled.reason, 'p99 can no longer hold')
  t.ok(out.settled.at >= 0.4 && out.settled.at <= 1, `settled at ${out.settled.at} s, on the second peek`)
  t.ok(took < 2000, `the step ended then (${Math.round(took)} ms), not after 10 s`)
  t.same(c.calls.filter(([name]) => name === 'peek').map((call) => call[1]), [[50], [50]], 'the watch\'s limits asked for')
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
