'use strict'

// The `autocannon` command: parse, then run (after a warmup, against a
// command started with --on-port, round after round with -f), showing
// progress and tables on stderr or one JSON line per result on stdout.
// Exit code 0 after a run, 1 with a single line on stderr for bad input.

const fs = require('fs')
const path = require('path')
const { parseCli, checkTlsFiles, libraryOptions, OPTIONS, describe } = require('./args')
const { EXIT, Interrupted, thresholdsExitCode } = require('./exit-codes')
const { maskSecrets } = require('../core/redact')
const { raise } = require('../core/errors')
const { UPSTREAM_VERSION } = require('../core/upstream-messages')
const { WARNINGS, warningLine } = require('../core/warnings')
const { Session } = require('../engine/session')
const { autocannon, warmupOptions } = require('../engine/autocannon')
const { checkDestinations, writeOutputs } = require('../output/outputs')
const { checkWorkers } = require('../config/limits')
const compileCache = require('./compile-cache')
const { lazy } = require('../core/lazy')
// Lazy: only --version needs it.
const packageJson = lazy(() => require('../../package.json'))
// Lazy: only a run that shows its progress needs it (-j and -n do not).
const track = lazy(() => require('../output/track'))
// Lazy: os, for its signal numbers, only once a signal came.
const os = lazy(() => require('os'))
// Lazy: only --on-port needs it.
const onPort = lazy(() => require('./on-port'))
// Lazy: only --dashboard needs it.
const dashboard = lazy(() => require('../output/dashboard/attach'))
// Lazy: only --findMaxRate needs it.
const search = lazy(() => require('./search'))
// Lazy: only a run that got no response needs it, to say why.
const noResponse = lazy(() => require('../results/no-response'))

// `autocannon <command> …`: work on saved results instead of running.
// Lazy: each only when its command is run.
const COMMANDS = {
  report: lazy(() => require('./report')),
  compare: lazy(() => require('./compare')),
  merge: lazy(() => require('./merge')),
  kube: lazy(() => require('./kube'))
}

// One line, starting as autocannon's error lines do ("Error: " and its
// message), with our detail after it, and the flag the user typed when
// the library names an option.
function oneLine (err) {
  let line
  if (err && (err.code === 'AC_INVALID_OPTION' || err.name === 'UnreadableFileError') && Object.prototype.hasOwnProperty.call(OPTIONS, err.option)) {
    line = err.upstream
      ? `${err.message} (${describe(err.option)}: ${err.detail})`
      : `Invalid value for ${describe(err.option)}: ${err.detail}`
  } else {
    const message = String(err && err.message !== undefined ? err.message : err)
    // Our own message already says what the detail says.
    const said = err && err.code === 'AC_INVALID_OPTION' && !err.upstream
    line = err && typeof err.detail === 'string' && !said ? `${message} (${err.detail})` : message
  }
  // A JSON parser's message quotes the input, newlines and all.
  line = maskSecrets(line.replace(/\s*\n\s*/g, ' ').trim())
  // A run that got no response is told as the summary's last line, not as
  // an error of the input.
  return err && err.code === 'AC_NO_RESPONSE' ? line : `Error: ${line}`
}

function fail (err) {
  flushWarnings()
  process.stderr.write(`${oneLine(err)}\n`)
  process.exitCode = EXIT.FAILED
}

// Our warnings as one plain line each, held until the tables are out: the
// header ("Running 1s test @ …", the connections and workers lines) comes
// first, as in autocannon, whose scripts read those lines first. Anything
// else as Node prints it.
const heldWarnings = []

function printWarnings () {
  const defaults = process.listeners('warning')
  process.removeAllListeners('warning')
  process.on('warning', (warning) => {
    if (warning && Object.prototype.hasOwnProperty.call(WARNINGS, warning.code)) {
      heldWarnings.push(warningLine(warning))
    } else {
      for (const listener of defaults) listener(warning)
    }
  })
}

function flushWarnings () {
  for (const line of heldWarnings.splice(0)) process.stderr.write(`${line}\n`)
}

