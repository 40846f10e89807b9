'use strict'

// A page's side of --dashboard, for the bench: it follows a run's
// /events stream as the page does (an EventSource), from the bench's own
// process, so that what watching costs the generator is measured without
// the viewer's own CPU counted in the generator's.

const http = require('http')

// Connects to the dashboard at `port` as soon as it listens (tries every
// 20 ms for up to `ms`), reads every event until the stream ends; resolves
// to the bytes of events read.
function watch (port, ms) {
  const until = Date.now() + ms
  return new Promise((resolve) => {
    let bytes = 0
    const attempt = () => {
      const req = http.get({ host: '127.0.0.1', port, path: '/events', headers: { accept: 'text/event-stream' } }, (res) => {
        res.on('data', (chunk) => { bytes += chunk.length })
        res.on('end', () => resolve(bytes))
        res.on('error', () => resolve(bytes))
      })
      req.on('error', () => {
        if (Date.now() < until) setTimeout(attempt, 20)
        else resolve(bytes)
      })
    }
    attempt()
  })
}

module.exports = { watch }
