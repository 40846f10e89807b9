'use strict'

// The "own stalls" scenario of `npm run bench`: does the generator keep
// its own pauses out of the latency it reports? A fresh CLI process per
// run (first uses cost once per process, as for a user) at a fixed rate
// against a raw server in its own process that records every arrival
// (test/helpers/stall-server.js). Per run: requests that left over 5 ms
// late, the generator's loop-delay p99 (ours only: older versions do not
// measure it), corrected p99.9 and max, and the busiest 10 ms window of
// arrivals at the server. Ours and --baseline in the same rounds.

const path = require('path')
const { fork } = require('child_process')
const { measure } = require('./measure')

const SERVER = path.join(__dirname, '..', 'test', 'helpers', 'stall-server.js')

// [name, flags, goals]: the goals on a quiet machine.
const CASES = [
  { name: '-R 1000', flags: ['-c', '10', '-R', '1000'], busiest: 15 },
  { name: '-R 2000', flags: ['-c', '10', '-R', '2000'], lateAtMost: 5 },
  { name: '-R 20000', flags: ['-c', '100', '-R', '20000'], lateShare: 0.001 }
]

// The raw server of test/helpers/stall-server.js in its own process (on
// `cpus` when given), which records when each request arrived.
function startServer (cpus) {
  return new Promise((resolve, reject) => {
    const child = cpus
      ? fork(SERVER, [], { execPath: 'taskset', execArgv: ['-c', cpus, process.execPath], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
      : fork(SERVER, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
    child.once('error', reject)
    child.once('message', ({ port }) => resolve({
      url: `http://127.0.0.1:${port}/`,
      report: () => new Promise((resolve) => { child.once('message', resolve); child.send({ report: true }) }),
      stop: () => child.kill()
    }))
  })
}

function busiestWindow (arrivals) {
  const windows = new Map()
  for (const a of arrivals) {
    const w = Math.floor((a - arrivals[0]) / 10)
    windows.set(w, (windows.get(w) || 0) + 1)
  }
  return Math.max(0, ...windows.values())
}

async function once (tool, c, ctx) {
  const server = await startServer(ctx.cpus.target)
  try {
    // The tool's CLI script, with this scenario's flags.
    const [bin] = tool.args({ url: server.url, connections: 1, duration: 1, pipelining: 1 })
    const cli = [bin, ...c.flags, '-d', String(ctx.options.duration), '-j', server.url]
    const m = await measure(tool.command, cli, { cpus: ctx.cpus.generator })
    if (m.code !== 0) throw new Error(`${tool.name} exited with ${m.code}: ${m.stderr.trim().split('\n').pop()}`)
    const r = JSON.parse(m.stdout.trim().split('\n').pop())
    const { arrivals } = await server.report()
    const run = {
      late: r.rate.late,
      sent: r.requests.sent,
      loopDelayP99: r.generator && r.generator.loopDelay ? r.generator.loopDelay.p99 : null,
      p999: r.latency.p99_9,
      max: r.latency.max,
      busiest: busiestWindow(arrivals)
    }
    ctx.log(`  ${tool.name} ${c.name}: ${run.late} of ${run.sent} late, loop p99 ${run.loopDelayP99 === null ? '–' : run.loopDelayP99} ms, p99.9 ${run.p999} ms, max ${run.max} ms, busiest 10 ms ${run.busiest}`)
    return run
  } finally {
    server.stop()
  }
}

// Each case once by each tool in every round, so that drift falls on all
// of them alike: { 'tool case': [one result a round] }.
async function rounds (ctx, cases, entries, once) {
  const runs = {}
  for (let i = 0; i < ctx.options.reps; i++) {
    for (const c of cases) {
      for (const tool of entries) {
        const key = `${tool.name} ${c.name}`
        runs[key] = runs[key] || []
        runs[key].push(await once(tool, c, ctx))
      }
    }
  }
  return runs
}

async function stallsScenario (ctx) {
  const entries = ctx.tools.filter((t) => t.name === 'ours' || t.name === 'baseline')
  ctx.log(`stalls: fresh CLI runs at a fixed rate, ${ctx.options.duration} s each, ${ctx.options.reps} round(s)`)
  const runs = await rounds(ctx, CASES, entries, once)
  const worst = (key, field) => Math.max(...(runs[key] || []).map((r) => r[field] === null ? -Infinity : r[field]))
  const goals = []
  for (const c of CASES) {
    const key = `ours ${c.name}`
    if (c.busiest) goals.push({ goal: `busiest 10 ms window at ${c.name} ≤ ${c.busiest}`, value: worst(key, 'busiest'), met: worst(key, 'busiest') <= c.busiest })
    if (c.lateAtMost !== undefined) goals.push({ goal: `late requests at ${c.name} ≤ ${c.lateAtMost}`, value: worst(key, 'late'), met: worst(key, 'late') <= c.lateAtMost })
    if (c.lateShare) {
      const share = Math.max(...runs[key].map((r) => r.late / r.sent))
      goals.push({ goal: `late share at ${c.name} ≤ ${c.lateShare * 100}%`, value: share, met: share <= c.lateShare })
    }
    goals.push({ goal: `loop-delay p99 at ${c.name} < 1 ms`, value: worst(key, 'loopDelayP99'), met: worst(key, 'loopDelayP99') < 1 })
  }
  return { name: 'stalls', target: 'stall-server', flags: `fresh CLI, -d ${ctx.options.duration}`, runs, goals }
}

function renderStalls (s) {
  const Table = require('cli-table3')
  const table = new Table({ head: ['run', 'late / sent', 'loop p99 ms', 'p99.9 ms', 'max ms', 'busiest 10 ms'], style: { head: [], border: [] } })
  const med = (xs) => { const v = xs.filter((x) => x !== null).sort((a, b) => a - b); return v.length ? v[Math.floor((v.length - 1) / 2)] : '–' }
  for (const [key, rs] of Object.entries(s.runs)) {
    table.push([key, rs.map((r) => `${r.late}/${r.sent}`).join(', '), med(rs.map((r) => r.loopDelayP99)),
      med(rs.map((r) => r.p999)), med(rs.map((r) => r.max)), rs.map((r) => r.busiest).join(', ')])
  }
  return [table.toString()]
}

module.exports = { stallsScenario, renderStalls, startServer, rounds }
