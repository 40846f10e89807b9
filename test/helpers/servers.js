'use strict'

// Servers for tests, on 127.0.0.1 port 0, closed by the test's teardown.

const http = require('http')
const path = require('path')
const { fork } = require('child_process')

function listen (t, server) {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      t.teardown(() => new Promise((resolve) => {
        if (server.closeAllConnections) server.closeAllConnections()
        server.close(() => resolve())
      }))
      resolve(`http://127.0.0.1:${server.address().port}`)
    })
  })
}

// A node:http server answering `handler(req, res)`; resolves to its URL.
function httpServer (t, handler = (req, res) => res.end('hello')) {
  return listen(t, http.createServer(handler))
}

// A target in its own process (so it can freeze without freezing us).
// `script` is a file in test/helpers; resolves to { url, child, message() }.
function childServer (t, script, args = []) {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, script), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    t.teardown(() => child.kill())
    child.once('error', reject)
    child.once('message', (msg) => {
      const next = () => new Promise((resolve) => child.once('message', resolve))
      resolve({ url: `http://127.0.0.1:${msg.port}`, child, next, ask: (m) => { child.send(m); return next() } })
    })
  })
}

module.exports = { httpServer, listen, childServer }
