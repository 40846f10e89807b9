'use strict'

// The `autocannon` command: parse, then run (after a warmup, against a
// command started with --on-port, round after round with -f), showing
// progress and tables on stderr or one JSON line per result on stdout.
// Exit code 0 after a run, 1 with a single line on stderr for bad input.

const fs = require('fs')
const path = require('path')
const { parseArguments, OPTIONS, describe } = require('./args')
const { maskSecrets } = require('../core/redact')
const { WARNINGS, raise } = require('../core/errors')
const { Session } = require('../engine/session')

const { OUTPUT_OPTIONS, checkDestinations, writeOutputs } = require('../output/outputs')

// Options only the command line knows (outputs, and how runs are started);
// the library gets the rest.
const CLI_ONLY = [...OUTPUT_OPTIONS, 'renderProgressBar', 'warmup', 'onPort', 'spawn', 'help', 'version',
  'findMaxRate', 'slo', 'precision', 'stepDuration']

// As k6: a run whose thresholds failed exits with a code of its own, so CI
// tells "too slow" from "could not run" (1).
const EXIT_THRESHOLDS_FAILED = 99

// `autocannon <command> …`: work on saved results instead of running.
const COMMANDS = {
  report: './report',
  compare: './compare',
  merge: './merge',
  kube: './kube'
}

// Thrown to end quietly after Ctrl-C, when there is no result to show.
class Interrupted extends Error {}

function libraryOptions (opts) {
  const out = { ...opts }
  for (const key of CLI_ONLY) delete out[key]
  return out
}

// One line, with the flag the user typed when the library names an option.
function oneLine (err) {
  if (err && err.code === 'AC_INVALID_OPTION' && Object.prototype.hasOwnProperty.call(OPTIONS, err.option)) {
    // autocannon's wording first, when it has some, for scripts that match it.
    const line = err.lead
      ? `${err.lead}: invalid value for ${describe(err.option)}: ${err.detail}`
      : `Invalid value for ${describe(err.option)}: ${err.detail}`
    return line.split('\n')[0]
  }
  const message = err && err.message !== undefined ? err.message : String(err)
  return maskSecrets(String(message).split('\n')[0])
}

function fail (err) {
  process.stderr.write(`${oneLine(err)}\n`)
  process.exitCode = 1
}

// Our warnings as one plain line each; anything else as Node prints it.
function printWarnings () {
  const defaults = process.listeners('warning')
  process.removeAllListeners('warning')
  process.on('warning', (warning) => {
    if (warning && Object.prototype.hasOwnProperty.call(WARNINGS, warning.code)) {
      process.stderr.write(`autocannon: warning: ${warning.message}\n`)
    } else {
      for (const listener of defaults) listener(warning)
    }
  })
}

function main (argv) {
  if (Object.prototype.hasOwnProperty.call(COMMANDS, argv[0])) return runCommand(argv[0], argv.slice(1))
  let opts
  try {
    opts = parseArguments(argv)
    checkDestinations(opts)
  } catch (err) {
    return fail(err)
  }
  if (opts.help) {
    process.stdout.write(fs.readFileSync(path.join(__dirname, '..', '..', 'help.txt'), 'utf8'))
    return
  }
  if (opts.version) {
    const { version } = require('../../package.json')
    process.stdout.write(`autocannon v${version}\nnode ${process.version}\n`)
    return
  }

  printWarnings()
  // Whatever goes wrong later is still told in one line, not a stack trace.
  process.on('uncaughtException', (err) => {
    if (opts.debug && err && err.stack) process.stderr.write(`${err.stack}\n`)
    fail(err)
    process.exit(1)
  })

  return start(opts).then((code) => {
    process.exitCode = code
  }, (err) => {
    if (err instanceof Interrupted) process.exitCode = 130
    else fail(err)
  })
}

// One run (or, with -f, one series of rounds) of the library, shown as the
// options ask. Resolves to the result.
function runOnce (opts, session, { warmup = false, warmupResult } = {}) {
  const autocannon = require('../../autocannon')
  const libOpts = libraryOptions(opts)
  if (warmup) {
    Object.assign(libOpts, opts.warmup)
    // A warmup given a duration runs for it, even before an amount run.
    if (opts.warmup.duration !== undefined) libOpts.amount = 0
    libOpts.forever = false
    // The warmup goes first; the run proper waits for the start time.
    delete libOpts.startAt
  }
  return session.run(() => {
    const instance = autocannon(libOpts)
    const config = instance.opts
    if (config && config.startAt !== undefined && opts.renderProgressBar) {
      const seconds = Math.max(0, (config.startAt - Date.now()) / 1000)
      const part = config.shard ? `shard ${config.shard.index} of ${config.shard.count} (0-based), ` : ''
      process.stderr.write(`${part}starting at ${new Date(config.startAt).toISOString()} (in ${seconds.toFixed(1)} s)\n`)
    }
    if (opts.renderProgressBar) {
      // The header and the bar; the tables are an output like the others.
      require('../output/track')(instance, {
        outputStream: process.stderr,
        renderProgressBar: true,
        renderResultsTable: false,
        warmupRunning: warmup
      })
    }
    if (!warmup) {
      // Each result (each round with -f) goes to every output asked for.
      instance.on('done', (result) => {
        if (warmupResult) result.warmup = warmupResult
        writeOutputs(result, opts)
      })
    }
    return instance
  })
}

