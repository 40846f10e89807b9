'use strict'

// HTTP/2's error codes (RFC 9113 §7), and the errors our codec raises.
// Each is a CountedError, so it is counted as the HTTP/1.1 parser's
// errors are (cause `parse`) and crosses from worker threads unchanged; its
// `code` is registered in lib/core/errors.js, and `http2Code` is the number
// a GOAWAY or RST_STREAM sends back to the server.

const { CountedError } = require('../core/errors')

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

module.exports = { ERROR_CODES, errorName, http2Error, resetError, goawayError, notProcessedAgainError }
