'use strict'

// The reference: Node's own HTTP/1 parser (llhttp behind the binding that
// node:http uses), set up as node:http's client sets it up
// (lib/_http_client.js: parser.initialize(HTTPParser.RESPONSE, resource,
// req.maxHeaderSize || 0, lenient ? kLenientAll : kLenientNone)), fed a
// stream in the given pieces, then finish() at EOF as socketOnEnd does.
//
// Its callbacks are answered as node:http's parserOnIncomingClient answers
// them: 1 ("no body") for 1xx other than 101, for a HEAD request and for
// 304. 1xx responses are not responses to node:http (it restarts the
// parser and emits 'information'), so they are not counted here either.
//
// A 101 makes llhttp stop ("paused upgrade": execute() returns early,
// with no error, and node:http hands the socket over or drops the rest of
// that read). The rest of the connection is another protocol: the outcome
// is marked `upgraded` and nothing more is fed, which is also what our
// parser does after a 101.

const { HTTPParser } = require('_http_common')

const { kOnMessageBegin, kOnHeaders, kOnHeadersComplete, kOnBody, kOnMessageComplete } = HTTPParser

// The lenient flags, by the names llhttp gives them.
const LENIENT = {
  headers: HTTPParser.kLenientHeaders,
  chunkedLength: HTTPParser.kLenientChunkedLength,
  keepAlive: HTTPParser.kLenientKeepAlive,
  transferEncoding: HTTPParser.kLenientTransferEncoding,
  version: HTTPParser.kLenientVersion,
  dataAfterClose: HTTPParser.kLenientDataAfterClose,
  optionalLFAfterCR: HTTPParser.kLenientOptionalLFAfterCR,
  optionalCRLFAfterChunk: HTTPParser.kLenientOptionalCRLFAfterChunk,
  optionalCRBeforeLF: HTTPParser.kLenientOptionalCRBeforeLF,
  spacesAfterChunkSize: HTTPParser.kLenientSpacesAfterChunkSize
}

// Node's default --max-http-header-size.
const DEFAULT_MAX_HEADER_SIZE = 16384

function isInterim (status) {
  return status >= 100 && status < 200 && status !== 101
}

// An incremental run: execute(piece) as pieces arrive, finish() at EOF,
// then read `out`. opts.head[k]: final response k answers a HEAD request.
// opts.offsets: record the stream offset at which each response began and
// completed (exact only when fed one byte at a time).
function createReference (opts = {}) {
  const head = opts.head || []
  const parser = new HTTPParser()
  const out = { responses: [], error: null, upgraded: false, begins: [], ends: [] }
  let cur = null
  // Bytes handed over so far, counting the piece being parsed: with pieces
  // of one byte, the offset just past the byte that made a callback fire.
  let pos = 0
  let bodyParts = []
  let headers = []
  let interim = false
  // An interim response came and its final response has not begun.
  let awaitingFinal = false
  let done = false

  parser[kOnMessageBegin] = function () {
    if (opts.offsets) out.begins.push(pos - 1)
    headers = []
    awaitingFinal = false
  }
  parser[kOnHeaders] = function (h) {
    // Headers flushed early (more than 32 fields), or trailers.
    if (cur === null) for (const x of h) headers.push(x)
  }
  parser[kOnHeadersComplete] = function (major, minor, h, method, url, status, message, upgrade, keepAlive) {
    if (h) for (const x of h) headers.push(x)
    interim = isInterim(status)
    if (interim) return 1
    const index = out.responses.length
    const isHead = head[index] === true
    cur = { status, body: null, close: isHead || status === 101 ? null : !keepAlive, headers }
    bodyParts = []
    if (isHead || status === 304) return 1
    return 0
  }
  parser[kOnBody] = function (b) {
    bodyParts.push(Buffer.from(b))
  }
  parser[kOnMessageComplete] = function () {
    if (interim) {
      interim = false
      awaitingFinal = true
      return
    }
    if (cur === null) return
    cur.body = Buffer.concat(bodyParts)
    out.responses.push(cur)
    if (opts.offsets) out.ends.push(pos)
    if (cur.status === 101) out.upgraded = true
    cur = null
  }

  parser.initialize(HTTPParser.RESPONSE, {}, opts.maxHeaderSize || DEFAULT_MAX_HEADER_SIZE, opts.lenient || 0)

  function stop () {
    done = true
    parser.close()
  }

  function execute (chunk) {
    if (done || chunk.length === 0) return
    pos += chunk.length
    const ret = parser.execute(chunk)
    if (ret instanceof Error) {
      // Where in the stream it stopped, for fuzz/known.js.
      out.error = { code: ret.code, reason: ret.reason, at: out.responses.length, offset: pos - chunk.length + ret.bytesParsed }
      stop()
    } else if (out.upgraded) {
      stop()
    }
  }

  function finish () {
    if (done) return out
    // EOF: a body delimited by the close completes in finish().
    const ret = parser.finish()
    if (ret instanceof Error) {
      out.error = { code: ret.code, reason: ret.reason, at: out.responses.length }
    } else if (awaitingFinal) {
      // llhttp is content (the 1xx was a whole message); node:http is not:
      // the request got no response ("socket hang up").
      out.error = { code: 'HPE_INVALID_EOF_STATE', reason: 'EOF after an interim response (node:http: socket hang up)', at: out.responses.length }
    }
    stop()
    return out
  }

  return { execute, finish, out }
}

// chunks: Buffers fed one execute() each, then EOF.
function runReference (chunks, opts = {}) {
  const run = createReference(opts)
  for (const chunk of chunks) run.execute(chunk)
  return run.finish()
}

module.exports = { runReference, createReference, LENIENT, DEFAULT_MAX_HEADER_SIZE, isInterim }
