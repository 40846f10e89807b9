'use strict'

// A raw HTTP server in its own process that answers every request at once,
// records arrival times, and on {stall: ms} freezes its whole event loop
// for that long (nothing is read or written meanwhile), like a GC pause.
// It measures its own event-loop delay from its first request on: its
// pauses bunch arrivals as the generator's do.

const net = require('net')
const { performance, monitorEventLoopDelay } = require('perf_hooks')

const LOOP_RESOLUTION_MS = 10
const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS })

const RESPONSE = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok')
const arrivals = []
let requests = 0

const server = net.createServer((socket) => {
  let matched = 0
  socket.on('data', (buf) => {
    const now = performance.now() + performance.timeOrigin
    let n = 0
    for (let i = 0; i < buf.length; i++) {
      const c = buf[i]
      if (c === (matched % 2 === 0 ? 13 : 10)) {
        if (++matched === 4) {
          n++
          matched = 0
        }
      } else {
        matched = c === 13 ? 1 : 0
      }
    }
    if (n && arrivals.length === 0) loop.enable()
    for (let k = 0; k < n; k++) arrivals.push(now)
    requests += n
    if (n) socket.write(n === 1 ? RESPONSE : Buffer.concat(new Array(n).fill(RESPONSE)))
  })
  socket.on('error', () => {})
})

process.on('message', (msg) => {
  if (msg.stall) {
    setTimeout(() => {
      const end = Date.now() + msg.stall
      while (Date.now() < end) { /* frozen on purpose */ }
    }, msg.after || 0)
    process.send({ ok: true })
  } else if (msg.report) {
    // Node's figure is the time between samples: the delay is what exceeds
    // the resolution.
    const loopDelayMax = loop.count ? Math.max(0, loop.max / 1e6 - LOOP_RESOLUTION_MS) : 0
    process.send({ requests, arrivals, loopDelayMax })
  }
})

server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
process.on('disconnect', () => process.exit(0))
