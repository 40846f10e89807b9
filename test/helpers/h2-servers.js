'use strict'

// HTTP/2 servers for the client's tests, on 127.0.0.1 and port 0, closed
// when the test ends: node:http2's (h2c and TLS), counting the streams
// and connections it saw; and raw ones (net) that speak just enough
// HTTP/2, through the codec's frame encoders, to misbehave on purpose.

const net = require('net')
const http2 = require('http2')
const {
  FrameParser, CLIENT_PREFACE, encodeSettings, encodeHeaders, encodeData
} = require('../../lib/http2/frames')
const { encodeField } = require('../../lib/http2/hpack')
const { listen } = require('./listen')

// handler(stream, headers, server) answers; server.streams and
// server.sessions count what came. tls: { key, cert } for h2 over TLS.
function nodeH2Server (t, handler, tls) {
  const server = tls ? http2.createSecureServer({ ...tls }) : http2.createServer()
  server.streams = 0
  server.sessions = 0
  server.on('session', () => { server.sessions++ })
  server.on('stream', (stream, headers) => {
    server.streams++
    stream.on('error', () => {})
    handler(stream, headers, server)
  })
  // The TLS server's 'connection' is its TCP sockets, as net's.
  return listen(t, server).then((port) => {
    server.port = port
    server.url = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`
    return server
  })
}

// The body of a stream, as a Buffer.
function readBody (stream) {
  return new Promise((resolve) => {
    const chunks = []
    stream.on('data', (c) => chunks.push(c))
    stream.on('end', () => resolve(Buffer.concat(chunks)))
  })
}

// A response header block: :status 200 and a content-type, literal.
const RESPONSE_BLOCK = Buffer.concat([encodeField(':status', '200'), encodeField('content-type', 'text/plain')])

// A raw HTTP/2 server: each connection's frames from the client are read
// by the codec's FrameParser (after the 24 octets of the preface) and
// handed to behaviour(conn), an object of the parser's handler calls
// (onHeaders, onData…), with conn.socket, conn.server and conn.send(buf).
// Our SETTINGS (settings) go first, as they must.
function rawH2Server (t, behaviour, settings = {}) {
  const server = net.createServer((socket) => {
    socket.on('error', () => {})
    server.connections++
    const conn = { socket, server, send: (buf) => { if (!socket.destroyed) socket.write(buf) } }
    const handler = {
      onData () {},
      onHeaders () {},
      onSettings (ack) { if (!ack) conn.send(encodeSettings({}, true)) },
      onPing () {},
      onGoaway () {},
      onRstStream () {},
      onWindowUpdate () {},
      onStreamError () {},
      onError () { socket.destroy() },
      ...behaviour(conn)
    }
    const parser = new FrameParser(handler, { maxFrameSize: 1 << 16 })
    let preface = Buffer.alloc(0)
    conn.send(encodeSettings(settings))
    socket.on('data', (buf) => {
      if (preface !== null) {
        preface = Buffer.concat([preface, buf])
        if (preface.length < CLIENT_PREFACE.length) return
        if (!preface.subarray(0, CLIENT_PREFACE.length).equals(CLIENT_PREFACE)) return socket.destroy()
        buf = preface.subarray(CLIENT_PREFACE.length)
        preface = null
      }
      parser.execute(buf)
    })
  })
  server.connections = 0
  return listen(t, server).then((port) => {
    server.port = port
    server.url = `http://127.0.0.1:${port}`
    return server
  })
}

// A whole response on a stream: HEADERS, then DATA with END_STREAM.
function response (streamId, body = 'ok') {
  return Buffer.concat([encodeHeaders(streamId, RESPONSE_BLOCK, false), encodeData(streamId, Buffer.from(body), true)])
}

module.exports = { nodeH2Server, readBody, rawH2Server, response, RESPONSE_BLOCK }
