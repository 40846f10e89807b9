'use strict'

// setupClient is called once per connection: here each connection sends
// its own header and body, through the Client API.

const http = require('http')
const autocannon = require('..')

const perConnection = new Map()
const server = http.createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    const id = req.headers['x-connection']
    perConnection.set(id, (perConnection.get(id) || 0) + 1)
    res.end('hello world')
  })
})

let connection = 0

server.listen(0, '127.0.0.1', () => {
  autocannon({
    url: `http://127.0.0.1:${server.address().port}`,
    connections: 10,
    amount: 2000,
    method: 'POST',
    setupClient
  }, (err, result) => {
    server.close()
    if (err) throw err
    console.log(`${result.requests.total} requests over ${perConnection.size} connections, each with its own header and body:`)
    for (const [id, n] of [...perConnection].sort((a, b) => a[0] - b[0])) console.log(`  connection ${id}: ${n} requests`)
  })
})

function setupClient (client) {
  const id = connection++
  client.setHeaders({ 'x-connection': String(id) })
  client.setBody(`connection number ${id}`)
}
