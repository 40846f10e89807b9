'use strict'

// Helpers for the engine tests: a raw `net` server on 127.0.0.1 port 0 that
// answers with hand-made bytes, a writer that trickles bytes out a few at a
// time, and a run with a time limit. Servers are closed (and their sockets
// destroyed) by the test's teardown.

const net = require('net')
const autocannon = require('../..')

// respond(head, socket, stats) is called once per request head received,
// the request's body (by its Content-Length) skipped. What it returns (a
// string or Buffer) is the response: the responses to all the requests of
// one read go out in one write, so pipelined requests get their answers
// several to a write. Returning nothing leaves the socket to `respond`
// (which, under pipelining, should defer what it writes itself: the
// responses returned for earlier requests of the same read go out after).
// opts.slice: write the responses `slice` bytes at a time instead, one
// piece per turn of the event loop, so they arrive cut everywhere.
async function rawServer (t, respond, { slice = 0 } = {}) {
  const stats = { requests: 0, connections: 0, heads: 0, maxBatch: 0, maxPerConnection: 0, writes: 0 }
  const sockets = new Set()
  const server = net.createServer((socket) => {
    stats.connections++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    // Without it, Nagle's algorithm holds small writes back for a delayed
    // ACK (40 ms), which would make pipelined runs crawl.
    socket.setNoDelay(true)
    let served = 0
    readRequests(socket, (heads) => {
      const out = []
      for (const head of heads) {
        // A response that killed the socket: the rest went with it.
        if (socket.destroyed) return
        stats.requests++
        stats.maxPerConnection = Math.max(stats.maxPerConnection, ++served)
        const response = respond(head, socket, stats)
        if (response !== undefined && response !== null) out.push(response)
      }
      if (out.length === 0) return
      stats.maxBatch = Math.max(stats.maxBatch, out.length)
      const bytes = Buffer.concat(out.map((r) => Buffer.isBuffer(r) ? r : Buffer.from(r, 'latin1')))
      if (slice) trickle(socket, bytes, slice)
      else {
        stats.writes++
        socket.write(bytes)
      }
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const close = () => new Promise((resolve) => {
    for (const socket of sockets) socket.destroy()
    server.close(() => resolve())
  })
  t.teardown(close)
  // close(): the server goes away, its open connections with it.
  return { url: `http://127.0.0.1:${server.address().port}`, stats, server, close }
}

// Calls onHeads(heads) for each read of the socket that completes request
// heads, with those heads (bodies, by their Content-Length, skipped).
function readRequests (socket, onHeads) {
  let pending = ''
  let bodyLeft = 0
  socket.on('data', (buf) => {
    pending += buf.toString('latin1')
    const heads = []
    for (;;) {
      if (bodyLeft > 0) {
        const k = Math.min(bodyLeft, pending.length)
        pending = pending.slice(k)
        bodyLeft -= k
        if (bodyLeft > 0) break
      }
      const end = pending.indexOf('\r\n\r\n')
      if (end === -1) break
      const head = pending.slice(0, end)
      pending = pending.slice(end + 4)
      const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head)
      bodyLeft = length ? Number(length[1]) : 0
      heads.push(head)
    }
    if (heads.length > 0) onHeads(heads)
  })
}

// Writes `data` to the socket `size` bytes at a time, one piece per turn
// of the event loop (the client, in this process, reads each piece before
// the next is written). Writes to one socket keep their order.
const queues = new WeakMap()
function trickle (socket, data, size = 1) {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data, 'latin1')
  const previous = queues.get(socket) || Promise.resolve()
  const next = previous.then(async () => {
    for (let i = 0; i < bytes.length; i += size) {
      if (socket.destroyed) return
      socket.write(bytes.subarray(i, i + size))
      await new Promise((resolve) => setImmediate(resolve))
    }
  })
  queues.set(socket, next)
  return next
}

// A port on 127.0.0.1 where connections are refused. A low (privileged)
// one where nothing listens: servers bound to port 0 never get those, so
// a test running beside this one cannot take it over, as it could an
// ephemeral port that was listening a moment ago.
async function closedPort () {
  for (const port of [9, 1, 7, 13, 19, 37, 79]) {
    const refused = await new Promise((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1' })
      socket.once('connect', () => { socket.destroy(); resolve(false) })
      socket.once('error', (err) => resolve(err.code === 'ECONNREFUSED'))
    })
    if (refused) return port
  }
  throw new Error('no refused low port on 127.0.0.1 to test against')
}

// autocannon(opts), stopped with a failed assertion if it has not ended
// within `limitMs` (an `amount` run that lost track of a request would
// otherwise wait for the tap timeout).
async function bench (t, opts, limitMs = 15000) {
  const instance = autocannon(opts)
  const guard = setTimeout(() => {
    t.fail(`the run did not end within ${limitMs} ms`)
    instance.stop()
  }, limitMs)
  try {
    return await instance
  } finally {
    clearTimeout(guard)
  }
}

module.exports = { rawServer, readRequests, trickle, closedPort, bench }
