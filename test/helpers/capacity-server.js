'use strict'

// A server of known capacity, in its own process. `queue C [B]`: one queue
// served at C requests/s, so latency stays small below C (B ms, when given:
// every answer takes at least that long) and grows without bound above it.
// `errors R`: answers at once, but 503 to every request beyond R in the
// current second. `slow-share P`: P% of responses (each
// by chance) take 80 ms, the rest ~2 ms, whatever the rate: a latency
// distribution with a step at its (100 − P)th percentile. Sends { port }
// once listening.

const http = require('http')
const { performance } = require('perf_hooks')

const [mode, value, baseMs] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4] || 0)]
const serviceMs = 1000 / value
let freeAt = 0
let second = 0
let inSecond = 0

const server = http.createServer((req, res) => {
  req.resume()
  const now = performance.now()
  if (mode === 'slow-share') {
    setTimeout(() => res.end('ok'), Math.random() * 100 < value ? 80 : 2)
    return
  }
  if (mode === 'queue') {
    freeAt = Math.max(now, freeAt) + serviceMs
    const wait = Math.max(freeAt - now, baseMs)
    if (wait < 1) return res.end('ok')
    setTimeout(() => res.end('ok'), wait)
    return
  }
  const s = Math.floor(now / 1000)
  if (s !== second) {
    second = s
    inSecond = 0
  }
  if (++inSecond > value) {
    res.statusCode = 503
    return res.end('busy')
  }
  res.end('ok')
})
server.keepAliveTimeout = 60000
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
process.on('disconnect', () => process.exit(0))
