'use strict'

// The Client, one per connection, sending the requests of its sequence
// (request-sequence.js) in turn.
//
// The Client is the public Client of autocannon's API (setupClient's
// argument: setHeaders, setBody, setRequest, setRequests; the 'response',
// 'body', 'headers' and 'reset' events), whatever the protocol spoken on
// its connection. It owns what does not depend on framing: when requests
// may go (the run's grant, maxConnectionRequests, reconnectRate, a ramp's
// park), a hook's promise, the checks of a response body, and what a
// close or a failure costs. Its Connection (lib/transport/connection.js)
// drives it through the calls declared there; it reaches the run only
// through the run's handle (lib/engine/run-handle.js).
//
// The requests in flight are the Client's: a slot each (in-flight.js:
// when each was sent and planned, when its response's first byte came,
// its entry; the one a settling setupRequest holds; the oldest), in the
// order its protocol's framing answers them (inOrder). The framing is the
// protocol's: a small object made for it by the framing module its
// descriptor names (lib/protocols/registry.js; lib/http1/client-h1.js,
// lib/http2/client-h2.js, each exporting inOrder, create(client, setup,
// slots, sequence, target) and encodingFor(target)), as undici's client-h1
// and client-h2 make one. It frames requests and nothing else: it takes a
// slot as it writes a request and gives it back as the request ends, and
// reads nothing of the Client. The seam, both ways, and nothing more
// (test/client/seam.test.js holds both framings to it):
//
// What the Client uses of its framing:
//   ready        whether requests may be written (HTTP/2: once the
//                server's SETTINGS came)
//   accepting    whether this socket takes new requests (no close
//                announced, no GOAWAY)
//   spent        whether this socket takes none ever again (a new one
//                goes on once it is idle)
//   connected(socket)  a new socket, which can be written: nothing of the
//                last one carries over
//   read(buf, start, end, now) → false when what it read closes the socket
//   end()        the server ended its side
//   closed(done) → the error the requests in flight end in as the socket
//                closes (with none in flight: the error the close counts),
//                or null: they go again (resent); done: the requests of
//                this socket that ended before
//   close()      the socket is given up (closed, failed, recycled, parked,
//                the run over): what it framed goes with it
//   room()       how many more requests it takes now (its flow control)
//   send(n, now, planned)  n granted requests (intended at planned[k], or
//                now when planned is null)
//   queue(encoded, now, planned, entry, k), flush(count, now)  a batch
//                built by sendEach(), one request at a time
//   refresh(wantBody, wantHeaders)  the requests or the listeners changed
//
// What the framing calls back (it reads no field of the Client):
//   respond(slot, status, bytes, body, headers), overflowed(),
//   requestFailed(err), resend(n), fail(err), setUp(), checkIdle(),
//   sendEach(n, now, planned), emitHeaders(headers), pump() (after a
//   framing's own timer ended requests: gRPC's deadline)
//
// Every request started ends once: a response, or an error. When the
// socket dies, every request still in flight ends with it (one error
// each, reported once per connection); a connection that cannot be opened
// counts as one request that ended in an error. Only what the protocol
// knows was never processed goes again (resend), counted once.

const { performance } = require('perf_hooks')
const { EventEmitter } = require('events')
const { HookError, CountedError, causeOf } = require('../core/errors')
const { Connection } = require('../transport/connection')
const { sequenceFor } = require('./request-sequence')
const { InOrder, AnyOrder } = require('./in-flight')
const { lazy } = require('../core/lazy')
// Lazy: only requests that are not all the same bytes (several of them, a
// hook, ids, {{…}}) need it; a run of one plain request does not.
const oneByOne = lazy(() => require('./send-each'))
// Lazy: only a hook or a 'headers' listener needs the headers as an object.
const headerObjects = lazy(() => require('./headers'))

// Their functions, taken as the client is set up (refresh), before
// anything is sent, and called per request and per response from here: a
// module loaded at the first send would delay it, and under a rate that
// delay is charged to the server.
let sendEachOf = null
let headersObject = null

