'use strict'

// Listens on 127.0.0.1, port 0; at the test's end the server is closed
// with every socket it accepted destroyed (tunnelled and HTTP/2 sockets
// would otherwise hold close() back). Resolves with the port.
function listen (t, server) {
  const sockets = new Set()
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      t.teardown(() => new Promise((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }))
      resolve(server.address().port)
    })
  })
}

module.exports = { listen }
