'use strict'

// HTTP/2's error codes (RFC 9113 §7), and the errors our codec raises.
// Each is a CountedError, so it is counted as the HTTP/1.1 parser's
// errors are (cause `parse`) and crosses from worker threads unchanged; its
// `code` is one of the AC_H2_* codes below, registered from here into
// lib/core/errors.js's tables as this file loads, and `http2Code` is the
// number a GOAWAY or RST_STREAM sends back to the server.

const { CountedError, registerCodes } = require('../core/errors')

// Raised before the run (one line, exit 1).
const RAISED = {
  AC_H2_NOT_OFFERED: 'With http2 (--http2), an https target whose server does not offer HTTP/2 in TLS (ALPN h2): checked once before the run, which does not start.',
  AC_H2C_NOT_SPOKEN: 'With http2 (--http2), an http target whose server answered the HTTP/2 connection preface in HTTP/1.x: it does not speak HTTP/2 in clear text (h2c). Checked once per origin before the run, which does not start.'
}

// Counted per request, with the cause they count under.
const COUNTED = {
  // HTTP/2 connection errors we detect (RFC 9113 §7 names them): the
  // connection is closed with a GOAWAY carrying that error.
  AC_H2_PROTOCOL_ERROR: ['parse', 'The HTTP/2 server broke the protocol (PROTOCOL_ERROR): a frame where none may be, padding longer than its frame, a PUSH_PROMISE, a setting out of range.'],
  AC_H2_FRAME_SIZE_ERROR: ['parse', 'An HTTP/2 frame larger than our SETTINGS_MAX_FRAME_SIZE, or of a size its type does not allow (FRAME_SIZE_ERROR).'],
  AC_H2_FLOW_CONTROL_ERROR: ['parse', 'The HTTP/2 server broke flow control (FLOW_CONTROL_ERROR), such as a SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1.'],
  AC_H2_COMPRESSION_ERROR: ['parse', 'An HTTP/2 header block that HPACK cannot decode (COMPRESSION_ERROR): an index out of range, bad Huffman coding, a table size update out of place or above our limit.'],
  AC_H2_ENHANCE_YOUR_CALM: ['parse', 'An HTTP/2 header block (HEADERS and its CONTINUATION frames) larger than we hold in memory (ENHANCE_YOUR_CALM).'],
  // HTTP/2 requests the server ended: RST_STREAM, by its code (RFC 9113
  // §7); a code the RFC does not define is AC_H2_RST_UNKNOWN.
  AC_H2_RST_NO_ERROR: ['parse', 'The HTTP/2 server reset the stream (RST_STREAM) with NO_ERROR before its response was complete.'],
  AC_H2_RST_PROTOCOL_ERROR: ['parse', 'The HTTP/2 server reset the stream with PROTOCOL_ERROR.'],
  AC_H2_RST_INTERNAL_ERROR: ['parse', 'The HTTP/2 server reset the stream with INTERNAL_ERROR.'],
  AC_H2_RST_FLOW_CONTROL_ERROR: ['parse', 'The HTTP/2 server reset the stream with FLOW_CONTROL_ERROR.'],
  AC_H2_RST_SETTINGS_TIMEOUT: ['parse', 'The HTTP/2 server reset the stream with SETTINGS_TIMEOUT.'],
  AC_H2_RST_STREAM_CLOSED: ['parse', 'The HTTP/2 server reset the stream with STREAM_CLOSED.'],
  AC_H2_RST_FRAME_SIZE_ERROR: ['parse', 'The HTTP/2 server reset the stream with FRAME_SIZE_ERROR.'],
  AC_H2_RST_REFUSED_STREAM: ['parse', 'The HTTP/2 server reset the stream with REFUSED_STREAM when it had refused as many streams as are in flight (pipelining) with no response since: a refused request is sent again (counted in `resent`) while the server answers in between, so a server that refuses every stream cannot hold the run in a loop.'],
  AC_H2_RST_CANCEL: ['parse', 'The HTTP/2 server reset the stream with CANCEL.'],
  AC_H2_RST_COMPRESSION_ERROR: ['parse', 'The HTTP/2 server reset the stream with COMPRESSION_ERROR.'],
  AC_H2_RST_CONNECT_ERROR: ['parse', 'The HTTP/2 server reset the stream with CONNECT_ERROR.'],
  AC_H2_RST_ENHANCE_YOUR_CALM: ['parse', 'The HTTP/2 server reset the stream with ENHANCE_YOUR_CALM (it thinks it is under attack: too many streams or resets).'],
  AC_H2_RST_INADEQUATE_SECURITY: ['parse', 'The HTTP/2 server reset the stream with INADEQUATE_SECURITY.'],
  AC_H2_RST_HTTP_1_1_REQUIRED: ['parse', 'The HTTP/2 server reset the stream with HTTP_1_1_REQUIRED: it wants this request over HTTP/1.1.'],
  AC_H2_RST_UNKNOWN: ['parse', 'The HTTP/2 server reset the stream with an error code RFC 9113 does not define (the message has it).'],
  AC_H2_GOAWAY: ['parse', 'The HTTP/2 server sent GOAWAY with an error code (the message names it) and closed the connection before answering the requests it had taken (those it had not are sent again, as refused streams are: beyond pipelining of them in a row with no response, they count here).'],
  // Raised before the run too (above); counted when a connection opened
  // during the run is not offered h2.
  AC_H2_NOT_OFFERED: ['connect', 'With http2, a connection opened during the run whose server did not offer HTTP/2 in TLS (ALPN h2): the connection fails, one request counts, and it is opened again with a back-off.'],
  AC_H2C_NOT_SPOKEN: ['connect', 'With http2 over http://, a connection opened during the run whose server answered the HTTP/2 connection preface in HTTP/1.x (no h2c): the connection fails, one request counts, and it is opened again with a back-off.'],
  AC_H2_NO_SETTINGS: ['connect', 'The HTTP/2 server closed the connection before its SETTINGS frame, the end of the connection\'s set-up: one request counts as a failed connection.']
}

