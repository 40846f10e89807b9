'use strict'

// Each https origin whose targets speak h2 (target.protocol, decided in
// lib/config) is asked once, before the run, whether it speaks HTTP/2 (and
// each connection of the run is checked again, lib/http2/client-h2.js): one
// connection through the target's own transport (TLS, or a proxy's tunnel
// and TLS), whose ALPN answer must be h2. A server
// that does not offer it refuses the run in one line (AC_H2_NOT_OFFERED)
// rather than failing every connection of it. A server that cannot be
// reached is left to the run, which counts its errors as any run does.
// http:// targets speak h2c with prior knowledge: nothing to ask.

const { transportFor } = require('../transport/transport')
const { raise } = require('../core/errors')

// Resolves with the protocol the server chose ('' for none), or null when
// no TLS connection could be made.
function negotiate (target, config) {
  return new Promise((resolve) => {
    let socket = null
    let settled = false
    const done = (value) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (socket !== null) socket.destroy()
      resolve(value)
    }
    const timer = setTimeout(() => done(null), config.timeout * 1000)
    // The transport's view of a connection (see lib/transport/connection.js).
    const connection = {
      onConnect: () => done(socket.alpnProtocol || ''),
      onData: () => {},
      mark: () => {},
      upgrade: (from, to) => {
        socket = to
        to.on('error', onError)
        return !settled
      }
    }
    // A server whose protocols have none of ours in common may end the
    // handshake with this alert (node's does): it offers no h2 either.
    // (The transport names that alert AC_H2_NOT_OFFERED for h2 targets.)
    const onError = (err) => done(err && (err.code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL' || err.code === 'AC_H2_NOT_OFFERED') ? '' : null)
    socket = transportFor(target, config)(connection)
    socket.on('error', onError)
    socket.on('close', () => done(null))
  })
}

async function checkH2 (config) {
  const seen = new Set()
  for (const target of config.urls) {
    if (target.protocol !== 'h2' || !target.secure || seen.has(target.origin)) continue
    seen.add(target.origin)
    const chosen = await negotiate(target, config)
    if (chosen !== null && chosen !== 'h2') {
      throw raise('AC_H2_NOT_OFFERED', `the server at ${target.origin} does not offer HTTP/2 (ALPN h2${chosen ? `: it chose ${chosen}` : ''}): drop --http2 to test it over HTTP/1.1`)
    }
  }
}

module.exports = { checkH2 }
