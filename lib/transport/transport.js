'use strict'

// The transport is chosen once per target: plain TCP (or a Unix socket)
// or TLS, directly or through a proxy, reading into one shared buffer.
// Either way the connection (connection.js) is told of its 'connect'
// moment and handed what is read, as onData(buf, start, end).

const net = require('net')
const { marks } = require('./marks')
const { lazy } = require('../core/lazy')
// Lazy: tls, and what it loads of crypto, only for https targets.
const tls = lazy(() => require('tls'))
// Lazy: only an https target through a proxy needs a tunnel.
const tunnel = lazy(() => require('./tunnel'))

// Plain sockets read into this buffer with `onread`, so no Buffer is
// allocated per read. Safe to share: the callback parses the bytes
// synchronously, and hooks that keep body bytes copy them.
const READ_BUFFER = Buffer.allocUnsafe(256 * 1024)

function reader (connection) {
  return {
    buffer: READ_BUFFER,
    callback (nread, buf) {
      connection.onData(buf, 0, nread)
    }
  }
}

function plain (target, connection) {
  const onread = reader(connection)
  const socket = target.socketPath
    ? net.connect({ path: target.socketPath, onread })
    : net.connect({ host: target.hostname, port: target.port, onread, noDelay: true })
  marks(socket, connection)
  socket.once('connect', () => connection.onConnect())
  return socket
}

function secure (target, connection, tlsConfig) {
  const options = {
    ...tlsConfig.options,
    servername: tlsConfig.servername,
    session: tlsConfig.session,
    // Decrypted bytes land in the shared buffer too, rather than in a new
    // Buffer per TLS record read.
    onread: reader(connection)
  }
  if (target.socketPath) options.path = target.socketPath
  else {
    options.host = target.hostname
    options.port = target.port
  }
  const socket = tls().connect(options)
  socket.setNoDelay(true)
  marks(socket, connection)
  // TCP is up: the handshake starts.
  socket.once('connect', () => connection.mark('tcp'))
  socket.once('secureConnect', () => connection.onConnect())
  // Resuming the session makes reconnects (reconnectRate, Connection:
  // close) cost one round trip instead of a full handshake.
  socket.on('session', (session) => { tlsConfig.session = session })
  return socket
}

// The tls.connect options of every connection to one target.
function tlsOptions (target, given = {}) {
  return {
    // Benchmarks usually run against self-signed certificates; like
    // autocannon we don't verify unless tlsOptions asks for it.
    rejectUnauthorized: false,
    ...given,
    // The ALPN ids the target's protocol offers in the handshake
    // (target.alpn, from its descriptor: HTTP/2's h2; none for HTTP/1.1);
    // the server's answer is checked by the protocol, before the run and
    // on every connection.
    ...(target.alpn !== undefined ? { ALPNProtocols: [...target.alpn] } : {}),
    // One OpenSSL context for all of the target's connections, made from
    // the same options: tls.connect would otherwise build one per
    // connection, a fifth of the CPU of a handshake-per-request run.
    secureContext: given.secureContext || tls().createSecureContext(given)
  }
}

// Returns connect(connection) for one target. Through a proxy (target.proxy,
// --proxy) only this step changes: an http target's requests were built in
// absolute form, so its connections just go to the proxy; an https target
// gets a CONNECT tunnel with TLS inside (tunnel.js).
function transportFor (target, config) {
  const proxy = target.proxy
  if (!target.secure) {
    if (proxy === undefined) return (connection) => plain(target, connection)
    const to = { hostname: proxy.hostname, port: proxy.port, socketPath: undefined }
    return (connection) => plain(to, connection)
  }
  const tlsConfig = {
    options: tlsOptions(target, config.tlsOptions),
    servername: config.servername || (net.isIP(target.hostname) ? undefined : target.hostname),
    session: undefined
  }
  if (proxy !== undefined) return tunnel().tunnelTransport(target, proxy, tlsConfig)
  return (connection) => secure(target, connection, tlsConfig)
}

module.exports = { transportFor }
