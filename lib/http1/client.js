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
// here, so every client has one shape. This is the public Client of
// autocannon's API (setupClient, the 'response' event).
//
// Every request started ends once: a response, or an error. When the
// socket dies, every request still in the FIFO ends with it, as one error
// each (reported once per connection); a connection that cannot be opened
// counts as one request that ended in an error. Only a close the server
// announced sends the requests behind it again, as never started.

const { EventEmitter } = require('events')
const { performance } = require('perf_hooks')
const { ResponseParser } = require('./response-parser')
const { RequestSequence, PENDING, headersObject } = require('./request-sequence')
const { ResponseParseError, HookError, causeOf } = require('../core/errors')
const { Connection } = require('../transport/connection')

class Client extends EventEmitter {
  // run: the run's port; setup: what every client of the run shares
  // (Run#clientSetup); connect: the target's transport.
  // order: --targets' shared order of this origin's entries, or null.
  constructor (run, setup, target, index, connect, requests, order = null) {
    super()
    this.run = run
    this.recorder = setup.recorder
    this.target = target
    this.index = index
    this.pipelining = setup.pipelining
    this.refillAt = setup.refillAt
    this.maxRequests = setup.maxRequests
    this.reconnectRate = setup.reconnectRate
    this.amountRun = setup.amountRun
    this.verifyBody = setup.verifyBody
    this.expectBody = setup.expectBody
    this.maxBodySize = setup.maxBodySize
    // Intended send times of the requests take() grants, under a rate
    // (the scheduler's array, filled by each take); null otherwise.
    this.planned = setup.planned
    // Through an HTTP proxy, a 407 is the proxy refusing us, not the
    // target answering: decided once, here.
    this.proxied = target.absoluteForm !== undefined

    this.connection = new Connection(this, connect, setup)
    this.closeAfterResponse = false
    this.hookFailures = 0
    this.retryTimer = null
    this.stopped = false
    this.done = false

    this.parser = new ResponseParser(this)
    // FIFO of in-flight requests, a ring of `pipelining` slots.
    const p = this.pipelining
    this.sentAt = new Float64Array(p)
    this.plannedAt = new Float64Array(p)
    this.isHead = new Uint8Array(p)
    this.entryOf = new Int32Array(p)
    this.head = 0
    this.inFlight = 0
    this.sentOnSocket = 0
    this.completed = 0
    this.readAt = 0
    this.pendingRequest = null
    this.bodyChunks = null
    this.bodyBytes = 0
    this.bodyTooLarge = false
    this.bodyHeaders = null

    this.sequence = new RequestSequence({
      method: setup.method,
      path: target.path,
      headers: setup.headers,
      body: setup.body,
      host: target.host,
      auth: target.auth,
      absoluteForm: target.absoluteForm
    }, requests, { idReplacement: setup.idReplacement, initialContext: setup.initialContext, order, templates: setup.templates, conn: index })
    this.sequence.onReset = () => {
      this.recorder.sequenceReset()
      this.emit('reset')
    }
    this.batches = null
    this.batchIsHead = false
    this.refreshFastPath()
    // Bodies and headers are decoded only while someone listens for them.
    this.on('newListener', (name) => {
      if (name === 'body' || name === 'headers') setImmediate(() => this.refreshFastPath())
    })
  }

  // --- Client API (autocannon compatible) ---

  // These change the request the connection is on (the last one sent, or
  // the first before any was sent); setRequests replaces the sequence.
  setHeaders (headers) {
    this.sequence.setHeaders(headers)
    this.refreshFastPath()
  }

  setBody (body) {
    this.sequence.setBody(body)
    this.refreshFastPath()
  }

  setHeadersAndBody (headers, body) {
    this.sequence.setHeaders(headers)
    this.sequence.setBody(body)
    this.refreshFastPath()
  }

  setRequest (request) {
    this.sequence.setRequest(request)
    this.refreshFastPath()
  }

  setRequests (requests) {
    this.sequence.setEntries(requests)
    this.refreshFastPath()
  }

