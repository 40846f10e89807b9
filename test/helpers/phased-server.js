'use strict'

// An HTTP server in its own process whose response comes in two parts:
// the head `head` ms after the request (argv[2], default 5), flushed on
// its own, and the body's end `body` ms after that (argv[3], default 20).
// Asked { lateness: true }, it answers how late its timers fired (ms,
// median and max), the figure that tells a starved machine from a wrong
// measurement.

const http = require('http')

const head = Number(process.argv[2] || 5)
const body = Number(process.argv[3] || 20)
const late = []

function after (ms, fn) {
  const due = performance.now() + ms
  setTimeout(() => {
    late.push(performance.now() - due)
    fn()
  }, ms)
}

const server = http.createServer((req, res) => {
  req.resume()
  after(head, () => {
    res.writeHead(200, { 'content-length': 10 })
    res.flushHeaders()
    after(body, () => res.end('0123456789'))
  })
})

process.on('message', (msg) => {
  if (msg.lateness) {
    const sorted = late.slice().sort((a, b) => a - b)
    process.send({ p50: sorted[sorted.length >> 1] || 0, max: sorted[sorted.length - 1] || 0, timers: sorted.length })
  }
})

server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
process.on('disconnect', () => process.exit(0))
