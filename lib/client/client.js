'use strict'

// lib/client: the public Client of autocannon's API, whatever protocol
// its connection speaks (as undici's client.js is beside client-h1.js and
// client-h2.js). This file's ClientBase holds what HTTP/1.1
// (lib/http1/client.js) and HTTP/2 (lib/http2/client-h2.js) share: the
// API (setHeaders, setBody, setRequest, setRequests, the 'response',
// 'body', 'headers' and 'reset' events), the request sequence, the checks
// of a response body (verifyBody, expectBody, onResponse hooks), and the
// calls of the connection (lib/transport/connection.js) and of the run
// (lib/engine/run.js) that do not depend on how requests are framed.
//
// A protocol subclass provides the connection's protocol calls that do
// (onOpen, onReady, onData, onEnd, onClose, dropInFlight, oldestSentAt),
// pump(), checkIdle(), and refreshFastPath(), called whenever the
// requests or the listeners change.

const { EventEmitter } = require('events')
const { HookError, ResponseParseError, causeOf } = require('../core/errors')
const { Connection } = require('../transport/connection')

// Response headers for onResponse and the 'headers' event, from a flat
// [name, value, ...] list (as both parsers give them): keys as the server
// sent them, repeated headers as arrays (as autocannon gives them), and
// every key also readable in lower case.
function headersObject (flat) {
  const out = {}
  if (!flat) return out
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i]
    const value = flat[i + 1]
    const have = out[name]
    if (have === undefined) out[name] = value
    else if (Array.isArray(have)) have.push(value)
    else out[name] = [have, value]
  }
  for (const name of Object.keys(out)) {
    const lower = name.toLowerCase()
    if (lower !== name && !Object.prototype.hasOwnProperty.call(out, lower)) {
      Object.defineProperty(out, lower, { value: out[name], enumerable: false, writable: true, configurable: true })
    }
  }
  return out
}

class ClientBase extends EventEmitter {
  // run: the run's port; setup: what every client of the run shares
  // (Run#clientSetup); connect: the target's transport.
  // sequence: the requests this connection sends (a RequestSequence whose
  // encoding is the protocol's).
  constructor (run, setup, target, index, connect, sequence) {
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

    this.connection = new Connection(this, connect, setup)
    this.hookFailures = 0
    this.retryTimer = null
    this.stopped = false
    this.done = false
    // Closed by a ramp of connections going down (park()).
    this.parked = false
    this.inFlight = 0
    this.sentOnSocket = 0
    this.completed = 0
    this.readAt = 0
    this.pendingRequest = null
    this.wantBody = false
    this.wantHeaders = false
    // Whether 'response' has a listener, kept here: EventEmitter's
    // _events is a null-prototype object, in dictionary mode, and looking
    // a name up in it once per response costs a generic IC call.
    this.hasResponseListener = false
    // The requests in flight, by slot (the protocol says which slot is
    // whose): when each was sent, when it was planned to go, and the
    // sequence entry it is.
    const p = this.pipelining
    this.sentAt = new Float64Array(p)
    this.plannedAt = new Float64Array(p)
    this.entryOf = new Int32Array(p)

    this.sequence = sequence
    sequence.onReset = () => {
      this.recorder.sequenceReset()
      this.emit('reset')
    }
  }

  // Bodies and headers are decoded only while someone listens for them
  // (called by the subclass once its own fields are set).
  watchListeners () {
    this.refreshFastPath()
    this.on('newListener', (name) => {
      if (name === 'response') this.hasResponseListener = true
      if (name === 'body' || name === 'headers') setImmediate(() => this.refreshFastPath())
    })
    this.on('removeListener', (name) => {
      if (name === 'response') this.hasResponseListener = this.listenerCount('response') > 0
    })
  }

