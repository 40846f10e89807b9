'use strict'

// The folders of --on-port that runs killed by SIGKILL left
// (lib/cli/stale-folders.js): removed when their socket has no listener,
// or when they have none and are older than a minute; kept when the
// socket answers, when they are young, and when they are not --on-port's.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const net = require('net')
const path = require('path')
const { spawnSync } = require('child_process')
const { sweepStaleFolders, NO_SOCKET_MS } = require('../../lib/cli/stale-folders')

t.test('removes the folders nothing will remove, keeps the others', async (t) => {
  if (process.platform === 'win32') return t.skip('Unix sockets')
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-stale-'))
  t.teardown(() => fs.rmSync(tmp, { recursive: true, force: true }))
  const folder = (name) => {
    const dir = path.join(tmp, name)
    fs.mkdirSync(dir)
    return dir
  }
  // A socket whose process died without closing it: a node process that
  // listens on it, then ends by SIGKILL.
  const dead = folder('autocannon-Dead01')
  spawnSync(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path.join(dead, 'port.sock'))}, () => process.kill(process.pid, 'SIGKILL'))`])
  t.ok(fs.existsSync(path.join(dead, 'port.sock')), 'the dead listener\'s socket is there')
  // A socket that answers: a live run's.
  const live = folder('autocannon-Live01')
  const server = net.createServer()
  await new Promise((resolve) => server.listen(path.join(live, 'port.sock'), resolve))
  t.teardown(() => server.close())
  // No socket: one made this instant, and one older than a minute.
  folder('autocannon-Young1')
  const old = folder('autocannon-Old001')
  const then = new Date(Date.now() - NO_SOCKET_MS - 5000)
  fs.utimesSync(old, then, then)
  // Not --on-port's: the compile cache, and another name.
  const cache = folder('autocannon-compile-cache-0')
  fs.utimesSync(cache, then, then)
  folder('something-Else01')

  t.same(await sweepStaleFolders(tmp), ['autocannon-Dead01', 'autocannon-Old001'], 'the stale ones')
  t.same(fs.readdirSync(tmp).sort(), ['autocannon-Live01', 'autocannon-Young1', 'autocannon-compile-cache-0', 'something-Else01'], 'the others kept')
  t.same(await sweepStaleFolders(path.join(tmp, 'no-such-folder')), [], 'no temp directory: nothing to do')
})

t.test('a folder another user owns is left alone', async (t) => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-stale-'))
  t.teardown(() => fs.rmSync(tmp, { recursive: true, force: true }))
  const dir = path.join(tmp, 'autocannon-Other1')
  fs.mkdirSync(dir)
  const then = new Date(Date.now() - NO_SOCKET_MS - 5000)
  fs.utimesSync(dir, then, then)
  const uid = fs.statSync(dir).uid
  t.same(await sweepStaleFolders(tmp, { uid: uid + 1 }), [], 'not ours')
  t.same(await sweepStaleFolders(tmp, { uid }), ['autocannon-Other1'], 'ours')
})
