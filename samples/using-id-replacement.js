'use strict'

// idReplacement: every [<id>] in the body (or the path) becomes a fresh,
// unique id on each request; useful for endpoints that want unique fields.

const http = require('http')
const autocannon = require('..')

const emails = new Set()
let received = 0
const server = http.createServer((req, res) => {
  const body = []
  req.on('data', (chunk) => body.push(chunk))
  req.on('end', () => {
    received++
    emails.add(JSON.parse(Buffer.concat(body).toString()).email)
    res.statusCode = 201
    res.end()
  })
})

server.listen(0, '127.0.0.1', () => {
  autocannon({
    url: `http://127.0.0.1:${server.address().port}`,
    connections: 10,
    amount: 2000,
    requests: [
      {
        method: 'POST',
        path: '/register',
        headers: { 'Content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({
          name: 'New User',
          email: 'new-[<id>]@user.com' // [<id>] is replaced by a unique id for each request
        })
      }
    ],
    idReplacement: true
  }, (err, result) => {
    server.close()
    if (err) throw err
    console.log(`${result.requests.total} registrations, ${emails.size} distinct e-mail addresses out of ${received}`)
  })
})
