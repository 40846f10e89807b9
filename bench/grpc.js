'use strict'

// The "grpc" scenario of `npm run bench`: CPU per unary call of ours
// (--call), of ghz, of a @grpc/grpc-js client loop, and of our own HTTP/2
// request of the same bytes (--http2 -m POST with the framed message),
// all against the same one-core @grpc/grpc-js server (bench/grpc-server.js),
// the same message (bench.Echo/Say {"name":"bench"}), -c 10 and 10 calls in
// flight on each connection, in interleaved rounds (within a round each
// runs once, so drift falls on all alike). Printed as ratios to ours.
//
// ghz: /root/go/bin/ghz, or ghz on the PATH; without it the row is a skip
// line saying how to get it.

const fs = require('fs')
const os = require('os')
const path = require('path')
const { spawn } = require('child_process')
const { measure } = require('./measure')
const { which } = require('./targets')

const ROOT = path.join(__dirname, '..')
const BIN = path.join(ROOT, 'bin', 'autocannon.js')
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'grpc')
const PROTO = path.join(FIXTURES, 'echo.proto')
const DATA = '{"name":"bench"}'
const CONNECTIONS = 10
const STREAMS = 10
// The issue's goals: at most 0.2x ghz's CPU per call, 1.3x our own HTTP/2
// request of the same bytes.
const GOALS = { ghz: 0.2, 'ours --http2': 1.3 }
const GHZ_HINT = 'go install github.com/bojand/ghz/cmd/ghz@v0.120.0'

function ghzPath () {
  if (fs.existsSync('/root/go/bin/ghz')) return '/root/go/bin/ghz'
  return which('ghz') ? 'ghz' : null
}

function startServer (cpus) {
  return new Promise((resolve, reject) => {
    const args = [path.join(__dirname, 'grpc-server.js')]
    const child = cpus ? spawn('taskset', ['-c', cpus, process.execPath, ...args], { stdio: ['ignore', 'pipe', 'inherit'] }) : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    child.stdout.on('data', (b) => {
      out += b
      const m = /^(\d+)\n/.exec(out)
      if (m) resolve({ port: Number(m[1]), stop: () => new Promise((resolve) => { child.once('close', resolve); child.kill('SIGTERM') }) })
    })
    child.on('error', reject)
    child.on('close', (code) => reject(new Error(`the gRPC bench server exited with ${code}`)))
  })
}

// Each tool: its command, and how its output reads → { completed, errors, duration }.
function toolsFor (port, duration, frameFile) {
  const url = `http://127.0.0.1:${port}`
  const ours = (result) => {
    const r = JSON.parse(result.trim().split('\n').pop())
    return { completed: r['2xx'], errors: r.errors || 0, duration: r.duration }
  }
  const tools = [
    { name: 'ours', command: process.execPath, args: [BIN, '--call', 'bench.Echo/Say', '--proto', PROTO, '--protoPath', FIXTURES, '--data', DATA, '-c', String(CONNECTIONS), '-p', String(STREAMS), '-d', String(duration), '-j', url], parse: ours },
    { name: 'ours --http2', command: process.execPath, args: [BIN, '--http2', '-m', 'POST', '-H', 'content-type=application/grpc', '-H', 'te=trailers', '-i', frameFile, '-c', String(CONNECTIONS), '-p', String(STREAMS), '-d', String(duration), '-j', `${url}/bench.Echo/Say`], parse: ours },
    {
      name: '@grpc/grpc-js loop',
      command: process.execPath,
      args: [path.join(__dirname, 'grpc-node-client.js'), `127.0.0.1:${port}`, String(CONNECTIONS), String(STREAMS), String(duration)],
      parse: (out) => {
        const r = JSON.parse(out.trim().split('\n').pop())
        return { completed: r.requests.total, errors: r.errors, duration: r.duration }
      }
    }
  ]
  const ghz = ghzPath()
  if (ghz !== null) {
    tools.push({
      name: 'ghz',
      command: ghz,
      args: ['--insecure', '--proto', PROTO, '--import-paths', FIXTURES, '--call', 'bench.Echo.Say', '-d', DATA, '--connections', String(CONNECTIONS), '-c', String(CONNECTIONS * STREAMS), '-z', `${duration}s`, '--format', 'json', `127.0.0.1:${port}`],
      parse: (out) => {
        const r = JSON.parse(out)
        const ok = (r.statusCodeDistribution && r.statusCodeDistribution.OK) || 0
        return { completed: ok, errors: r.count - ok, duration: r.total / 1e9 }
      }
    })
  }
  return { tools, ghz }
}