function main (argv) {
  if (Object.prototype.hasOwnProperty.call(COMMANDS, argv[0])) return runCommand(argv[0], argv.slice(1))
  let opts
  try {
    opts = parseCli(argv)
    checkDestinations(opts)
    checkTlsFiles(opts)
    // Before a command is started for --on-port, too.
    checkWorkers(opts)
  } catch (err) {
    return fail(err)
  }
  // On stderr, as autocannon prints it: stdout is for results (-j), and a
  // command line without a URL shows the help too, exit code 0.
  if (opts.help) {
    process.stderr.write(helpText())
    return
  }
  if (opts.version) {
    process.stdout.write(versionText())
    return
  }

  printWarnings()
  // Whatever goes wrong later is still told in one line, not a stack trace.
  process.on('uncaughtException', (err) => {
    if (opts.debug && err && err.stack) process.stderr.write(`${err.stack}\n`)
    fail(err)
    process.exit(1)
  })

  // Stopped by SIGTERM or SIGHUP: 128 + its number, as a shell reports a
  // process the signal ended (Ctrl-C keeps 130 for "nothing to show" and
  // the run's own code otherwise, as autocannon, wrk and oha do).
  const signalled = () => stoppedBy !== null && stoppedBy !== 'SIGINT' ? 128 + signalNumber(stoppedBy) : null
  // The handlers are ours from here until the command's process group is
  // gone, its folder removed and every worker ended: a signal in between
  // must not take the default action (death), which would orphan the
  // command and leave the folder (Node runs no 'exit' handler then).
  const session = new Session()
  let over = false
  const onSignal = (signal) => {
    // Everything is stopped and removed: only the exit code is left.
    if (over) process.exit(signal === 'SIGINT' ? process.exitCode : 128 + signalNumber(signal))
    // A second signal gives up at once: the 'exit' handler of on-port.js
    // kills the command's group and removes its folder.
    if (stoppedBy !== null) process.exit(128 + signalNumber(signal))
    stoppedBy = signal
    session.stop()
  }
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal)
  return start(opts, session).then((code) => {
    process.exitCode = signalled() || code
  }, (err) => {
    if (err instanceof Interrupted || stoppedBy !== null) process.exitCode = signalled() || EXIT.INTERRUPTED
    else fail(err)
  }).then(() => {
    over = true
    // While the handlers are ours: a signal in the meantime is handled.
    compileCache.persist()
    // Two more turns of the loop, so that a signal that came while the
    // run ended is handled (a signal caught as the loop polls is handled
    // at the next poll; its listener removed before that, it would be
    // lost, and the run would exit 0), then SIGTERM's and SIGHUP's default
    // action again: one while Node tears down ends the process by that
    // signal (128 + its number to a shell, as documented for them)
    // instead of being lost. The second turn does nothing else, so that
    // the window for a signal to come between its poll and the listeners'
    // removal is microseconds (a process the machine preempts right there
    // still misses one: it exits with the code it had, as it would had
    // the signal come just after it exited).
    setImmediate(() => setImmediate(() => {
      for (const signal of STOP_SIGNALS) if (signal !== 'SIGINT') process.removeListener(signal, onSignal)
    }))
    // Ctrl-C keeps its listener to the end: its default action, death by
    // SIGINT, is what a shell reports as 130, "nothing to show", wrong
    // once there is a result. And the process ends by process.exit() once
    // the loop is done (every write flushed, every 'exit' handler before
    // this one run): left to Node, the teardown after the loop closes the
    // listener's handle first, and a Ctrl-C in the milliseconds after
    // that would still kill it. Ended this way, one then is not seen.
    process.once('exit', () => process.exit())
  })
}

