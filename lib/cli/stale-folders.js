'use strict'

// The folders --on-port makes for its command (autocannon-XXXXXX in the
// temp directory, holding the socket the command's port comes back on)
// that nothing is left to remove: the CLI and its watchdog both died by
// SIGKILL, or the CLI in the instant before its watchdog existed. Each
// --on-port run removes those it finds. A folder is stale when its socket
// is there but nothing listens on it (a listener that closes removes its
// socket: one left is one whose process died), or, without a socket, when
// it is older than NO_SOCKET_MS (the CLI makes its socket within
// milliseconds of the folder). A folder whose socket answers, or that
// another user owns, is left alone.

const fs = require('fs')
const net = require('net')
const path = require('path')

const NAME = /^autocannon-[A-Za-z0-9]{6}$/
const SOCKET = 'port.sock'
const NO_SOCKET_MS = 60000
// A socket that neither answers nor refuses in this long is taken as
// alive.
const CONNECT_MS = 1000

// Resolves to whether something listens on the socket.
function listening (socketPath) {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath)
    const done = (alive) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(alive)
    }
    const timer = setTimeout(() => done(true), CONNECT_MS)
    socket.once('connect', () => done(true))
    socket.once('error', (err) => done(err.code !== 'ECONNREFUSED' && err.code !== 'ENOENT'))
  })
}

async function stale (dir, { now, uid }) {
  let stat
  try {
    stat = fs.statSync(dir)
  } catch {
    return false
  }
  if (!stat.isDirectory() || (uid !== null && stat.uid !== uid)) return false
  const socketPath = path.join(dir, SOCKET)
  if (fs.existsSync(socketPath)) return !(await listening(socketPath))
  return now - stat.mtimeMs > NO_SOCKET_MS
}

// Removes the stale folders in `tmp`; resolves to their names.
async function sweepStaleFolders (tmp, { now = Date.now(), uid = typeof process.getuid === 'function' ? process.getuid() : null } = {}) {
  let names
  try {
    names = fs.readdirSync(tmp).filter((name) => NAME.test(name))
  } catch {
    return []
  }
  const removed = []
  await Promise.all(names.map(async (name) => {
    const dir = path.join(tmp, name)
    if (!(await stale(dir, { now, uid }))) return
    try {
      fs.rmSync(dir, { recursive: true, force: true })
      removed.push(name)
    } catch {}
  }))
  return removed.sort()
}

module.exports = { sweepStaleFolders, NO_SOCKET_MS }
