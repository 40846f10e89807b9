'use strict'

// The dashboard's HTTP server: one page, its scripts and styles (uPlot
// from the package, nothing from the network), and the run's events as
// Server-Sent Events to every page open. A page never costs the run more
// than one event's write per interval: to a client that has not taken
// what it was sent (write() returned false and no 'drain' came, or more
// than MAX_BUFFERED bytes wait), events are not written; once it drains,
// it gets the state as a whole instead of what it missed (coalesced).
// Whatever a client does (closes, errs, never reads), the run goes on.

const http = require('http')

// Bytes that may wait for one client before its events are dropped.
const MAX_BUFFERED = 256 * 1024
// After close(): how long a page has to take the last events before its
// connection is cut.
const CLOSE_GRACE_MS = 1000

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '::1', '[::1]'])

// A Host header's name, without its port.
function hostname (header) {
  const text = String(header || '').toLowerCase()
  if (text.startsWith('[')) return text.slice(0, text.indexOf(']') + 1)
  const colon = text.indexOf(':')
  return colon === -1 ? text : text.slice(0, colon)
}

// state(): the 'state' event's data for a page that is behind or new.
class DashboardServer {
  constructor ({ host, port, routes, state }) {
    this.host = host
    this.port = port
    this.routes = routes
    this.state = state
    this.clients = new Set()
    this.closed = false
    this.url = null
    this.loopback = LOOPBACK_NAMES.has(host)
    this.server = http.createServer((req, res) => this.handle(req, res))
    // A malformed request or a reset socket is the client's affair.
    this.server.on('clientError', (err, socket) => { socket.destroy(err) })
  }

  listen () {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject)
      this.server.listen(this.port, this.host, () => {
        this.server.removeListener('error', reject)
        this.server.on('error', () => {})
        const { port, family, address } = this.server.address()
        const host = family === 'IPv6' || family === 6 ? `[${address}]` : address
        this.url = `http://${host}:${port}/`
        resolve(this.url)
      })
    })
  }

  handle (req, res) {
    res.on('error', () => {})
    // On loopback, only a page this machine opened by a loopback name: a
    // site the browser visits cannot point its own name at 127.0.0.1
    // (DNS rebinding) and read the run.
    if (this.loopback && !LOOPBACK_NAMES.has(hostname(req.headers.host))) {
      res.writeHead(421, { 'content-type': 'text/plain; charset=utf-8' })
      return res.end('this dashboard answers to 127.0.0.1, localhost and [::1] only\n')
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' })
      return res.end()
    }
    const path = req.url.split('?')[0]
    if (path === '/events') return this.subscribe(req, res)
    const route = Object.prototype.hasOwnProperty.call(this.routes, path) ? this.routes[path] : null
    if (route === null) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
      return res.end('not found\n')
    }
    const body = route.body()
    res.writeHead(200, { 'content-type': route.type, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...route.headers })
    res.end(req.method === 'HEAD' ? undefined : body)
  }

  subscribe (req, res) {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' })
    req.socket.setNoDelay(true)
    const client = { res, waiting: false, stale: false }
    this.clients.add(client)
    const drop = () => this.clients.delete(client)
    req.on('close', drop)
    res.on('close', drop)
    res.on('drain', () => {
      client.waiting = false
      if (client.stale && !this.closed) {
        client.stale = false
        this.write(client, 'state', this.state())
      }
    })
    this.write(client, 'state', this.state())
  }

  write (client, name, data) {
    try {
      if (!client.res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`)) client.waiting = true
    } catch {
      this.clients.delete(client)
    }
  }

  // Whether any page would take an event now (one that would not is
  // behind: it gets the state when it drains).
  readers () {
    let any = false
    for (const client of this.clients) {
      if (client.waiting || client.res.writableLength > MAX_BUFFERED) client.stale = true
      else any = true
    }
    return any
  }

  // An event to every page; one that is behind gets the state when it
  // drains instead.
  broadcast (name, data) {
    for (const client of this.clients) {
      if (client.waiting || client.res.writableLength > MAX_BUFFERED) {
        client.stale = true
        continue
      }
      this.write(client, name, data)
    }
  }

  // The last event, to every page however far behind (once), then the
  // end: each stream ended, the server closed, a page that does not take
  // its bytes cut after CLOSE_GRACE_MS.
  finish (name, data) {
    for (const client of this.clients) this.write(client, name, data)
  }

  close () {
    if (this.closed) return Promise.resolve()
    this.closed = true
    for (const client of this.clients) client.res.end()
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.server.closeAllConnections(), CLOSE_GRACE_MS)
      timer.unref()
      this.server.close(() => {
        clearTimeout(timer)
        resolve()
      })
      this.server.closeIdleConnections()
    })
  }
}

module.exports = { DashboardServer, MAX_BUFFERED }
