'use strict'

// The transport is chosen once per target: plain TCP (or a Unix socket)
// or TLS, directly or through a proxy, reading into one shared buffer.
// Either way the connection (connection.js) is told of its 'connect'
// moment and handed what is read, as onData(buf, start, end).

const net = require('net')
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

// When the name lookup ended, marked on the connection (connection.js,
// phases()): a listener per socket, nothing per request.
function marks (socket, connection) {
  socket.once('lookup', () => connection.mark('lookup'))
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
  if (target.protocol === 'h2') socket.once('error', notOffered)
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
    // HTTP/2 over TLS is asked for in the handshake (ALPN), by the name
    // the config gave the target's protocol; the server's answer is
    // checked before the run (lib/http2/alpn-check.js) and on every
    // connection (lib/http2/client-h2.js).
    ...(target.protocol === 'h2' ? { ALPNProtocols: [target.protocol] } : {}),
    // One OpenSSL context for all of the target's connections, made from
    // the same options: tls.connect would otherwise build one per
    // connection, a fifth of the CPU of a handshake-per-request run.
    secureContext: given.secureContext || tls().createSecureContext(given)
  }
}

// A server whose protocols have none of ours in common may end the
// handshake with this alert (node's does) rather than choose none: over
// HTTP/2 that is a server that does not offer h2, counted as such (the
// connection's own 'error' listener, added after this one, sees the code).
function notOffered (err) {
  if (err && err.code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL') {
    err.message = `the server did not offer HTTP/2 on a new connection (ALPN h2): ${err.message}`
    err.code = 'AC_H2_NOT_OFFERED'
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
