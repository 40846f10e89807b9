'use strict'

// The check before an --http2 run: each https origin asked once, through
// the target's own transport, whether it offers h2 in TLS (ALPN). Against
// real TLS servers on loopback: one that offers h2 passes; one that offers
// only http/1.1 (and ends the handshake with the alert) and one that knows
// no ALPN refuse the run naming the origin (AC_H2_NOT_OFFERED); each
// http origin (h2c) is sent our preface, and one that answers in HTTP/1.x
// refuses the run too (AC_H2C_NOT_SPOKEN); one that cannot be reached, or
// never answers, is left to the run.

const t = require('tap')
const net = require('net')
const tls = require('tls')
const https = require('https')
// Asked as a run asks it: through the registry, which puts each
// protocol's targets to its check.
const { preflight: checkH2 } = require('../../lib/protocols/registry')
const { buildConfig } = require('../../lib/config/config')
const { makePki } = require('../helpers/pki')
const { tempDir } = require('../helpers/recording')

const pki = makePki(tempDir(t, 'ac-alpn-'))

// A server on 127.0.0.1 that counts the connections made to it and their
// ends; resolves to { port, seen }.
function counted (t, server, seen = {}) {
  seen = { connections: 0, closed: 0, ...seen }
  const sockets = new Set()
  server.on('connection', (socket) => {
    seen.connections++
    sockets.add(socket)
    // Read, so that the client's end is seen even by a silent server.
    socket.resume()
    socket.on('close', () => seen.closed++)
  })
  server.on('tlsClientError', () => {})
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    t.teardown(() => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy()
      server.close(resolve)
    }))
    resolve({ port: server.address().port, seen })
  }))
}

// A TLS server that notes, from each ClientHello, the server name and the
// protocols offered; it chooses h2 when `h2` and it is offered, and no
// ALPN at all when not `alpn`.
function tlsServer (t, { h2 = true, alpn = true } = {}) {
  const seen = { servernames: [], offered: [] }
  const context = tls.createSecureContext(pki.server)
  const options = {
    ...pki.server,
    SNICallback: (name, cb) => {
      seen.servernames.push(name)
      cb(null, context)
    }
  }
  if (alpn) {
    options.ALPNCallback = ({ protocols }) => {
      seen.offered.push(protocols)
      return h2 && protocols.includes('h2') ? 'h2' : undefined
    }
  }
  return counted(t, tls.createServer(options, (socket) => socket.end()), seen)
}

const h2Server = (t) => tlsServer(t)

