'use strict'

// Poisson arrivals (--arrivals poisson, --seed): the seeded gaps are
// exponential and independent, the same seed replays the same send times,
// parts of a run (connections, workers, shards) draw their own, and stages
// rescale them. A real server seeing the planned times:
// test/e2e/arrivals-real-server.test.js.

const t = require('tap')
const { performance } = require('perf_hooks')
const { PoissonArrivals } = require('../../lib/engine/arrivals')
const { createScheduler } = require('../../lib/engine/scheduler')
const { createStagePlan } = require('../../lib/engine/plan')
const { streamSeed, seededRandom } = require('../../lib/core/random')
const { buildConfig } = require('../../lib/config/config')
const { ksExponential, ksCritical } = require('../helpers/ks')
const { run } = require('../helpers/cli')

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

t.test('the KS helper: exact quantiles pass, other laws fail', async (t) => {
  const n = 10000
  const quantiles = Array.from({ length: n }, (_, i) => -Math.log(1 - (i + 0.5) / n))
  t.ok(ksExponential(quantiles, 1) <= 1 / n, 'exponential quantiles are at D <= 1/n')
  const crit = ksCritical(n, ALPHA)
  t.ok(ksExponential(new Array(n).fill(1), 1) > 10 * crit, 'even gaps are far from exponential')
  const random = seededRandom(3)
  const uniform = Array.from({ length: n }, () => 2 * random())
  t.ok(ksExponential(uniform, 1) > 3 * crit, `uniform gaps with mean 1 are rejected (D ${ksExponential(uniform, 1).toFixed(3)} vs ${crit.toFixed(3)})`)
  t.ok(ksExponential(quantiles, 1.1) > crit, 'a 10% wrong mean is rejected')
})

t.test('the gaps are exponential with mean 1, and independent', async (t) => {
  const n = 20000
  for (const seed of [0, 1, 42, 0xffffffff]) {
    const times = unitTimes(seed, n + 1)
    const gaps = gapsOf(times)
    gaps.unshift(times[0])
    const d = ksExponential(gaps, 1)
    t.ok(d < ksCritical(gaps.length, ALPHA), `seed ${seed}: KS D ${d.toFixed(4)} < ${ksCritical(gaps.length, ALPHA).toFixed(4)}`)
    const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length
    t.ok(Math.abs(mean - 1) < 4 / Math.sqrt(gaps.length), `seed ${seed}: mean gap ${mean.toFixed(4)}`)
    // Lag-1 correlation of the gaps: about 0 (± 4 standard errors).
    let num = 0
    let den = 0
    for (let i = 0; i < gaps.length; i++) {
      den += (gaps[i] - mean) ** 2
      if (i > 0) num += (gaps[i] - mean) * (gaps[i - 1] - mean)
    }
    t.ok(Math.abs(num / den) < 4 / Math.sqrt(gaps.length), `seed ${seed}: lag-1 correlation ${(num / den).toFixed(4)}`)
  }
})

t.test('the same seed gives the same times; another seed, others', async (t) => {
  t.same(unitTimes(7, 1000), unitTimes(7, 1000))
  const a = unitTimes(7, 100)
  const b = unitTimes(8, 100)
  t.ok(a.every((x, i) => x !== b[i]), 'seeds 7 and 8 share no time')
  // Asked again (the scheduler looks at the next due request twice).
  const s = new PoissonArrivals(7)
  t.equal(s.at(5), a[5])
  t.equal(s.at(5), a[5])
  t.equal(s.at(3), a[3], 'a few back is still known')
  s.at(500)
  t.throws(() => s.at(3), /only moves forward/, 'far back is a bug, said so')
  // restart: a new plan from 0, with fresh draws (a search's next step).
  const r = new PoissonArrivals(7)
  for (let i = 0; i < 10; i++) r.at(i)
  r.restart()
  t.ok(r.at(0) !== a[0] && r.at(0) > 0 && r.at(0) < 20, `the first gap after restart is a new one (${r.at(0)})`)
})

t.test('stream seeds: each part of a run draws its own gaps', async (t) => {
  const seeds = new Set()
  for (let shard = 0; shard < 4; shard++) {
    for (let worker = 0; worker < 4; worker++) {
      for (let k = 0; k < 16; k++) seeds.add(streamSeed(42, shard, worker, k))
    }
  }
  t.equal(seeds.size, 256, 'no two parts share a seed')
  t.equal(streamSeed(42, 0, 1, 2), streamSeed(42, 0, 1, 2), 'a part\'s seed replays')
  t.not(streamSeed(42, 1, 0, 0), streamSeed(42, 0, 1, 0), 'shard 1 worker 0 is not shard 0 worker 1')
})

