'use strict'

// npm run bench: our generator, the published autocannon and wrk (when
// installed) against the same target, one after the other, the generator
// pinned to one CPU and the target to another. Each figure is the median of
// several runs, shown with the range, and the ratios the project is held to.
//
//   npm run bench                       full run (about 17 minutes)
//   npm run bench -- --quick            2 s runs, one repetition, 30 s soak
//   npm run bench -- --json             the same figures as JSON on stdout
//   npm run bench -- --render FILE      the tables of a report saved with --json
//   npm run bench -- --only c100,startup --reps 5 --duration 20 --target canned
//   npm run bench -- --only soak        -c 1000 for 5 minutes (bench/soak.js)
//   npm run bench -- --only c100 --baseline DIR   beside another checkout (the cost of a change)
//   npm run bench -- --only search      --findMaxRate against servers of known capacity (bench/search.js)
//   npm run bench -- --only stalls --baseline DIR   own pauses at a fixed rate, fresh CLI runs (bench/stalls.js)
//   npm run bench -- --only dashboard --baseline DIR   -c 100 with and without --dashboard (a page watching), beside another checkout
//   npm run bench -- --only arrivals    Poisson gaps at the server (KS) at -R 500/1000, CPU at -R 1000 (bench/arrivals.js)
//   npm run bench -- --only h2          --http2 beside h2load and a node:http2 client loop, against nginx h2c
//   npm run bench -- --only grpc        gRPC unary calls: CPU per call beside ghz, a @grpc/grpc-js client loop and our --http2 of the same bytes
//   npm run bench -- --only tls         HTTPS (TLS 1.3): HTTP/1.1 and HTTP/2 beside wrk, h2load and a node:tls floor,
//                                        and a new connection per request (the handshake's cost)

const fs = require('fs')
const os = require('os')
const path = require('path')
const { spawnSync } = require('child_process')
const { measure, hasTaskset } = require('./measure')
const { startCanned, startNginx, startNodeH2, makeCertificate, which, freePort } = require('./targets')
const { tools, autocannonArgs } = require('./tools')
const { watch } = require('./dashboard-viewer')
const { soakScenario, renderSoak } = require('./soak')
const { searchScenario, renderSearch } = require('./search')
const { stallsScenario, renderStalls } = require('./stalls')
const { arrivalsScenario, renderArrivals } = require('./arrivals')
const { grpcScenario, renderGrpc } = require('./grpc')

const USAGE = 'usage: npm run bench -- [--quick] [--json] [--reps N] [--duration S] [--only a,b] [--target nginx|canned|all] [--baseline DIR] | --render FILE'
const SCENARIOS = ['c100', 'p10', 'h2', 'tls', 'startup', 'memory', 'workers', 'shapes', 'soak', 'search', 'stalls', 'arrivals', 'dashboard', 'grpc']

function parseOptions (argv) {
  const o = { reps: 3, duration: 10, memorySeconds: 60, soakSeconds: 300, json: false, only: SCENARIOS, target: 'all', render: null, baseline: null }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const value = () => {
      if (i + 1 >= argv.length) fail(`${a} needs a value`)
      return argv[++i]
    }
    if (a === '--quick') Object.assign(o, { reps: 1, duration: 2, memorySeconds: 12, soakSeconds: 30 })
    else if (a === '--json') o.json = true
    else if (a === '--reps') o.reps = positive(a, value())
    else if (a === '--duration') o.duration = positive(a, value())
    else if (a === '--only') o.only = value().split(',')
    else if (a === '--target') o.target = value()
    else if (a === '--render') o.render = value()
    else if (a === '--baseline') o.baseline = checkout(value())
    else if (a === '-h' || a === '--help') {
      console.log(USAGE)
      process.exit(0)
    } else fail(`unknown argument ${a}`)
  }
  for (const s of o.only) if (!SCENARIOS.includes(s)) fail(`unknown scenario ${s} (one of ${SCENARIOS.join(', ')})`)
  if (!['nginx', 'canned', 'all'].includes(o.target)) fail(`--target must be nginx, canned or all, not ${o.target}`)
  return o
}

