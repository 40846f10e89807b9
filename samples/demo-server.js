'use strict'

// The demo target for `npm start`: a small node:http server on 127.0.0.1
// that reports its port to the parent process and exits with it.

const http = require('http')

const body = JSON.stringify({ hello: 'world' })
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
})

server.listen(0, '127.0.0.1', () => {
  if (process.send) process.send({ port: server.address().port })
  else console.log(`listening on http://127.0.0.1:${server.address().port}`)
})

process.on('disconnect', () => process.exit(0))