  // What the responses must keep: their bodies for the checks and hooks,
  // their headers for hooks and 'headers' listeners.
  refreshWants () {
    this.wantBody = this.sequence.hasOnResponse || !!this.verifyBody || this.expectBody !== undefined ||
      this.listenerCount('body') > 0
    this.wantHeaders = this.sequence.hasOnResponse || this.listenerCount('headers') > 0
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

  // --- the connection's calls ---

  start () {
    this.connection.open()
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
    // In-flight state is emptied before the run hears of it: an amount run
    // that ends on these errors finds nothing of them still in flight.
    this.dropInFlight()
    this.run.onClientError(this, err, lost, cause, connected)
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

  // --connectionStages: no new request from now on; the socket closes
  // once the requests in flight are answered (checkIdle), none is lost.
  park () {
    this.parked = true
    this.checkIdle()
  }

  unpark () {
    this.parked = false
    // Done (its maxConnectionRequests answered): it stays closed.
    if (this.done) return
    if (this.connection.parked) this.connection.unpark()
    else this.pump()
  }

  // Is its socket open (for the connections a sample shows)?
  get connected () {
    return this.connection.connected
  }

  stop () {
    this.stopped = true
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = null
    this.connection.stop()
  }

  finish () {
    if (this.done) return
    this.done = true
    this.run.onClientDone(this)
  }

  // --- sending ---

  // The requests the protocol may still send on this socket, within
  // maxConnectionRequests and reconnectRate, at most n.
  allowed (n) {
    if (this.maxRequests) n = Math.min(n, this.maxRequests - this.completed - this.inFlight)
    if (this.reconnectRate) n = Math.min(n, this.reconnectRate - this.sentOnSocket)
    return n
  }

  unsend (n) {
    this.sentOnSocket -= n
    this.recorder.unstarted(n)
  }

  // Requests whose hook failed (`failed` of them, `sent` others sent with
  // them): nothing may be in flight to bring us back to pump(), so it is
  // tried again soon, and later and later while the hook fails every time
  // (no spinning).
  retryAfterHookFailures (failed, sent) {
    if (failed === 0) {
      this.hookFailures = 0
      return
    }
    if (sent === 0) this.hookFailures++
    const socket = this.connection.socket
    const delay = this.connection.backoff(this.hookFailures)
    const retry = () => {
      this.retryTimer = null
      if (this.connection.socket === socket) this.pump()
    }
    if (delay === 0) setImmediate(retry)
    else this.retryTimer = setTimeout(retry, delay)
  }

  // n requests of the sequence, planned at planned[k] (or now): each
  // handed to the protocol's queueRequest(encoded, now, plannedAt, entry,
  // k), then flushQueued(count, now) sends them at once. A hook that fails
  // ends its request unsent; a promise stops the batch (awaitRequest);
  // what was granted and not used is given back.
  sendEach (n, now, planned) {
    const sequence = this.sequence
    let queued = 0
    // Requests whose hook failed: started (they count as sent) and ended
    // as errors, never written.
    let failed = 0
    let k = 0
    while (k < n) {
      const at = planned === null ? now : planned[k]
      k++
      let encoded
      try {
        encoded = sequence.next()
      } catch (err) {
        failed++
        this.hookFailed(err)
        if (this.stopped) return
        continue
      }
      if (encoded === sequence.PENDING) {
        this.awaitRequest(sequence.pending, sequence.lastEntry, at)
        break
      }
      this.queueRequest(encoded, now, at, sequence.lastEntry, queued++)
    }
    if (queued > 0) this.flushQueued(queued, now)
    const unused = n - k
    if (unused > 0) {
      // pump() counted all it granted as sent.
      this.run.giveBack(unused)
      this.unsend(unused)
    }
    this.retryAfterHookFailures(failed, k - failed)
  }

  // setupRequest returned a promise: the request goes out when it
  // settles, keeping the time it was meant to go. Meanwhile it holds a
  // place among those in flight (holdSlot), and nothing else is sent. If
  // the socket goes first, the request ended with it (an error). The
  // protocol provides holdSlot(), releaseHold(held), maySendSettled() and
  // sendSettled(encoded, entry, planned).
  awaitRequest (promise, entry, planned) {
    const socket = this.connection.socket
    const held = this.holdSlot()
    this.pendingRequest = promise
    const release = () => {
      if (this.pendingRequest !== promise) return false
      this.pendingRequest = null
      if (this.connection.socket !== socket) return false
      this.releaseHold(held)
      return true
    }
    promise.then((req) => {
      if (!release()) return this.pump()
      if (this.stopped) return
      let encoded
      try {
        encoded = this.sequence.settle(entry, req)
      } catch (err) {
        this.hookFailed(err)
        return this.pump()
      }
      if (encoded === null || !this.maySendSettled()) {
        // Reset, or the connection takes nothing more: never started.
        this.run.giveBack(1)
        this.unsend(1)
        return this.pump()
      }
      this.sendSettled(encoded, entry, planned)
      this.pump()
    }, (err) => {
      const err2 = this.sequence.fail(entry, err)
      if (!release()) return this.pump()
      if (this.stopped) return
      this.hookFailed(err2)
      this.pump()
    })
  }

  // The request's setupRequest hook threw while its batch was built.
  hookFailed (err) {
    this.completed++
    this.run.onHookError(this, err)
  }

  // --- receiving ---

  // One response: counted, its latency from its planned time (under a
  // rate) or its send time, then its body checked and the listeners told.
  // body: a Buffer when wantBody, else null; headers: the flat list or
  // null; entry: the sequence entry it answers.
  respond (status, bytes, sentAt, plannedAt, entry, body, headers) {
    const now = this.readAt
    const latencyMs = now - plannedAt
    const recorder = this.recorder
    recorder.response(status, bytes, Math.round(latencyMs * 1000))
    if (recorder.latencyUncorrected !== null) recorder.uncorrected(status, Math.round((now - sentAt) * 1000))
    if (body !== null) this.deliverBody(status, entry, body, headers)
    if (this.run.emitResponses) this.run.emitResponse(this, status, bytes, latencyMs)
    if (this.hasResponseListener) this.emit('response', status, bytes, latencyMs)
    if (this.amountRun) this.run.checkAmount()
  }

  // The body was larger than maxBodySize: this request ends in an error.
  bodyOverflow () {
    const err = new ResponseParseError('AC_BODY_TOO_LARGE', `a response body was larger than maxBodySize (${this.maxBodySize} bytes)`)
    this.run.onClientError(this, err, 1, 'parse')
  }

  deliverBody (status, entry, body, headers) {
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
        this.sequence.onResponse(entry, status, text, headersObject(headers))
      } catch (err) {
        this.run.onResponseHookError(this, err, !mismatched)
      }
    }
  }

  emitHeaders (headers) {
    if (this.listenerCount('headers') > 0) this.emit('headers', headersObject(headers))
  }
}

module.exports = { ClientBase, headersObject }