registerCodes({ raised: RAISED, counted: COUNTED })

const ERROR_CODES = Object.freeze({
  NO_ERROR: 0x0,
  PROTOCOL_ERROR: 0x1,
  INTERNAL_ERROR: 0x2,
  FLOW_CONTROL_ERROR: 0x3,
  SETTINGS_TIMEOUT: 0x4,
  STREAM_CLOSED: 0x5,
  FRAME_SIZE_ERROR: 0x6,
  REFUSED_STREAM: 0x7,
  CANCEL: 0x8,
  COMPRESSION_ERROR: 0x9,
  CONNECT_ERROR: 0xa,
  ENHANCE_YOUR_CALM: 0xb,
  INADEQUATE_SECURITY: 0xc,
  HTTP_1_1_REQUIRED: 0xd
})

const NAMES = Object.keys(ERROR_CODES)

// A code a peer sent (GOAWAY, RST_STREAM) → its name; codes this RFC does
// not define are not errors (§7: treat them as INTERNAL_ERROR if anything),
// so they keep their number.
function errorName (code) {
  return code < NAMES.length ? NAMES[code] : `0x${code.toString(16)}`
}

// The errors we detect ourselves, under the codes registered for them.
const OURS = {
  PROTOCOL_ERROR: 'AC_H2_PROTOCOL_ERROR',
  FRAME_SIZE_ERROR: 'AC_H2_FRAME_SIZE_ERROR',
  FLOW_CONTROL_ERROR: 'AC_H2_FLOW_CONTROL_ERROR',
  COMPRESSION_ERROR: 'AC_H2_COMPRESSION_ERROR',
  ENHANCE_YOUR_CALM: 'AC_H2_ENHANCE_YOUR_CALM'
}

// A connection error (streamId 0) or a stream error (RFC 9113 §5.4).
function http2Error (name, message, streamId = 0) {
  const err = new CountedError(OURS[name], message)
  err.http2Code = ERROR_CODES[name]
  err.streamId = streamId
  return err
}

// A server that answered our connection preface in HTTP/1.x: its status
// line read as a frame header. version: "1.1", "1.0".
function http1AnswerError (version) {
  const err = new CountedError('AC_H2C_NOT_SPOKEN', `the server answered in HTTP/${version}: it does not speak HTTP/2 in clear text (h2c)`)
  err.http2Code = ERROR_CODES.PROTOCOL_ERROR
  err.streamId = 0
  err.version = version
  return err
}

// A stream the server reset (RST_STREAM): the request ends in this error,
// registered by the code's name.
function resetError (code, streamId) {
  const name = errorName(code)
  const err = new CountedError(code < NAMES.length ? `AC_H2_RST_${name}` : 'AC_H2_RST_UNKNOWN', `the HTTP/2 server reset stream ${streamId} with ${name}`)
  err.http2Code = code
  return err
}

// The requests the server had taken when it said GOAWAY with an error and
// closed the connection.
function goawayError (code, debug) {
  const text = debug && debug.length > 0 ? `: ${debug.toString('latin1').slice(0, 200)}` : ''
  const err = new CountedError('AC_H2_GOAWAY', `the HTTP/2 server sent GOAWAY with ${errorName(code)} and closed the connection${text}`)
  err.http2Code = code
  return err
}

// A stream above a GOAWAY's last, when `resent` requests were already
// sent again with no response since: it is not sent again.
function notProcessedAgainError (streamId, lastId, resent) {
  const err = new CountedError('AC_H2_GOAWAY', `the HTTP/2 server did not process stream ${streamId} (GOAWAY with last stream ${lastId}), with ${resent} requests already sent again and no response since`)
  err.http2Code = ERROR_CODES.REFUSED_STREAM
  return err
}

// A failed connection's error, as HTTP/2 reads it: a server whose
// protocols have none of ours in common may end the handshake with this
// alert (node's does) rather than choose none, and that is a server that
// does not offer h2, counted as such.
function notOffered (err) {
  if (err && err.code === 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL') {
    err.message = `the server did not offer HTTP/2 on a new connection (ALPN h2): ${err.message}`
    err.code = 'AC_H2_NOT_OFFERED'
  }
  return err
}

module.exports = { RAISED, COUNTED, notOffered, ERROR_CODES, errorName, http2Error, http1AnswerError, resetError, goawayError, notProcessedAgainError }
