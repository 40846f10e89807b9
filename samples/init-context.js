'use strict'

// initialContext: every round of the sequence starts from a copy of it.

const http = require('http')
const autocannon = require('..')

const server = http.createServer((req, res) => {
  const body = []
  req.on('data', (chunk) => body.push(chunk))
  // this route handler simply returns whatever it gets
  req.on('end', () => res.end(Buffer.concat(body)))
})

server.listen(0, '127.0.0.1', () => {
  autocannon({
    url: `http://127.0.0.1:${server.address().port}`,
    connections: 1,
    amount: 1,
    initialContext: { user: { id: 42, firstName: 'Salman' } },
    requests: [
      {
        // use data from the context
        method: 'PUT',
        setupRequest: (req, context) => ({
          ...req,
          path: `/user/${context.user.id}`,
          body: JSON.stringify({ ...context.user, lastName: 'Mitha' })
        }),
        onResponse: (status, body) => console.log(`the server got: ${body}`)
      }
    ]
  }, (err, result) => {
    server.close()
    if (err) throw err
    console.log(`${result.requests.total} request, ${result.errors} errors`)
  })
})
