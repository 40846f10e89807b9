'use strict'

// gRPC unary calls on one connection: HTTP/2's framing (lib/http2/
// client-h2.js), extended where a call differs from a request. A call is
// an HTTP/2 request built once (prepare.js: POST to the method, its
// metadata, the framed message); it ends at its trailers, whose
// grpc-status says how: 0 (OK) is a response as any other (its latency to
// the trailers), any other an error counted by its status's name
// (AC_GRPC_<STATUS>, errors.js). A trailers-only answer (grpc-status in
// the HEADERS that end the stream) counts the same way; an HTTP status
// other than 200 is the gRPC status the spec maps it to (status.js).
// The response's message is not decoded: its status is in the trailers.
//
// The deadline (grpc-timeout, sent with each call) is also kept here:
// one timer per connection, armed for the oldest call in flight, resets
// each call past its deadline with RST_STREAM CANCEL and counts it
// DEADLINE_EXCEEDED.

const { performance } = require('perf_hooks')
const { Http2 } = require('../http2/client-h2')
const { grpcEncoding } = require('./call-frames')
const { encodeRstStream } = require('../http2/frames')
const { ERROR_CODES } = require('../http2/errors')
const { callError } = require('./errors')
const { CODE, fromHttpStatus, parseStatus } = require('./status')
const { decodeTimeout } = require('./wire')

// The call's deadline, from the grpc-timeout its requests carry (0: none).
function deadlineOf (headers) {
  for (const key of Object.keys(headers || {})) if (key.toLowerCase() === 'grpc-timeout') return decodeTimeout(String(headers[key]))
  return 0
}

// grpc-status in a decoded block (its flat list of names and values), or
// -1 when it has none.
function statusIn (headers) {
  if (headers === null) return -1
  for (let i = 0; i < headers.length; i += 2) if (headers[i] === 'grpc-status') return parseStatus(headers[i + 1])
  return -1
}

class Grpc extends Http2 {
  constructor (client, setup, slots, sequence, target) {
    super(client, setup, slots, sequence, target)
    this.deadlineMs = sequence.base ? deadlineOf(sequence.base.headers) : 0
    this.timer = null
    this.timerAt = 0
    // Set while a HEADERS block is handled: a call that completes then
    // ends at that block (its trailers), whose fields the decoder holds.
    this.inHeaders = false
    this.clientWantsHeaders = false
    this.onDeadline = () => this.expire()
  }

  // The fields of a block are decoded where the status is (a block that
  // ends the stream: the trailers, or a trailers-only answer), and where
  // the Client wants the headers; the response's first HEADERS of an OK
  // call is only walked for its :status, as HTTP/2's are.
  refresh (wantBody, wantHeaders) {
    super.refresh(wantBody, wantHeaders)
    this.clientWantsHeaders = wantHeaders
  }

  onHeaders (id, buf, start, end, endStream, wire = end - start) {
    this.inHeaders = true
    this.wantHeaders = this.clientWantsHeaders || endStream
    super.onHeaders(id, buf, start, end, endStream, wire)
    this.inHeaders = false
  }

  complete (slot) {
    const code = this.callStatus(slot)
    if (code === CODE.OK) return super.complete(slot)
    // The server answered before taking the whole message: the rest is not sent.
    if (this.bodyOf[slot] !== null) this.control(encodeRstStream(this.streamOf[slot], ERROR_CODES.NO_ERROR))
    this.resentInRow = 0
    this.endInError(slot, callError(code))
  }

  // The status a call that just ended ended with.
  callStatus (slot) {
    const http = this.status[slot]
    if (http !== 200) return fromHttpStatus(http)
    // Ended by DATA: no trailers, so no status.
    if (!this.inHeaders) return CODE.UNKNOWN
    const code = statusIn(this.decoder.headers)
    return code === -1 ? CODE.UNKNOWN : code
  }

  openStream (now, plannedAt, entry) {
    const slot = super.openStream(now, plannedAt, entry)
    if (this.deadlineMs > 0 && this.timer === null) this.arm(now + this.deadlineMs, now)
    return slot
  }

  arm (at, now) {
    this.timerAt = at
    this.timer = setTimeout(this.onDeadline, Math.max(1, at - now))
    this.timer.unref()
  }

  // Each call past its deadline is reset and counted; the timer is armed
  // again for the oldest left.
  expire () {
    this.timer = null
    if (this.socket === null) return
    const now = performance.now()
    const sentAt = this.slots.sentAt
    let next = Infinity
    let expired = 0
    for (let i = 0; i < this.pipelining; i++) {
      const id = this.streamOf[i]
      if (id === 0) continue
      const due = sentAt[i] + this.deadlineMs
      if (due <= now) {
        this.control(encodeRstStream(id, ERROR_CODES.CANCEL))
        this.endInError(i, callError(CODE.DEADLINE_EXCEEDED))
        expired++
      } else if (due < next) next = due
    }
    if (next !== Infinity) this.arm(next, now)
    // Their streams are free: new calls may go.
    if (expired > 0) this.client.pump()
  }

  close () {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
    super.close()
  }
}

module.exports = {
  inOrder: false,
  create: (client, setup, slots, sequence, target) => new Grpc(client, setup, slots, sequence, target),
  // A call is an HTTP/2 request (prepare.js made it one) without a
  // content-length; a templated message is filled per call (call-frames.js).
  encodingFor: grpcEncoding,
  Grpc,
  statusIn,
  deadlineOf
}
