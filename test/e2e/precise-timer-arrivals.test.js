'use strict'

// What the precise timer (lib/engine/precise-timer.js) is for: Poisson
// arrivals a real server sees as exponential gaps at -R 500 and -R 1000,
// where most gaps are under Node's 1 ms timer granularity. The timer on
// its own: test/engine/precise-timer.test.js.

const t = require('tap')
const { PoissonArrivals } = require('../../lib/engine/arrivals')
const { streamSeed } = require('../../lib/core/random')
const { ksExponential, ksCritical } = require('../helpers/ks')
const { childServer } = require('../helpers/servers')
const { run } = require('../helpers/cli')

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
