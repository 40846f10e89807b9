'use strict'

// The fast target when nginx is absent: a raw `net` server that answers
// every request it sees with the same keep-alive response, several at once
// when requests arrive pipelined. It does no HTTP parsing beyond spotting
// the blank line that ends each request head (bench requests have no body),
// so the generator, not the target, is what a run measures.
//
//   node bench/canned-server.js   → prints the port, serves until killed

const net = require('net')

const RESPONSE = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 13\r\nContent-Type: text/plain\r\n\r\nHello, world!')
const batches = [Buffer.alloc(0), RESPONSE]

function batch (n) {
  if (!batches[n]) batches[n] = Buffer.concat(new Array(n).fill(RESPONSE))
  return batches[n]
}

const server = net.createServer((socket) => {
  socket.setNoDelay(true)
  let matched = 0 // bytes of "\r\n\r\n" seen so far
  socket.on('data', (buf) => {
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
    if (n > 0) socket.write(batch(n))
  })
  socket.on('error', () => {})
})

server.listen(0, '127.0.0.1', () => console.log(server.address().port))
process.on('SIGTERM', () => process.exit(0))
