'use strict'

// lib/http1: the protocol spoken on a connection: this file's Client,
// the requests each connection sends in turn (request-sequence.js), their
// bytes built once (request-encoder.js; with {{…}} holes filled per
// request, template.js and template-writer.js), and the responses read back
// byte by byte (response-parser.js).
//
// HTTP/1.1 on one connection: the requests in flight as a FIFO (responses
// come back in the order requests were written), the parser, and the
// batching of writes. The socket is its Connection's (lib/transport/connection.js),
// which drives it through a fixed set of calls; the run is reached only
// through its port (see lib/engine/run.js). All its state lives in fields set up
// here, so every client has one shape. The public Client of autocannon's
// API (setupClient, the 'response' event) is its base, lib/client/client.js.
//
// Every request started ends once: a response, or an error. When the
// socket dies, every request still in the FIFO ends with it, as one error
// each (reported once per connection); a connection that cannot be opened
// counts as one request that ended in an error. Only a close the server
// announced sends the requests behind it again, as never started.

const { performance } = require('perf_hooks')
const { ResponseParser } = require('./response-parser')
const { sequenceFor } = require('./request-sequence')
const { ResponseParseError } = require('../core/errors')
const { ClientBase } = require('../client/client')

class Client extends ClientBase {
  // As ClientBase's, with the run's requests and --targets' shared order
  // of this origin's entries (or null) to make the sequence of.
  constructor (run, setup, target, index, connect, requests, order = null) {
    super(run, setup, target, index, connect, sequenceFor(setup, target, requests, order, index))
    // Through an HTTP proxy, a 407 is the proxy refusing us, not the
    // target answering: decided once, here.
    this.proxied = target.absoluteForm !== undefined
    this.closeAfterResponse = false

    this.parser = new ResponseParser(this)
    // FIFO of in-flight requests: the slots are a ring.
    this.isHead = new Uint8Array(this.pipelining)
    this.head = 0
    this.bodyChunks = null
    this.bodyBytes = 0
    this.bodyTooLarge = false
    this.bodyHeaders = null

    this.batches = null
    this.batchIsHead = false
    // A batch being built (queueRequest): one request, or a list of them.
    this.queued = null
    this.watchListeners()
  }

  refreshFastPath () {
    const bytes = this.sequence.staticBytes
    // batches[k] holds k copies of the one request, for one write per read.
    this.batches = bytes ? [null, bytes] : null
    this.batchIsHead = bytes !== null && this.sequence.entries[0].isHead
    this.refreshWants()
    this.parser.wantBody = this.wantBody
    this.parser.wantHeaders = this.wantHeaders
  }

  // --- the connection's calls ---

  // A new socket: nothing of the last one carries over.
  onOpen () {
    this.parser.reset()
    this.parser.wantBody = this.wantBody
    this.closeAfterResponse = false
    this.sentOnSocket = 0
  }

  onReady () {
    this.pump()
  }

  onEnd () {
    // A body delimited by the close ends now, and that close was announced;
    // a response cut short is a parse error. Requests that got no answer at
    // all are a hang-up: counted when the socket closes, as for a reset.
    this.readAt = performance.now()
    this.parser.finish()
  }

  // The socket closed without a failure counted: → the error to count, or
  // null.
  onClose (connected) {
    if (this.inFlight > 0 && this.closeAfterResponse) {
      // The server announced the close (Connection: close, HTTP/1.0, a
      // body ended by the close): it processes nothing after that
      // response (RFC 9112 §9.6), so the requests pipelined behind it
      // were never started there. They go again, on the next connection.
      this.resend(this.inFlight)
      return null
    }
    if (this.inFlight > 0 && this.mayResend()) {
      // Unannounced, on a connection that had answered before, with not a
      // byte of the next response: a server (tinyproxy 1.11) that closes
      // after each response without saying so, the next request already
      // on its way. RFC 9112 §9.3.1 lets such requests go again when
      // idempotent; they are counted once, and in `resent`.
      this.resend(this.inFlight)
      return null
    }
    if (this.inFlight > 0) return new ResponseParseError('AC_SOCKET_HANG_UP', 'socket hang up: the connection closed with requests in flight')
    if (!connected) return new ResponseParseError('AC_SOCKET_HANG_UP', 'socket hang up: the connection closed before it was established')
    return null
  }