  refreshFastPath () {
    const bytes = this.sequence.staticBytes
    // batches[k] holds k copies of the one request, for one write per read.
    this.batches = bytes ? [null, bytes] : null
    this.batchIsHead = bytes !== null && this.sequence.entries[0].isHead
    this.wantBody = this.sequence.hasOnResponse || !!this.verifyBody || this.expectBody !== undefined ||
      this.listenerCount('body') > 0
    this.parser.wantBody = this.wantBody
    this.parser.wantHeaders = this.sequence.hasOnResponse || this.listenerCount('headers') > 0
  }

  // --- the connection's calls ---

  start () {
    this.connection.open()
  }

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

  // The requests in flight go again on the next connection.
  resend (n) {
    this.recorder.resend(n)
    this.run.giveBack(n)
    this.unsend(n)
  }

  // The connection failed: the requests in flight end as errors; if none
  // was (the connection never opened), the attempt itself counts as one
  // request, while the budget allows.
  onFail (err, connected) {
    let lost = this.inFlight
    if (lost === 0 && !connected && this.run.takeAttempt()) lost = 1
    this.completed += lost
    const cause = causeOf(err, connected)
    // The FIFO is emptied before the run hears of it: an amount run that
    // ends on these errors finds nothing of them still in flight.
    this.dropInFlight()
    this.run.onClientError(this, err, lost, cause, connected)
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

  fail (err) {
    this.connection.fail(err)
  }

  // No request left for this connection to make.
  nothingLeft () {
    return (this.maxRequests !== 0 && this.completed >= this.maxRequests) || this.run.exhausted()
  }

  // Called by the run's sweep, not per request.
  checkTimeout (now) {
    this.connection.checkTimeout(now)
  }

  stop () {
    this.stopped = true
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = null
    this.connection.stop()
  }

  // --- sending ---

  // May this connection send one more request now?
  canSend () {
    if (this.closeAfterResponse || this.pendingRequest !== null) return false
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
    let n = room
    if (this.maxRequests) n = Math.min(n, this.maxRequests - this.completed - this.inFlight)
    if (this.reconnectRate) n = Math.min(n, this.reconnectRate - this.sentOnSocket)
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

  push (now, planned, entry, isHead) {
    const slot = (this.head + this.inFlight) % this.pipelining
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
    let sent = 0
    // Requests whose hook failed: started (they count as sent) and ended
    // as errors, never written.
    let failed = 0
    // One write for all of them: a single buffer costs far less than a
    // writev of many small ones.
    let first = null
    let parts = null
    while (sent + failed < n) {
      let bytes
      try {
        bytes = sequence.next()
      } catch (err) {
        failed++
        this.completed++
        this.run.onHookError(this, err)
        if (this.stopped) return
        continue
      }
      if (bytes === PENDING) {
        this.awaitRequest(sequence.pending, sequence.lastEntry, planned === null ? now : planned[sent + failed])
        sent++
        break
      }
      this.push(now, planned === null ? now : planned[sent + failed], sequence.lastEntry, sequence.lastIsHead)
      if (first === null) first = bytes
      else if (parts === null) parts = [first, bytes]
      else parts.push(bytes)
      sent++
    }
    if (parts !== null) socket.write(Buffer.concat(parts))
    else if (first !== null) socket.write(first)
    const unused = n - sent - failed
    if (unused > 0) {
      // pump() counted all it granted as sent.
      this.run.giveBack(unused)
      this.unsend(unused)
    }
    if (failed === 0) {
      this.hookFailures = 0
      return
    }
    // Nothing may be in flight to bring us back here: try again soon, and
    // later and later while the hook fails every time (no spinning).
    if (sent === 0) this.hookFailures++
    const delay = this.connection.backoff(this.hookFailures)
    const retry = () => {
      this.retryTimer = null
      if (this.connection.socket === socket) this.pump()
    }
    if (delay === 0) setImmediate(retry)
    else this.retryTimer = setTimeout(retry, delay)
  }

  // setupRequest returned a promise: the request goes out when it settles,
  // keeping the time it was meant to go. Its slot in the FIFO is held
  // meanwhile so nothing overtakes it. If the socket goes first, the
  // request ended with it (an error).
  awaitRequest (promise, entry, planned) {
    const socket = this.connection.socket
    const slot = (this.head + this.inFlight) % this.pipelining
    this.sentAt[slot] = performance.now()
    this.pendingRequest = promise
    this.inFlight++
    const release = () => {
      if (this.pendingRequest !== promise) return false
      this.pendingRequest = null
      if (this.connection.socket !== socket) return false
      this.inFlight--
      return true
    }
    promise.then((req) => {
      if (!release()) return this.pump()
      if (this.stopped) return
      let bytes
      try {
        bytes = this.sequence.settle(entry, req)
      } catch (err) {
        this.completed++
        this.run.onHookError(this, err)
        return this.pump()
      }
      if (bytes === null) {
        this.run.giveBack(1)
        this.unsend(1)
        return this.pump()
      }
      this.push(performance.now(), planned, entry, this.sequence.lastIsHead)
      socket.write(bytes)
      this.pump()
    }, (err) => {
      const err2 = this.sequence.fail(entry, err)
      if (!release()) return this.pump()
      if (this.stopped) return
      this.completed++
      this.run.onHookError(this, err2)
      this.pump()
    })
  }

  unsend (n) {
    this.sentOnSocket -= n
    this.recorder.unstarted(n)
  }

  // Nothing more to send on this socket: reconnect or finish.
  checkIdle () {
    if (this.inFlight > 0 || this.pendingRequest !== null) return
    if (this.maxRequests && this.completed >= this.maxRequests) return this.finish()
    if (this.run.exhausted()) return this.finish()
    if (this.reconnectRate && this.sentOnSocket >= this.reconnectRate && this.connection.socket) this.connection.recycle()
  }

  finish () {
    if (this.done) return
    this.done = true
    this.run.onClientDone(this)
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
      if (this.listenerCount('headers') > 0) this.emit('headers', headersObject(headers))
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
    const now = this.readAt
    this.head = slot + 1 === this.pipelining ? 0 : slot + 1
    this.inFlight--
    this.completed++
    this.connection.succeeded()
    if (close) this.closeAfterResponse = true
    if (this.bodyTooLarge) return this.bodyOverflow()
    const latencyMs = now - this.plannedAt[slot]
    const recorder = this.recorder
    recorder.response(status, bytes, Math.round(latencyMs * 1000))
    if (recorder.latencyUncorrected !== null) recorder.uncorrected(status, Math.round((now - this.sentAt[slot]) * 1000))

    if (this.bodyChunks !== null) this.deliverBody(status, slot)
    if (this.run.emitResponses) this.run.emitResponse(this, status, bytes, latencyMs)
    if (this._events.response !== undefined) this.emit('response', status, bytes, latencyMs)
    if (this.amountRun) this.run.checkAmount()
  }

  // The body was larger than maxBodySize: this request ends in an error.
  bodyOverflow () {
    this.bodyTooLarge = false
    this.bodyChunks = null
    const err = new ResponseParseError('AC_BODY_TOO_LARGE', `a response body was larger than maxBodySize (${this.maxBodySize} bytes)`)
    this.run.onClientError(this, err, 1, 'parse')
  }

  deliverBody (status, slot) {
    const body = this.bodyChunks.length === 1 ? this.bodyChunks[0] : Buffer.concat(this.bodyChunks)
    this.bodyChunks = null
    if (this.listenerCount('body') > 0) this.emit('body', body)
    let text = null
    if (this.verifyBody || this.expectBody !== undefined || this.sequence.hasOnResponse) text = body.toString()
    // A response counts as one mismatch at most, whichever check failed.
    let mismatched = false
    if (this.verifyBody) {
      let ok
      try {
        ok = this.verifyBody(text)
      } catch (err) {
        ok = true
        mismatched = true
        this.run.onResponseHookError(this, new HookError('verifyBody', 'threw', err), true)
      }
      if (!ok) {
        mismatched = true
        this.run.onMismatch(this, text)
      }
    } else if (this.expectBody !== undefined && text !== this.expectBody) {
      mismatched = true
      this.run.onMismatch(this, text)
    }
    if (this.sequence.hasOnResponse) {
      try {
        this.sequence.onResponse(this.entryOf[slot], status, text, headersObject(this.bodyHeaders))
      } catch (err) {
        this.run.onResponseHookError(this, err, !mismatched)
      }
    }
  }

  onParseError (err) {
    this.fail(err)
  }
}

module.exports = { Client }
