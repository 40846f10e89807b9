'use strict'

// Hostile targets for the engine: `net` servers on 127.0.0.1 port 0 that
// misbehave in one way each, plus a refused port and a name that does not
// resolve. Every server is closed, with all its sockets destroyed and its
// timers stopped, by the test's teardown.
//
//   const { hostile } = require('./helpers/hostile-servers')
//   const { url, stats } = await hostile(t, 'silent')
//
// stats: { connections, requests } as the server saw them (requests are
// counted by their heads, whatever the server does with them).

const net = require('net')
const { Worker } = require('worker_threads')
const { readRequests, closedPort } = require('./raw-server')

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'

// The one name that is not a loopback address: .invalid never resolves
// (RFC 6761), and fails fast here.
const UNRESOLVABLE_URL = 'http://nonexistent.invalid/'

// A `net` server; onConnection(socket, stats, server) decides what happens.
// Every socket gets an error handler (the client resets them all the time)
// and a Set of timers stopped when it closes (see every()).
async function netServer (t, onConnection) {
  const stats = { connections: 0, requests: 0 }
  const sockets = new Set()
  const server = net.createServer((socket) => {
    stats.connections++
    sockets.add(socket)
    socket.timers = new Set()
    socket.on('close', () => {
      sockets.delete(socket)
      for (const timer of socket.timers) clearInterval(timer)
      socket.timers.clear()
    })
    socket.on('error', () => {})
    socket.setNoDelay(true)
    onConnection(socket, stats)
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  let closed = null
  const close = () => {
    if (closed === null) {
      closed = new Promise((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
    }
    return closed
  }
  t.teardown(close)
  return { url: `http://127.0.0.1:${server.address().port}`, stats, server, close }
}

// fn() every `ms` on this socket until it closes (or fn returns false).
function every (socket, ms, fn) {
  const timer = setInterval(() => {
    if (socket.destroyed || fn() === false) {
      clearInterval(timer)
      socket.timers.delete(timer)
    }
  }, ms)
  socket.timers.add(timer)
}

// Calls onRequests(k, socket) with the number k of complete request heads
// each read brought (autocannon's requests here have no body; a body given
// by Content-Length is skipped anyway).
function onRequests (socket, stats, onRequests) {
  readRequests(socket, (heads) => {
    stats.requests += heads.length
    if (!socket.destroyed) onRequests(heads.length, socket)
  })
}

const BIG_BODY_SIZE = 10 * 1024 * 1024 + 1024 * 1024
let bigResponse = null

// name → what the server does with each connection.
const BEHAVIOURS = {
  // Not hostile: answers every request (for controls, and for hostile
  // clients: hooks that throw).
  ok (socket, stats) {
    onRequests(socket, stats, (k) => socket.write(OK.repeat(k)))
  },

  // Accepts, reads the requests, never answers.
  silent (socket, stats) {
    onRequests(socket, stats, () => {})
  },

  // A reset (RST) on the first request bytes.
  reset (socket, stats) {
    socket.once('data', () => {
      stats.requests++
      socket.resetAndDestroy()
    })
  },

  // Bytes that are not HTTP in answer to the requests.
  garbage (socket, stats) {
    onRequests(socket, stats, () => socket.write('\x00\xffSPAM SPAM SPAM\r\n\r\n'))
  },

  // Not HTTP, before any request: what an SSH (or SMTP…) port says on accept.
  banner (socket, stats) {
    onRequests(socket, stats, () => {})
    socket.write('SSH-2.0-OpenSSH_9.6\r\n')
  },

  // A status line, then header lines of 1 KiB, four every 5 ms, and never
  // the end of the head. (Four at a time: on a busy event loop the timer
  // fires far less often than asked, and the head must still pass 16 KiB
  // well within the client's timeout.)
  endlessHeaders (socket, stats) {
    onRequests(socket, stats, () => {
      if (socket.started) return
      socket.started = true
      socket.write('HTTP/1.1 200 OK\r\n')
      let i = 0
      const line = 'a'.repeat(1000)
      every(socket, 5, () => {
        let lines = ''
        for (let k = 0; k < 4; k++) lines += `X-Filler-${i++}: ${line}\r\n`
        socket.write(lines)
      })
    })
  },

  // Interim responses (100 Continue) every 5 ms, and never the final one.
  endless1xx (socket, stats) {
    onRequests(socket, stats, () => {
      if (socket.started) return
      socket.started = true
      every(socket, 5, () => { socket.write('HTTP/1.1 100 Continue\r\n\r\n') })
    })
  },

  // A chunked body of one short chunk, then trailer lines of 1 KiB, four
  // every 5 ms, and never the end of the trailers.
  endlessTrailers (socket, stats) {
    onRequests(socket, stats, () => {
      if (socket.started) return
      socket.started = true
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n')
      let i = 0
      const line = 't'.repeat(1000)
      every(socket, 5, () => {
        let lines = ''
        for (let k = 0; k < 4; k++) lines += `X-Trailer-${i++}: ${line}\r\n`
        socket.write(lines)
      })
    })
  },

  // A body delimited by the close (no Content-Length, not chunked), 100
  // bytes every 5 ms, and the close never comes.
  bodyUntilClose (socket, stats) {
    onRequests(socket, stats, () => {
      if (socket.started) return
      socket.started = true
      socket.write('HTTP/1.1 200 OK\r\n\r\n')
      every(socket, 5, () => { socket.write('x'.repeat(100)) })
    })
  },

  // HTTP/1.0 without keep-alive: the first request of each connection is
  // answered with a body delimited by the close, then the close. Valid,
  // and announced: the requests pipelined behind it were never started.
  http10 (socket, stats) {
    onRequests(socket, stats, () => {
      if (socket.answered) return
      socket.answered = true
      socket.end('HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nhello')
    })
  },

  // A head announcing a body of 10^12 bytes, then a byte every 100 ms.
  hugeContentLength (socket, stats) {
    onRequests(socket, stats, () => {
      if (socket.started) return
      socket.started = true
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000000000000\r\n\r\n')
      every(socket, 100, () => { socket.write('x') })
    })
  },

  // A chunked body whose chunk size is not hexadecimal.
  badChunk (socket, stats) {
    onRequests(socket, stats, (k) => {
      socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nok\r\n0\r\n\r\n'.repeat(k))
    })
  },

  // Valid responses, one byte every 200 ms (a slowloris in reverse).
  slowloris (socket, stats) {
    let queue = ''
    onRequests(socket, stats, (k) => {
      const idle = queue.length === 0
      queue += OK.repeat(k)
      if (!idle || socket.started) return
      socket.started = true
      every(socket, 200, () => {
        if (queue.length === 0) return
        socket.write(queue[0])
        queue = queue.slice(1)
      })
    })
  },

  // Closes every connection as soon as it is accepted.
  closeOnAccept (socket) {
    socket.destroy()
  },

  // Answers the first request of each connection with Connection: close,
  // and closes: one answer per connection, the other pipelined requests
  // lost (an HTTP/1.0-minded server, or keep-alive turned off).
  connectionClose (socket, stats) {
    onRequests(socket, stats, () => {
      if (socket.answered) return
      socket.answered = true
      socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok')
    })
  },

  // Answers half of the requests of the first read (at least one), then
  // closes without announcing it.
  halfThenClose (socket, stats) {
    onRequests(socket, stats, (k) => {
      if (socket.answered) return
      socket.answered = true
      socket.end(OK.repeat(Math.max(1, Math.floor(k / 2))))
    })
  },

  // Two responses to every request.
  doubleResponse (socket, stats) {
    onRequests(socket, stats, (k) => socket.write(OK.repeat(2 * k)))
  },

  // A body of 11 MiB (more than the default maxBodySize of 10 MiB) for
  // every request.
  bigBody (socket, stats) {
    if (bigResponse === null) {
      bigResponse = Buffer.concat([
        Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${BIG_BODY_SIZE}\r\n\r\n`),
        Buffer.alloc(BIG_BODY_SIZE, 'b')
      ])
    }
    onRequests(socket, stats, (k) => {
      for (let i = 0; i < k; i++) socket.write(bigResponse)
    })
  }
}

async function hostile (t, name) {
  const behaviour = BEHAVIOURS[name]
  if (!behaviour) throw new Error(`no hostile server called ${name}`)
  return netServer(t, behaviour)
}

// A port that was listening a moment ago and is closed now: connections
// to it are refused.
async function refusedUrl () {
  return `http://127.0.0.1:${await closedPort()}`
}

// A server that never accepts: it listens with a backlog of 1 from a
// worker thread whose event loop is then blocked, so the kernel completes
// the first two handshakes (which then sit unanswered) and drops the SYNs
// of every later connection, which hang until the client gives up.
// stop() (also the teardown) unblocks the worker and closes the server.
const NEVER_ACCEPTS = `
const { parentPort, workerData: flag } = require('worker_threads')
const net = require('net')
const server = net.createServer(() => {})
server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
  parentPort.postMessage(server.address().port)
  setImmediate(() => {
    while (Atomics.load(flag, 0) === 0) Atomics.wait(flag, 0, 0, 100)
    server.close()
    process.exit(0)
  })
})
`

async function neverAccepts (t) {
  const flag = new Int32Array(new SharedArrayBuffer(4))
  const worker = new Worker(NEVER_ACCEPTS, { eval: true, workerData: flag })
  const exited = new Promise((resolve) => worker.once('exit', resolve))
  const port = await new Promise((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
  const stop = () => {
    Atomics.store(flag, 0, 1)
    Atomics.notify(flag, 0)
    return exited
  }
  t.teardown(stop)
  return { url: `http://127.0.0.1:${port}`, stop }
}

module.exports = { hostile, refusedUrl, neverAccepts, netServer, BEHAVIOURS, UNRESOLVABLE_URL, BIG_BODY_SIZE, OK }