  mayResend () {
    return this.sentOnSocket > this.inFlight && this.parser.idle && this.sequence.idempotent
  }

  dropInFlight () {
    this.inFlight = 0
    this.head = 0
    this.bodyChunks = null
    this.bodyTooLarge = false
    // A setupRequest still settling was in the FIFO: it ended with it.
    this.pendingRequest = null
  }

  oldestSentAt () {
    return this.sentAt[this.head]
  }

  // --- sending ---

  // May this connection send one more request now?
  canSend () {
    if (this.closeAfterResponse || this.pendingRequest !== null || this.parked) return false
    if (this.maxRequests && this.completed + this.inFlight >= this.maxRequests) return false
    if (this.reconnectRate && this.sentOnSocket >= this.reconnectRate) return false
    return true
  }

  pump () {
    // countedFailure: the socket is being destroyed (e.g. a parse error in
    // this very read); what we wrote now would be lost yet counted as sent.
    const connection = this.connection
    if (!connection.connected || this.stopped || connection.countedFailure) return
    const room = this.pipelining - this.inFlight
    if (room < this.refillAt || !this.canSend()) return this.checkIdle()
    let n = this.allowed(room)
    n = this.run.take(this, n)
    if (n === 0) return this.checkIdle()
    // Counted before anything can end them: a hook that fails may end the
    // run (its amount) while the batch is being built.
    this.sentOnSocket += n
    this.recorder.started(n)
    const now = performance.now()
    const planned = this.planned
    if (this.batches !== null) {
      for (let k = 0; k < n; k++) this.push(now, planned === null ? now : planned[k], 0, this.batchIsHead)
      connection.socket.write(this.batch(n))
    } else {
      this.sendSequence(n, now, planned)
    }
  }

  batch (n) {
    let b = this.batches[n]
    if (b === undefined || b === null) {
      b = Buffer.concat(new Array(n).fill(this.batches[1]))
      this.batches[n] = b
    }
    return b
  }

  // The ring's next free slot: head and inFlight are both below the
  // pipelining depth, so one subtraction wraps it (no division per request).
  nextSlot () {
    const slot = this.head + this.inFlight
    return slot < this.pipelining ? slot : slot - this.pipelining
  }

  push (now, planned, entry, isHead) {
    const slot = this.nextSlot()
    this.sentAt[slot] = now
    this.plannedAt[slot] = planned
    this.entryOf[slot] = entry
    this.isHead[slot] = isHead ? 1 : 0
    this.inFlight++
  }

  sendSequence (n, now, planned) {
    const socket = this.connection.socket
    const sequence = this.sequence
    if (sequence.compiledOnly) {
      // Templates: n requests written into the connection's own buffer,
      // one write.
      const bytes = sequence.compiledRun(n)
      const isHead = sequence.entries[0].isHead
      for (let k = 0; k < n; k++) this.push(now, planned === null ? now : planned[k], 0, isHead)
      socket.write(bytes)
      // Not sent at once but queued (the kernel's buffer was full): the
      // bytes must stay as they are until they go, so the next batch is
      // written elsewhere. Sent, they can be written over.
      if (socket.writableLength !== 0) sequence.compiledKept()
      return
    }
    if (sequence.allStatic && sequence.order === null && n > 1) {
      // Static entries only, in the sequence's own order: one write of n
      // requests in a row (a shared order picks them one by one below).
      const start = sequence.index
      const entries = sequence.entries
      const bytes = sequence.run(n)
      for (let k = 0, e = start; k < n; k++) {
        this.push(now, planned === null ? now : planned[k], e, entries[e].isHead)
        if (++e === entries.length) e = 0
      }
      socket.write(bytes)
      return
    }
    this.sendEach(n, now, planned)
  }