function checkout (dir) {
  const resolved = path.resolve(dir)
  if (!fs.existsSync(path.join(resolved, 'bin', 'autocannon.js'))) fail(`--baseline ${dir} is not a checkout of this repo (no bin/autocannon.js)`)
  return resolved
}

function positive (flag, text) {
  const n = Number(text)
  if (!(n > 0)) fail(`${flag} must be a positive number, not ${text}`)
  return n
}

function fail (message) {
  process.stderr.write(`bench: ${message}\n${USAGE}\n`)
  process.exit(1)
}

function median (values) {
  const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b)
  if (v.length === 0) return null
  const mid = Math.floor(v.length / 2)
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2
}

function summary (values) {
  const v = values.filter((x) => typeof x === 'number' && Number.isFinite(x))
  return { median: median(v), min: v.length ? Math.min(...v) : null, max: v.length ? Math.max(...v) : null, runs: values }
}

function machine (cpus) {
  // wrk -v prints its version and exits non-zero.
  const version = (cmd, args) => {
    const { stdout, stderr } = spawnSync(cmd, args, { encoding: 'utf8' })
    return `${stdout || ''}${stderr || ''}`.split('\n')[0].trim() || null
  }
  return {
    cpu: os.cpus()[0] ? os.cpus()[0].model : 'unknown',
    cores: os.cpus().length,
    memory: `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    wrk: which('wrk') ? version('wrk', ['-v']) : null,
    pinning: cpus.generator ? `generator on CPU ${cpus.generator}, target on CPU ${cpus.target}` : 'none (taskset unavailable or one CPU)'
  }
}

function cpuSplit () {
  const n = os.cpus().length
  if (n < 2 || !hasTaskset()) return { generator: null, target: null, rest: null }
  return { generator: '0', target: String(n - 1), rest: n > 2 ? `0-${n - 2}` : '0' }
}

// One run of one generator → completed responses, req/s and CPU µs/req.
async function runOnce (tool, flags, cpus, log) {
  const m = await measure(tool.command, tool.args(flags), { cpus })
  if (m.code !== 0) throw new Error(`${tool.name} exited with ${m.code}: ${(m.stderr || m.stdout).trim().split('\n').pop()}`)
  const r = tool.parse(m.stdout)
  const cpu = m.cpu ? m.cpu.user + m.cpu.system : NaN
  const run = { completed: r.completed, errors: r.errors, rps: r.completed / r.duration, cpuUs: cpu / r.completed * 1e6, cpuSeconds: cpu, wall: m.wall }
  log(`  ${tool.name}: ${Math.round(run.rps)} req/s, ${run.cpuUs.toFixed(2)} CPU µs/req${r.errors ? `, ${r.errors} errors` : ''}`)
  return run
}

function summarise (runs) {
  return {
    rps: summary(runs.map((r) => r.rps)),
    cpuUs: summary(runs.map((r) => r.cpuUs)),
    errors: runs.reduce((a, r) => a + r.errors, 0)
  }
}

// Several generators, `reps` rounds; within a round each runs once, so
// drift on a shared machine falls on all of them alike.
async function runInterleaved (entries, cpus, reps, log) {
  const runs = entries.map(() => [])
  for (let i = 0; i < reps; i++) {
    for (let k = 0; k < entries.length; k++) runs[k].push(await runOnce(entries[k].tool, entries[k].flags, cpus, log))
  }
  return runs.map(summarise)
}

function ratio (a, b) {
  return a && b ? a / b : null
}

// http2: the generators speak HTTP/2, pipelining being the streams per
// connection. reconnect: a new connection for each request.
async function throughputScenario (name, target, pipelining, ctx, goals, http2 = false, reconnect = false) {
  const flags = { url: target.url, connections: 100, duration: ctx.options.duration, pipelining, http2, reconnect }
  const scenario = { name, target: target.name, flags: `${http2 ? '--http2 ' : ''}-c 100 -d ${flags.duration}${pipelining > 1 ? ` -p ${pipelining}` : ''}${reconnect ? ' -D 1 (wrk: Connection: close)' : ''}`, tools: {}, ratios: {}, goals: [] }
  ctx.log(`${name} against ${target.name}: ${scenario.flags}`)
  const entries = ctx.tools.filter((tool) => tool.supports(flags)).map((tool) => ({ tool, flags }))
  const results = await runInterleaved(entries, ctx.cpus.generator, ctx.options.reps, ctx.log)
  entries.forEach(({ tool }, k) => { scenario.tools[tool.name] = results[k] })
  const ours = scenario.tools.ours.cpuUs.median
  for (const other of Object.keys(scenario.tools).filter((t) => t !== 'ours')) {
    scenario.ratios[`ours/${other} CPU per request`] = ratio(ours, scenario.tools[other].cpuUs.median)
  }
  if (scenario.tools.wrk && scenario.tools.autocannon) {
    // How far apart the two peers are on this machine: a bound on what any
    // ratio to autocannon can be for a generator no cheaper than wrk.
    scenario.ratios['wrk/autocannon CPU per request'] = ratio(scenario.tools.wrk.cpuUs.median, scenario.tools.autocannon.cpuUs.median)
  }
  for (const [other, limit] of Object.entries(goals)) {
    const r = scenario.ratios[`ours/${other} CPU per request`]
    if (r != null) scenario.goals.push({ goal: `CPU per request ≤ ${limit}× ${other}`, value: r, met: r <= limit })
  }
  return scenario
}

// --dashboard's cost: the same run with and without it, a page
// following its events (from this process: the viewer's CPU is not the
// generator's), in the same interleaved rounds, beside --baseline's when
// one is given. The goal: watched, at most 2% more CPU per request.
async function dashboardScenario (target, ctx) {
  const flags = { url: target.url, connections: 100, duration: ctx.options.duration, pipelining: 1 }
  const scenario = { name: 'dashboard', target: target.name, flags: `-c 100 -d ${flags.duration}, with and without --dashboard PORT (a page watching)`, tools: {}, ratios: {}, goals: [] }
  ctx.log(`dashboard against ${target.name}: ${scenario.flags}`)
  const ours = ctx.tools.find((t) => t.name === 'ours')
  const port = await freePort()
  let seen = 0
  const watched = {
    ...ours,
    name: 'ours --dashboard',
    args: (o) => {
      watch(port, 10000).then((bytes) => { seen += bytes })
      return [ours.args(o)[0], '--dashboard', String(port), ...autocannonArgs(o)]
    }
  }
  const list = [ours, watched, ...ctx.tools.filter((t) => t.name === 'baseline')]
  const entries = list.map((tool) => ({ tool, flags }))
  const results = await runInterleaved(entries, ctx.cpus.generator, ctx.options.reps, ctx.log)
  entries.forEach(({ tool }, k) => { scenario.tools[tool.name] = results[k] })
  if (seen === 0) throw new Error('the dashboard\'s viewer read no event: the page was not watching')
  scenario.eventBytes = seen
  const off = scenario.tools.ours.cpuUs.median
  const on = scenario.tools['ours --dashboard'].cpuUs.median
  scenario.ratios['on/off CPU per request'] = ratio(on, off)
  scenario.goals.push({ goal: 'watched: CPU per request ≤ 1.02× without --dashboard', value: ratio(on, off), met: ratio(on, off) <= 1.02 })
  if (scenario.tools.baseline) {
    const r = ratio(off, scenario.tools.baseline.cpuUs.median)
    scenario.ratios['off/baseline CPU per request'] = r
    scenario.goals.push({ goal: 'off: CPU per request within 3% of the baseline\'s', value: r, met: r >= 0.97 && r <= 1.03 })
  }
  return scenario
}

// The CLI as a user starts it, beside bare `node -e 0` (the goals: at most
// 1.5× its CPU, 40 ms over it, 0.10 s in all). Node's own start-up is most
// of either figure and moves with whatever else the machine does, so each
// round runs node and every tool once, one after the other: drift falls on
// all of them alike.
async function startupScenario (target, ctx) {
  const flags = { url: target.url, connections: 10, amount: 100 }
  const scenario = { name: 'startup', target: target.name, flags: '-a 100', tools: {}, ratios: {}, goals: [] }
  ctx.log('startup: -a 100, beside node -e 0')
  const entries = [{ name: 'node', command: process.execPath, args: ['-e', '0'] }]
  for (const tool of ctx.tools.filter((t) => t.supports(flags))) {
    // Tables printed as a user sees them, not -j: rendering is part of a run.
    entries.push({ name: tool.name, command: tool.command, args: tool.args(flags).filter((a) => a !== '-j') })
  }
  // Which code the CLI loads (lib/cli/bundle.js): the one built file, or
  // lib/ when there is none or it is older than its sources.
  for (const entry of entries.filter((e) => e.name === 'ours' || e.name === 'baseline')) {
    const said = spawnSync(entry.command, [entry.args[0], '-v'], { env: { ...process.env, NODE_DEBUG: 'cannonade' }, encoding: 'utf8' })
    const loaded = (/cli: (.*)/.exec(said.stderr || '') || [])[1] || 'lib/ (a version without a bundle)'
    scenario.loaded = { ...scenario.loaded, [entry.name]: loaded }
    ctx.log(`  ${entry.name} loads ${loaded}`)
  }
  const runs = entries.map(() => [])
  for (let i = 0; i < ctx.options.reps; i++) {
    for (let k = 0; k < entries.length; k++) {
      const m = await measure(entries[k].command, entries[k].args, { cpus: ctx.cpus.generator })
      if (m.code !== 0) throw new Error(`${entries[k].name} exited with ${m.code}`)
      runs[k].push(m)
    }
  }
  entries.forEach(({ name }, k) => {
    scenario.tools[name] = { cpuSeconds: summary(runs[k].map((m) => m.cpu.user + m.cpu.system)), wall: summary(runs[k].map((m) => m.wall)) }
    ctx.log(`  ${name}: ${scenario.tools[name].cpuSeconds.median.toFixed(3)} CPU s, ${scenario.tools[name].wall.median.toFixed(3)} s wall`)
  })
  const node = scenario.tools.node.cpuSeconds.median
  for (const name of Object.keys(scenario.tools).filter((t) => t !== 'node')) {
    scenario.ratios[`${name}/node -e 0 CPU`] = ratio(scenario.tools[name].cpuSeconds.median, node)
  }
  const ours = scenario.tools.ours
  const overNode = scenario.ratios['ours/node -e 0 CPU']
  scenario.goals.push({ goal: 'start-up CPU ≤ 1.5× node -e 0', value: overNode, met: overNode <= 1.5 })
  const added = ours.cpuSeconds.median - node
  scenario.goals.push({ goal: 'start-up CPU ≤ node -e 0 + 0.040 s', value: added, met: added <= 0.040 })
  scenario.goals.push({ goal: 'start-up CPU ≤ 0.10 s', value: ours.cpuSeconds.median, met: ours.cpuSeconds.median <= 0.10 })
  scenario.goals.push({ goal: 'start-up wall ≤ 0.30 s', value: ours.wall.median, met: ours.wall.median <= 0.30 })
  return scenario
}

async function memoryScenario (target, ctx) {
  const seconds = ctx.options.memorySeconds
  const early = Math.min(10, Math.floor(seconds / 4))
  const late = seconds - 1
  const ours = ctx.tools.find((t) => t.name === 'ours')
  ctx.log(`memory: -c 1000 -d ${seconds}, RSS at ${early} s and ${late} s`)
  const m = await measure(ours.command, ours.args({ url: target.url, connections: 1000, duration: seconds, pipelining: 1 }), { cpus: ctx.cpus.generator, rssAt: [early, late] })
  if (m.code !== 0) throw new Error(`ours exited with ${m.code}`)
  const [a, b] = m.rss.map((r) => r.kB / 1024)
  const growth = b / a
  ctx.log(`  RSS ${a.toFixed(1)} MB → ${b.toFixed(1)} MB`)
  return {
    name: 'memory',
    target: target.name,
    flags: `-c 1000 -d ${seconds}`,
    rssMB: { [`${early}s`]: a, [`${late}s`]: b },
    goals: [
      { goal: `RSS at ${late} s within 10% of RSS at ${early} s`, value: growth, met: growth <= 1.10 },
      { goal: 'RSS under 150 MB', value: Math.max(a, b), met: Math.max(a, b) < 150 }
    ]
  }
}

async function workersScenario (target, ctx) {
  const ours = ctx.tools.find((t) => t.name === 'ours')
  const counts = [1, 2, 4, 8].filter((n) => n === 1 || n <= os.cpus().length)
  const scenario = { name: 'workers', target: target.name, flags: `-c 100 -p 10 -d ${ctx.options.duration} -w N`, tools: {}, goals: [] }
  // With more than two CPUs the generator gets all but the target's; with
  // two it is left unpinned, so a second worker has somewhere to run.
  const cpus = os.cpus().length > 2 ? ctx.cpus.rest : null
  scenario.pinning = cpus ? `generator on CPUs ${cpus}` : 'generator unpinned (shares the target\'s CPU)'
  ctx.log(`workers: ${scenario.flags}, ${scenario.pinning}`)
  const entries = counts.map((n) => ({ tool: ours, flags: { url: target.url, connections: 100, duration: ctx.options.duration, pipelining: 10, workers: n } }))
  const results = await runInterleaved(entries, cpus, ctx.options.reps, ctx.log)
  counts.forEach((n, k) => { scenario.tools[`w${n}`] = results[k] })
  return scenario
}

async function shapesScenario (ctx) {
  const { runShapes } = require('./request-shapes')
  ctx.log('shapes: requests arrays and hooks, -c 50, CPU µs per request')
  const table = await runShapes({ shapes: ['single', 'static3', 'hook', 'template'], pipelinings: [1, 10], trials: ctx.options.reps, seconds: Math.min(ctx.options.duration, 5), cpus: ctx.cpus })
  const goals = []
  for (const p of [1, 10]) {
    const base = table[`single p=${p}`]
    const s3 = table[`static3 p=${p}`] / base
    const hook = table[`hook p=${p}`] / base
    goals.push({ goal: `p=${p}: 3 static entries ≤ 1.1× a single request`, value: s3, met: s3 <= 1.1 })
    goals.push({ goal: `p=${p}: setupRequest hook ≤ 2× a static request`, value: hook, met: hook <= 2 })
    const template = table[`template p=${p}`] / base
    goals.push({ goal: `p=${p}: a {{seq}} path and a {{uuid}} header ≤ 1.15× the same request without templates`, value: template, met: template <= 1.15 })
  }
  return { name: 'shapes', target: 'canned', flags: '-c 50', cpuUs: table, goals }
}

// HTTPS: nginx with TLS 1.3 (or, without nginx, the canned server over
// node:tls), HTTP/1.1 with and without pipelining and HTTP/2, each beside
// its peers and Node's TLS floor; then a handshake per request.
async function tlsScenarios (options, cpus, ctx, targets, report) {
  const certificate = makeCertificate()
  if (!certificate) {
    ctx.log('tls: openssl could not make a certificate; skipped')
    return
  }
  targets.push({ stop: async () => certificate.remove() })
  const cannedTls = await startCanned({ cpus: cpus.target, tls: certificate })
  targets.push(cannedTls)
  const nginxTls = options.target === 'canned' ? null : await startNginx({ cpus: cpus.target, tls: certificate })
  if (nginxTls) targets.push(nginxTls)
  for (const t of [cannedTls, nginxTls].filter(Boolean)) report.targets.push({ name: t.name, description: t.description, url: t.url })
  const h1Targets = options.target === 'all' ? [cannedTls, nginxTls].filter(Boolean) : [nginxTls || cannedTls]
  // Goals over TLS: CPU per request within 10% of wrk, within 5% of the
  // node:tls floor, and no more than h2load over HTTP/2.
  for (const t of h1Targets) {
    report.scenarios.push(await throughputScenario('tls-c100', t, 1, ctx, { wrk: 1.10, 'node:tls': 1.05 }))
    report.scenarios.push(await throughputScenario('tls-p10', t, 10, ctx, { 'node:tls': 1.05 }))
  }
  if (nginxTls) {
    report.scenarios.push(await throughputScenario('tls-h2', nginxTls, 10, ctx, { h2load: 1.0 }, true))
    report.scenarios.push(await throughputScenario('tls-reconnect', nginxTls, 1, ctx, { wrk: 1.10 }, false, true))
  } else ctx.log('tls-h2 and tls-reconnect need nginx (apt-get install nginx-light); skipped')
}

function fmt (n, digits = 2) {
  if (n == null) return '–'
  return n >= 1000 ? Math.round(n).toLocaleString('en-US') : n.toFixed(digits)
}

function range (s, digits) {
  return s.runs.length > 1 ? `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})` : fmt(s.median, digits)
}

function render (report) {
  const Table = require('cli-table3')
  const lines = []
  const m = report.machine
  lines.push(`Machine: ${m.cpu}, ${m.cores} cores, ${m.memory}, ${m.os}, Node ${m.node}${m.wrk ? `, ${m.wrk.split(' [')[0]}` : ''}`)
  lines.push(`Pinning: ${m.pinning}. Medians of ${report.options.reps} interleaved run(s), min–max in brackets; CPU = generator user+sys ÷ completed responses.`)
  for (const t of report.targets) lines.push(`Target ${t.name}: ${t.description}`)
  for (const s of report.scenarios) {
    lines.push('', `${s.name} · ${s.target} · ${s.flags}${s.pinning ? ` · ${s.pinning}` : ''}`)
    if (s.name === 'startup') {
      const table = new Table({ head: ['tool', 'CPU s', 'wall s'], style: { head: [], border: [] } })
      for (const [name, r] of Object.entries(s.tools)) table.push([name, range(r.cpuSeconds, 3), range(r.wall, 3)])
      lines.push(table.toString())
      for (const [name, r] of Object.entries(s.ratios || {})) lines.push(`${name}: ${fmt(r)}`)
      for (const [name, loaded] of Object.entries(s.loaded || {})) lines.push(`${name} loads ${loaded}`)
    } else if (s.name === 'memory') {
      lines.push(Object.entries(s.rssMB).map(([at, mb]) => `RSS at ${at}: ${mb.toFixed(1)} MB`).join(', '))
    } else if (s.name === 'soak') {
      lines.push(...renderSoak(s))
    } else if (s.name === 'search') {
      lines.push(...renderSearch(s))
    } else if (s.name === 'stalls') {
      lines.push(...renderStalls(s))
    } else if (s.name === 'arrivals') {
      lines.push(...renderArrivals(s))
    } else if (s.name === 'grpc') {
      lines.push(...renderGrpc(s))
    } else if (s.name === 'shapes') {
      const table = new Table({ head: ['shape', 'CPU µs/req'], style: { head: [], border: [] } })
      for (const [name, us] of Object.entries(s.cpuUs)) table.push([name, fmt(us, 3)])
      lines.push(table.toString())
    } else {
      const table = new Table({ head: ['tool', 'req/s', 'CPU µs/req', 'errors'], style: { head: [], border: [] } })
      for (const [name, r] of Object.entries(s.tools)) table.push([name, range(r.rps, 0), range(r.cpuUs, 2), r.errors])
      lines.push(table.toString())
      for (const [name, r] of Object.entries(s.ratios || {})) lines.push(`${name}: ${fmt(r)}`)
    }
    for (const g of s.goals) lines.push(`${g.met ? 'met   ' : 'MISSED'} ${g.goal}: ${fmt(g.value, 3)}`)
  }
  return lines.join('\n') + '\n'
}

// A report kept with --json, shown as the tables a run prints.
function renderSaved (file) {
  let report
  try {
    report = JSON.parse(fs.readFileSync(file, 'utf8'))
  } catch (err) {
    fail(`cannot read a report from ${file}: ${err.message}`)
  }
  const complete = report && report.machine && report.options && Array.isArray(report.targets) && Array.isArray(report.scenarios)
  if (!complete) fail(`${file} is not a report written by --json`)
  process.stdout.write(render(report))
}

async function main () {
  const options = parseOptions(process.argv.slice(2))
  if (options.render) return renderSaved(options.render)
  // Progress goes to stderr, so stdout holds only the report (or the JSON).
  const log = (line) => process.stderr.write(line + '\n')
  const cpus = cpuSplit()
  const ctx = { options, cpus, log, tools: tools({ baseline: options.baseline }) }
  const targets = []
  const stopAll = () => Promise.all(targets.map((t) => t.stop()))
  process.on('SIGINT', () => stopAll().then(() => process.exit(130)))
  const report = { machine: machine(cpus), options, targets: [], scenarios: [] }
  try {
    const canned = await startCanned({ cpus: cpus.target })
    targets.push(canned)
    const nginx = options.target === 'canned' ? null : await startNginx({ cpus: cpus.target })
    if (nginx) targets.push(nginx)
    if (options.target === 'nginx' && !nginx) log('nginx is not installed (apt-get install nginx-light); using the canned server')
    const fast = nginx || canned
    const throughputTargets = options.target === 'all' ? targets : [options.target === 'nginx' ? fast : canned]
    report.targets = targets.map(({ name, description, url }) => ({ name, description, url }))

    for (const name of options.only) {
      if (name === 'c100' || name === 'p10') {
        const p = name === 'p10' ? 10 : 1
        for (const t of throughputTargets) {
          // Goals: ≤0.6× autocannon against the canned server (p 1 and 10);
          // on nginx ≤0.45× autocannon without pipelining, ≤1.2× wrk always.
          const goals = t.name === 'canned' ? { autocannon: 0.6 } : p === 1 ? { autocannon: 0.45, wrk: 1.2 } : { wrk: 1.2 }
          if (t.name === 'canned' && !nginx) goals.wrk = 1.2
          report.scenarios.push(await throughputScenario(name, t, p, ctx, goals))
        }
      } else if (name === 'h2') {
        // A target of its own: nginx in h2c, else a node:http2 server.
        const h2 = (options.target !== 'canned' && await startNginx({ cpus: cpus.target, http2: true })) || await startNodeH2({ cpus: cpus.target })
        targets.push(h2)
        report.targets.push({ name: h2.name, description: h2.description, url: h2.url })
        // The goal: no more CPU per request than h2load.
        report.scenarios.push(await throughputScenario(name, h2, 10, ctx, { h2load: 1.0 }, true))
      } else if (name === 'tls') {
        await tlsScenarios(options, cpus, ctx, targets, report)
      } else if (name === 'startup') report.scenarios.push(await startupScenario(canned, ctx))
      else if (name === 'memory') report.scenarios.push(await memoryScenario(canned, ctx))
      else if (name === 'workers') report.scenarios.push(await workersScenario(canned, ctx))
      else if (name === 'shapes') report.scenarios.push(await shapesScenario(ctx))
      else if (name === 'soak') report.scenarios.push(await soakScenario(fast, ctx))
      else if (name === 'search') report.scenarios.push(await searchScenario(ctx))
      else if (name === 'stalls') report.scenarios.push(await stallsScenario(ctx))
      else if (name === 'arrivals') report.scenarios.push(await arrivalsScenario(ctx))
      else if (name === 'dashboard') report.scenarios.push(await dashboardScenario(canned, ctx))
      else if (name === 'grpc') report.scenarios.push(await grpcScenario(ctx))
    }
  } finally {
    await stopAll()
  }
  if (options.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n')
  else process.stdout.write('\n' + render(report))
}

main().catch((err) => {
  process.stderr.write(`bench: ${err.message}\n`)
  process.exit(1)
})
