'use strict'

// Runs our parser (lib/http1/response-parser.js) over a stream given as pieces,
// then finish() at EOF, and reports the same outcome shape as
// fuzz/reference.js: the complete responses (status, body bytes, close
// flag, headers when asked for) and the error, with the number of complete
// responses before it.
//
// It also checks the handler interface as it goes (body ranges inside the
// buffer, nothing after an error, headers before body before completion).
// With opts.scribble each piece is a copy scribbled over once execute()
// has returned, as a reused socket read buffer would be: a parser that
// kept a reference would show. With opts.ranges each piece is a range of a
// larger buffer whose other bytes must never be read.

const path = require('path')

// FUZZ_PARSER=path/to/response-parser.js runs the fuzzer against another
// copy of the parser (an older one, to see what it got wrong).
const { ResponseParser } = require(process.env.FUZZ_PARSER ? path.resolve(process.env.FUZZ_PARSER) : '../lib/http1/response-parser')

// An incremental run: execute(piece) as pieces arrive (from a socket, say),
// finish() at EOF, then read `out`.
function createOurs (opts = {}) {
  const head = opts.head || []
  const out = { responses: [], error: null, upgraded: false, ends: [], problems: [], wireBytes: 0, bodyRanges: [] }
  let cur = null
  let bodyParts = []
  let dead = false
  let pos = 0
  // Stream offset of the current piece, and where it sits in the buffer
  // handed to execute().
  let pieceStart = 0
  let pieceOffset = 0
  const handler = {
    onHeadersComplete (status, headers) {
      if (dead) out.problems.push('onHeadersComplete after an error')
      if (cur !== null) out.problems.push('onHeadersComplete twice for one response')
      cur = { status, body: null, close: null, headers: headers === null ? null : headers.slice() }
      bodyParts = []
      return head[out.responses.length] === true
    },
    onBody (buf, start, end) {
      if (dead) out.problems.push('onBody after an error')
      if (cur === null) out.problems.push('onBody outside a response')
      if (!(start >= 0 && start < end && end <= buf.length)) out.problems.push(`bad body range ${start}..${end} of ${buf.length}`)
      bodyParts.push(Buffer.from(buf.subarray(start, end)))
      // Where the body bytes are in the stream (fuzz/known.js uses them).
      const base = pieceStart - pieceOffset
      out.bodyRanges.push([base + start, base + end])
    },
    onMessageComplete (status, bytes, close) {
      if (dead) out.problems.push('onMessageComplete after an error')
      if (cur === null) {
        out.problems.push('onMessageComplete without onHeadersComplete')
        return
      }
      if (status !== cur.status) out.problems.push(`status ${status} at completion, ${cur.status} at headers`)
      cur.body = Buffer.concat(bodyParts)
      cur.close = close
      out.responses.push(cur)
      out.ends.push(pos)
      out.wireBytes += bytes
      if (status === 101) out.upgraded = true
      cur = null
    },
    onParseError (err) {
      if (dead) out.problems.push('onParseError twice')
      if (!(err instanceof Error) || err.name !== 'CountedError' || typeof err.code !== 'string') out.problems.push('an error that is not a CountedError')
      dead = true
      out.error = { code: err.code, reason: err.message, at: out.responses.length }
    }
  }
  const parser = new ResponseParser(handler)
  parser.wantHeaders = !!opts.wantHeaders
  parser.wantBody = opts.wantBody !== false
  if (opts.maxHeaderSize) parser.maxHeaderSize = opts.maxHeaderSize
  parser.reset()

  // Fed to the end and finished even after an error or an upgrade: the
  // parser must ignore it (the checks above see anything it reports).
  function execute (chunk) {
    if (chunk.length === 0) return
    pieceStart = pos
    pieceOffset = 0
    pos += chunk.length
    try {
      if (opts.ranges) {
        const piece = padded(chunk)
        pieceOffset = piece.start
        parser.execute(piece.buf, piece.start, piece.end)
        piece.buf.fill(0x7e)
      } else if (opts.scribble) {
        const piece = Buffer.from(chunk)
        parser.execute(piece)
        piece.fill(0x7e)
      } else {
        parser.execute(chunk)
      }
    } catch (err) {
      out.problems.push('threw: ' + (err && (err.stack || err.message)))
    }
  }

  function finish () {
    try {
      parser.finish()
    } catch (err) {
      out.problems.push('threw: ' + (err && (err.stack || err.message)))
    }
    // A response the parser started but never completed nor failed.
    if (cur !== null && out.error === null && !out.upgraded) out.problems.push('a response started but neither completed nor failed at EOF')
    return out
  }

  return { execute, finish, out }
}

function runOurs (chunks, opts = {}) {
  const run = createOurs(opts)
  for (const chunk of chunks) run.execute(chunk)
  return run.finish()
}

// The piece as a range of a larger buffer with line feeds and a response
// around it, which the parser must never look at.
const PAD = Buffer.from('\n\r\n0\r\n\r\nHTTP/1.1 500 X\r\n\n', 'latin1')
function padded (chunk) {
  const buf = Buffer.concat([PAD, chunk, PAD])
  return { buf, start: PAD.length, end: PAD.length + chunk.length }
}

module.exports = { runOurs, createOurs }