async function start (opts) {
  // The warm-up, the run (or its -f rounds) or the search: one session.
  // Ctrl-C stops it, and the run still ends with its results; a second
  // one gives up at once.
  const session = new Session()
  const onSigint = () => {
    if (session.stopped) process.exit(130)
    session.stop()
  }
  process.on('SIGINT', onSigint)

  let command = null
  try {
    if (opts.onPort) {
      command = await startCommand(opts, session)
      opts = { ...opts, url: pointAt(opts.url, command.listening) }
    }
    if (opts.findMaxRate) return await require('./search').runSearch(opts, libraryOptions(opts), session)
    let warmupResult
    if (opts.warmup) {
      warmupResult = await runOnce(opts, session, { warmup: true })
      if (session.stopped) throw new Interrupted()
    }
    const result = await runOnce(opts, session, { warmupResult })
    // (-f: the last round is the one Ctrl-C cut short.)
    if (!opts.forever && result && result.requests && result.requests.total === 0) {
      // Not a benchmark of anything: say why, and fail the command.
      throw raise('AC_NO_RESPONSE', require('../output/print-result').noResponseLine(result))
    }
    const failed = (result && result.thresholds ? result.thresholds : []).filter((t) => !t.ok)
    if (failed.length === 0) return 0
    // The table already said it, unless -j kept stderr quiet.
    if (!opts.renderResultsTable) {
      process.stderr.write(`${failed.length} of ${result.thresholds.length} thresholds failed: ${failed.map((t) => t.expression).join(', ')}\n`)
    }
    return EXIT_THRESHOLDS_FAILED
  } finally {
    process.removeListener('SIGINT', onSigint)
    if (command) await command.stop()
  }
}

// --on-port: the URL given (often just a path) on the port the command
// listens on.
function pointAt (url, { port, address }) {
  const host = !address || address === '::'
    ? 'localhost'
    : address === '0.0.0.0'
      ? '127.0.0.1'
      : address.includes(':') ? `[${address}]` : address
  const one = (u) => {
    if (u.startsWith('/')) return `http://${host}:${port}${u}`
    const target = new URL(u)
    target.port = String(port)
    return target.href
  }
  return Array.isArray(url) ? url.map(one) : one(url)
}

// Starts the command after `--` with detect-port.js preloaded, and resolves
// once it listens, to { listening: { port, address }, stop() }.
function startCommand (opts, session) {
  const os = require('os')
  const net = require('net')
  const { spawn } = require('child_process')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autocannon-'))
  const socketPath = path.join(dir, 'port.sock')
  const [file, ...args] = opts.spawn
  const preload = `--require ${JSON.stringify(path.join(__dirname, 'detect-port.js'))}`

  let child = null
  let exited = false
  const server = net.createServer()
  let cleaned = false
  const cleanup = () => {
    if (cleaned) return
    cleaned = true
    server.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
  // Its own process group: a shell or npm wrapper goes with its server.
  const kill = (signal) => {
    try {
      process.kill(-child.pid, signal)
    } catch {
      try { child.kill(signal) } catch {}
    }
  }
  // However autocannon ends (a second Ctrl-C, a crash), the command ends too.
  const killOnExit = () => { if (child && !exited && child.pid !== undefined) kill('SIGKILL') }
  process.once('exit', killOnExit)
  const stop = () => new Promise((resolve) => {
    cleanup()
    if (exited || !child || child.pid === undefined) {
      process.removeListener('exit', killOnExit)
      return resolve()
    }
    child.once('exit', () => {
      process.removeListener('exit', killOnExit)
      resolve()
    })
    kill('SIGTERM')
    setTimeout(() => kill('SIGKILL'), 3000).unref()
  })

  return new Promise((resolve, reject) => {
    let settled = false
    const settle = (err, value) => {
      if (settled) return
      settled = true
      session.onStop = null
      if (err) stop().then(() => reject(err))
      else resolve(value)
    }
    session.onStop = () => settle(new Interrupted())
    if (session.stopped) return settle(new Interrupted())
    server.on('connection', (socket) => {
      let data = ''
      socket.setEncoding('utf8')
      socket.on('data', (chunk) => { data += chunk })
      socket.on('error', () => {})
      socket.on('end', () => {
        let msg
        try {
          msg = JSON.parse(data)
        } catch {
          return
        }
        if (Number.isInteger(msg.port)) settle(null, { listening: msg, stop })
      })
    })
    server.on('error', (err) => settle(new Error(`--on-port: cannot listen for the command's port: ${err.message}`)))
    server.listen(socketPath, () => {
      child = spawn(file, args, {
        // With -j, stdout is for the JSON only: the command's output goes to stderr.
        stdio: ['ignore', opts.json ? 2 : 'inherit', 'inherit'],
        detached: true,
        env: {
          ...process.env,
          NODE_OPTIONS: process.env.NODE_OPTIONS ? `${preload} ${process.env.NODE_OPTIONS}` : preload,
          AUTOCANNON_DETECT_PORT_SOCKET: socketPath
        }
      })
      child.once('exit', (code, signal) => {
        exited = true
        settle(new Error(`--on-port: the command exited (${signal || `code ${code}`}) before listening on a port: ${opts.spawn.join(' ')}`))
      })
      child.once('error', (err) => {
        exited = true
        settle(new Error(`--on-port: cannot start ${file}: ${err.message}`))
      })
    })
  })
}

// A subcommand: it prints its own output; errors are one line, exit 1.
function runCommand (name, argv) {
  return Promise.resolve()
    .then(() => require(COMMANDS[name]).run(argv))
    .then((code) => { process.exitCode = code || 0 }, fail)
}

module.exports = { main, pointAt, libraryOptions, EXIT_THRESHOLDS_FAILED }
