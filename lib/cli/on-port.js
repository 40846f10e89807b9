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

// Starts the command after `--` with detect-port.js preloaded, and resolves
// once it listens, to { listening: { port, address }, stop() }.
// How long the command has to exit after the signal, before SIGKILL.
const GRACE_MS = 3000

// How often to look whether the command's group is gone, once its leader
// has exited.
const GROUP_POLL_MS = 20

// The processes of group `pgid` still running, as Linux's /proc says
// (null elsewhere): a member that has died but that init has not yet
// reaped (a zombie, which kill(-pgid, 0) still finds) is gone.
function liveMembers (pgid) {
  let names
  try {
    names = fs.readdirSync('/proc')
  } catch {
    return null
  }
  let live = 0
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue
    let stat
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8')
    } catch {
      continue
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') live++
  }
  return live
}

// signalOf(): the signal that stopped the run, if one did: the command
// gets the same.
function startCommand (opts, session, signalOf = () => undefined) {
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
  const started = () => child !== null && child.pid !== undefined
  // Its own process group: a shell or npm wrapper goes with its server.
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
  // action, death without 'exit', away until the command is gone).
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
    stopping = new Promise((resolve) => {
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
        if (!exited) return
        // (A process SIGKILL cannot end, stuck in the kernel, is waited
        // for no longer than a second more.)
        if (!groupAlive() || Date.now() >= until + 1000) return gone()
        if (!killed && Date.now() >= until) {
          killed = true
          kill('SIGKILL')
        }
        setTimeout(watch, GROUP_POLL_MS)
      }
      const timer = setTimeout(() => {
        killed = true
        kill('SIGKILL')
      }, GRACE_MS)
      const onChildExit = () => {
        clearTimeout(timer)
        watch()
      }
      if (exited) onChildExit()
      else child.once('exit', onChildExit)
      kill(signal)
    })
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
    server.listen(socketPath, () => {
      // Stopped while the socket was set up: nothing to start.
      if (settled) return
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
        settle(raise('AC_COMMAND_FAILED', `--on-port: the command exited (${signal || `code ${code}`}) before listening on a port: ${opts.spawn.join(' ')}`))
      })
      child.once('error', (err) => {
        exited = true
        settle(raise('AC_COMMAND_FAILED', `--on-port: cannot start ${file}: ${err.message}`))
      })
    })
  })
}

module.exports = { pointAt, startCommand }
