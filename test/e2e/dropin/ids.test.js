'use strict'

// idReplacement's ids as a server sees them, autocannon 9 beside us: the
// same shape and length (hyperid's, fixed length: a UUID in URL-safe
// base64, '-', a 10-digit counter), one prefix per connection with its
// counter from 0, one id for every [<id>] of a request, and so the same
// Content-Length.

const t = require('tap')
const { project, capturingServer } = require('../../helpers/dropin')

const ID = /^([A-Za-z0-9_-]{22})-(\d{10})$/

const run = (autocannon, opts) => new Promise((resolve, reject) => {
  autocannon(opts, (err, result) => err ? reject(err) : resolve(result))
})

t.test('idReplacement: the ids autocannon 9 sends, per connection', async (t) => {
  const server = await capturingServer(t)
  const seen = {}
  for (const side of ['upstream', 'ours']) {
    server.reset()
    const autocannon = project(t, side).require('autocannon')
    await run(autocannon, {
      url: server.url,
      connections: 2,
      amount: 8,
      idReplacement: true,
      requests: [{ method: 'POST', path: '/users/[<id>]', headers: { 'x-id': '[<id>]' }, body: '{"id":"[<id>]","again":"[<id>]"}' }]
    })
    seen[side] = server.connections().map((requests) => requests.map(({ head, body }) => ({
      path: /^POST \/users\/(\S+) HTTP/.exec(head)[1],
      header: /\r\nx-id: (\S+)\r\n/.exec(head)[1],
      body: JSON.parse(body),
      length: Number(/\r\nContent-Length: (\d+)\r\n/.exec(head)[1])
    })))
  }
  for (const side of ['upstream', 'ours']) {
    const connections = seen[side]
    t.equal(connections.length, 2, `${side}: two connections`)
    const prefixes = connections.map((requests) => {
      t.ok(requests.length >= 2, `${side}: requests on each connection`)
      requests.forEach((r, n) => {
        t.match(r.path, ID, `${side}: the id's shape`)
        t.equal(r.path.length, 33, `${side}: 33 characters`)
        t.same([r.header, r.body.id, r.body.again], [r.path, r.path, r.path], `${side}: one id for the whole request`)
        t.equal(ID.exec(r.path)[2], String(n).padStart(10, '0'), `${side}: the connection's counter, from 0`)
        t.equal(ID.exec(r.path)[1], ID.exec(requests[0].path)[1], `${side}: one prefix per connection`)
      })
      return ID.exec(requests[0].path)[1]
    })
    t.not(prefixes[0], prefixes[1], `${side}: each connection has its own prefix`)
  }
  t.equal(seen.ours[0][0].length, seen.upstream[0][0].length, 'the same Content-Length')
})
