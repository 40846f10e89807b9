'use strict'

// Drives lib/http1/response-parser.js directly with a recording handler,
// no socket, for test/http1/response-parser/: every assertion there is on
// what the handler saw (status codes, bodies, byte counts, shouldClose
// flags, headers and errors), parsed whole, cut anywhere and in ranges of
// a larger buffer.

const { ResponseParser } = require('../../lib/http1/response-parser')
const { CountedError } = require('../../lib/core/errors')

const toBuf = (wire) => Buffer.isBuffer(wire) ? wire : Buffer.from(wire, 'latin1')

// A handler that records every call, checking the interface's invariants as
// it goes (body ranges inside the buffer and never empty, body only between
// headers and completion, nothing after an error).
function recorder (opts = {}) {
  const events = []
  const problems = []
  let inMessage = false
  let dead = false
  let headersSeen = 0
  const handler = {
    onHeadersComplete (status, headers) {
      if (dead) problems.push('onHeadersComplete after an error')
      if (inMessage) problems.push('onHeadersComplete twice for one message')
      inMessage = true
      const index = headersSeen++
      events.push({ type: 'headers', status, headers: headers === null ? null : headers.slice() })
      if (opts.onHeaders) opts.onHeaders(status, headers, index)
      if (typeof opts.head === 'function') return opts.head(status, index)
      if (Array.isArray(opts.head)) return opts.head[index]
      return opts.head
    },
    onBody (buf, start, end) {
      if (dead) problems.push('onBody after an error')
      if (!inMessage) problems.push('onBody outside a message')
      if (!(start >= 0 && start < end && end <= buf.length)) problems.push(`bad body range ${start}..${end} of ${buf.length}`)
      // Copied now: the caller may reuse the buffer.
      events.push({ type: 'body', data: Buffer.from(buf.subarray(start, end)) })
    },
    onMessageComplete (status, bytes, close) {
      if (dead) problems.push('onMessageComplete after an error')
      if (!inMessage) problems.push('onMessageComplete without onHeadersComplete')
      inMessage = false
      events.push({ type: 'complete', status, bytes, close })
      if (opts.onComplete) opts.onComplete(status, bytes, close)
    },
    onParseError (err) {
      if (dead) problems.push('onParseError twice')
      dead = true
      events.push({ type: 'error', err })
    }
  }
  return {
    handler,
    events,
    problems,
    // Ready to parse again (after the parser's reset()).
    revive () {
      dead = false
      inMessage = false
    }
  }
}

// The handler's view folded into messages: body pieces joined (they depend
// on how the input was cut, the message does not).
function summarize (events) {
  const messages = []
  const errors = []
  let cur = null
  for (const e of events) {
    if (e.type === 'headers') cur = { status: e.status, headers: e.headers, body: [] }
    else if (e.type === 'body') cur.body.push(e.data)
    else if (e.type === 'complete') {
      messages.push({
        status: e.status,
        headerStatus: cur.status,
        headers: cur.headers,
        body: Buffer.concat(cur.body).toString('latin1'),
        bytes: e.bytes,
        close: e.close
      })
      cur = null
    } else {
      errors.push({ code: e.err.code, name: e.err.name, message: e.err.message, isCounted: e.err instanceof CountedError })
    }
  }
  return { messages, errors }
}

// Parses `wire` given as separate Buffers cut at `cuts` (or one byte at a
// time with cuts: 'bytes'). Each piece is a fresh Buffer which is scribbled
// over once the parser has returned, as a socket's reused read buffer
// would be: nothing may be read from it later.
function parse (wire, opts = {}) {
  const buf = toBuf(wire)
  const rec = recorder(opts)
  const parser = new ResponseParser(rec.handler)
  parser.wantBody = opts.wantBody !== undefined ? opts.wantBody : true
  parser.wantHeaders = !!opts.wantHeaders
  if (opts.maxHeaderSize) parser.maxHeaderSize = opts.maxHeaderSize
  parser.reset()
  let cuts = opts.cuts || []
  if (cuts === 'bytes') cuts = Array.from({ length: Math.max(0, buf.length - 1) }, (_, k) => k + 1)
  let prev = 0
  let thrown = null
  try {
    for (const cut of [...cuts, buf.length]) {
      const piece = Buffer.from(buf.subarray(prev, cut))
      parser.execute(piece)
      piece.fill(0x7e)
      prev = cut
    }
    if (opts.eof) parser.finish()
  } catch (err) {
    thrown = err
  }
  return { ...summarize(rec.events), events: rec.events, problems: rec.problems, thrown, parser, rec }
}

