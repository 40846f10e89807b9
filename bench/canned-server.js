'use strict'

// The fast target when nginx is absent: a raw `net` server that answers
// every request it sees with the same keep-alive response, several at once
// when requests arrive pipelined. It does no HTTP parsing beyond spotting
// the blank line that ends each request head (bench requests have no body),
// so the generator, not the target, is what a run measures.
//
//   node bench/canned-server.js             → prints the port, serves until killed
//   node bench/canned-server.js CERT KEY    → the same over TLS (http/1.1 by ALPN)

const fs = require('fs')
const net = require('net')
const tls = require('tls')

const RESPONSE = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 13\r\nContent-Type: text/plain\r\n\r\nHello, world!')
const batches = [Buffer.alloc(0), RESPONSE]
const END = Buffer.from('\r\n\r\n')

function batch (n) {
  if (!batches[n]) batches[n] = Buffer.concat(new Array(n).fill(RESPONSE))
  return batches[n]
}

// Bytes of "\r\n\r\n" matched once byte c follows `matched` of them.
function advance (matched, c) {
  if (c === (matched % 2 === 0 ? 13 : 10)) return matched + 1
  return c === 13 ? 1 : 0
}

const [cert, key] = process.argv.slice(2)
const server = cert
  ? tls.createServer({ cert: fs.readFileSync(cert), key: fs.readFileSync(key), ALPNProtocols: ['http/1.1'] }, serve)
  : net.createServer(serve)

function serve (socket) {
  socket.setNoDelay(true)
  let matched = 0 // bytes of "\r\n\r\n" seen so far
  // Byte by byte only where a blank line may straddle two reads: a longer
  // request then costs the target next to nothing more, so it does not
  // slow the exchange and, with it, change what the generator pays.
  socket.on('data', (buf) => {
    let n = 0
    let i = 0
    while (matched > 0 && i < buf.length) {
      matched = advance(matched, buf[i++])
      if (matched === 4) {
        n++
        matched = 0
      }
    }
    if (i < buf.length) {
      for (let at = buf.indexOf(END, i); at !== -1; at = buf.indexOf(END, i)) {
        n++
        i = at + 4
      }
      // A blank line begun at the end of this read.
      for (i = Math.max(i, buf.length - 3); i < buf.length; i++) matched = advance(matched, buf[i])
    }
    if (n > 0) socket.write(batch(n))
  })
  socket.on('error', () => {})
}

server.listen(0, '127.0.0.1', () => console.log(server.address().port))
process.on('SIGTERM', () => process.exit(0))