class Client extends EventEmitter {
  // run: the run's handle (lib/engine/run-handle.js). setup: what every
  // client of the run shares (Run#clientSetup). route: its target's, made
  // once per target: { target, connect (the transport), protocol (its
  // descriptor), framing (the framing's module), encoding, requests,
  // order }. index: its place among the connections.
  constructor (run, setup, route, index) {
    super()
    this.run = run
    this.recorder = setup.recorder
    this.target = route.target
    this.index = index
    this.maxRequests = setup.maxRequests
    this.reconnectRate = setup.reconnectRate
    this.amountRun = setup.amountRun
    this.verifyBody = setup.verifyBody
    this.expectBody = setup.expectBody
    this.maxBodySize = setup.maxBodySize
    // Intended send times of the requests the run grants, under a rate
    // (the scheduler's array, filled by each take); null otherwise.
    this.planned = setup.planned

    this.connection = new Connection(this, route.connect, setup)
    this.hookFailures = 0
    this.retryTimer = null
    this.stopped = false
    this.done = false
    // Closed by a ramp of connections going down (park()).
    this.parked = false
    this.sentOnSocket = 0
    this.completed = 0
    this.readAt = 0
    // When the socket could be written: the framing's set-up (HTTP/2's
    // SETTINGS) is waited for from then.
    this.connectedAt = 0
    this.pendingRequest = null
    this.wantBody = false
    this.wantHeaders = false
    // Whether 'response' has a listener, kept here: EventEmitter's
    // _events is a null-prototype object, in dictionary mode, and looking
    // a name up in it once per response costs a generic IC call.
    this.hasResponseListener = false

    this.sequence = sequenceFor(setup, route, index)
    this.sequence.onReset = () => {
      this.recorder.sequenceReset()
      this.emit('reset')
    }
    // The descriptor of its protocol (lib/protocols/registry.js), and its
    // framing object, made by the framing module it names.
    this.protocol = route.protocol
    this.slots = route.framing.inOrder ? new InOrder(setup.pipelining) : new AnyOrder(setup.pipelining)
    this.framing = route.framing.create(this, setup, this.slots, this.sequence, this.target)
    // Bodies and headers are decoded only while someone listens for them.
    this.refresh()
    this.on('newListener', (name) => {
      if (name === 'response') this.hasResponseListener = true
      if (name === 'body' || name === 'headers') setImmediate(() => this.refresh())
    })
    this.on('removeListener', (name) => {
      if (name === 'response') this.hasResponseListener = this.listenerCount('response') > 0
    })
  }

  // What the responses must keep (their bodies for the checks and hooks,
  // their headers for hooks and 'headers' listeners), and what the
  // protocol may build once: after any change of requests or listeners.
  refresh () {
    this.wantBody = this.sequence.hasOnResponse || !!this.verifyBody || this.expectBody !== undefined ||
      this.listenerCount('body') > 0
    this.wantHeaders = this.sequence.hasOnResponse || this.listenerCount('headers') > 0
    if (this.wantHeaders && headersObject === null) headersObject = headerObjects().headersObject
    if (this.sequence.staticBytes === null && sendEachOf === null) sendEachOf = oneByOne().sendEach
    this.framing.refresh(this.wantBody, this.wantHeaders)
  }

  // --- Client API (autocannon compatible) ---

  // These change the request the connection is on (the last one sent, or
  // the first before any was sent); setRequests replaces the sequence.
  setHeaders (headers) {
    this.sequence.setHeaders(headers)
    this.refresh()
  }

  setBody (body) {
    this.sequence.setBody(body)
    this.refresh()
  }

  setHeadersAndBody (headers, body) {
    this.sequence.setHeaders(headers)
    this.sequence.setBody(body)
    this.refresh()
  }

  setRequest (request) {
    this.sequence.setRequest(request)
    this.refresh()
  }

