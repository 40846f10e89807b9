'use strict'

// The precise timer (lib/engine/precise-timer.js) on the real clock: it
// fires never before its time and mostly well within a millisecond of it,
// and what it is for, Poisson arrivals a real server sees as exponential
// gaps at -R 500 and -R 1000, where most gaps are under Node's 1 ms timer
// granularity. The timer's logic: test/engine/precise-timer.test.js.

const t = require('tap')
const { performance } = require('perf_hooks')
const { PreciseTimer } = require('../../lib/engine/precise-timer')
const { PoissonArrivals } = require('../../lib/engine/arrivals')
const { streamSeed } = require('../../lib/core/random')
const { ksExponential, ksCritical } = require('../helpers/ks')
const { childServer } = require('../helpers/servers')
const { run } = require('../helpers/cli')

function fireAt (timer, at) {
  return new Promise((resolve) => {
    timer.onFire = () => resolve(performance.now() - at)
    timer.arm(at)
  })
}

// Until its helper thread says it runs, the timer leans on its fallback.
function helped (timer) {
  return new Promise((resolve) => {
    const poll = () => timer.helped ? resolve() : setTimeout(poll, 5)
    poll()
  })
}

t.test('fires once, never before its time, and mostly well within a millisecond of it', async (t) => {
  const timer = new PreciseTimer(() => {})
  t.teardown(() => timer.close())
  await helped(timer)
  const late = []
  for (let i = 0; i < 200; i++) late.push(await fireAt(timer, performance.now() + 0.1 + (i % 10) * 0.13))
  t.ok(late.every((x) => x >= 0), `never early (earliest ${Math.min(...late).toFixed(3)} ms after its time)`)
  late.sort((a, b) => a - b)
  const median = late[100]
  // Node's timers could not do better than the next millisecond tick:
  // their median lateness here would be about half a millisecond.
  if (median > 0.5 && late[20] > 0.3) return t.skip(`the machine delayed even the fastest fifth of wake-ups by ${late[20].toFixed(2)} ms`)
  t.ok(median < 0.5, `median lateness ${median.toFixed(3)} ms`)
})

// The arrival times a raw server records (its own process), sorted: the
// gaps between them, and the stray of each from its seeded plan.
async function serverArrivals (t, rate, seconds) {
  const server = await childServer(t, 'stall-server.js')
  const res = await run(['-c', '10', '-R', String(rate), '-d', String(seconds), '--arrivals', 'poisson', '--seed', '42', '-j', server.url])
  t.equal(res.code, 0, res.stderr)
  const result = JSON.parse(res.stdout)
  const { arrivals, loopDelayMax } = await server.ask({ report: true })
  const sorted = [...arrivals].sort((a, b) => a - b)
  const gaps = []
  for (let i = 1; i < sorted.length; i++) gaps.push(sorted[i] - sorted[i - 1])
  return { result, gaps, serverLoopMax: loopDelayMax }
}

// The 1% level the issue holds the gaps to; n >= 1,500 at each rate.
const ALPHA = 0.01
for (const [rate, seconds] of [[500, 3.5], [1000, 1.8]]) {
  t.test(`-R ${rate} of Poisson arrivals: the gaps a server sees pass a KS test against the exponential (1%)`, async (t) => {
    const { result, gaps, serverLoopMax } = await serverArrivals(t, rate, seconds)
    t.ok(gaps.length >= 1500, `${gaps.length} gaps`)
    // The seeded plan's own gaps, for reference (a fixed seed: fixed D).
    const plan = new PoissonArrivals(streamSeed(42, 0, 0, 0))
    const planned = []
    for (let i = 0; i <= gaps.length; i++) planned.push(plan.at(i) * 1000 / rate)
    const planGaps = planned.slice(1).map((x, i) => x - planned[i])
    const mean = 1000 / rate
    const d = ksExponential(gaps, mean)
    const critical = ksCritical(gaps.length, ALPHA)
    const loopP99 = result.generator.loopDelay.p99
    const text = `KS D ${d.toFixed(4)} against ${critical.toFixed(4)} over ${gaps.length} gaps (the plan's own: ${ksExponential(planGaps, mean).toFixed(4)}); ` +
      `loop delay p99 ${loopP99} ms, the server's loop held up ${serverLoopMax.toFixed(1)} ms at most`
    // Our loop held up for 1% of the run (on a calm machine its p99 reads
    // 0 ms; beside another test file's processes, 0.5 to 1 ms): sends then
    // bunch whatever releases them.
    if (d >= critical && loopP99 > 0.25) return t.skip(`the machine held the generator's loop up: ${text}`)
    // The server's own pause of a few ms (its arrivals then bunch in its
    // records, not on the wire) may tip a D just over the line; it cannot
    // make one of twice the critical value, as 1 ms timer releases do
    // (D 0.2 to 0.34 at these rates).
    if (d >= critical && d < 2 * critical && serverLoopMax >= 3) return t.skip(`the server's loop was held up while it recorded arrivals: ${text}`)
    t.ok(d < critical, text)
  })
}
