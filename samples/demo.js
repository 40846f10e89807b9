'use strict'

// `npm start`: benchmarks the bundled demo server for a few seconds and
// prints the result tables, the way `npx autocannon URL` would.

const path = require('path')
const { fork } = require('child_process')
const autocannon = require('..')

const server = fork(path.join(__dirname, 'demo-server.js'))

server.once('message', ({ port }) => {
  const instance = autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: 10,
    duration: 3
  }, (err) => {
    server.kill()
    if (err) {
      console.error(err.message)
      process.exitCode = 1
    }
  })
  autocannon.track(instance, { renderProgressBar: process.stderr.isTTY })
  process.once('SIGINT', () => instance.stop())
})
