'use strict'

// A request as HTTP/2 frames, built once per request shape (as the
// HTTP/1.1 encoder builds its bytes): the header block HPACK-encoded
// without the dynamic table, so that it fits any connection, and framed
// on stream 0; the client copies the frames into each write and sets
// their stream there (frames.js setStreamId).
//
// Frames are cut at 16384 octets, the SETTINGS_MAX_FRAME_SIZE every peer
// takes (RFC 9113 §4.2), so they fit any server without being built
// again. A body goes with its HEADERS when the server's windows have room
// for it (`frames`, the usual case); otherwise HEADERS go alone (`head`)
// and the body follows as the windows open (client-h2.js).

const { encodeHeaders, encodeData, DEFAULT_MAX_FRAME_SIZE } = require('./frames')
const { encodeRequestHeaders, encodeTableSizeUpdate } = require('./hpack')
const { checkBody } = require('../core/http-syntax')
const { hasTemplate } = require('../client/templates')
const { lazy } = require('../core/lazy')
// Lazy: only a request with {{…}} holes needs it.
const requestTemplate = lazy(() => require('./request-template'))

// Methods that state a length even without a body, as the HTTP/1.1
// encoder has them do (some servers wait for a body otherwise).
const STATES_LENGTH = new Set(['POST', 'PUT', 'PATCH'])

function framesOf (block, body) {
  const empty = body === null
  const headers = encodeHeaders(0, block, empty, DEFAULT_MAX_FRAME_SIZE)
  if (empty) return { frames: headers, head: null }
  return {
    frames: Buffer.concat([headers, encodeData(0, body, true, DEFAULT_MAX_FRAME_SIZE)]),
    head: encodeHeaders(0, block, false, DEFAULT_MAX_FRAME_SIZE)
  }
}

// scheme: 'http' or 'https'. Returns { frames, head, block, body }: head
// is null and body null for a request without a body. statesLength:
// false for a framing whose requests carry no content-length (gRPC's,
// whose peers see it as metadata).
function encodeH2Request ({ method = 'GET', path = '/', host, headers, body }, scheme, { statesLength = true } = {}) {
  let data = checkBody('body', body)
  if (typeof data === 'string') data = Buffer.from(data)
  if (data !== undefined && data.length === 0) data = undefined
  const contentLength = !statesLength ? undefined : data !== undefined ? data.length : (STATES_LENGTH.has(method) ? 0 : undefined)
  const block = encodeRequestHeaders({ method, scheme, authority: host, path, headers, contentLength })
  const bodyBuf = data === undefined ? null : data
  return { ...framesOf(block, bodyBuf), block, body: bodyBuf }
}

// The same request with its header block led by a dynamic table size
// update to 0: the first block after a server lowered its
// SETTINGS_HEADER_TABLE_SIZE below the default must carry one (RFC 7541
// §4.2). Once per such connection.
function withTableSizeUpdate (request) {
  const block = Buffer.concat([encodeTableSizeUpdate(0), request.block])
  return { ...framesOf(block, request.body), block, body: request.body }
}

// How a request sequence (lib/client/request-sequence.js) encodes for
// HTTP/2 at a target: frames, encoded again for each request with ids;
// {{…}} holes written per request (request-template.js).
function h2Encoding (target) {
  const scheme = target.secure ? 'https' : 'http'
  return Object.freeze({
    encode: (req) => encodeH2Request(req, scheme),
    template (template, base, name, conn) {
      const headers = template.headers
      if (!hasTemplate(template.path) && !hasTemplate(template.body) && !Object.keys(headers).some((k) => hasTemplate(headers[k]))) return null
      return requestTemplate().compileH2(template, base, scheme, name, conn)
    }
  })
}

module.exports = { encodeH2Request, withTableSizeUpdate, h2Encoding }
