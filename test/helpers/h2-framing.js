'use strict'

// HTTP/2's framing object (lib/http2/client-h2.js) on its own, for its
// unit tests and its server frames' (client-h2/server-frames.test.js): a
// real request sequence, the fake client and socket of framing-fakes.js, the server's frames fed to
// read() as a socket would, and what the client wrote split back into
// frames (a frame header is 9 octets, RFC 9113 §4.1: read here by hand,
// not by the codec under test).

const http2 = require('../../lib/http2/client-h2')
const { RequestSequence } = require('../../lib/client/request-sequence')
const { h2Encoding } = require('../../lib/http2/request-frames')
const { encodeSettings, CLIENT_PREFACE } = require('../../lib/http2/frames')
const { Decoder, encodeField } = require('../../lib/http2/hpack')
const { framed } = require('./framing-fakes')

const BASE = Object.freeze({ method: 'GET', path: '/', headers: {}, host: 'h.test' })

// Frame types and flags, as RFC 9113 numbers them.
const TYPE = { DATA: 0, HEADERS: 1, RST_STREAM: 3, SETTINGS: 4, PING: 6, GOAWAY: 7, WINDOW_UPDATE: 8 }
const TYPE_NAMES = ['DATA', 'HEADERS', 'PRIORITY', 'RST_STREAM', 'SETTINGS', 'PUSH_PROMISE', 'PING', 'GOAWAY', 'WINDOW_UPDATE', 'CONTINUATION']
const END_STREAM = 0x1
const ACK = 0x1
const END_HEADERS = 0x4

// Whole frames, one after the other → [{ type (its name), flags, id, payload }].
function framesOf (buf) {
  const out = []
  let o = 0
  while (o < buf.length) {
    const length = (buf[o] << 16) | (buf[o + 1] << 8) | buf[o + 2]
    out.push({
      type: TYPE_NAMES[buf[o + 3]],
      flags: buf[o + 4],
      id: buf.readUInt32BE(o + 5) & 0x7fffffff,
      payload: buf.subarray(o + 9, o + 9 + length)
    })
    o += 9 + length
  }
  if (o !== buf.length) throw new Error('frames cut short')
  return out
}

// A request's header block → its fields, as [name, value] pairs.
function fieldsOf (block) {
  const decoder = new Decoder()
  decoder.decode(block, 0, block.length, true)
  const out = []
  for (let i = 0; i < decoder.headers.length; i += 2) out.push([decoder.headers[i], decoder.headers[i + 1]])
  return out
}

// A response's header block: [name, value] pairs, never indexed.
function block (...fields) {
  return Buffer.concat(fields.map(([name, value]) => encodeField(name, value)))
}

// The framing for a sequence of `entries` (pipelining: the streams it
// keeps in flight), on an open socket; with `settings`, the server's
// SETTINGS came, and what was written so far is forgotten.
function h2 ({ entries, pipelining = 4, client = {}, settings = null } = {}) {
  const sequence = new RequestSequence(BASE, entries, { encoding: h2Encoding({ secure: false }) })
  const fake = framed(http2, sequence, { pipelining }, client)
  const framing = fake.framing
  framing.refresh()
  framing.open()
  // The server's frames, in one read.
  const feed = (...frames) => {
    const buf = Buffer.concat(frames)
    framing.read(buf, 0, buf.length)
  }
  // What the client wrote since last asked, as frames (the preface's magic
  // octets left out).
  const written = () => {
    let buf = fake.socket.take()
    if (buf.subarray(0, CLIENT_PREFACE.length).equals(CLIENT_PREFACE)) buf = buf.subarray(CLIENT_PREFACE.length)
    return framesOf(buf)
  }
  if (settings !== null) {
    framing.connected()
    feed(encodeSettings(settings))
    fake.socket.take()
    fake.calls.length = 0
  }
  return { ...fake, framing, feed, written, sequence }
}

// A SETTINGS payload → [[id, value]...].
function settingsOf (payload) {
  const out = []
  for (let p = 0; p < payload.length; p += 6) out.push([payload.readUInt16BE(p), payload.readUInt32BE(p + 2)])
  return out
}

module.exports = { h2, framesOf, fieldsOf, block, settingsOf, TYPE, END_STREAM, ACK, END_HEADERS }