function plannedTimes (config, clientIndex, n) {
  const scheduler = createScheduler({ connections: 1, pipelining: 1, shardIndex: 0, workerIndex: 0, ...config })
  const client = { index: clientIndex }
  const times = []
  for (let i = 0; i < n; i++) times.push(scheduler.timeOf(client, i))
  return times
}

t.test('the scheduler: -R plans one Poisson stream, -r one per connection', async (t) => {
  const overall = plannedTimes({ overallRate: 500, arrivals: 'poisson', seed: 9 }, 0, 5001)
  const gaps = gapsOf(overall)
  t.ok(ksExponential(gaps, 2) < ksCritical(gaps.length, ALPHA), '-R 500: exponential gaps of mean 2 ms')
  const again = plannedTimes({ overallRate: 500, arrivals: 'poisson', seed: 9 }, 0, 5001)
  t.same(again, overall, 'the same seed, the same send times')

  // -r 100 on 4 connections: 4 independent streams, together a Poisson
  // process at 400 req/s.
  const config = { connectionRate: 100, connections: 4, arrivals: 'poisson', seed: 9 }
  const perConnection = [0, 1, 2, 3].map((k) => plannedTimes(config, k, 2000))
  t.ok(perConnection[0].slice(0, 10).every((x, i) => x !== perConnection[1][i]), 'connections do not send in lockstep')
  const all = perConnection.flat().sort((a, b) => a - b).filter((x) => x < 15000)
  const allGaps = gapsOf(all)
  t.ok(ksExponential(allGaps, 2.5) < ksCritical(allGaps.length, ALPHA), 'merged: exponential gaps of mean 2.5 ms')

  // Uniform stays as it was: evenly spaced, connections staggered.
  t.same(plannedTimes({ overallRate: 500 }, 0, 4), [0, 2, 4, 6])
  t.same(plannedTimes({ connectionRate: 100, connections: 4 }, 1, 2), [2.5, 12.5])

  // Workers and shards: other streams from the same seed.
  const worker1 = plannedTimes({ overallRate: 500, arrivals: 'poisson', seed: 9, workerIndex: 1 }, 0, 10)
  const shard1 = plannedTimes({ overallRate: 500, arrivals: 'poisson', seed: 9, shardIndex: 1 }, 0, 10)
  t.ok(worker1.every((x, i) => x !== overall[i] && x !== shard1[i]), 'worker 1 and shard 1 draw their own')
})

t.test('stages rescale the Poisson stream: counts follow the ramp', async (t) => {
  const stages = [{ duration: 10, rate: 1000 }, { duration: 5, rate: 1000 }, { duration: 5, rate: 0 }]
  const times = []
  const scheduler = createScheduler({ connections: 1, pipelining: 1, shardIndex: 0, workerIndex: 0, overallRate: 0, stages, arrivals: 'poisson', seed: 5 })
  for (let i = 0; ; i++) {
    const at = scheduler.timeOf({ index: 0 }, i)
    if (at === Infinity) break
    times.push(at)
  }
  const plan = createStagePlan(stages, 0)
  const planned = plan.countAt(plan.totalMs)
  t.ok(Math.abs(times.length - planned) < 4 * Math.sqrt(planned), `${times.length} arrivals for ${planned} planned`)
  for (let s = 0; s < 20; s++) {
    const expected = plan.countBetween(s * 1000, (s + 1) * 1000)
    const seen = times.filter((x) => x >= s * 1000 && x < (s + 1) * 1000).length
    t.ok(Math.abs(seen - expected) <= 4 * Math.sqrt(expected) + 2, `second ${s}: ${seen} arrivals, ${expected.toFixed(0)} planned`)
  }
})

t.test('setRate starts the Poisson plan over at the new rate', async (t) => {
  const scheduler = createScheduler({ connections: 1, pipelining: 1, shardIndex: 0, workerIndex: 0, overallRate: 100, arrivals: 'poisson', seed: 5 })
  scheduler.setRate(1000)
  scheduler.stop()
  const client = { index: 0 }
  const times = []
  for (let i = 0; i < 5001; i++) times.push(scheduler.timeOf(client, i) - scheduler.t0)
  const gaps = gapsOf(times)
  t.ok(ksExponential(gaps, 1) < ksCritical(gaps.length, ALPHA), 'exponential gaps of mean 1 ms')
  t.ok(times[0] > 0 && times[0] < 20, `the first request one gap after the step starts (${times[0].toFixed(3)} ms)`)
})

