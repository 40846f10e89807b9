'use strict'

// The soak scenario of `npm run bench`: `-c 1000` for 5 minutes (30 s with
// --quick) against nginx when installed, else the canned server. The
// generator runs in a process of its own (this file with --drive, pinned as
// the other generators are), which requires the library from the repo root,
// samples its own RSS every 10 s, watches its event loop with
// perf_hooks.monitorEventLoopDelay for the whole run, and prints one JSON
// line once the run has ended.
//
//   node bench/soak.js --drive URL SECONDS   → one JSON line, then exits

const path = require('path')
const { measure } = require('./measure')

const CONNECTIONS = 1000
const RESOLUTION_MS = 10 // monitorEventLoopDelay's default
const ON_TIME_S = 1 // the run must end within this of -d
const EXIT_GRACE_MS = 5000 // and the process exit by itself within this after

// When RSS is sampled: every 10 s, and 1 s before the end (as the memory
// scenario does), while all connections are still open.
function sampleTimes (seconds) {
  const early = Math.min(10, Math.floor(seconds / 3))
  const late = seconds - 1
  const times = [early]
  for (let at = early + 10; at < late; at += 10) times.push(at)
  if (late > early) times.push(late)
  return { early, late, times }
}

const MB = 2 ** 20
const round = (n, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits

// RSS split into anonymous memory (heap, buffers: what a leak grows) and
// file-backed pages (the node binary's code), which the kernel may page out
// on its own, e.g. where DAMON reclaim runs. Linux only; nulls elsewhere.
function rssSplit () {
  try {
    const status = require('fs').readFileSync('/proc/self/status', 'utf8')
    const mb = (name) => {
      const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)
      return m ? round(Number(m[1]) / 1024) : null
    }
    return { rssAnonMB: mb('RssAnon'), rssFileMB: mb('RssFile') }
  } catch {
    return { rssAnonMB: null, rssFileMB: null }
  }
}

function drive (url, seconds) {
  const autocannon = require(path.join(__dirname, '..'))
  const { monitorEventLoopDelay, performance } = require('perf_hooks')
  const start = performance.now()
  const elapsed = () => (performance.now() - start) / 1000
  const memory = []
  const sample = (at) => {
    const m = process.memoryUsage()
    memory.push({ at, t: round(elapsed(), 2), rssMB: round(m.rss / MB), ...rssSplit(), heapTotalMB: round(m.heapTotal / MB), heapUsedMB: round(m.heapUsed / MB), externalMB: round(m.external / MB), arrayBuffersMB: round(m.arrayBuffers / MB) })
  }
  const timers = sampleTimes(seconds).times.map((at) => setTimeout(() => sample(at), at * 1000))
  // Bounded whatever happens: a run that never calls back ends here.
  const guard = setTimeout(() => {
    process.stderr.write(`soak: no result ${seconds + 60} s into a ${seconds} s run\n`)
    process.exit(2)
  }, (seconds + 60) * 1000).unref()
  const delay = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
  delay.enable()
  autocannon({ url, connections: CONNECTIONS, duration: seconds }, (err, r) => {
    const ended = elapsed()
    delay.disable()
    timers.forEach(clearTimeout)
    clearTimeout(guard)
    if (err) {
      console.log(JSON.stringify({ error: err.message }))
      process.exit(1)
    }
    sample('end')
    // The histogram holds the intervals between the monitor's timer ticks,
    // resolution included: the delay is what exceeds the resolution.
    const ms = (ns) => round(Math.max(0, ns / 1e6 - RESOLUTION_MS), 2)
    console.log(JSON.stringify({
      runSeconds: round(ended, 3),
      duration: r.duration,
      completed: r.requests.total,
      errors: r.errors,
      timeouts: r.timeouts,
      non2xx: r.non2xx,
      latencyP99: r.latency.p99,
      eventLoopDelayMs: {
        resolution: RESOLUTION_MS,
        samples: delay.count,
        mean: ms(delay.mean),
        p50: ms(delay.percentile(50)),
        p99: ms(delay.percentile(99)),
        max: ms(delay.max)
      },
      memory
    }))
    // Nothing of the run may hold the process open once it has ended.
    setTimeout(() => {
      process.stderr.write(`soak: still running ${EXIT_GRACE_MS / 1000} s after the run ended\n`)
      process.exit(3)
    }, EXIT_GRACE_MS).unref()
  })
}

function lastJsonLine (stdout) {
  const line = stdout.trim().split('\n').reverse().find((l) => l.startsWith('{'))
  return line ? JSON.parse(line) : null
}

