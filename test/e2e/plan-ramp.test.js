'use strict'

// Load stages (lib/engine/plan.js) end to end: the arrivals a real server
// sees follow the planned ramp, and the run lasts the stages. The plan's
// arithmetic and the option: test/engine/plan.test.js.

const t = require('tap')
const autocannon = require('../..')
const { createStagePlan } = require('../../lib/engine/plan')
const { childServer } = require('../helpers/servers')

const STAGES = [{ duration: 1.5, rate: 600 }, { duration: 1.5, rate: 1200 }, { duration: 1, rate: 300 }]

async function ramp (t) {
  const server = await childServer(t, 'stall-server.js')
  const result = await autocannon({ url: server.url, connections: 20, stages: STAGES })
  const { arrivals } = await server.ask({ report: true })
  const plan = createStagePlan(STAGES, 0)
  // The plan's clock starts with the first request sent.
  const t0 = arrivals[0]
  const off = []
  for (let from = 1000; from + 100 <= plan.totalMs - 100; from += 100) {
    const expected = plan.countBetween(from, from + 100)
    const got = arrivals.filter((a) => a - t0 >= from && a - t0 < from + 100).length
    if (Math.abs(got - expected) > expected * 0.2) off.push(`${from} ms: ${got} of ${expected.toFixed(1)}`)
  }
  return { result, arrivals, plan, off }
}

t.test('arrivals follow the planned ramp', async (t) => {
  let m = await ramp(t)
  if (m.off.length > 3) {
    // A test process descheduled on a shared machine catches up with a
    // burst; once more before calling it a fault of the plan.
    t.comment(`busy machine? ${m.off.length} windows off plan; running again`)
    m = await ramp(t)
  }
  const { result, arrivals, plan, off } = m
  t.ok(off.length <= 3, `100 ms windows within 20% of plan after the first second, but for at most 3 of 28 (off: ${off.join('; ') || 'none'})`)
  t.equal(result.duration >= 3.9 && result.duration < 5, true, `the run lasts the stages (${result.duration} s)`)
  const planned = plan.countAt(plan.totalMs)
  t.ok(Math.abs(arrivals.length - planned) <= planned * 0.03, `${arrivals.length} requests of ${planned} planned`)
  t.ok(result.rate && Math.abs(result.rate.target - planned / 4) < 1, `target rate is the plan's mean (${result.rate.target})`)
  const s = result.series.requests
  t.ok(s[1] > s[0] && s[2] > s[1], `the per-second series shows the ramp (${s.join(', ')})`)
})
