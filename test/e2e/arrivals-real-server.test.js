'use strict'

// Poisson arrivals (--arrivals poisson, --seed) as a real server sees
// them: the result says how the sends were spaced, each arrival is at its
// seeded time, and the gaps are exponential at -R 50 (even without
// --arrivals). The gaps' law, the seeds and the plan on their own:
// test/engine/arrivals.test.js.

const t = require('tap')
const autocannon = require('../..')
const { PoissonArrivals } = require('../../lib/engine/arrivals')
const { streamSeed } = require('../../lib/core/random')
const { ksExponential, ksCritical } = require('../helpers/ks')
const { childServer, httpServer } = require('../helpers/servers')
const { run } = require('../helpers/cli')
const { pauseEnv } = require('../helpers/pause-injector')
const { ownPauseFailures, starvedMs, loadedReason } = require('../helpers/truth-guards')

const ALPHA = 0.001

function gapsOf (times) {
  const gaps = []
  for (let i = 1; i < times.length; i++) gaps.push(times[i] - times[i - 1])
  return gaps
}

function unitTimes (seed, n) {
  const a = new PoissonArrivals(seed)
  const times = []
  for (let i = 0; i < n; i++) times.push(a.at(i))
  return times
}

t.test('the result says how the sends were spaced, and the seed that replays them', async (t) => {
  const url = await httpServer(t)
  const poisson = await autocannon({ url, connections: 2, overallRate: 200, duration: 1, arrivals: 'poisson', seed: 77 })
  t.equal(poisson.rate.arrivals, 'poisson')
  t.equal(poisson.rate.seed, 77)
  t.ok(Math.abs(poisson.requests.sent - 200) < 4 * Math.sqrt(200), `about 200 requests sent (${poisson.requests.sent})`)
  const uniform = await autocannon({ url, connections: 2, overallRate: 200, duration: 1 })
  t.equal(uniform.rate.arrivals, 'uniform')
  t.equal(uniform.rate.seed, undefined, 'no seed where nothing was random')
})

// Request k's planned time, relative to the plan's start, as the run's
// scheduler draws it (one shared stream: no workers, no shards).
function planFor (seed, intervalMs, n) {
  return unitTimes(streamSeed(seed, 0, 0, 0), n).map((x) => x * intervalMs)
}

// Sorted arrivals against the sorted plan, after the constant offset of
// the plan's start and the network: how far each arrival strays.
function strays (arrivals, plan) {
  const n = Math.min(arrivals.length, plan.length)
  const diffs = []
  for (let i = 0; i < n; i++) diffs.push(arrivals[i] - plan[i])
  const offset = [...diffs].sort((a, b) => a - b)[Math.floor(n / 100)]
  return diffs.map((d) => Math.abs(d - offset))
}

// A fresh CLI at -R 500 with seeded Poisson gaps, and what the server saw.
async function seededRun (t, extraEnv) {
  const server = await childServer(t, 'stall-server.js')
  const res = await run(['-c', '10', '-R', '500', '-d', '4', '--arrivals', 'poisson', '--seed', '42', '-j', server.url], { extraEnv, bare: true })
  t.equal(res.code, 0, res.stderr)
  const result = JSON.parse(res.stdout)
  const { arrivals, loopDelayMax } = await server.ask({ report: true })
  return { result, sorted: [...arrivals].sort((a, b) => a - b), server: loopDelayMax }
}

// The guard: every arrival within what the machine's pauses of the
// generator and the server's own pauses explain of its seeded time; a
// request that leaves late by a pause of ours is a failure, however the
// machine was loaded (and our own pauses are held small).
function seededFailures ({ result, sorted, server }) {
  const failures = ownPauseFailures(result)
  if (loadedReason(result)) return failures
  const off = strays(sorted, planFor(42, 2, sorted.length + 10))
  const allowed = starvedMs(result) + server + 3
  const worst = Math.max(...off)
  if (worst > allowed) failures.push(`an arrival ${worst.toFixed(1)} ms off its planned time, more than the ${allowed.toFixed(1)} ms the machine's pauses of the generator (${result.generator.pauses.starved.max} ms) and the server's (${server.toFixed(1)} ms) explain`)
  return failures
}