// Same, but every piece is a [start, end) range of one larger buffer with
// bytes around it that must never be looked at (line feeds included, to
// catch a search that runs past `end`).
function parseInRanges (wire, cuts, opts = {}) {
  const buf = toBuf(wire)
  const rec = recorder(opts)
  const parser = new ResponseParser(rec.handler)
  parser.wantBody = opts.wantBody !== undefined ? opts.wantBody : true
  parser.wantHeaders = !!opts.wantHeaders
  if (opts.maxHeaderSize) parser.maxHeaderSize = opts.maxHeaderSize
  parser.reset()
  const pad = Buffer.from('\n\r\nXX\n0\r\n\r\nHTTP/1.1 500 X\r\n\n', 'latin1')
  let prev = 0
  for (const cut of [...cuts, buf.length]) {
    const piece = buf.subarray(prev, cut)
    const big = Buffer.concat([pad, piece, pad])
    parser.execute(big, pad.length, pad.length + piece.length)
    prev = cut
  }
  if (opts.eof) parser.finish()
  return { ...summarize(rec.events), problems: rec.problems }
}

const view = (r) => ({ messages: r.messages, errors: r.errors })

// The stream parsed whole must give the same messages and errors as when
// cut at every single position, one byte at a time, and in ranges of a
// bigger buffer. Returns the whole-stream result.
function everySplit (t, wire, opts = {}) {
  const buf = toBuf(wire)
  const whole = parse(buf, opts)
  t.equal(whole.thrown, null, 'nothing thrown')
  t.same(whole.problems, [], 'handler interface respected')
  const expected = view(whole)
  let firstBad = null
  let bad = 0
  for (let k = 1; k < buf.length; k++) {
    const r = parse(buf, { ...opts, cuts: [k] })
    if (r.thrown || r.problems.length || JSON.stringify(view(r)) !== JSON.stringify(expected)) {
      bad++
      if (firstBad === null) firstBad = { cut: k, got: view(r), thrown: r.thrown && r.thrown.message, problems: r.problems }
    }
  }
  t.equal(bad, 0, `same result cut at each of the ${buf.length - 1} positions`, { firstBad })
  const bytes = parse(buf, { ...opts, cuts: 'bytes' })
  t.equal(bytes.thrown, null, 'nothing thrown one byte at a time')
  t.same(bytes.problems, [], 'interface respected one byte at a time')
  t.same(view(bytes), expected, 'same result one byte at a time')
  const thirds = [Math.floor(buf.length / 3), Math.floor(2 * buf.length / 3)]
  const ranged = parseInRanges(buf, thirds, opts)
  t.same(ranged.problems, [], 'interface respected in ranges')
  t.same(view(ranged), expected, 'same result from ranges of a larger buffer')
  return whole
}

// Deterministic pseudo-random bytes.
function noise (n, seed = 1) {
  const out = Buffer.allocUnsafe(n)
  let x = seed >>> 0 || 1
  for (let i = 0; i < n; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}

function chunkedBody (body, sizes, { upper = false, ext = '' } = {}) {
  const parts = []
  let off = 0
  let k = 0
  while (off < body.length) {
    const n = Math.min(sizes[k++ % sizes.length], body.length - off)
    let hex = n.toString(16)
    if (upper) hex = hex.toUpperCase()
    parts.push(Buffer.from(hex + ext + '\r\n', 'latin1'), body.subarray(off, off + n), Buffer.from('\r\n'))
    off += n
  }
  parts.push(Buffer.from('0\r\n\r\n'))
  return Buffer.concat(parts)
}

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nhello'

module.exports = { toBuf, recorder, summarize, parse, parseInRanges, view, everySplit, noise, chunkedBody, OK }