function median (values) {
  const v = values.filter(Number.isFinite).sort((a, b) => a - b)
  if (v.length === 0) return null
  const mid = Math.floor(v.length / 2)
  return v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2
}

async function grpcScenario (ctx) {
  const { options, cpus, log } = ctx
  const duration = options.duration
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-grpc-'))
  const frameFile = path.join(dir, 'say.bin')
  // The framed message ours sends, the same bytes for --http2.
  const { prepareCall } = require('../lib/grpc/prepare')
  fs.writeFileSync(frameFile, prepareCall({ url: 'http://h', grpc: { proto: PROTO, protoPath: [FIXTURES], call: 'bench.Echo/Say', data: DATA } }).body)
  const server = await startServer(cpus.target)
  const { tools, ghz } = toolsFor(server.port, duration, frameFile)
  log(`grpc: ${tools.map((t) => t.name).join(', ')} against a one-core @grpc/grpc-js server, -c ${CONNECTIONS}, ${STREAMS} calls in flight each, ${duration} s, ${options.reps} rounds`)
  const runs = tools.map(() => [])
  try {
    for (let i = 0; i < options.reps; i++) {
      for (let k = 0; k < tools.length; k++) {
        const tool = tools[k]
        const m = await measure(tool.command, tool.args, { cpus: cpus.generator })
        if (m.code !== 0) throw new Error(`${tool.name} exited with ${m.code}: ${(m.stderr || m.stdout).trim().split('\n').pop()}`)
        const r = tool.parse(m.stdout)
        const cpu = m.cpu ? m.cpu.user + m.cpu.system : NaN
        const run = { completed: r.completed, errors: r.errors, rps: r.completed / r.duration, cpuUs: cpu / r.completed * 1e6 }
        runs[k].push(run)
        log(`  ${tool.name}: ${Math.round(run.rps)} calls/s, ${run.cpuUs.toFixed(2)} CPU µs/call${r.errors ? `, ${r.errors} errors` : ''}`)
      }
    }
  } finally {
    await server.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
  const rows = tools.map((tool, k) => ({ tool: tool.name, cpuUs: median(runs[k].map((r) => r.cpuUs)), rps: median(runs[k].map((r) => r.rps)), errors: runs[k].reduce((a, r) => a + r.errors, 0) }))
  const ours = rows[0].cpuUs
  for (const row of rows) {
    row.ratio = ours / row.cpuUs
    if (GOALS[row.tool] !== undefined) row.goal = GOALS[row.tool]
  }
  const goals = rows.filter((row) => row.goal !== undefined).map((row) => ({ goal: `CPU per call ≤ ${row.goal}× ${row.tool}`, value: row.ratio, met: row.ratio <= row.goal }))
  return { name: 'grpc', target: 'grpc-js', flags: `-c ${CONNECTIONS} -p ${STREAMS} -d ${duration}`, rows, goals, skipped: ghz === null ? `ghz not found: ${GHZ_HINT}` : null }
}

function renderGrpc (s) {
  const Table = require('cli-table3')
  const table = new Table({ head: ['gRPC unary (-c 10, 10 in flight)', 'calls/s', 'CPU µs/call', 'ours ÷ it', 'goal'], style: { head: [], border: [] } })
  for (const row of s.rows) {
    table.push([row.tool, Math.round(row.rps), row.cpuUs === null ? '-' : row.cpuUs.toFixed(2), row.tool === 'ours' ? '1' : row.ratio.toFixed(2), row.goal === undefined ? '' : `≤ ${row.goal}${row.ratio <= row.goal ? ' ✓' : ' ✗'}`])
  }
  const lines = [table.toString()]
  if (s.skipped) lines.push(`ghz skipped: ${s.skipped}`)
  return lines
}

module.exports = { grpcScenario, renderGrpc }
