'use strict'

// One connection: its socket, its parser, and the requests in flight on it
// as a FIFO (responses come back in the order requests were written). All
// its state lives in fields set up here, so every client has one shape.
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
const { RequestTimeoutError, ResponseParseError, HookError, causeOf } = require('./errors')

// A connection that keeps failing waits before it tries again, from 5 ms
// doubling up to this; with an amount, failures use up the amount, so a
// run against a dead target ends soon instead of creeping.
const MAX_BACKOFF_MS = 1000
const MAX_BACKOFF_AMOUNT_MS = 50

class Client extends EventEmitter {
  constructor (run, target, index) {
    super()
    const config = run.config
    this.run = run
    this.recorder = run.recorder
    this.target = target
    this.index = index
    this.connect = run.transports.get(target)
    this.pipelining = config.pipelining
    // Closed loop: refill the pipeline once at least half of it is free,
    // so that one write carries several requests (as wrk's pipelining
    // does) instead of one write per response. Under a rate plan every
    // free slot is used at once, to stay on the plan.
    this.refillAt = run.scheduler ? 1 : Math.ceil(config.pipelining / 2)
    this.timeoutMs = config.timeout * 1000
    // amount takes precedence over maxConnectionRequests (as in autocannon).
    this.maxRequests = config.amount ? 0 : config.maxConnectionRequests
    this.reconnectRate = config.reconnectRate
    this.maxBackoff = config.amount ? MAX_BACKOFF_AMOUNT_MS : MAX_BACKOFF_MS
    this.verifyBody = run.verifyBody
    this.expectBody = config.expectBody
    this.maxBodySize = config.maxBodySize

    this.socket = null
    this.connected = false
    this.connectStartedAt = 0
    this.closeAfterResponse = false
    this.countedFailure = false
    this.failures = 0
    this.hookFailures = 0
    this.reconnectTimer = null
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
      method: config.method,
      path: target.path,
      headers: run.baseHeaders,
      body: run.baseBody,
      host: target.host,
      auth: target.auth,
      absoluteForm: target.absoluteForm
    }, run.requestsFor(target), { idReplacement: config.idReplacement, initialContext: config.initialContext })
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

  // --- connection life cycle ---

  start () {
    this.open()
  }

  open () {
    this.reconnectTimer = null
    if (this.stopped) return
    this.parser.reset()
    this.parser.wantBody = this.wantBody
    this.connected = false
    this.closeAfterResponse = false
    this.countedFailure = false
    this.sentOnSocket = 0
    this.connectStartedAt = performance.now()
    this.attach(this.connect(this))
  }

  attach (socket) {
    this.socket = socket
    socket.on('error', (err) => this.onSocketError(socket, err))
    socket.on('end', () => this.onSocketEnd(socket))
    socket.on('close', () => this.onSocketClose(socket))
  }

  // A transport whose socket is replaced once it is ready (a proxy's
  // tunnel that becomes TLS): events of the old one are ignored from then
  // on. False when the client has moved on (stopped, failed, timed out).
  upgrade (from, to) {
    if (this.socket !== from || this.stopped) return false
    this.attach(to)
    return true
  }

  onConnect () {
    this.connected = true
    this.pump()
  }

  onSocketError (socket, err) {
    if (socket !== this.socket) return
    this.fail(err)
  }

  onSocketEnd (socket) {
    if (socket !== this.socket) return
    // A body delimited by the close ends now, and that close was announced;
    // a response cut short is a parse error. Requests that got no answer at
    // all are a hang-up: counted when the socket closes, as for a reset.
    this.readAt = performance.now()
    this.parser.finish()
    if (socket === this.socket) socket.destroy()
  }

  onSocketClose (socket) {
    if (socket !== this.socket) return
    if (!this.stopped && !this.countedFailure) {
      if (this.inFlight > 0 && this.closeAfterResponse) {
        // The server announced the close (Connection: close, HTTP/1.0, a
        // body ended by the close): it processes nothing after that
        // response (RFC 9112 §9.6), so the requests pipelined behind it
        // were never started there. They go again, on the next connection.
        this.run.giveBack(this.inFlight)
        this.unsend(this.inFlight)
      } else if (this.inFlight > 0) {
        this.fail(new ResponseParseError('AC_SOCKET_HANG_UP', 'socket hang up: the connection closed with requests in flight'))
      } else if (!this.connected) {
        this.fail(new ResponseParseError('AC_SOCKET_HANG_UP', 'socket hang up: the connection closed before it was established'))
      }
    }
    this.socket = null
    this.connected = false
    this.dropInFlight()
    if (this.stopped || this.done) return
    if (this.nothingLeft()) return this.finish()
    // A connection closed before a single request went on it (a server
    // that closes on accept, under a rate with nothing due yet) is a
    // failure too for the back-off, though no request was lost.
    if (!this.countedFailure && this.sentOnSocket === 0) this.failures++
    let delay = 0
    if (this.countedFailure || this.sentOnSocket === 0) {
      // Back off on repeated failures so a dead server is not spun on.
      delay = this.backoff(this.failures)
    }
    if (delay === 0) setImmediate(() => this.open())
    else this.reconnectTimer = setTimeout(() => this.open(), delay)
  }

  // One failure of this connection, reported once. The requests in flight
  // on it end as errors; if none was (the connection never opened), the
  // attempt itself counts as one request, while the budget allows.
  fail (err) {
    if (this.countedFailure) return
    this.countedFailure = true
    this.failures++
    let lost = this.inFlight
    if (lost === 0 && !this.connected && this.run.takeAttempt()) lost = 1
    this.completed += lost
    const cause = causeOf(err, this.connected)
    // The FIFO is emptied before the run hears of it: an amount run that
    // ends on these errors finds nothing of them still in flight.
    this.dropInFlight()
    this.run.onClientError(this, err, lost, cause)
    if (this.socket) this.socket.destroy()
  }

  dropInFlight () {
    this.inFlight = 0
    this.head = 0
    this.bodyChunks = null
    this.bodyTooLarge = false
    // A setupRequest still settling was in the FIFO: it ended with it.
    this.pendingRequest = null
  }

  // After `failures` in a row: nothing the first time, then 5 ms doubling.
  backoff (failures) {
    return failures <= 1 ? 0 : Math.min(this.maxBackoff, 5 * 2 ** (failures - 2))
  }

  // No request left for this connection to make.
  nothingLeft () {
    return (this.maxRequests !== 0 && this.completed >= this.maxRequests) || this.run.exhausted()
  }

  // Called by the run's sweep, not per request: no timer per request.
  checkTimeout (now) {
    if (this.socket === null || this.countedFailure) return
    const since = this.inFlight > 0 ? this.sentAt[this.head] : (this.connected ? 0 : this.connectStartedAt)
    if (since !== 0 && now - since >= this.timeoutMs) {
      this.fail(new RequestTimeoutError(this.timeoutMs / 1000, !this.connected))
    }
  }

  stop () {
    this.stopped = true
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer)
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.reconnectTimer = null
    if (this.socket) this.socket.destroy()
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
    if (!this.connected || this.stopped || this.countedFailure) return
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
    const planned = this.run.planned
    if (this.batches !== null) {
      for (let k = 0; k < n; k++) this.push(now, planned === null ? now : planned[k], 0, this.batchIsHead)
      this.socket.write(this.batch(n))
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
    const socket = this.socket
    const sequence = this.sequence
    if (sequence.allStatic && n > 1) {
      // Static entries only: one write of n requests in a row.
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
    const delay = this.backoff(this.hookFailures)
    const retry = () => {
      this.retryTimer = null
      if (this.socket === socket) this.pump()
    }
    if (delay === 0) setImmediate(retry)
    else this.retryTimer = setTimeout(retry, delay)
  }

  // setupRequest returned a promise: the request goes out when it settles,
  // keeping the time it was meant to go. Its slot in the FIFO is held
  // meanwhile so nothing overtakes it. If the socket goes first, the
  // request ended with it (an error).
  awaitRequest (promise, entry, planned) {
    const socket = this.socket
    const slot = (this.head + this.inFlight) % this.pipelining
    this.sentAt[slot] = performance.now()
    this.pendingRequest = promise
    this.inFlight++
    const release = () => {
      if (this.pendingRequest !== promise) return false
      this.pendingRequest = null
      if (this.socket !== socket) return false
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
    if (this.reconnectRate && this.sentOnSocket >= this.reconnectRate && this.socket) {
      const socket = this.socket
      this.socket = null
      socket.destroy()
      setImmediate(() => this.open())
    }
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
    if (this.closeAfterResponse && this.socket) {
      // The server said Connection: close: whatever else is in flight goes
      // again on a new connection (see onSocketClose).
      this.socket.destroy()
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
    if (this.inFlight === 0 || this.pendingRequest !== null && this.inFlight === 1) {
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
    this.failures = 0
    if (close) this.closeAfterResponse = true
    if (this.bodyTooLarge) return this.bodyOverflow()
    const latencyMs = now - this.plannedAt[slot]
    const recorder = this.recorder
    recorder.response(status, bytes, Math.round(latencyMs * 1000))
    if (recorder.latencyUncorrected !== null) recorder.uncorrected(status, Math.round((now - this.sentAt[slot]) * 1000))

    if (this.bodyChunks !== null) this.deliverBody(status, slot)
    if (this.run.emitResponses) this.run.emitResponse(this, status, bytes, latencyMs)
    if (this._events.response !== undefined) this.emit('response', status, bytes, latencyMs)
    this.run.onResponse(this)
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

// Through an HTTP proxy (an http target, requests in absolute form), a 407
// is the proxy refusing us, not the target answering: the connection fails
// as a refused tunnel does (AC_PROXY_REFUSED), so a run with wrong
// credentials ends in errors, not in responses. A subclass, so that a run
// without a proxy runs the same code as before.
class ProxiedClient extends Client {
  onMessageComplete (status, bytes, close) {
    if (status !== 407 || this.inFlight === 0) return super.onMessageComplete(status, bytes, close)
    this.parser.abort()
    this.fail(require('./proxy').refusedRequest(this.target))
  }
}

module.exports = { Client, ProxiedClient }
