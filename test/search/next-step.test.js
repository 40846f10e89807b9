'use strict'

// The capacity search's choice of each step's rate and length, on hand-made
// steps and options: every figure below is worked out from the rule, not
// read back from the code.

const t = require('tap')
const {
  plannedRequests, durationFor, rerunCap, samplesRerunDuration,
  firstUpper, grownUpper, boundOf, converged, bisection, trustedBelow
} = require('../../lib/search/next-step')

// A recorded step as the search keeps it: { step, judgement, verdict }.
// `achieved`: what the server delivered, as the judge's failed check.
function entry (rate, verdict, { kind = 'bisect', achieved, settled, duration } = {}) {
  const checks = achieved === undefined ? [] : [{ kind: 'achieved', value: achieved, ok: false }]
  return { step: { rate, kind }, verdict, judgement: { verdict, checks, settled, values: { duration } } }
}

const POLICY = { precision: 0.02, nearGuess: 0.9, nearClose: 0.95, nearGuesses: 4 }

t.test('a step plans for at least 200 requests, more when its tail needs them', async (t) => {
  t.equal(plannedRequests(0), 200)
  t.equal(plannedRequests(199), 200)
  t.equal(plannedRequests(1000), 1000, 'p99 with 10 tail samples')
})

t.test('a step lasts its base length, longer for its samples, up to the cap', async (t) => {
  t.equal(durationFor(1000, 5, 200, 60), 5, '220 requests take 0.22 s at 1,000 req/s: the base')
  t.equal(durationFor(20, 5, 1000, 60), 55, '1,100 requests at 20 req/s')
  t.equal(durationFor(10, 5, 1000, 60), 60, '110 s wanted, capped at maxStepDuration')
  t.equal(durationFor(10, 90, 1000, 60), 90, 'a base above the cap is the cap')
})

t.test('a rerun is capped at maxStepDuration, a confirmation at its own length if longer', async (t) => {
  const cfg = { maxStepDuration: 60, confirmDuration: 90 }
  t.equal(rerunCap({ kind: 'bisect' }, cfg), 60)
  t.equal(rerunCap({ kind: 'confirm' }, cfg), 90)
  t.equal(rerunCap({ kind: 'confirm' }, { maxStepDuration: 60, confirmDuration: 10 }), 60)
})

t.test('a step short of samples reruns long enough for them at the rate it achieved', async (t) => {
  const step = { rate: 100, duration: 5 }
  // 500 wanted × 1.1 = 550 samples at 250 / 5 s = 50 a second: 11 s.
  t.equal(samplesRerunDuration(step, { needSamples: 500, values: { samples: 250 } }, 100, 60), 11)
  // No samples measured: at the planned 100 a second, 2.2 s, so twice the step.
  t.equal(samplesRerunDuration(step, { needSamples: 200, values: { samples: 0 } }, 100, 60), 10)
  // The judge named no count: the search's own need, 2,000 × 1.1 at 100 a second.
  t.equal(samplesRerunDuration(step, { values: {} }, 2000, 60), 22)
  t.equal(samplesRerunDuration(step, { needSamples: 100000 }, 100, 60), 60, 'capped')
})

t.test('the upper bound starts at the probe\'s ceiling, else one growth above the low rate', async (t) => {
  const cfg = { ceiling: 1000.4, growth: 1.5, maxRate: Infinity }
  t.same(firstUpper(100, cfg), { rate: 1000, isCeiling: true })
  t.same(firstUpper(1200, cfg), { rate: 1800, isCeiling: false }, 'the low rate at or above the ceiling')
  t.same(firstUpper(100, { ...cfg, maxRate: 500 }), { rate: 500, isCeiling: true }, 'never above maxRate')
})