// Until the server has seen every connection made to it end (what the
// check left it is then known), at most 2 s.
async function ended (seen) {
  for (let waited = 0; seen.closed < seen.connections && waited < 2000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return seen
}

// The registry's check resolves to the run's config, which HTTP/2's
// leaves as it was: undefined then, anything else as it came.
async function check (url, opts) {
  const config = buildConfig({ url, http2: true, timeout: 2, ...opts })
  const out = await checkH2(config)
  return out === config ? undefined : out
}

function notOffered (origin) {
  return { code: 'AC_H2_NOT_OFFERED', message: `the server at ${origin} does not offer HTTP/2 (ALPN h2): drop --http2 to test it over HTTP/1.1` }
}

t.test('a server that offers h2: the run goes on, after one connection, closed', async (t) => {
  const { port, seen } = await h2Server(t)
  t.equal(await check(`https://localhost:${port}/`), undefined)
  await ended(seen)
  t.equal(seen.connections, 1)
  t.same(seen.offered, [['h2']], 'h2 asked for, the target\'s protocol, alone')
  t.same(seen.servernames, ['localhost'], 'with SNI, as the run\'s connections')
  t.equal(seen.closed, 1, 'the check\'s connection is not left open')
})

t.test('a server that offers only http/1.1 ends the handshake with the alert: refused, naming the origin', async (t) => {
  const { port, seen } = await counted(t, https.createServer(pki.server, (req, res) => res.end('h1')))
  await t.rejects(check(`https://localhost:${port}/a`), notOffered(`https://localhost:${port}`))
  t.equal((await ended(seen)).connections, 1, 'asked once')
  const picky = await tlsServer(t, { h2: false })
  await t.rejects(check(`https://localhost:${picky.port}/`), notOffered(`https://localhost:${picky.port}`), 'a server whose protocols have none of ours: the alert')
  t.same(picky.seen.offered, [['h2']])
})

t.test('a server with no ALPN at all: the handshake ends with no protocol, refused', async (t) => {
  const { port, seen } = await tlsServer(t, { alpn: false })
  await t.rejects(check(`https://127.0.0.1:${port}`), notOffered(`https://127.0.0.1:${port}`))
  await ended(seen)
  t.equal(seen.connections, 1)
  t.same(seen.servernames, [], 'no SNI for an address, as the run\'s connections')
})

t.test('once per origin, however many of its URLs; every origin asked in turn', async (t) => {
  const a = await h2Server(t)
  const b = await h2Server(t)
  await check([`https://localhost:${a.port}/1`, `https://localhost:${b.port}/1`, `https://localhost:${a.port}/2?x`, `https://localhost:${a.port}/3`])
  t.equal(a.seen.connections, 1, 'three URLs of one origin: one check')
  t.equal(b.seen.connections, 1)
  const h1 = await counted(t, https.createServer(pki.server, (req, res) => res.end()))
  await t.rejects(check([`https://localhost:${a.port}/`, `https://localhost:${h1.port}/x`, `https://localhost:${h1.port}/y`]), notOffered(`https://localhost:${h1.port}`),
    'the origin that does not offer it named, after one that does')
  t.equal(h1.seen.connections, 1)
  t.equal(a.seen.connections, 2, 'each check asks again: nothing is kept between runs')
})

t.test('nothing to ask: a run without --http2', async (t) => {
  const plain = await counted(t, net.createServer((socket) => socket.destroy()))
  const h1 = buildConfig({ url: `http://127.0.0.1:${plain.port}/` })
  t.equal(await checkH2(h1), h1, 'an http:// target that speaks http/1.1: its config as it was')
  const { port, seen } = await counted(t, https.createServer(pki.server, (req, res) => res.end()))
  const tls = buildConfig({ url: `https://localhost:${port}/` })
  t.equal(await checkH2(tls), tls, 'the targets speak http/1.1')
  t.equal(plain.seen.connections + seen.connections, 0, 'no connection made')
})

t.test('what cannot be reached is left to the run, which counts its errors', async (t) => {
  const closed = await new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = s.address().port
      s.close(() => resolve(port))
    })
  })
  t.equal(await check(`https://127.0.0.1:${closed}/`), undefined, 'a closed port')
  const { port, seen } = await counted(t, net.createServer(() => {}))
  const started = Date.now()
  t.equal(await check(`https://127.0.0.1:${port}/`, { timeout: 0.3 }), undefined, 'a server that never answers the handshake')
  const took = Date.now() - started
  t.ok(took >= 250 && took < 2000, `given up at the run's timeout (${took} ms)`)
  t.equal((await ended(seen)).closed, 1, 'and its connection closed')
  const closing = await counted(t, net.createServer((socket) => socket.destroy()))
  t.equal(await check(`https://127.0.0.1:${closing.port}/`), undefined, 'a server that hangs up at once')
  t.equal(closing.seen.connections, 1)
})

t.test('through the target\'s own transport: its TLS options and server name', async (t) => {
  const { port, seen } = await h2Server(t)
  t.equal(await check(`https://127.0.0.1:${port}/`, { servername: 'api.example.test' }), undefined)
  t.same(seen.servernames, ['api.example.test'], 'the server name asked for')
  t.equal(await check(`https://127.0.0.1:${port}/`, { tlsOptions: { ca: pki.ca, rejectUnauthorized: true } }), undefined, 'verified against the CA given')
  // A certificate the run would refuse fails the check's handshake too:
  // the run's connections say why, as errors.
  t.equal(await check(`https://127.0.0.1:${port}/`, { tlsOptions: { ca: pki.otherCa, rejectUnauthorized: true } }), undefined, 'left to the run')
  await ended(seen)
  t.equal(seen.connections, 3)
  t.equal(seen.closed, 3, 'each check\'s connection closed')
})

