'use strict'

// --on-port (and `-- node server.js`): the command after -- is started with
// detect-port.js preloaded, which tells us the port it listens on; the run
// then goes to that port, and the command is stopped when the run ends,
// however it ends.

const fs = require('fs')
const os = require('os')
const net = require('net')
const path = require('path')
const { spawn } = require('child_process')
const { raise } = require('../core/errors')
const { authority } = require('../core/url')
const { Interrupted } = require('./exit-codes')
const { liveMembers, signalMembers } = require('./process-group')
const { watchdogEnv } = require('./command-watchdog')
const { sweepStaleFolders } = require('./stale-folders')

// --on-port: the URL given (often just a path) on the port the command
// listens on.
function pointAt (url, { port, address }) {
  const host = !address || address === '::'
    ? 'localhost'
    : address === '0.0.0.0' ? '127.0.0.1' : address
  const one = (u) => {
    if (u.startsWith('/')) return `http://${authority(host, port)}${u}`
    const target = new URL(u)
    target.port = String(port)
    return target.href
  }
  return Array.isArray(url) ? url.map(one) : one(url)
}

// How long the command has to exit after the signal, before SIGKILL.
const GRACE_MS = 3000
// How long the watchdog has, once the rest of its group is SIGKILLed, to
// reap it and exit, before it is SIGKILLed too.
const LEADER_GRACE_MS = 1000

// How often to look whether the command's group is gone, once its leader
// has exited.
const GROUP_POLL_MS = 20

const WATCHDOG = path.join(__dirname, 'command-watchdog.js')

// Starts the command after `--` with detect-port.js preloaded, and resolves
// once it listens, to { listening: { port, address }, stop() }. The
// command is started by command-watchdog.js, which leads its process group
// and ends it if this process dies without a word (a SIGKILL runs none of
// our handlers). signalOf(): the signal that stopped the run, if one did:
// the command gets the same.
function startCommand (opts, session, signalOf = () => undefined) {
  const tmp = os.tmpdir()
  // What runs that died by SIGKILL left behind, in the background; the
  // command's stop waits for it, so that a short run does not exit
  // before the sweep is done.
  const swept = sweepStaleFolders(tmp).catch(() => {})
  const dir = fs.mkdtempSync(path.join(tmp, 'autocannon-'))
  const socketPath = path.join(dir, 'port.sock')
  const [file, ...args] = opts.spawn
  const preload = `--require ${JSON.stringify(path.join(__dirname, 'detect-port.js'))}`
  const nodeOptions = process.env.NODE_OPTIONS ? `${preload} ${process.env.NODE_OPTIONS}` : preload

  let child = null
  // Whether the command (or the watchdog) has exited, and who waits on it.
  let exited = false
  const onExited = []
  const markExited = () => {
    if (exited) return
    exited = true
    for (const fn of onExited.splice(0)) fn()
  }
  const server = net.createServer()
  let cleaned = false
  const cleanup = () => {
    if (cleaned) return
    cleaned = true
    server.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
  const started = () => child !== null && child.pid !== undefined
  const kill = (signal) => {
    try {
      process.kill(-child.pid, signal)
    } catch {
      try { child.kill(signal) } catch {}
    }
  }
  // Whether anything of the group is left (a wrapper's children can
  // outlive it).
  const groupAlive = () => {
    const live = liveMembers(child.pid)
    if (live !== null) return live > 0
    try {
      process.kill(-child.pid, 0)
      return true
    } catch (err) {
      return err.code === 'EPERM'
    }
  }
  // However autocannon ends (a second signal, a crash), the command ends
  // too and its folder goes: 'exit' handlers run on process.exit() and
  // at the end of the event loop (main.js keeps the signals' default
  // action, death without 'exit', away until the command is gone). What
  // no handler sees, a SIGKILL, the watchdog does.
  const onExit = () => {
    cleanup()
    if (started()) kill('SIGKILL')
  }
  process.once('exit', onExit)
  // The signal that stopped us goes to the command's group first (SIGTERM
  // when the run simply ended), then SIGKILL to whatever of it has not
  // exited after a grace. Resolves once nothing of the group is left.
  let stopping = null
  const stop = (signal = 'SIGTERM') => {
    if (stopping) return stopping
    cleanup()
    const ended = new Promise((resolve) => {
      if (!started()) {
        process.removeListener('exit', onExit)
        return resolve()
      }
      const until = Date.now() + GRACE_MS
      let killed = false
      const gone = () => {
        process.removeListener('exit', onExit)
        resolve()
      }
      const watch = () => {
        // (A process SIGKILL cannot end, stuck in the kernel, is waited
        // for no longer than a second more.)
        if (!groupAlive() || Date.now() >= until + 1000) return gone()
        if (!killed && Date.now() >= until) {
          killed = true
          kill('SIGKILL')
        }
        setTimeout(watch, GROUP_POLL_MS)
      }
      // After the grace, SIGKILL to the group but its leader, the
      // watchdog, which reaps them and then exits; to all of it if the
      // watchdog is still there LEADER_GRACE_MS later (or where /proc
      // cannot name them).
      let last = null
      const timer = setTimeout(() => {
        killed = true
        if (signalMembers(child.pid, 'SIGKILL')) last = setTimeout(() => kill('SIGKILL'), LEADER_GRACE_MS)
        else kill('SIGKILL')
      }, GRACE_MS)
      const onChildExit = () => {
        clearTimeout(timer)
        clearTimeout(last)
        watch()
      }
      if (exited) onChildExit()
      else onExited.push(onChildExit)
      kill(signal)
    })
    stopping = Promise.all([ended, swept]).then(() => {})
    return stopping
  }

  return new Promise((resolve, reject) => {
    let settled = false
    const settle = (err, value) => {
      if (settled) return
      settled = true
      session.onStop = null
      if (err) stop(signalOf()).then(() => reject(err))
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
    server.on('error', (err) => settle(raise('AC_COMMAND_FAILED', `--on-port: cannot listen for the command's port: ${err.message}`)))
    // Bound before listen() returns: the command can report its port from
    // its first instant, and a folder whose socket no process listens on
    // is a dead run's (stale-folders.js).
    server.listen(socketPath)
    // The watchdog starts the command; from here on the folder goes with
    // this process however it ends. Its own process group: a shell or npm
    // wrapper goes with its server.
    child = spawn(process.execPath, [WATCHDOG, dir, file, ...args], {
      // With -j, stdout is for the JSON only: the command's output goes to stderr.
      stdio: ['ignore', opts.json ? 2 : 'inherit', 'inherit', 'ipc'],
      detached: true,
      env: watchdogEnv({ ...process.env, AUTOCANNON_DETECT_PORT_SOCKET: socketPath }, nodeOptions)
    })
    const exitedFirst = ({ code, signal }) => raise('AC_COMMAND_FAILED', `--on-port: the command exited (${signal || `code ${code}`}) before listening on a port: ${opts.spawn.join(' ')}`)
    const cannotStart = (message) => raise('AC_COMMAND_FAILED', `--on-port: cannot start ${file}: ${message}`)
    child.on('message', (message) => {
      if (message && message.exit) {
        markExited()
        settle(exitedFirst(message.exit))
      } else if (message && typeof message.error === 'string') {
        settle(cannotStart(message.error))
      }
    })
    // The watchdog exits as the command did, after its message.
    child.once('exit', (code, signal) => {
      markExited()
      settle(exitedFirst({ code, signal }))
    })
    child.once('error', (err) => {
      markExited()
      settle(cannotStart(err.message))
    })
  })
}

module.exports = { pointAt, startCommand }
