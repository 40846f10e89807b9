'use strict'

// The real command, spawned with stdin closed and a clean environment (no
// PORT, no colour settings of the caller's).

const path = require('path')
const { spawn } = require('child_process')

const BIN = path.join(__dirname, '..', '..', 'bin', 'autocannon.js')

// `extra.NODE_OPTIONS` (a test's preloads) is added to the runner's own.
// The runner's coverage (its hooks in NODE_OPTIONS, V8's counters with
// NODE_V8_COVERAGE) slows a node process and grows its heap, and with it
// its GC pauses: a test that bounds a run's own pauses runs the command as
// users do (`bare`), with only its own preloads.
function env (extra = {}, { bare = false } = {}) {
  const out = { ...process.env, ...extra }
  for (const k of ['PORT', 'NO_COLOR', 'FORCE_COLOR']) if (!(k in extra)) delete out[k]
  if (bare) delete out.NODE_V8_COVERAGE
  const options = [bare ? null : process.env.NODE_OPTIONS, extra.NODE_OPTIONS].filter(Boolean).join(' ')
  if (options) out.NODE_OPTIONS = options
  else delete out.NODE_OPTIONS
  return out
}

// [command, args] that start `node file ...args` with `vars` as its
// environment. The runner's hooks (tap's processinfo, its coverage with
// them) are put into the NODE_OPTIONS of every process a test spawns,
// whatever the environment given: a `bare` process is started through
// env(1), which sets NODE_OPTIONS back to what was asked for.
function nodeCommand (file, args, vars, bare) {
  if (!bare || process.platform === 'win32') return [process.execPath, [file, ...args]]
  const options = vars.NODE_OPTIONS ? [`NODE_OPTIONS=${vars.NODE_OPTIONS}`] : ['-u', 'NODE_OPTIONS']
  return ['env', [...options, process.execPath, file, ...args]]
}

// Spawns the CLI; `.done` resolves to { code, signal, stdout, stderr,
// killed, wall }: killed when it outlived `timeout` (ms; longer for what
// runs longer than a test run, a capacity search), wall its time in ms.
// `bare`: as users run it, without the runner's hooks and coverage.
function start (args, { extraEnv, cwd, timeout = 30000, bare = false } = {}) {
  const started = Date.now()
  const vars = env(extraEnv, { bare })
  const [command, argv] = nodeCommand(BIN, args, vars, bare)
  const child = spawn(command, argv, { cwd, env: vars, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout.setEncoding('utf8')
  child.stderr.setEncoding('utf8')
  child.out = ''
  child.err = ''
  child.stdout.on('data', (c) => { child.out += c })
  child.stderr.on('data', (c) => { child.err += c })
  let killed = false
  const timer = setTimeout(() => {
    killed = true
    child.kill('SIGKILL')
  }, timeout)
  child.done = new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, stdout: child.out, stderr: child.err, killed, wall: Date.now() - started })
    })
  })
  return child
}

const run = (args, opts) => start(args, opts).done

module.exports = { BIN, env, nodeCommand, start, run }
