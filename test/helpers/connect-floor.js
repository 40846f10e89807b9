'use strict'

// The bare node:net floor of a loopback connect, as a process of its own:
// `node connect-floor.js PORT N` opens N sockets at once, each timed from
// net.connect to its 'connect' (ms), and prints them as one JSON line.
// A fresh process, as the CLI it is compared with is: a shared machine's
// scheduler treats a process that has just burnt its start-up CPU unlike
// one that slept (the test's own), and a floor taken in the test's
// process would meet the machine in another state.

const net = require('net')
const { performance } = require('perf_hooks')

const port = Number(process.argv[2])
const n = Number(process.argv[3])

function round () {
  return new Promise((resolve, reject) => {
    const out = []
    for (let i = 0; i < n; i++) {
      const started = performance.now()
      const socket = net.connect({ host: '127.0.0.1', port, noDelay: true })
      socket.once('error', reject)
      socket.once('connect', () => {
        out.push(performance.now() - started)
        socket.destroy()
        if (out.length === n) resolve(out)
      })
    }
  })
}

round().then((times) => process.stdout.write(JSON.stringify(times) + '\n'), (err) => {
  process.stderr.write(`${err.message}\n`)
  process.exitCode = 1
})
