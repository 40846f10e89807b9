'use strict'

// Each origin whose targets speak h2 (their protocol, decided in
// lib/config) is asked once, before the run, whether it speaks HTTP/2,
// through one connection of the target's own transport (and each
// connection of the run is checked again, lib/http2/client-h2.js):
//
// - https: TLS (or a proxy's tunnel and TLS), whose ALPN answer must be
//   h2. A server that does not offer it refuses the run in one line
//   (AC_H2_NOT_OFFERED).
// - http: h2c with prior knowledge, so our connection preface is sent and
//   the server's first bytes read. An HTTP/1.x answer (an HTTP/1-only
//   server's 400 to the preface) refuses the run in one line
//   (AC_H2C_NOT_SPOKEN) rather than counting frame-size errors.
//
// A server that cannot be reached, or answers neither way, is left to the
// run, which counts its errors as any run does.

const { transportFor } = require('../transport/transport')
const { raise } = require('../core/errors')
const { FrameParser, CLIENT_PREFACE, encodeSettings } = require('./frames')
// HTTP/2's codes, registered as it loads: this check raises them.
require('./errors')

// One connection of the target's transport, closed once done(value) is
// called or the timeout (then null) passes. connection: the transport's
// view of it (see lib/transport/connection.js), given the socket and done.
function probe (target, config, connection) {
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
    const view = connection(() => socket, done)
    const onError = (err) => done(view.onError ? view.onError(err) : null)
    socket = transportFor(target, config)({
      onData: () => {},
      mark: () => {},
      upgrade: (from, to) => {
        socket = to
        to.on('error', onError)
        return !settled
      },
      ...view
    })
    socket.on('error', onError)
    socket.on('close', () => done(null))
  })
}

// Resolves with the HTTP/1 version ("1.1") an h2c server answered our
// preface in, or null: it spoke HTTP/2 (its SETTINGS came), or something
// else, or nothing.
function askClearText (target, config) {
  return probe(target, config, (socket, done) => {
    const ignore = () => {}
    const parser = new FrameParser({
      onSettings: () => done(null),
      onError: (err) => done(err.code === 'AC_H2C_NOT_SPOKEN' ? err.version : null),
      onData: ignore,
      onHeaders: ignore,
      onPing: ignore,
      onGoaway: ignore,
      onRstStream: ignore,
      onWindowUpdate: ignore,
      onStreamError: ignore
    })
    return {
      onConnect: () => socket().write(CLEAR_TEXT_PREFACE),
      onData: (buf, start, end) => parser.execute(buf, start, end)
    }
  })
}

const CLEAR_TEXT_PREFACE = Buffer.concat([CLIENT_PREFACE, encodeSettings({})])

// Resolves with the protocol the server chose ('' for none), or null when
// no TLS connection could be made.
function negotiate (target, config) {
  return probe(target, config, (socket, done) => ({
    onConnect: () => done(socket().alpnProtocol || ''),
    // A server whose protocols have none of ours in common may end the
    // handshake with this alert (node's does): it offers no h2 either.
    // (HTTP/2's descriptor names that alert AC_H2_NOT_OFFERED, lib/protocols/http2.js.)
    onError: (err) => err && (err.code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL' || err.code === 'AC_H2_NOT_OFFERED') ? '' : null
  }))
}

// What the messages tell a user of --http2 to do; a protocol on HTTP/2
// (gRPC) gives its own.
const HTTP2_ADVICE = Object.freeze({
  clearText: 'drop --http2, or use https:// for ALPN',
  tls: 'drop --http2 to test it over HTTP/1.1'
})

// targets: the run's targets that speak HTTP/2 (the registry picks them,
// lib/protocols/registry.js).
async function checkH2 (config, targets, advice = HTTP2_ADVICE) {
  const seen = new Set()
  for (const target of targets) {
    if (seen.has(target.origin)) continue
    seen.add(target.origin)
    if (!target.secure) {
      const version = await askClearText(target, config)
      if (version !== null) {
        throw raise('AC_H2C_NOT_SPOKEN', `the server at ${target.origin} answered in HTTP/${version}: it does not speak HTTP/2 in clear text (h2c); ${advice.clearText}`)
      }
      continue
    }
    const chosen = await negotiate(target, config)
    if (chosen !== null && chosen !== 'h2') {
      throw raise('AC_H2_NOT_OFFERED', `the server at ${target.origin} does not offer HTTP/2 (ALPN h2${chosen ? `: it chose ${chosen}` : ''}): ${advice.tls}`)
    }
  }
}

module.exports = { checkH2 }