async function soakScenario (target, ctx) {
  const seconds = ctx.options.soakSeconds
  const { early, late } = sampleTimes(seconds)
  const flags = `-c ${CONNECTIONS} -d ${seconds}`
  ctx.log(`soak against ${target.name}: ${flags}, RSS every 10 s, event-loop delay`)
  const m = await measure(process.execPath, [__filename, '--drive', target.url, String(seconds)], { cpus: ctx.cpus.generator, timeoutMs: (seconds + 90) * 1000 })
  const d = lastJsonLine(m.stdout)
  const why = (m.stderr || '').trim().split('\n').pop()
  if (!d) throw new Error(`soak driver exited with ${m.code} and no result${why ? `: ${why}` : ''}`)
  if (d.error) throw new Error(`soak: ${d.error}`)
  const rssAt = (at) => (d.memory.find((s) => s.at === at) || {}).rssMB
  const a = rssAt(early)
  const b = rssAt(late)
  const growth = a && b ? b / a : null
  const cpu = m.cpu ? m.cpu.user + m.cpu.system : NaN
  const onTime = m.code === 0 && d.runSeconds <= seconds + ON_TIME_S
  const scenario = {
    name: 'soak',
    target: target.name,
    flags,
    rssMB: { [`${early}s`]: a, [`${late}s`]: b },
    growthPercent: growth ? round((growth - 1) * 100, 2) : null,
    eventLoopDelayMs: d.eventLoopDelayMs,
    rps: d.completed / d.duration,
    completed: d.completed,
    errors: d.errors,
    timeouts: d.timeouts,
    non2xx: d.non2xx,
    latencyP99: d.latencyP99,
    cpuUs: cpu / d.completed * 1e6,
    runSeconds: d.runSeconds,
    wall: m.wall,
    exitCode: m.code,
    memory: d.memory,
    goals: [
      { goal: `RSS growth ${early} s → ${late} s under 10%`, value: growth, met: growth != null && growth < 1.10 },
      { goal: `run ended within ${ON_TIME_S} s of -d ${seconds} and the process exited by itself`, value: d.runSeconds, met: onTime }
    ]
  }
  ctx.log(`  RSS ${fmt(a, 1)} MB → ${fmt(b, 1)} MB, event-loop delay p99 ${fmt(d.eventLoopDelayMs.p99)} ms, ${Math.round(scenario.rps)} req/s, ${d.errors} errors`)
  return scenario
}

function fmt (n, digits = 2) {
  if (n == null || !Number.isFinite(n)) return '–'
  return n >= 1000 ? Math.round(n).toLocaleString('en-US') : n.toFixed(digits)
}

// The lines `npm run bench` prints for a soak scenario, before its goals.
function renderSoak (s) {
  const rss = Object.entries(s.rssMB).map(([at, mb]) => `RSS at ${at}: ${fmt(mb, 1)} MB`).join(', ')
  const change = (a, b) => a && b ? `${b >= a ? '+' : ''}${((b / a - 1) * 100).toFixed(1)}%` : '–'
  const [a, b] = (s.memory || []).filter((x) => `${x.at}s` in s.rssMB)
  const parts = []
  if (a && b && a.rssAnonMB != null) parts.push(`anonymous ${fmt(a.rssAnonMB, 1)} → ${fmt(b.rssAnonMB, 1)} MB (${change(a.rssAnonMB, b.rssAnonMB)})`)
  if (a && b) parts.push(`heap used ${fmt(a.heapUsedMB, 1)} → ${fmt(b.heapUsedMB, 1)} MB`)
  const split = parts.length ? `; ${parts.join(', ')}` : ''
  const [early, late] = Object.values(s.rssMB)
  const d = s.eventLoopDelayMs
  return [
    `${rss} (${change(early, late)})${split}`,
    `Event-loop delay over the run: p50 ${fmt(d.p50)} ms, p99 ${fmt(d.p99)} ms, max ${fmt(d.max)} ms (beyond the ${d.resolution} ms resolution)`,
    `${fmt(s.rps, 0)} req/s, ${fmt(s.cpuUs)} CPU µs/req, ${s.errors} errors, ${s.timeouts} timeouts; run ended at ${fmt(s.runSeconds, 1)} s, process exited ${s.exitCode === 0 ? 'by itself' : `with code ${s.exitCode}`} after ${fmt(s.wall, 1)} s`
  ]
}

if (require.main === module && process.argv[2] === '--drive') drive(process.argv[3], Number(process.argv[4]))

module.exports = { soakScenario, renderSoak, sampleTimes }
