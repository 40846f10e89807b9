'use strict'

// The "arrivals" scenario of `npm run bench`: do the sends of a rate
// reach the server when they were planned? A fresh CLI per run, -c 10,
// against a raw server in its own process that records every arrival
// (test/helpers/stall-server.js). Poisson at -R 500 and -R 1000: the
// Kolmogorov–Smirnov distance of the gaps the server saw to the
// exponential, against the 1% critical value, over blocks of 2,000 gaps in
// a row (the test's size: over a whole 10 s run, 10,000 gaps would
// resolve the sends' tens of microseconds of jitter as well), the worst
// block and the whole run. Even spacing at -R 1000:
// how far arrivals stray from their planned times (after the constant
// offset of the network). And at -R 1000 the generator's CPU, as a share
// of one core over the run's wall time.

const { measure } = require('./measure')
const { startServer, rounds } = require('./stalls')
const { ksExponential, ksCritical } = require('../test/helpers/ks')

const ALPHA = 0.01
const MAX_CPU = 0.15
const MAX_STRAY_MS = 1
const BLOCK = 2000

const CASES = [
  { name: 'poisson -R 500', rate: 500, flags: ['--arrivals', 'poisson', '--seed', '42'] },
  { name: 'poisson -R 1000', rate: 1000, flags: ['--arrivals', 'poisson', '--seed', '42'] },
  { name: 'uniform -R 1000', rate: 1000, flags: [] }
]

// Each arrival's distance from request i's planned time i / rate, after
// the offset of the plan's start and the network (the 1st percentile of
// the differences): its 99th percentile, ms.
function strayP99 (sorted, rate) {
  const diffs = sorted.map((a, i) => a - i * 1000 / rate)
  const off = [...diffs].sort((a, b) => a - b)[Math.floor(diffs.length / 100)]
  const strays = diffs.map((d) => Math.abs(d - off)).sort((a, b) => a - b)
  return strays[Math.floor(strays.length * 0.99)]
}

async function once (tool, c, ctx) {
  const server = await startServer(ctx.cpus.target)
  try {
    const [bin] = tool.args({ url: server.url, connections: 1, duration: 1, pipelining: 1 })
    const cli = [bin, '-c', '10', '-R', String(c.rate), ...c.flags, '-d', String(ctx.options.duration), '-j', server.url]
    const m = await measure(tool.command, cli, { cpus: ctx.cpus.generator })
    if (m.code !== 0) throw new Error(`${tool.name} exited with ${m.code}: ${m.stderr.trim().split('\n').pop()}`)
    const { arrivals } = await server.report()
    const sorted = [...arrivals].sort((a, b) => a - b)
    const gaps = []
    for (let i = 1; i < sorted.length; i++) gaps.push(sorted[i] - sorted[i - 1])
    const mean = 1000 / c.rate
    let block = 0
    for (let i = 0; i + BLOCK <= gaps.length; i += BLOCK) block = Math.max(block, ksExponential(gaps.slice(i, i + BLOCK), mean))
    const run = {
      n: gaps.length,
      ks: ksExponential(gaps, mean),
      critical: ksCritical(gaps.length, ALPHA),
      block,
      blockCritical: ksCritical(BLOCK, ALPHA),
      strayP99: c.flags.length ? null : strayP99(sorted, c.rate),
      cpu: (m.cpu.user + m.cpu.system) / m.wall
    }
    ctx.log(`  ${tool.name} ${c.name}: KS D ${run.ks.toFixed(4)} over ${run.n} gaps (1% critical ${run.critical.toFixed(4)}), worst block of ${BLOCK} ${run.block.toFixed(4)} (critical ${run.blockCritical.toFixed(4)})` +
      `${run.strayP99 === null ? '' : `, stray p99 ${run.strayP99.toFixed(2)} ms`}, CPU ${(run.cpu * 100).toFixed(1)}% of a core`)
    return run
  } finally {
    server.stop()
  }
}

async function arrivalsScenario (ctx) {
  const entries = ctx.tools.filter((t) => t.name === 'ours' || t.name === 'baseline')
  ctx.log(`arrivals: fresh CLI runs at -c 10, ${ctx.options.duration} s each, ${ctx.options.reps} round(s)`)
  const runs = await rounds(ctx, CASES, entries, once)
  const worst = (key, field) => Math.max(...runs[key].map((r) => r[field]))
  const goals = []
  for (const c of CASES) {
    const key = `ours ${c.name}`
    if (c.flags.length) {
      const over = Math.max(...runs[key].map((r) => r.block / r.blockCritical))
      goals.push({ goal: `KS distance of ${BLOCK} gaps at ${c.name} below the 1% critical value (worst block's D / critical)`, value: over, met: over < 1 })
    } else {
      goals.push({ goal: `arrivals at ${c.name} within ${MAX_STRAY_MS} ms of plan (p99 stray, ms)`, value: worst(key, 'strayP99'), met: worst(key, 'strayP99') <= MAX_STRAY_MS })
    }
    if (c.rate === 1000) goals.push({ goal: `CPU at ${c.name} -c 10 ≤ ${MAX_CPU * 100}% of a core`, value: worst(key, 'cpu'), met: worst(key, 'cpu') <= MAX_CPU })
  }
  return { name: 'arrivals', target: 'stall-server', flags: `fresh CLI, -c 10, -d ${ctx.options.duration}`, runs, goals }
}

function renderArrivals (s) {
  const Table = require('cli-table3')
  const table = new Table({ head: ['run', `KS D, worst ${BLOCK}`, '1% critical', 'KS D, all', '1% critical', 'stray p99 ms', 'CPU % of a core'], style: { head: [], border: [] } })
  const list = (rs, f) => rs.map(f).join(', ')
  for (const [key, rs] of Object.entries(s.runs)) {
    table.push([key, list(rs, (r) => r.block.toFixed(4)), list(rs, (r) => r.blockCritical.toFixed(4)), list(rs, (r) => r.ks.toFixed(4)),
      list(rs, (r) => r.critical.toFixed(4)), list(rs, (r) => r.strayP99 === null ? '–' : r.strayP99.toFixed(2)), list(rs, (r) => (r.cpu * 100).toFixed(1))])
  }
  return [table.toString()]
}

module.exports = { arrivalsScenario, renderArrivals }
