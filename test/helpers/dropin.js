'use strict'

// The two sides of a drop-in comparison (test/e2e/dropin/): autocannon 9,
// the devDependency `autocannon-upstream`, and this package, each reached
// as a user's script reaches it, by the name `autocannon` in a project
// folder of the test's own; and a loopback server that keeps the bytes of
// every request it is sent, for byte-for-byte comparisons of what the two
// write, and one that answers 'ok' to each.

const fs = require('fs')
const os = require('os')
const net = require('net')
const http = require('http')
const path = require('path')
const { createRequire } = require('module')

const ROOT = path.join(__dirname, '..', '..')
const UPSTREAM = path.dirname(require.resolve('autocannon-upstream/package.json'))
const SIDES = { upstream: UPSTREAM, ours: ROOT }

// A folder whose node_modules/autocannon is one side; `require` resolves
// from inside it, as the script of a project that depends on `autocannon`.
function project (t, side) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ac-dropin-${side}-`))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  fs.mkdirSync(path.join(dir, 'node_modules'))
  fs.symlinkSync(SIDES[side], path.join(dir, 'node_modules', 'autocannon'), 'dir')
  return { dir, require: createRequire(path.join(dir, 'index.js')) }
}

// The requests of one connection's bytes: each head up to its blank line
// and the body its Content-Length gives (Buffers), in order.
function splitRequests (bytes) {
  const requests = []
  let at = 0
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at)
    if (end === -1) break
    const head = bytes.subarray(at, end + 4)
    const length = /\r\ncontent-length: *(\d+)/i.exec(head.toString('latin1'))
    const bodyEnd = end + 4 + (length ? Number(length[1]) : 0)
    if (bodyEnd > bytes.length) break
    requests.push({ head: head.toString('latin1'), body: bytes.subarray(end + 4, bodyEnd).toString('latin1') })
    at = bodyEnd
  }
  return requests
}

// A server on 127.0.0.1 that answers every request with an empty 200 and
// keeps each connection's bytes. connections(): the requests received, one
// list per connection in the order they were accepted; reset() forgets
// them, between the two sides' runs.
async function capturingServer (t) {
  let seen = []
  const sockets = new Set()
  const server = net.createServer((socket) => {
    const mine = { bytes: Buffer.alloc(0), answered: 0 }
    seen.push(mine)
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    socket.on('data', (chunk) => {
      mine.bytes = Buffer.concat([mine.bytes, chunk])
      const complete = splitRequests(mine.bytes).length
      for (; mine.answered < complete; mine.answered++) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n')
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise((resolve) => {
    for (const s of sockets) s.destroy()
    server.close(() => resolve())
  }))
  return {
    port: server.address().port,
    url: `http://127.0.0.1:${server.address().port}`,
    connections: () => seen.map((c) => splitRequests(c.bytes)),
    reset: () => { seen = [] }
  }
}

// A loopback server answering 'ok' to every request, closed at the test's
// end: resolves with its URL.
async function okServer (t) {
  const s = http.createServer((req, res) => res.end('ok'))
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve))
  t.teardown(() => s.close())
  return `http://127.0.0.1:${s.address().port}`
}

module.exports = { ROOT, UPSTREAM, project, capturingServer, okServer, splitRequests }
