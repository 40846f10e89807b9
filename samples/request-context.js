'use strict'

// A sequence whose steps share a context: create a user (POST), then give
// them a last name (PUT) at the path made from the id the server returned.
// The context starts empty ({} or initialContext) at each round.

const http = require('http')
const autocannon = require('..')

let nextId = 1
const server = http.createServer((req, res) => {
  const body = []
  req.on('data', (chunk) => body.push(chunk))
  req.on('end', () => {
    const user = JSON.parse(Buffer.concat(body).toString() || '{}')
    if (req.method === 'POST' && req.url === '/users') user.id = nextId++
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify(user))
  })
})

server.listen(0, '127.0.0.1', () => {
  const url = `http://127.0.0.1:${server.address().port}`
  autocannon({
    url,
    connections: 4,
    amount: 2000,
    requests: [
      {
        // let's create a new user
        method: 'POST',
        path: '/users',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: 'Jane' }),
        onResponse: (status, body, context) => {
          if (status === 200) context.user = JSON.parse(body)
        }
      },
      {
        // now we'll give them a last name
        method: 'PUT',
        setupRequest: (req, context) => ({
          ...req,
          path: `/user/${context.user.id}`,
          body: JSON.stringify({ ...context.user, lastName: 'Doe' })
        })
      }
    ]
  }, (err, result) => {
    server.close()
    if (err) throw err
    console.log(`${result.requests.total} requests (${nextId - 1} users created and renamed), ${result.errors} errors, ${result.non2xx} non-2xx`)
  })
})