// One run (or, with -f, one series of rounds) of the library, shown as the
// options ask. Resolves to the result.
function runOnce (opts, session, { warmup = false, warmupResult } = {}) {
  // The CLI runs the warm-up itself, with a progress bar of its own, from
  // the same options the library's warm-up takes.
  const libOpts = warmup ? warmupOptions({ ...libraryOptions(opts), warmup: opts.warmup }) : libraryOptions(opts)
  delete libOpts.warmup
  // The dashboard follows the run proper, not its warm-up.
  if (warmup) delete libOpts.dashboard
  return session.run(() => {
    const instance = autocannon(libOpts)
    // (A -f run's error is also emitted, as autocannon's is: the session
    // has it, through instance.settled().)
    if (libOpts.forever) instance.on('error', () => {})
    const config = instance.opts
    if (config && config.dashboard) dashboard().watch(instance)
    if (config && config.startAt !== undefined && opts.renderProgressBar) {
      const seconds = Math.max(0, (config.startAt - Date.now()) / 1000)
      const part = config.shard ? `shard ${config.shard.index} of ${config.shard.count} (0-based), ` : ''
      process.stderr.write(`${part}starting at ${new Date(config.startAt).toISOString()} (in ${seconds.toFixed(1)} s)\n`)
    }
    if (opts.renderProgressBar) {
      // The header and the bar; the tables are an output like the others.
      track()(instance, {
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
        // Cut short by a signal: merge and compare are told.
        if (stoppedBy !== null) result.partial = { signal: stoppedBy }
        writeOutputs(result, opts)
        flushWarnings()
      })
    }
    return instance
  })
}

// Our name and version first: autocannon's own test matches
// /autocannon v(\d+\.\d+\.\d+)/ anywhere in the line, which the
// autocannon version named after it satisfies.
function versionText () {
  const { name, version } = packageJson()
  return `${name} v${version} (compatible with autocannon v${UPSTREAM_VERSION})\nnode ${process.version}\n`
}

function helpText () {
  return fs.readFileSync(path.join(__dirname, '..', '..', 'help.txt'), 'utf8')
}

function signalNumber (signal) {
  return os().constants.signals[signal]
}

// The signals that stop a run as Ctrl-C does: a terminal closed (SIGHUP),
// `kill`, systemd, Docker or a Kubernetes pod deleted (SIGTERM).
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP']
// Set to the signal that stopped the run: its result is marked partial.
let stoppedBy = null

async function start (opts, session) {
  // The warm-up, the run (or its -f rounds) or the search: one session.
  // A signal stops it (main()), the run still ends with its results
  // (printed and written), and the command started with --on-port gets
  // the signal.
  let command = null
  try {
    if (opts.onPort) {
      const { startCommand, pointAt } = onPort()
      command = await startCommand(opts, session, () => stoppedBy || undefined)
      opts = { ...opts, url: pointAt(opts.url, command.listening) }
    }
    if (opts.findMaxRate) return await search().runSearch(opts, session)
    let warmupResult
    if (opts.warmup) {
      warmupResult = await runOnce(opts, session, { warmup: true })
      if (session.stopped) throw new Interrupted()
    }
    const result = await runOnce(opts, session, { warmupResult })
    // (-f: the last round is the one Ctrl-C cut short.)
    const none = result && result.requests && result.requests.total === 0
    // Stopped before any response: the signal is the reason, not the
    // target (-f: the rounds before it were the result).
    if (none && stoppedBy !== null && !opts.forever) throw new Interrupted()
    if (!opts.forever && none) {
      // Not a benchmark of anything: say why, and fail the command.
      throw raise('AC_NO_RESPONSE', noResponse().noResponseLine(result))
    }
    // The table already said it, unless -j kept stderr quiet.
    // --abortOnFail stopped it: a failed threshold, whatever the whole says.
    if (result && result.aborted) return EXIT.THRESHOLDS_FAILED
    return thresholdsExitCode(result && result.thresholds, { tablesShown: opts.renderResultsTable })
  } finally {
    // The command's whole process group, SIGKILL after a grace; main()'s
    // handlers stay until it is gone.
    if (command) await command.stop(stoppedBy || undefined)
    flushWarnings()
  }
}

// A subcommand: it prints its own output; errors are one line, exit 1.
function runCommand (name, argv) {
  return Promise.resolve()
    .then(() => COMMANDS[name]().run(argv))
    .then((code) => { process.exitCode = code || EXIT.OK }, fail)
    .then(() => compileCache.persist())
}

module.exports = { main, helpText, versionText }