  setRequests (requests) {
    this.sequence.setEntries(requests)
    this.refresh()
  }

  // --- the run's calls ---

  start () {
    this.connection.open()
  }

  get inFlight () {
    return this.slots.count
  }

  // Is its socket open (for the connections a sample shows)?
  get connected () {
    return this.connection.connected
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

  stop () {
    this.stopped = true
    if (this.retryTimer) clearTimeout(this.retryTimer)
    this.retryTimer = null
    this.connection.stop()
    this.framing.close()
  }

  // --- the connection's calls ---

  onOpen () {
    this.sentOnSocket = 0
  }

  onReady () {
    this.recorder.connected(this.connection.phases())
    this.connectedAt = performance.now()
    const framing = this.framing
    framing.connected(this.connection.socket)
    if (framing.ready) this.pump()
  }

  onData (buf, start, end) {
    const now = performance.now()
    this.readAt = now
    if (this.framing.read(buf, start, end, now)) this.pump()
  }

  onEnd () {
    this.readAt = performance.now()
    this.framing.end()
  }

  // The socket closed without a failure counted: → the error to count, or
  // null.
  onClose (connected) {
    const count = this.slots.count
    if (count === 0 && !connected) return new CountedError('AC_SOCKET_HANG_UP', 'socket hang up: the connection closed before it was established')
    const err = this.framing.closed(this.sentOnSocket - count)
    if (err === null && count > 0) this.resend(count)
    return err
  }

  // The connection failed: the requests in flight end as errors; if none
  // was (the connection was never set up), the attempt itself counts as
  // one request, while the budget allows.
  onFail (err, connected) {
    // The protocol's reading of the error (a TLS alert that says the
    // server does not speak it).
    err = this.protocol.connectError(err)
    const up = connected && this.framing.ready
    let lost = this.slots.count
    if (lost === 0 && !up && this.run.takeAttempt()) lost = 1
    this.completed += lost
    const cause = causeOf(err, up)
    // In-flight state is emptied before the run hears of it: an amount run
    // that ends on these errors finds nothing of them still in flight.
    this.dropInFlight()
    this.run.onClientError(this, err, lost, cause, up)
  }

  dropInFlight () {
    this.slots.clear()
    this.framing.close()
    // A setupRequest still settling held a place: it ended with the rest.
    this.pendingRequest = null
  }

  oldestSentAt () {
    return this.slots.oldestSentAt()
  }

  // When it began to wait for the framing's set-up (the server's SETTINGS);
  // 0 when it is not waiting.
  setUpSince () {
    return this.framing.ready ? 0 : this.connectedAt
  }

  // No request left for this connection to make.
  nothingLeft () {
    return (this.maxRequests !== 0 && this.completed >= this.maxRequests) || this.run.exhausted()
  }

  finish () {
    if (this.done) return
    this.done = true
    this.run.onClientDone(this)
  }

  // --- the framing's calls ---

  fail (err) {
    this.connection.fail(err)
  }

  // The framing set the connection up (HTTP/2: the server's SETTINGS
  // came): the failures in a row are over.
  setUp () {
    this.connection.succeeded()
  }

  // `n` requests in flight were never processed: they go again on the
  // next connection, counted once (in `resent`).
  resend (n) {
    this.recorder.resend(n)
    this.run.giveBack(n)
    this.unsend(n)
  }

  // --- sending ---

  // The requests this socket may still carry, within maxConnectionRequests
  // and reconnectRate: at most n.
  allowed (n) {
    if (this.maxRequests) n = Math.min(n, this.maxRequests - this.completed - this.slots.count)
    if (this.reconnectRate) n = Math.min(n, this.reconnectRate - this.sentOnSocket)
    return n
  }

  // Sends what the protocol has room for, the limits allow and the run
  // grants now; with nothing to send, checkIdle().
  pump () {
    // countedFailure: the socket is being destroyed (e.g. a parse error in
    // this very read); what we wrote now would be lost yet counted as sent.
    const connection = this.connection
    const framing = this.framing
    if (!connection.connected || this.stopped || connection.countedFailure || !framing.ready) return
    const room = framing.room()
    if (room < 1 || !framing.accepting || this.pendingRequest !== null || this.parked) return this.checkIdle()
    let n = this.allowed(room)
    if (n < 1) return this.checkIdle()
    n = this.run.take(this, n)
    if (n === 0) return this.checkIdle()
    // Counted before anything can end them: a hook that fails may end the
    // run (its amount) while the batch is being built.
    this.sentOnSocket += n
    this.recorder.started(n)
    framing.send(n, performance.now(), this.planned)
  }

  // Nothing more to send on this socket: park, finish, or move to a new
  // socket when this one is spent.
  checkIdle () {
    const framing = this.framing
    if (this.slots.count > 0 || this.pendingRequest !== null) return
    if (this.parked) {
      framing.close()
      return this.connection.park()
    }
    if (this.nothingLeft()) return this.finish()
    if (this.connection.socket === null || !framing.ready) return
    if (framing.spent || (this.reconnectRate && this.sentOnSocket >= this.reconnectRate)) {
      framing.close()
      this.connection.recycle()
    }
  }

  unsend (n) {
    this.sentOnSocket -= n
    this.recorder.unstarted(n)
  }

  // n requests of the sequence one by one (hooks, ids, a shared order):
  // see send-each.js.
  sendEach (n, now, planned) {
    sendEachOf(this, n, now, planned)
  }

  // A request whose setupRequest settled (send-each.js): a batch of one,
  // sent from now.
  sendHeld (encoded, entry, planned) {
    const now = performance.now()
    this.framing.queue(encoded, now, planned, entry, 0)
    this.framing.flush(1, now)
  }

  // --- receiving ---

  // One response: counted, its latency from its planned time (under a
  // rate) or its send time, then its body checked and the listeners told.
  // slot: its request's, just given back by the framing (its times stay
  // until a slot is taken again), with the sequence entry it answers and
  // firstAt, the time of the read that brought the first byte of its head
  // (the clock is read once per read, not per response): its time to
  // first byte runs from the write to then, its transfer from then to
  // this read. A response whose head and end came in one read has
  // transfer 0. body: a Buffer when wantBody, else null; headers: the flat
  // list or null.
  respond (slot, status, bytes, body, headers) {
    const slots = this.slots
    const sentAt = slots.sentAt[slot]
    const plannedAt = slots.plannedAt[slot]
    const firstAt = slots.firstAt[slot]
    this.completed++
    this.connection.succeeded()
    const now = this.readAt
    const latencyMs = now - plannedAt
    const recorder = this.recorder
    recorder.response(status, bytes, Math.round(latencyMs * 1000), Math.round((firstAt - sentAt) * 1000), Math.round((now - firstAt) * 1000))
    if (recorder.latencyUncorrected !== null) recorder.uncorrected(status, Math.round((now - sentAt) * 1000))
    if (body !== null) this.deliverBody(status, slots.entryOf[slot], body, headers)
    const run = this.run
    if (run.emitResponses) run.emitResponse(this, status, bytes, latencyMs)
    if (this.hasResponseListener) this.emit('response', status, bytes, latencyMs)
    if (this.amountRun) run.checkAmount()
  }

  // A response whose body was larger than maxBodySize: read to its end,
  // and its request ends in an error.
  overflowed () {
    this.connection.succeeded()
    this.requestFailed(new CountedError('AC_BODY_TOO_LARGE', `a response body was larger than maxBodySize (${this.maxBodySize} bytes)`))
  }

  // One request ended in an error of its own (its stream reset, its body
  // too large); the connection goes on.
  requestFailed (err) {
    this.completed++
    this.run.onClientError(this, err, 1, 'parse', true)
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

module.exports = { Client }