t.test('the upper bound grows by ceilingGrowth past the ceiling, then by growth', async (t) => {
  const cfg = { growth: 1.5, ceilingGrowth: 1.1, maxRate: Infinity }
  t.equal(grownUpper(1000, true, cfg), 1100)
  t.equal(grownUpper(1000, false, cfg), 1500)
  t.equal(grownUpper(4, true, cfg), 5, '4.4 rounds to 4: at least one more')
  t.equal(grownUpper(1000, false, { ...cfg, maxRate: 1200 }), 1200, 'never above maxRate')
})

t.test('a failure bounds the bisection at its rate, or at what the server achieved', async (t) => {
  t.equal(boundOf(entry(3885, 'fail'), 1000), 3885, 'no shortfall')
  t.equal(boundOf(entry(3885, 'fail', { achieved: 3623.7 }), 1000), 3623, 'a shortfall, floored')
  t.equal(boundOf(entry(3885, 'fail', { achieved: 3623.7 }), 3622), 3885, 'a shortfall not above the best pass + 1')
  t.equal(boundOf(entry(3885, 'fail', { achieved: 3623.7 }), 3621), 3623)
  t.equal(boundOf(entry(3885, 'generator-bound', { achieved: 3623.7 }), 1000), 3885, 'the generator\'s shortfall')
  t.equal(boundOf(entry(3885, 'fail', { achieved: 3623.7, settled: true, duration: 0.2 }), 1000), 3885, 'a window stopped under a second in')
  t.equal(boundOf(entry(3885, 'fail', { achieved: 3623.7, settled: true, duration: 1 }), 1000), 3623, 'a window of a second')
})

t.test('the bracket has converged within the precision or 1 req/s', async (t) => {
  t.equal(converged(1000, 1019, 0.02), true)
  t.equal(converged(1000, 1020, 0.02), false, '2% is not under 2%')
  t.equal(converged(10, 11, 0.02), true, '1 req/s apart')
  t.equal(converged(10, 12, 0.02), false)
})

t.test('below a failure far above the best pass, a near guess; else the midpoint', async (t) => {
  const after = { guesses: 0, lastKind: 'upper' }
  t.same(bisection(200, entry(2000, 'fail'), after, POLICY), { rate: 1800, guess: true }, '90% of a rate merely asked for')
  t.same(bisection(200, entry(2000, 'fail', { achieved: 1600 }), after, POLICY), { rate: 1520, guess: true }, '95% of what the server achieved')
  t.same(bisection(200, entry(2000, 'fail', { kind: 'confirm' }), after, POLICY), { rate: 1900, guess: true }, '95% of a failed confirmation')
  t.same(bisection(200, entry(2000, 'fail'), { guesses: 0, lastKind: 'bisect' }, POLICY), { rate: 1100, guess: false }, 'no first guess after a midpoint')
  t.same(bisection(200, entry(2000, 'fail'), { guesses: 3, lastKind: 'bisect' }, POLICY), { rate: 1800, guess: true }, 'guesses go on in a row')
  t.same(bisection(200, entry(2000, 'fail'), { guesses: 4, lastKind: 'bisect' }, POLICY), { rate: 1100, guess: false }, 'up to nearGuesses of them')
  t.same(bisection(1000, entry(2000, 'fail'), after, POLICY), { rate: 1500, guess: false }, 'a bracket of ×2 is bisected')
  t.same(bisection(200, entry(2000, 'fail'), after, { ...POLICY, nearGuess: 0.05 }), { rate: 1100, guess: false }, 'a guess not above the best pass')
  t.equal(bisection(1000, entry(1010, 'fail'), after, POLICY), null, 'converged')
})

t.test('after a failed confirmation, passes are believed below 95% of it or its shortfall', async (t) => {
  t.equal(trustedBelow(entry(1000, 'fail', { kind: 'confirm' }), 0.95), 950)
  t.equal(trustedBelow(entry(1000, 'fail', { kind: 'confirm', achieved: 900.5 }), 0.95), 900)
  t.equal(trustedBelow(entry(1000, 'generator-bound', { kind: 'confirm' }), 0.95), 950)
})