// A CONNECT proxy on 127.0.0.1 that tunnels to what it is asked, or
// answers `refuse` (a status line) instead; it notes each CONNECT's target.
async function connectProxy (t, { refuse = null } = {}) {
  const connects = []
  const server = net.createServer((client) => {
    client.on('error', () => {})
    client.once('data', (head) => {
      const to = /^CONNECT (\S+) /.exec(head.toString('latin1'))[1]
      connects.push(to)
      if (refuse !== null) return client.end(`HTTP/1.1 ${refuse}\r\nContent-Length: 0\r\n\r\n`)
      const colon = to.lastIndexOf(':')
      const upstream = net.connect({ host: '127.0.0.1', port: Number(to.slice(colon + 1)) }, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
        client.pipe(upstream).pipe(client)
      })
      upstream.on('error', () => client.destroy())
      client.on('close', () => upstream.destroy())
    })
  })
  const { port, seen } = await counted(t, server)
  return { url: `http://127.0.0.1:${port}`, connects, seen }
}

t.test('through a proxy: the check goes through its tunnel, and its TLS is asked', async (t) => {
  const proxy = await connectProxy(t)
  const h2 = await h2Server(t)
  t.equal(await check([`https://localhost:${h2.port}/a`, `https://localhost:${h2.port}/b`], { proxy: proxy.url }), undefined)
  t.same(proxy.connects, [`localhost:${h2.port}`], 'one tunnel, to the origin')
  t.same(h2.seen.offered, [['h2']], 'the TLS inside it asked for h2')
  t.same(h2.seen.servernames, ['localhost'])
  const h1 = await counted(t, https.createServer(pki.server, (req, res) => res.end()))
  await t.rejects(check(`https://localhost:${h1.port}/`, { proxy: proxy.url }), notOffered(`https://localhost:${h1.port}`), 'the alert, through the tunnel')
  const bare = await tlsServer(t, { alpn: false })
  await t.rejects(check(`https://localhost:${bare.port}/`, { proxy: proxy.url }), notOffered(`https://localhost:${bare.port}`), 'no ALPN, through the tunnel')
  t.equal((await ended(proxy.seen)).closed, 3, 'each tunnel closed')
  const refusing = await connectProxy(t, { refuse: '403 Forbidden' })
  t.equal(await check(`https://localhost:${h2.port}/`, { proxy: refusing.url }), undefined, 'a proxy that refuses the tunnel: left to the run')
  t.same(refusing.connects, [`localhost:${h2.port}`])
})

t.test('an http:// target (h2c): our preface sent, an HTTP/1.x answer refused naming the origin; an h2c server passes', async (t) => {
  const http = require('http')
  const http2 = require('http2')
  const h1 = await counted(t, http.createServer((req, res) => res.end('h1')))
  await t.rejects(check(`http://127.0.0.1:${h1.port}/x`), {
    code: 'AC_H2C_NOT_SPOKEN',
    message: `the server at http://127.0.0.1:${h1.port} answered in HTTP/1.1: it does not speak HTTP/2 in clear text (h2c); drop --http2, or use https:// for ALPN`
  })
  t.equal((await ended(h1.seen)).connections, 1, 'asked once')
  const h2c = await counted(t, http2.createServer())
  t.equal(await check([`http://127.0.0.1:${h2c.port}/`, `http://127.0.0.1:${h2c.port}/2`]), undefined)
  await ended(h2c.seen)
  t.same([h2c.seen.connections, h2c.seen.closed], [1, 1], 'one connection for the origin, closed')
  // One that accepts and says nothing: left to the run, after the timeout.
  const silent = await counted(t, net.createServer(() => {}))
  const started = Date.now()
  t.equal(await check(`http://127.0.0.1:${silent.port}/`, { timeout: 0.3 }), undefined)
  t.ok(Date.now() - started < 2000, 'within the timeout')
  // One that closes at once, having said nothing: left to the run too.
  const plain = await counted(t, net.createServer((socket) => socket.destroy()))
  t.equal(await check(`http://127.0.0.1:${plain.port}/`), undefined)
  t.equal(plain.seen.connections, 1)
})