t.test('dueBy: the requests a plan has made due, as drawn', async (t) => {
  const base = { pipelining: 1, shardIndex: 0, workerIndex: 0 }
  const at = (scheduler, ms) => { scheduler.t0 = 1000; return scheduler.dueBy(1000 + ms) }
  t.equal(at(createScheduler({ ...base, connections: 1, overallRate: 1000 }), 10.5), 11, 'uniform: requests 0…10 by 10.5 ms')
  // -r 100 on 4 connections: connection k's request i at (i + k/4)·10 ms.
  t.equal(at(createScheduler({ ...base, connections: 4, connectionRate: 100 }), 12.5), 2 + 2 + 1 + 1)
  const stages = [{ duration: 2, rate: 100 }]
  t.equal(at(createScheduler({ ...base, connections: 1, overallRate: 0, stages }), 1000), 26, 'a ramp: requests 0…25 by 1 s (25 planned)')
  t.equal(at(createScheduler({ ...base, connections: 1, overallRate: 0, stages }), 9000), 100, 'nothing after the plan ends')

  const poisson = createScheduler({ ...base, connections: 1, overallRate: 1000, arrivals: 'poisson', seed: 3 })
  const times = plannedTimes({ overallRate: 1000, arrivals: 'poisson', seed: 3 }, 0, 3000)
  poisson.t0 = 1000
  for (const ms of [0.5, 10, 250, 2000]) {
    t.equal(poisson.dueBy(1000 + ms), times.filter((x) => x <= ms).length, `Poisson: the drawn times up to ${ms} ms`)
  }
  // Taking requests (the sends) and counting them due draw the same times.
  const client = { index: 0 }
  t.equal(poisson.timeOf(client, 1500) - 1000, times[1500], 'a backlog counted ahead is still handed out in order')

  const perConnection = createScheduler({ ...base, connections: 3, connectionRate: 100, arrivals: 'poisson', seed: 3 })
  const streams = [0, 1, 2].map((k) => plannedTimes({ connections: 3, connectionRate: 100, arrivals: 'poisson', seed: 3 }, k, 200))
  t.equal(at(perConnection, 500), streams.flat().filter((x) => x <= 500).length, 'per connection: all streams counted')

  // A search: a paused plan counts nothing more; a new one adds to the total.
  const stepped = createScheduler({ ...base, connections: 1, overallRate: 1000 })
  stepped.t0 = performance.now() - 100
  stepped.pause()
  const frozen = stepped.dueBy(performance.now())
  t.ok(frozen >= 101 && frozen <= 110, `paused after ~100 ms: ${frozen} due`)
  t.equal(stepped.dueBy(performance.now() + 1000), frozen, 'nothing is due while paused')
  stepped.setRate(10)
  // (Half an interval past 1 s: t0 + 1000 - t0 is not always 1000 in
  // floating point, and 1 s is the 11th request's boundary.)
  t.equal(stepped.dueBy(stepped.t0 + 1050), frozen + 11, 'the next plan adds its own')
  stepped.stop()
})

t.test('options: arrivals and seed, checked in both doors', async (t) => {
  const url = 'http://127.0.0.1:1'
  const plain = buildConfig({ url, overallRate: 10 })
  t.equal(plain.arrivals, 'uniform', 'uniform by default')
  t.ok(Number.isInteger(plain.seed) && plain.seed >= 0 && plain.seed <= 0xffffffff, `a seed is chosen when none is given (${plain.seed})`)
  t.equal(buildConfig({ url, overallRate: 10, arrivals: 'poisson', seed: '42' }).seed, 42, 'a seed as the CLI hands it')
  t.throws(() => buildConfig({ url, overallRate: 10, arrivals: 'exponential' }), /arrivals.*must be uniform or poisson/)
  t.throws(() => buildConfig({ url, arrivals: 'poisson' }), /arrivals.*overallRate \(-R\), connectionRate \(-r\) or stages/)
  for (const seed of [-1, 1.5, 2 ** 32, 'x']) {
    t.throws(() => buildConfig({ url, overallRate: 10, seed }), { code: 'AC_INVALID_OPTION', message: /seed.*integer from 0 to 4294967295/ }, `seed ${seed}`)
  }

  const bad = await run(['--arrivals', 'bursty', '-R', '10', '-d', '1', url])
  t.equal(bad.code, 1)
  t.equal(bad.stderr.trim(), 'Error: Invalid value for --arrivals: "bursty" must be uniform or poisson', 'one line naming the flag')
  const noRate = await run(['--arrivals', 'poisson', '-d', '1', url])
  t.equal(noRate.code, 1)
  t.match(noRate.stderr.trim(), /^Error: Invalid value for --arrivals: "poisson" spaces the sends of a rate: give overallRate \(-R\)/)
  t.equal(noRate.stderr.trim().split('\n').length, 1)
})
