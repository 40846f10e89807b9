'use strict'

// The floor HTTP/2 support must leave behind: a plain node:http2 client
// loop, `connections` sessions each keeping `streams` GET streams in
// flight for `duration` seconds. Prints one JSON line in the shape of our
// -j result (requests.total, errors, duration), as bench/tools.js reads it.
//
//   node bench/h2-node-client.js URL CONNECTIONS STREAMS DURATION

const http2 = require('http2')

const [url, connections, streams, duration] = process.argv.slice(2)
const origin = new URL(url)
let total = 0
let errors = 0
let stopping = false
const sessions = []
const started = process.hrtime.bigint()

function request (session) {
  if (stopping || session.closed || session.destroyed) return
  const req = session.request({ ':path': origin.pathname + origin.search })
  req.on('response', () => {})
  req.on('data', () => {})
  req.on('end', () => {
    total++
    request(session)
  })
  req.on('error', () => {
    errors++
    if (!stopping) setImmediate(() => request(session))
  })
}

for (let c = 0; c < Number(connections); c++) {
  // A bench certificate is self-signed: not verified, as our runs don't.
  const session = http2.connect(origin.origin, { rejectUnauthorized: false })
  session.on('error', () => { errors++ })
  sessions.push(session)
  for (let s = 0; s < Number(streams); s++) request(session)
}

setTimeout(() => {
  stopping = true
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  process.stdout.write(JSON.stringify({ requests: { total }, errors, duration: seconds, latency: {} }) + '\n')
  for (const session of sessions) session.destroy()
  process.exit(0)
}, Number(duration) * 1000)
