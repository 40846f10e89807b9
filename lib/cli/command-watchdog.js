'use strict'

// The process --on-port puts between the CLI and the command it starts,
// so that the command ends when the CLI does, however the CLI ends: a
// SIGKILL (`kill -9`, `timeout -k`, the OOM killer) runs none of the CLI's
// handlers. It leads the command's process group (the CLI starts it
// detached, the command is started in its group) and holds an IPC channel
// to the CLI, which the kernel closes when the CLI dies by any means: then
// it sends SIGTERM to the group, SIGKILL ORPHAN_GRACE_MS later to what is
// left but itself (it reaps the command, then exits), and removes the
// CLI's folder for the command. The command itself
// may be anything (a shell, npm, a server in any language): nothing is
// asked of it.
//
// `node command-watchdog.js <folder> <file> [args…]` starts the command at
// once (the CLI listens for its port before it starts the watchdog). To
// the CLI: { exit: { code, signal } } when the command has exited,
// { error } when it could not be started. It stays while anything else of
// its group runs (a wrapper's children can outlive it), then exits as the
// command did (its code, or by its signal), so that nothing of the group
// is left unwatched while the CLI waits on it.

const fs = require('fs')
const os = require('os')
const { spawn } = require('child_process')
const { liveMembers, signalMembers } = require('./process-group')

// What the command has, once the CLI is gone, to exit on SIGTERM.
const ORPHAN_GRACE_MS = 500
// How often to look whether the rest of the group is gone.
const GROUP_POLL_MS = 20
// The CLI signals the whole group: the command gets each signal from it
// directly, and the watchdog stays to see the group out.
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP']
// The command's NODE_OPTIONS (with the port detector preloaded): the
// watchdog runs without, so that nothing of the user's or the detector
// is loaded into it.
const COMMAND_NODE_OPTIONS = 'AUTOCANNON_COMMAND_NODE_OPTIONS'

// The environment the CLI starts the watchdog with, from its own and the
// command's NODE_OPTIONS.
function watchdogEnv (env, nodeOptions) {
  const out = { ...env, [COMMAND_NODE_OPTIONS]: nodeOptions }
  delete out.NODE_OPTIONS
  return out
}

// The command's environment, from the watchdog's.
function commandEnv (env) {
  const out = { ...env, NODE_OPTIONS: env[COMMAND_NODE_OPTIONS] }
  delete out[COMMAND_NODE_OPTIONS]
  if (out.NODE_OPTIONS === undefined) delete out.NODE_OPTIONS
  return out
}

function run ([folder, file, ...args], proc = process) {
  const group = proc.pid
  let status = null
  let finishing = false
  const ignore = () => {}
  const killGroup = (signal) => {
    try { proc.kill(-group, signal) } catch {}
  }
  const tell = (message) => {
    if (proc.connected) proc.send(message, ignore)
  }
  // Exits as the command did, once nothing else of the group runs (or at
  // once where /proc cannot say).
  const finish = () => {
    if (finishing) return
    const live = liveMembers(group)
    if (live !== null && live > 1) return setTimeout(finish, GROUP_POLL_MS)
    finishing = true
    const end = () => {
      if (status && status.signal) {
        for (const signal of SIGNALS) proc.removeListener(signal, ignore)
        try { proc.kill(proc.pid, status.signal) } catch {}
        // A signal Node does not let end a process (SIGPIPE): what a
        // shell would say of it.
        setImmediate(() => proc.exit(128 + (os.constants.signals[status.signal] || 0)))
      } else {
        proc.exit(status ? status.code : 0)
      }
    }
    // Messages still on their way go first.
    if (proc.connected) proc.disconnect()
    setImmediate(end)
  }
  // A CLI killed while this process was still starting closed the
  // channel before any listener could be here: Node has set it
  // disconnected, and its 'disconnect' went to nobody. Nothing is started
  // for a CLI that is gone.
  if (!proc.connected) {
    fs.rmSync(folder, { recursive: true, force: true })
    return proc.exit(1)
  }
  // The signals that reach the watchdog came to the group.
  for (const signal of SIGNALS) proc.on(signal, ignore)
  const command = spawn(file, args, { stdio: ['ignore', 'inherit', 'inherit'], env: commandEnv(proc.env) })
  command.once('error', (err) => {
    status = { code: 1, signal: null }
    tell({ error: err.message })
    finish()
  })
  command.once('exit', (code, signal) => {
    status = { code, signal }
    tell({ exit: status })
    finish()
  })
  // The CLI is gone, or has let go: nothing of the group is to outlive it.
  const orphaned = () => {
    if (finishing) return
    fs.rmSync(folder, { recursive: true, force: true })
    killGroup('SIGTERM')
    // SIGKILL to the rest of the group first, so that this process
    // reaps the command and exits (finish); to all of it, this process
    // too, if that has not happened ORPHAN_GRACE_MS later.
    setTimeout(() => {
      if (signalMembers(group, 'SIGKILL')) setTimeout(() => killGroup('SIGKILL'), ORPHAN_GRACE_MS)
      else killGroup('SIGKILL')
    }, ORPHAN_GRACE_MS)
  }
  proc.once('disconnect', orphaned)
}

if (require.main === module) run(process.argv.slice(2))

module.exports = { run, watchdogEnv, commandEnv, ORPHAN_GRACE_MS }
