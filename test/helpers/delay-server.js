'use strict'

// An HTTP server in its own process that answers every request after
// `delay` ms (argv[2], default 20), and on {stall: ms, after: ms} freezes
// its whole event loop for that long, like a GC pause: nothing is read or
// answered meanwhile, and the answers due during it all go out after it.

const http = require('http')

const delay = Number(process.argv[2] || 20)

const server = http.createServer((req, res) => {
  req.resume()
  setTimeout(() => res.end('ok'), delay)
})

process.on('message', (msg) => {
  if (msg.stall) {
    setTimeout(() => {
      const end = Date.now() + msg.stall
      while (Date.now() < end) { /* frozen on purpose */ }
    }, msg.after || 0)
    process.send({ ok: true })
  }
})

server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
process.on('disconnect', () => process.exit(0))
