'use strict'

// The search scenario of `npm run bench`: `autocannon --findMaxRate` with
// its default settings (precision 2%, 5 s steps) against servers whose
// capacity is known, a queue served at C req/s in a process of its own
// (test/helpers/capacity-server.js): below C latency stays at a millisecond
// or two, above C it grows without bound. The search must land within 3%
// of C and take at most 90 s of wall time per connection count; a manual
// sweep of wrk2 runs, raising -R by 500 each time, spends minutes per point.

const path = require('path')
const { fork } = require('child_process')
const { measure } = require('./measure')
const BIN = path.join(__dirname, '..', 'bin', 'autocannon.js')
const SERVER = path.join(__dirname, '..', 'test', 'helpers', 'capacity-server.js')
const SLO = 'p99<50ms'
const CONNECTIONS = 100
const GOAL_ERROR = 0.03
const GOAL_WALL_S = 90

// The server pinned like the other targets, so the generator's CPU and the
// server's do not compete.
function startQueue (capacity, cpus) {
  return new Promise((resolve, reject) => {
    const child = cpus
      ? fork(SERVER, ['queue', String(capacity)], { execPath: 'taskset', execArgv: ['-c', cpus, process.execPath], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
      : fork(SERVER, ['queue', String(capacity)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
    child.once('error', reject)
    child.once('exit', (code) => reject(new Error(`the capacity server exited (${code}) before listening`)))
    child.once('message', ({ port }) => resolve({
      url: `http://127.0.0.1:${port}/`,
      stop: () => new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.removeAllListeners('exit')
        child.once('exit', () => resolve())
        child.kill()
      })
    }))
  })
}

// One search as a user runs it, timed from outside: → the figures.
async function searchOnce (capacity, ctx) {
  const server = await startQueue(capacity, ctx.cpus.target)
  try {
    const args = [BIN, '-j', '--findMaxRate', '--slo', SLO, '-c', String(CONNECTIONS), server.url]
    const m = await measure(process.execPath, args, { cpus: ctx.cpus.generator, timeoutMs: 5 * 60 * 1000 })
    if (m.code !== 0) throw new Error(`the search exited with ${m.code}: ${m.stderr.trim().split('\n').pop()}`)
    const line = m.stdout.trim().split('\n').reverse().find((l) => l.startsWith('{'))
    const [s] = JSON.parse(line).searches
    const best = s.best ? s.best.rate : null
    const run = {
      capacity,
      status: s.status,
      best,
      failed: s.failed ? s.failed.rate : null,
      error: best === null ? null : (best - capacity) / capacity,
      steps: s.steps.length,
      wall: m.wall,
      sentence: s.sentence,
      table: s.steps.map((x) => ({ kind: x.kind, target: x.target, achieved: x.result.rate.achieved, p99: x.result.latency.p99, pass: x.pass, why: x.why }))
    }
    ctx.log(`  C = ${capacity}: ${run.sentence} (${run.steps} steps, ${run.wall.toFixed(1)} s wall, error ${run.error === null ? '–' : (run.error * 100).toFixed(1) + '%'})`)
    return run
  } finally {
    await server.stop()
  }
}

async function searchScenario (ctx) {
  // One search per capacity: each takes a minute or so, not repeated.
  const capacities = ctx.options.reps > 1 ? [1500, 3000] : [1500]
  ctx.log(`search: --findMaxRate --slo '${SLO}' -c ${CONNECTIONS}, against queues served at ${capacities.join(' and ')} req/s`)
  const runs = []
  for (const capacity of capacities) runs.push(await searchOnce(capacity, ctx))
  const worstError = Math.max(...runs.map((r) => r.error === null ? Infinity : Math.abs(r.error)))
  const worstWall = Math.max(...runs.map((r) => r.wall))
  return {
    name: 'search',
    target: 'capacity',
    flags: `--findMaxRate --slo '${SLO}' -c ${CONNECTIONS}`,
    runs,
    goals: [
      { goal: `found within ${GOAL_ERROR * 100}% of the true capacity`, value: worstError, met: worstError <= GOAL_ERROR },
      { goal: `wall time per search ≤ ${GOAL_WALL_S} s`, value: worstWall, met: worstWall <= GOAL_WALL_S }
    ]
  }
}

function renderSearch (s) {
  const Table = require('cli-table3')
  const table = new Table({ head: ['C req/s', 'found', 'lowest failing', 'error', 'steps', 'wall s'], style: { head: [], border: [] } })
  for (const r of s.runs) {
    table.push([r.capacity, r.best === null ? r.status : r.best, r.failed === null ? '–' : r.failed,
      r.error === null ? '–' : `${(r.error * 100).toFixed(1)}%`, r.steps, r.wall.toFixed(1)])
  }
  return [table.toString(), ...s.runs.map((r) => r.sentence)]
}

module.exports = { searchScenario, renderSearch }
