'use strict'

// The floor of a Node.js HTTP/1.1 generator: `connections` bare net
// sockets, each writing `pipelining` GET requests in one write and the next
// batch once all of them are answered (as wrk's pipeline script does), read
// with `onread` into one shared buffer and counted by length, nothing
// parsed, timed or recorded. What it costs per request is what Node's event
// loop, libuv and the kernel cost; a generator written in JavaScript cannot
// go below it. Prints one JSON line in the shape of our -j result
// (requests.total, errors, duration), as bench/tools.js reads it.
//
//   node bench/net-floor-client.js URL CONNECTIONS PIPELINING DURATION [reconnect]
//
// Counting by length needs a target whose responses all have the same
// length (the bench's targets do: nginx's Date line has a fixed width);
// one response fetched first gives it, and a read that leaves the count
// between two responses at the end is reported as an error.
//
// An https:// URL gives the floor over TLS: node:tls sockets, the same
// writes, reads (tls.connect takes `onread` too) and counting.
//
// `reconnect`: a new connection for each request, closed by the client
// once its response is read whole (as `-D 1` does), resuming the last TLS
// session the server gave: Node's own cost of opening a connection, and
// over TLS of a handshake.

const net = require('net')
const tls = require('tls')

const [url, connections, pipelining, duration, mode] = process.argv.slice(2)
const reconnect = mode === 'reconnect'
const origin = new URL(url)
const secure = origin.protocol === 'https:'
const TLS_OPTIONS = { rejectUnauthorized: false, ALPNProtocols: ['http/1.1'], servername: net.isIP(origin.hostname) ? undefined : origin.hostname }
// One OpenSSL context for every connection, as our transport makes.
if (secure) TLS_OPTIONS.secureContext = tls.createSecureContext(TLS_OPTIONS)
// The last session the server gave, resumed by the next connection.
let session

// One connection, cleartext or TLS, to the target.
function connect (options) {
  const port = Number(origin.port) || (secure ? 443 : 80)
  return secure
    ? tls.connect({ ...TLS_OPTIONS, session, ...options, host: origin.hostname, port })
    : net.connect({ ...options, host: origin.hostname, port })
}
const depth = Number(pipelining)
const request = Buffer.from(`GET ${origin.pathname}${origin.search} HTTP/1.1\r\nHost: ${origin.host}\r\n\r\n`, 'latin1')
const batch = Buffer.concat(new Array(depth).fill(request))
const READ = Buffer.allocUnsafe(256 * 1024)

// One response, whole: its length is every response's.
function responseLength () {
  return new Promise((resolve, reject) => {
    const chunks = []
    const socket = connect({})
    socket.once(secure ? 'secureConnect' : 'connect', () => socket.write(request))
    socket.on('data', (b) => {
      chunks.push(b)
      const all = Buffer.concat(chunks)
      const headEnd = all.indexOf('\r\n\r\n')
      if (headEnd === -1) return
      const m = /content-length:\s*(\d+)/i.exec(all.subarray(0, headEnd).toString('latin1'))
      if (!m) return reject(new Error('the target must answer with a Content-Length'))
      const length = headEnd + 4 + Number(m[1])
      if (all.length >= length) {
        socket.destroy()
        resolve(length)
      }
    })
    socket.on('error', reject)
  })
}

async function main () {
  const length = await responseLength()
  let total = 0
  let errors = 0
  const sockets = []
  // Per connection: is a response cut in two at the end?
  const cut = []
  // One request per connection: the next connection opens as its
  // response ends.
  const open = (c) => {
    let bytes = 0
    const socket = connect({
      noDelay: true,
      onread: {
        buffer: READ,
        callback (n) {
          bytes += n
          if (bytes < length) return
          total++
          socket.destroy()
          open(c)
        }
      }
    })
    if (secure) socket.on('session', (s) => { session = s })
    socket.once(secure ? 'secureConnect' : 'connect', () => socket.write(request))
    socket.on('error', () => { errors++ })
    sockets[c] = socket
  }
  // Keep-alive: one batch in flight per connection.
  const keepAlive = () => {
    let bytes = 0
    const read = (n) => {
      bytes += n
      if (bytes >= depth * length) {
        bytes -= depth * length
        total += depth
        socket.write(batch)
      }
    }
    const socket = connect({ noDelay: true, onread: { buffer: READ, callback: read } })
    socket.on(secure ? 'secureConnect' : 'connect', () => socket.write(batch))
    socket.on('error', () => { errors++ })
    cut.push(() => bytes % length !== 0)
    sockets.push(socket)
  }
  for (let c = 0; c < Number(connections); c++) {
    if (reconnect) open(c)
    else keepAlive()
  }
  const started = process.hrtime.bigint()
  setTimeout(() => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    for (const isCut of cut) if (isCut()) errors++
    process.stdout.write(JSON.stringify({ requests: { total }, errors, duration: seconds, latency: {} }) + '\n')
    for (const socket of sockets) socket.destroy()
    process.exit(0)
  }, Number(duration) * 1000)
}

main().catch((err) => {
  process.stderr.write(`net-floor-client: ${err.message}\n`)
  process.exit(1)
})