t.test('a real server sees the seeded Poisson times (fresh CLI, -R 500)', async (t) => {
  const m = await seededRun(t)
  const { result, sorted } = m
  t.equal(result.rate.arrivals, 'poisson')
  t.equal(result.rate.seed, 42)
  t.same(seededFailures(m), [], 'every arrival at its seeded time, give or take the pauses the generator did not make')
  const loaded = loadedReason(result)
  // When the arrivals were held up, they cannot tell when the plan began.
  if (loaded) return t.skip(`when each request arrived, and the count planned from it: ${loaded}`)
  // rate.planned is the seeded count from the plan's start to the run's
  // end. The plan starts when the first connection is armed, after the
  // run's clock does: the server's arrivals tell when (the earliest of
  // arrival k minus seeded time k is at or after it, and the first requests
  // leave on time).
  const seeded = planFor(42, 2, 3000)
  const upTo = (ms) => seeded.filter((at) => at <= ms).length
  const planStart = Math.min(...sorted.slice(0, 100).map((a, k) => a - seeded[k]))
  const finish = new Date(result.finish).getTime()
  const [low, high] = [upTo(finish - planStart - 1) - 1, upTo(result.duration * 1000) + 2]
  t.ok(result.rate.planned >= low && result.rate.planned <= high, `rate.planned ${result.rate.planned}: the seeded times from the plan's start (${(planStart - new Date(result.start).getTime()).toFixed(1)} ms into the run) to its end (${low} to ${high})`)
  t.ok(Math.abs(sorted.length - 2000) < 4 * Math.sqrt(2000) + 20, `${sorted.length} requests for 2000 planned`)
  // The comparison can tell: against another seed's plan the arrivals
  // stray by far more.
  const other = strays(sorted, planFor(43, 2, sorted.length + 10))
  t.ok(Math.max(...other) > 20, `another seed's plan is ${Math.max(...other).toFixed(0)} ms off`)
})

t.test('mutation: the seeded-times guard reports a 19 ms pause of ours at the first sample and tick', async (t) => {
  const failures = seededFailures(await seededRun(t, pauseEnv(19)))
  t.ok(failures.length > 0, `reported: ${failures.join('; ')}`)
})

// The gaps a server sees, against the exponential law. Node's timers wake
// at 1 ms granularity, so sends due within the same millisecond leave
// together: at -R 500 (2 ms mean gap) that alone moves the gaps' CDF by
// about 0.2 (the test above holds each arrival to its seeded time
// instead). At -R 50 the millisecond is small beside the 20 ms mean gap.
async function serverGaps (t, args) {
  const server = await childServer(t, 'stall-server.js')
  const res = await run(['-c', '10', '-R', '50', '-d', '4', ...args, '-j', server.url])
  t.equal(res.code, 0, res.stderr)
  const { arrivals } = await server.ask({ report: true })
  return gapsOf([...arrivals].sort((a, b) => a - b))
}

t.test('a real server sees exponential gaps at -R 50 (KS), and even ones without --arrivals', async (t) => {
  const poisson = await serverGaps(t, ['--arrivals', 'poisson', '--seed', '7'])
  const d = ksExponential(poisson, 20)
  t.ok(d < ksCritical(poisson.length, ALPHA), `Poisson: KS D ${d.toFixed(3)} < ${ksCritical(poisson.length, ALPHA).toFixed(3)} over ${poisson.length} gaps`)
  const uniform = await serverGaps(t, [])
  const du = ksExponential(uniform, 20)
  t.ok(du > 3 * ksCritical(uniform.length, ALPHA), `uniform: KS D ${du.toFixed(3)}, far from exponential`)
})