  // One write for all of a batch: a single buffer costs far less than a
  // writev of many small ones.
  queueRequest (bytes, now, planned, entry, k) {
    this.push(now, planned, entry, this.sequence.lastIsHead)
    if (k === 0) this.queued = bytes
    else if (k === 1) this.queued = [this.queued, bytes]
    else this.queued.push(bytes)
  }

  flushQueued (count) {
    this.connection.socket.write(count === 1 ? this.queued : Buffer.concat(this.queued))
    this.queued = null
  }

  // A setupRequest's promise (awaitRequest) holds its place in the FIFO
  // so nothing overtakes it.
  holdSlot () {
    this.sentAt[this.nextSlot()] = performance.now()
    this.inFlight++
    return 0
  }

  releaseHold () {
    this.inFlight--
  }

  maySendSettled () {
    return true
  }

  sendSettled (bytes, entry, planned) {
    this.push(performance.now(), planned, entry, this.sequence.lastIsHead)
    this.connection.socket.write(bytes)
  }

  // Nothing more to send on this socket: reconnect or finish.
  checkIdle () {
    if (this.inFlight > 0 || this.pendingRequest !== null) return
    if (this.parked) return this.connection.park()
    if (this.maxRequests && this.completed >= this.maxRequests) return this.finish()
    if (this.run.exhausted()) return this.finish()
    if (this.reconnectRate && this.sentOnSocket >= this.reconnectRate && this.connection.socket) this.connection.recycle()
  }

  // --- receiving (called by the transport and the parser) ---

  onData (buf, start, end) {
    this.readAt = performance.now()
    this.parser.execute(buf, start, end)
    const socket = this.connection.socket
    if (this.closeAfterResponse && socket) {
      // The server said Connection: close: whatever else is in flight goes
      // again on a new connection (see onClose).
      socket.destroy()
      return
    }
    this.pump()
  }

  onHeadersComplete (status, headers) {
    if (this.wantBody) {
      this.bodyChunks = []
      this.bodyBytes = 0
    }
    if (headers !== null) {
      this.bodyHeaders = headers
      this.emitHeaders(headers)
    }
    return this.isHead[this.head] === 1
  }

  onBody (buf, start, end) {
    if (this.bodyTooLarge) return
    this.bodyBytes += end - start
    if (this.bodyBytes > this.maxBodySize) {
      // Kept no further: the response is read to its end and then counted
      // as an error, and the connection goes on.
      this.bodyTooLarge = true
      this.bodyChunks = []
      return
    }
    // Copy: the read buffer is shared and reused.
    this.bodyChunks.push(Buffer.from(buf.subarray(start, end)))
  }

  onMessageComplete (status, bytes, close) {
    if (this.proxied && status === 407 && this.inFlight > 0) {
      this.parser.abort()
      this.fail(require('../transport/tunnel').refusedRequest(this.target))
      return
    }
    if (this.inFlight === 0 || (this.pendingRequest !== null && this.inFlight === 1)) {
      // A response nobody asked for.
      this.parser.abort()
      this.fail(new ResponseParseError('AC_UNEXPECTED_RESPONSE', 'received a response to no request'))
      return
    }
    const slot = this.head
    this.head = slot + 1 === this.pipelining ? 0 : slot + 1
    this.inFlight--
    this.completed++
    this.connection.succeeded()
    if (close) this.closeAfterResponse = true
    if (this.bodyTooLarge) {
      this.bodyTooLarge = false
      this.bodyChunks = null
      return this.bodyOverflow()
    }
    let body = null
    if (this.bodyChunks !== null) {
      body = this.bodyChunks.length === 1 ? this.bodyChunks[0] : Buffer.concat(this.bodyChunks)
      this.bodyChunks = null
    }
    this.respond(status, bytes, this.sentAt[slot], this.plannedAt[slot], this.entryOf[slot], body, this.bodyHeaders)
  }

  onParseError (err) {
    this.fail(err)
  }
}

module.exports = { Client }
