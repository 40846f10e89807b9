'use strict'

// Load stages: the plan's arithmetic and the option in both doors. The
// arrivals a real server sees following the planned ramp:
// test/e2e/plan-ramp.test.js.

const t = require('tap')
const { createStagePlan } = require('../../lib/engine/plan')
const { parseCli } = require('../../lib/cli/args')

t.test('the plan: request i is due when the planned count reaches i', async (t) => {
  const plan = createStagePlan([{ duration: 2, rate: 100 }, { duration: 1, rate: 100 }, { duration: 2, rate: 0 }])
  // 0 → 100 req/s over 2 s plans 100 requests; 100 for 1 s, 100; down to 0 over 2 s, 100.
  t.equal(plan.countAt(plan.totalMs), 300)
  t.equal(plan.totalMs, 5000)
  t.equal(plan.offsetOf(0), 0)
  // On the ramp up the rate is 50·τ req/s, so count(τ) = 25·τ² (τ in s):
  // request 25 at 1 s, 100 at 2 s.
  t.ok(Math.abs(plan.offsetOf(25) - 1000) < 1e-6, `${plan.offsetOf(25)}`)
  t.ok(Math.abs(plan.offsetOf(100) - 2000) < 1e-6)
  t.ok(Math.abs(plan.offsetOf(150) - 2500) < 1e-6, 'the flat stage: 10 ms apart')
  // Ramp down from 100 to 0 over 2 s: count(τ) = 100τ − 25τ²; 75 requests at 1 s.
  t.ok(Math.abs(plan.offsetOf(200 + 75) - 4000) < 1e-6, `${plan.offsetOf(275)}`)
  t.equal(plan.offsetOf(300), Infinity, 'nothing after the plan')
  t.equal(plan.offsetOf(10), plan.offsetOf(10), 'the same answer asked again (after a give-back)')
  // Due times only move forward.
  let last = -1
  for (let i = 0; i < 300; i++) {
    const at = plan.offsetOf(i)
    t.ok(at >= last, `request ${i} after ${i - 1}`)
    last = at
  }
  t.equal(plan.countBetween(1000, 2000), 100 - 25, 'count(2 s) − count(1 s) on the ramp')
  // Starting from a rate (-R): a flat first stage.
  const flat = createStagePlan([{ duration: 1, rate: 200 }], 200)
  t.ok(Math.abs(flat.offsetOf(100) - 500) < 1e-9)
  // Rate-0 stages in the middle plan nothing, and the next stage starts from 0.
  const gap = createStagePlan([{ duration: 1, rate: 0 }, { duration: 1, rate: 0 }, { duration: 1, rate: 100 }], 0)
  t.equal(gap.countAt(gap.totalMs), 50)
  t.ok(gap.offsetOf(0) >= 2000, 'the first request waits for the ramp')
})

t.test('the option: both doors, and what it refuses', async (t) => {
  const opts = parseCli(['--stages', '30s:100, 2m:5000 ,30s:0', 'http://127.0.0.1:1'])
  t.equal(opts.stages, '30s:100, 2m:5000 ,30s:0', 'the CLI hands the text to the library')
  const { buildConfig } = require('../../lib/config/config')
  const config = buildConfig({ url: 'http://127.0.0.1:1', stages: opts.stages })
  t.same(config.stages, [{ duration: 30, rate: 100 }, { duration: 120, rate: 5000 }, { duration: 30, rate: 0 }])
  t.equal(config.duration, 180, 'the stages are the run\'s length')
  t.same(buildConfig({ url: 'http://x', stages: [{ duration: '1s', rate: 5 }] }).stages, [{ duration: 1, rate: 5 }])
  for (const bad of ['30s', '30s:', 'x:100', '30s:-1', '30s:fast', '1s:0,2s:0', '1s:1:1', [], [{ duration: 0, rate: 1 }], [{ rate: 5 }], 5]) {
    t.throws(() => buildConfig({ url: 'http://x', stages: bad }), { code: 'AC_INVALID_OPTION', option: 'stages' }, `refused: ${JSON.stringify(bad)}`)
  }
  t.throws(() => buildConfig({ url: 'http://x', stages: '1s:5', connectionRate: 5 }), { code: 'AC_CONFLICTING_OPTIONS' })
  t.throws(() => buildConfig({ url: 'http://x', stages: '1s:5', amount: 5 }), { code: 'AC_CONFLICTING_OPTIONS' })
})
