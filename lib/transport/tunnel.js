'use strict'

// Through an HTTP proxy (--proxy): an http target's connections just go to
// the proxy (their requests were built in absolute form, see
// lib/http1/request-encoder.js); an https target gets a tunnel, CONNECT
// host:port and then TLS inside it, as undici's ProxyAgent does. Only the
// connect step differs from a direct run. Loaded only when an https
// target has a proxy.

const net = require('net')
const tls = require('tls')
const { authority } = require('../core/url')
const { refused, credentialsHint } = require('./proxy-refusal')
const { marks } = require('./marks')

// A proxy answering CONNECT with more header than this is not one.
const MAX_RESPONSE_HEAD = 16 * 1024

// Returns connect(connection) for an https target through `proxy`: TCP to the
// proxy, CONNECT, and on a 2xx TLS over that socket with the target's SNI
// and the user's TLS options. The connection sees the TLS socket from then
// on (connection.upgrade), and its 'connect' moment at the end of the handshake.
function tunnelTransport (target, proxy, tlsConfig) {
  const to = authority(target.hostname, target.port)
  // Built once per target.
  const request = Buffer.from(`CONNECT ${to} HTTP/1.1\r\nHost: ${to}\r\n` +
    (proxy.auth ? `Proxy-Authorization: ${proxy.auth}\r\n` : '') + '\r\n', 'latin1')

  return (connection) => {
    const raw = net.connect({ host: proxy.hostname, port: proxy.port, noDelay: true })
    marks(raw, connection)
    raw.once('connect', () => {
      connection.mark('tcp')
      raw.write(request)
    })
    let head = null
    const onReadable = () => {
      let chunk
      while ((chunk = raw.read()) !== null) {
        head = head === null ? chunk : Buffer.concat([head, chunk])
        const end = head.indexOf('\r\n\r\n')
        if (end === -1) {
          if (head.length > MAX_RESPONSE_HEAD) raw.destroy(refused(proxy, to, 'its response to CONNECT has no end of header'))
          continue
        }
        raw.removeListener('readable', onReadable)
        raw.removeListener('end', onEnd)
        const status = /^HTTP\/1\.[01] (\d{3})([^\r\n]*)/.exec(head.latin1Slice(0, end))
        if (status === null) return raw.destroy(refused(proxy, to, 'it answered CONNECT with something that is not HTTP'))
        const code = Number(status[1])
        if (code < 200 || code > 299) {
          const reason = status[2].trim()
          return raw.destroy(refused(proxy, to, `${code}${reason ? ' ' + reason : ''}` +
            (code === 407 ? credentialsHint(proxy) : '')))
        }
        // The server speaks only after our ClientHello, so nothing of the
        // tunnel can have come with the proxy's answer.
        connection.mark('tunnel')
        return start()
      }
    }
    const onEnd = () => raw.destroy(refused(proxy, to, 'it closed the connection before answering CONNECT'))
    const start = () => {
      const socket = tls.connect({
        // As for a direct https target (see transport.js).
        ...tlsConfig.options,
        servername: tlsConfig.servername,
        session: tlsConfig.session,
        socket: raw
      })
      socket.setNoDelay(true)
      socket.once('secureConnect', () => connection.onConnect())
      socket.on('session', (session) => { tlsConfig.session = session })
      socket.on('data', (buf) => connection.onData(buf, 0, buf.length))
      if (!connection.upgrade(raw, socket)) socket.destroy()
    }
    raw.on('readable', onReadable)
    raw.on('end', onEnd)
    return raw
  }
}

module.exports = { tunnelTransport }
