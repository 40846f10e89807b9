'use strict'

// autocannon.start(opts): what autocannon's command does with the options
// of parseArguments(argv). Nothing for none (help or version was printed
// instead); else the run of autocannon(opts), which shows it as the
// command does for options from parseArguments. With --on-port it first
// starts the command after `--` and runs against the port it listens on,
// then stops the command. An error is one line on stderr, its message, as
// autocannon's start prints it: start() sets no exit code and returns
// nothing, as autocannon's, so a script decides what a failure means. The
// command's own outputs (--html, --out, --hgrm, a threshold's exit code,
// --findMaxRate) are the command's, `autocannon …`.

const engine = require('../engine/autocannon')
const { Session } = require('../engine/session')
const track = require('../output/track')
const { lazy } = require('../core/lazy')
// Lazy: only --on-port needs it.
const onPort = lazy(() => require('./on-port'))

// As the package's autocannon(): shown with track() for options from
// parseArguments.
function autocannon (opts) {
  return engine.autocannon(opts, undefined, { show: track })
}

function report (err) {
  process.stderr.write(`${err && err.message !== undefined ? err.message : err}\n`)
}

function start (opts) {
  if (!opts) return undefined
  if (opts.onPort) {
    againstCommand(opts).catch(report)
    return undefined
  }
  try {
    // A forever run has no promise: its error is its 'error' event.
    const instance = autocannon(opts)
    if (typeof instance.then === 'function') instance.catch(report)
  } catch (err) {
    report(err)
  }
  return undefined
}

// Ctrl-C stops the run (the command is stopped after it), as autocannon's.
async function againstCommand (opts) {
  const session = new Session()
  let instance = null
  const onSigint = () => {
    session.stop()
    if (instance) instance.stop()
  }
  process.once('SIGINT', onSigint)
  let command = null
  try {
    const { startCommand, pointAt } = onPort()
    command = await startCommand(opts, session)
    instance = autocannon({ ...opts, onPort: false, url: pointAt(opts.url, command.listening) })
    await instance.settled()
  } finally {
    process.removeListener('SIGINT', onSigint)
    if (command) await command.stop()
  }
}

module.exports = { start }
