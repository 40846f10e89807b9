'use strict'

// A step that sees a queue still building: the trend test itself (exact
// Mann–Kendall p-values, Theil–Sen slope), the step judge on synthetic
// interval series (flat, noisy, rising, one spike, a rise too small to
// matter, too few intervals), and the search lengthening a rising step
// once, then failing it.

const t = require('tap')
const { trend, exactUpperP } = require('../../lib/search/trend')
const { judgeStep } = require('../../lib/search/step-judge')
const { createSearch } = require('../../lib/search/search')
const { makeResult } = require('../helpers/step-results')
const { seededRandom } = require('../../lib/core/random')

const SLO = ['p99<50ms']

// A step result whose per-interval medians are `p50s` (ms), 1 s apart.
function withSeries (p50s, opts = {}) {
  const result = makeResult({ target: 1000, duration: p50s.length, ...opts })
  result.series = { interval: 1000, latencyP50: p50s }
  return result
}

t.test('exact Mann–Kendall p-values: the orderings of n values', async (t) => {
  t.equal(exactUpperP(5, 10) * 120, 1, 'all 10 pairs in order: 1 ordering of 120')
  t.ok(Math.abs(exactUpperP(5, 8) * 120 - 5) < 1e-9, 'one pair out of order: 1 + 4 orderings')
  t.ok(Math.abs(exactUpperP(5, 6) * 120 - 14) < 1e-9, 'two: 1 + 4 + 9')
  t.ok(Math.abs(exactUpperP(5, -10) - 1) < 1e-12, 'every ordering has S >= -10')
  // Symmetry: P(S >= s) + P(S <= s - 2) = 1, and P(S <= s - 2) = P(S >= 2 - s).
  t.ok(Math.abs(exactUpperP(7, 5) + exactUpperP(7, -3) - 1) < 1e-12)
  // Large n: the normal approximation agrees with the exact law.
  const exact = exactUpperP(50, 300)
  const approx = trend(Array.from({ length: 60 }, (_, i) => i)).p
  t.ok(exact > 0 && exact < 0.01, `n = 50, S = 300: p ${exact.toExponential(2)}`)
  t.ok(approx < 1e-6, 'n = 60 in order: p near 0 (normal approximation)')
})

t.test('the trend of a series', async (t) => {
  const flat = trend([5, 5, 5, 5, 5])
  t.same([flat.s, flat.slope], [0, 0], 'flat: no order, no slope')
  t.ok(flat.p >= 0.5)
  const rising = trend([2, 4, 6, 8, 10])
  t.same([rising.n, rising.s, rising.slope], [5, 10, 2], 'rising by 2 a point')
  t.ok(Math.abs(rising.p - 1 / 120) < 1e-12)
  const spike = trend([2, 2.1, 40, 2, 2.1])
  t.ok(spike.p > 0.2 && Math.abs(spike.slope) < 0.1, `one spike moves neither the test nor the slope (p ${spike.p.toFixed(2)}, slope ${spike.slope})`)
  const gaps = trend([1, null, 3, undefined, 5])
  t.same([gaps.n, gaps.slope], [3, 1], 'intervals without responses are skipped, positions kept')
  t.same(trend([7]), { n: 1, s: 0, p: 1, slope: 0 })
})

t.test('the step judge: only a steady, material rise holds a step back', async (t) => {
  const flat = judgeStep(withSeries([3, 3.1, 2.9, 3, 3.05]), { slos: SLO })
  t.equal(flat.verdict, 'pass', 'flat')
  t.equal(flat.rising, false)

  const random = seededRandom(11)
  let noisyPasses = 0
  for (let i = 0; i < 100; i++) {
    const noisy = withSeries(Array.from({ length: 5 }, () => 3 + 2 * random()))
    if (judgeStep(noisy, { slos: SLO }).verdict === 'pass') noisyPasses++
  }
  t.equal(noisyPasses, 100, 'noise of ±1 ms around 3 ms is never a queue against a 50 ms SLO')

  // A queue building 8 ms a second: p99 20 ms now, 60 ms after 5 s more.
  const queue = judgeStep(withSeries([2, 10, 18, 26, 34]), { slos: SLO })
  t.equal(queue.verdict, 'inconclusive', 'rising: not a pass yet')
  t.equal(queue.rising, true)
  t.match(queue.reasons[0], /^p50 rising 8 ms\/s over the step \(a queue still building\): 5 s more would take p99 past 50 ms$/)

  const spike = judgeStep(withSeries([2, 2.2, 45, 2.1, 2.3]), { slos: SLO })
  t.equal(spike.verdict, 'pass', 'one spike (a GC pause) is not a trend')

  const small = judgeStep(withSeries([2, 2.1, 2.2, 2.3, 2.4]), { slos: SLO })
  t.equal(small.verdict, 'pass', 'steadily up by 0.1 ms/s: real, but 5 s more would not reach 50 ms')
  const trendCheck = small.checks.find((c) => c.kind === 'trend')
  t.equal(trendCheck.ok, true)
  t.ok(trendCheck.p < 0.01, 'the test did see the order')

  const few = judgeStep(withSeries([2, 20, 40]), { slos: SLO })
  t.equal(few.verdict, 'pass', 'three intervals: too few to judge a trend')
  t.notOk(few.checks.some((c) => c.kind === 'trend'))

  const failing = judgeStep(withSeries([2, 10, 18, 26, 34], { achieved: 900 }), { slos: SLO })
  t.equal(failing.verdict, 'fail', 'a step that fails anyway stays a fail')
  t.equal(failing.rising, false)

  // Without a latency SLO: rising until 5 s more would double the median.
  const noLatencySlo = judgeStep(withSeries([2, 4, 6, 8, 10]), { slos: ['errors<1%'] })
  t.equal(noLatencySlo.verdict, 'inconclusive')
  t.match(noLatencySlo.reasons[0], /5 s more would double it/)
})

t.test('the search lengthens a rising step once, then fails it', async (t) => {
  const search = createSearch({ ceiling: 10000, slos: SLO, lowRate: 1000, stepDuration: 5, warmup: 0 })
  const low = search.next()
  t.equal(low.kind, 'low')
  search.record(low, search.judge(low, withSeries([2, 10, 18, 26, 34])))
  const again = search.next()
  t.same([again.rate, again.duration, again.lengthened], [1000, 10, true], 'the same rate, twice as long')
  search.record(again, search.judge(again, withSeries([2, 6, 10, 14, 18, 22, 26, 30, 34, 38])))
  const out = search.outcome()
  t.equal(out.status, 'below-low', 'still rising: a fail')
  t.match(out.history[1].reasons.join(' | '), /still rising over a 10 s step: taken as a fail/)

  const settles = createSearch({ ceiling: 10000, slos: SLO, lowRate: 1000, stepDuration: 5, warmup: 0 })
  const first = settles.next()
  settles.record(first, settles.judge(first, withSeries([2, 10, 18, 26, 34])))
  const longer = settles.next()
  settles.record(longer, settles.judge(longer, withSeries([3, 3.2, 2.9, 3.1, 3, 3.2, 2.8, 3.1, 3, 3.1])))
  t.equal(settles.next().kind, 'upper', 'flat when run longer: the low rate passed, the search goes on')
})
