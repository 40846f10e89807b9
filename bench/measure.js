'use strict'

// Runs one generator as a child process and measures what it cost: user
// and system CPU seconds (from bash's `times`, which reports the rusage of
// finished children on any Linux or macOS), wall time, and optionally the
// resident set size sampled from /proc at given moments.

const { spawn } = require('child_process')
const fs = require('fs')

// `times` prints two lines: the shell's own user/sys, then its children's.
function parseTimes (text) {
  const lines = text.trim().split('\n').slice(-2)
  const m = /(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/.exec(lines[1] || '')
  if (!m) return null
  return { user: Number(m[1]) * 60 + Number(m[2]), system: Number(m[3]) * 60 + Number(m[4]) }
}

function pinned (cpus, command, args) {
  return cpus && hasTaskset() ? ['taskset', ['-c', cpus, command, ...args]] : [command, args]
}

let taskset
function hasTaskset () {
  if (taskset === undefined) {
    taskset = process.platform === 'linux' && ['/usr/bin/taskset', '/bin/taskset', '/usr/sbin/taskset'].some((p) => fs.existsSync(p))
  }
  return taskset
}

// → { stdout, stderr, code, cpu: {user, system}, wall, rss: [{at, kB}] }
function measure (command, args, { cpus, rssAt = [], timeoutMs = 10 * 60 * 1000 } = {}) {
  const [cmd, argv] = pinned(cpus, command, args)
  const script = '"$@" 3>&-; code=$?; times >&3; exit $code'
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn('bash', ['-c', script, 'bash', cmd, ...argv], { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] })
    const out = { stdout: '', stderr: '', times: '' }
    child.stdout.on('data', (b) => { out.stdout += b })
    child.stderr.on('data', (b) => { out.stderr += b })
    child.stdio[3].on('data', (b) => { out.times += b })
    const rss = []
    const timers = rssAt.map((at) => setTimeout(() => rss.push({ at, kB: rssOfTree(child.pid) }), at * 1000))
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e9
      timers.forEach(clearTimeout)
      clearTimeout(killer)
      resolve({ stdout: out.stdout, stderr: out.stderr, code, cpu: parseTimes(out.times), wall, rss })
    })
  })
}

// RSS of the generator: the bash wrapper's child (the generator itself).
function rssOfTree (pid) {
  try {
    const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)
    const target = children.length ? children[0] : pid
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${target}/status`, 'utf8'))
    return m ? Number(m[1]) : null
  } catch {
    return null
  }
}

module.exports = { measure, pinned, hasTaskset, parseTimes }
