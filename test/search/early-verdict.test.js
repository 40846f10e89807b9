'use strict'

// A step's failure settled before its end (lib/search/early-verdict.js):
// when it is settled, on figures a run's peek gives, and that a settled
// failure is the verdict the whole window would have had, however the
// rest of the window goes. End to end (a stepped run stopping a failing
// window early, and running a passing one to its end):
// test/e2e/early-verdict-stepped-runs.test.js.

const t = require('tap')
const { createEarlyVerdict } = require('../../lib/search/early-verdict')
const { createLatencyHistogram, countAbove } = require('../../lib/results/histogram')
const { evaluateThresholds, parseThreshold } = require('../../lib/results/thresholds')
const { seededRandom } = require('../../lib/core/random')

function figures (over = {}) {
  return { responses: 1000, errors: 0, timeouts: 0, non2xx: 0, serverErrors: 0, above: [0], mostEnded: 40000, ...over }
}

t.test('a percentile bound: settled once more than (100 − N)% of the most the step can end lie beyond it', async (t) => {
  const watch = createEarlyVerdict(['p99 < 50ms'])
  t.same(watch.limitsMs, [50], 'the peek counts responses above 50 ms')
  t.equal(watch.settle(figures({ above: [400] })), null, '400 of at most 40,000: the rest could still pull p99 under')
  t.equal(watch.settle(figures({ above: [401] })), '401 responses above 50 ms, more than 1% of the most it can end (40,000): p99 < 50 ms can no longer hold')
  t.equal(watch.settle(figures({ above: [401], mostEnded: 40100 })), null, 'a larger bound needs more')
  // A failure stands on minTailSamples responses beyond the bound, as in
  // the judge: 9 of at most 100 is 9% but not yet evidence.
  t.equal(watch.settle(figures({ above: [9], mostEnded: 100 })), null)
  t.match(watch.settle(figures({ above: [10], mostEnded: 100 })), /^10 responses above 50 ms/)
  t.equal(watch.settle(figures({ above: [5000], mostEnded: Infinity })), null, 'no bound (no rate plan): never settled')

  const two = createEarlyVerdict(['p50 < 10ms', 'p99.9 <= 200ms'])
  t.same(two.limitsMs, [10, 200])
  t.match(two.settle(figures({ above: [20001, 0] })), /p50 < 10 ms can no longer hold$/)
  t.equal(two.settle(figures({ above: [20000, 40] })), null, '40 of 40,000 is 0.1%: not more')
  t.match(two.settle(figures({ above: [0, 41] })), /^41 responses above 200 ms, more than 0\.1% .*: p99\.9 <= 200 ms can no longer hold$/)
  t.equal(createEarlyVerdict(['p99 < 50ms'], { minTailSamples: 3 }).settle(figures({ above: [3], mostEnded: 100 })),
    '3 responses above 50 ms, more than 1% of the most it can end (100): p99 < 50 ms can no longer hold')
})

t.test('max latency: one response beyond it settles', async (t) => {
  const watch = createEarlyVerdict(['max < 1s'])
  t.same(watch.limitsMs, [1000])
  t.equal(watch.settle(figures({ above: [0] })), null)
  t.equal(watch.settle(figures({ above: [1] })), '1 responses above 1,000 ms: max < 1,000 ms can no longer hold')
})

t.test('errors and 5xx: the implied bounds, and the user\'s own in their place', async (t) => {
  const implied = createEarlyVerdict(['p99 < 50ms'])
  t.equal(implied.settle(figures({ errors: 400 })), null, '1% of the most: not yet more than errors<1% allows')
  t.match(implied.settle(figures({ errors: 401 })), /^401 errors, 1% or more of the most it can end \(40,000\): errors < 1% can no longer hold$/)
  t.equal(implied.settle(figures({ serverErrors: 400 })), null)
  t.match(implied.settle(figures({ serverErrors: 401 })), /^401 5xx of the most it can end \(40,000\): 5xx < 1% can no longer hold$/)

  const own = createEarlyVerdict(['p99 < 50ms', 'errors < 5%', 'non2xx < 20'])
  t.equal(own.settle(figures({ errors: 1000 })), null, 'errors<5% replaces the implied 1%')
  t.match(own.settle(figures({ errors: 2001 })), /errors < 5% can no longer hold$/)
  t.equal(own.settle(figures({ serverErrors: 5000, non2xx: 19 })), null, 'a non2xx SLO replaces the implied 5xx bound')
  t.equal(own.settle(figures({ non2xx: 20 })), '20 non2xx: non2xx < 20 can no longer hold', 'a count: reached is broken under <')
  const orEqual = createEarlyVerdict(['timeouts <= 20'])
  t.equal(orEqual.settle(figures({ timeouts: 20 })), null, '<= allows the limit itself')
  t.equal(orEqual.settle(figures({ timeouts: 21 })), '21 timeouts: timeouts <= 20 can no longer hold')
})

t.test('what can fall or rise back is not watched: lower bounds, averages, rates, the generator', async (t) => {
  const watch = createEarlyVerdict(['p99 > 1ms', 'avg < 10ms', 'rps > 5000', 'generator.late < 1%', 'errors > 0'])
  t.same(watch.limitsMs, [], 'no latency bound to count above')
  t.equal(watch.settle(figures({ above: [], responses: 0, mostEnded: 10 })), null)
  t.match(watch.settle(figures({ above: [], serverErrors: 100, mostEnded: 1000 })), /5xx < 1%/, 'only the implied 5xx bound is left')
})

t.test('workers: their figures are summed; one missing is no bound', async (t) => {
  const watch = createEarlyVerdict(['p99 < 50ms'])
  const half = figures({ above: [201], mostEnded: 20000 })
  t.equal(watch.settle([half, half, figures({ above: [0], mostEnded: 200 })]), null, '402 of at most 40,200: 1% is 402, not more')
  t.match(watch.settle([half, half]), /^402 responses above 50 ms, more than 1% of the most it can end \(40,000\)/)
  t.equal(watch.settle([half, null]), null)
  t.equal(watch.settle(null), null, 'no answer at all')
})

// The promise: a failure settled on part of a window is the whole window's
// verdict, whatever the rest of it is, as long as it ends no more requests
// than the bound. The rest is made as kind as it can be: fast responses.
t.test('a settled failure is the judge\'s verdict on the whole window, however kind the rest', async (t) => {
  const random = seededRandom(11)
  let checked = 0
  for (let round = 0; round < 300; round++) {
    const percentile = [50, 90, 99, 99.9][round % 4]
    const limit = 20 + Math.floor(random() * 60)
    const slo = `p${percentile} < ${limit}ms`
    const watch = createEarlyVerdict([slo])
    const total = 1000 + Math.floor(random() * 20000)
    const seen = Math.floor(total * (0.05 + random() * 0.5))
    const slowShare = random() * 0.2
    const h = createLatencyHistogram()
    for (let i = 0; i < seen; i++) h.recordValue(random() < slowShare ? (limit + 1 + random() * 100) * 1000 : Math.floor(random() * limit * 1000))
    const settled = watch.settle(figures({ above: [countAbove(h, limit)], responses: seen, mostEnded: total }))
    if (settled === null) continue
    checked++
    // The rest of the window: every response 1 µs.
    for (let i = seen; i < total; i++) h.recordValue(1)
    const [e] = evaluateThresholds([parseThreshold(slo)], { latency: {}, requests: { total } }, h)
    t.equal(e.ok, false, `${slo}: settled after ${seen} of ${total}, and the full window fails (${e.value} ms)`)
  }
  t.ok(checked > 30, `${checked} settled windows checked`)
})
