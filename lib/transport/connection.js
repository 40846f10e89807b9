'use strict'

// One connection's socket, apart from the protocol spoken on it (as
// undici's connect.js is apart from client-h1): opened through the
// target's transport (transport.js: TCP, TLS, a proxy's tunnel), its
// ready moment, its end and close, one failure counted once, the back-off
// before it opens again, and the timeouts the run's sweep checks.
//
// What it carries is driven through a fixed set of calls, the same
// whatever the protocol (`client` here is the connection's Client,
// lib/client/client.js, which holds the protocol's framing): onOpen()
// before each socket, onReady() once it can write, onData(buf, start, end)
// for what it reads, onEnd() when the peer ends, onClose(connected) → an
// error to count or null, onFail(err, connected) for the requests lost,
// dropInFlight(), and nothingLeft()/finish() when it is closed for good.
// A transport calls only onConnect(), onData(), upgrade() and mark().
// It answers `inFlight`, `sentOnSocket`, `done`, oldestSentAt() and
// setUpSince() (when the protocol began to wait for the server to set the
// connection up, HTTP/2's SETTINGS; 0 when it does not wait) back.
//
// How long each step of opening a socket took (name lookup, TCP connect,
// a proxy's CONNECT, the TLS handshake) is marked here by the transport
// (mark(step) as each step ends, before onConnect), once per socket, and
// read by the protocol at onReady() (phases()): nothing of it is on the
// request path. A step runs from the moment its work is handed to the
// kernel (the connect is: 'attempt', Node's connectionAttempt, a tick
// after net.connect, not the socket's creation while others are still
// being created) to the moment its end is first observable (the start of
// the event loop's callbacks that delivered it, see observedAt, not the
// moment its own callback ran after other connections' set-up). The time
// our own event loop was busy inside it (the run's start, any callback)
// is given beside it as the step's generator delay: up to that much of
// the step may be ours, not the network's (a loopback connect completes
// within the call that hands it over, which is busy time too).

const { performance } = require('perf_hooks')

// The event loop's busy (not waiting for I/O) time so far, ms.
function busyMs () {
  return performance.eventLoopUtilization().active
}

// The moment the I/O callbacks under way began to run: when what they
// report was first observable. Ends of connection steps delivered by one
// poll of the event loop share it, whatever the callbacks before them in
// that poll did (other connections' set-up); the check phase after the
// poll clears it.
let batchAt = 0
function observedAt () {
  if (batchAt === 0) {
    batchAt = performance.now()
    setImmediate(endBatch)
  }
  return batchAt
}
function endBatch () {
  batchAt = 0
}
const { RequestTimeoutError } = require('../core/errors')

// A connection that keeps failing waits before it tries again, from 5 ms
// doubling up to this; with an amount, failures use up the amount, so a
// run against a dead target ends soon instead of creeping.
const MAX_BACKOFF_MS = 1000
const MAX_BACKOFF_AMOUNT_MS = 50

class Connection {
  constructor (client, connect, { timeoutMs, amount }) {
    this.client = client
    this.connect = connect
    this.timeoutMs = timeoutMs
    this.maxBackoff = amount ? MAX_BACKOFF_AMOUNT_MS : MAX_BACKOFF_MS
    this.socket = null
    this.connected = false
    this.connectStartedAt = 0
    this.countedFailure = false
    this.failures = 0
    this.reconnectTimer = null
    this.stopped = false
    // Closed, while a ramp of connections is below this one (park()).
    this.parked = false
    // When the socket being opened finished each step (performance.now();
    // 0: not reached, or not a step of this transport), from the
    // transport's mark(); secure: a TLS handshake followed TCP.
    this.lookupAt = 0
    this.attemptAt = 0
    this.tcpAt = 0
    this.tunnelAt = 0
    this.secure = false
    this.readyAt = 0
    // The event loop's busy time (busyMs()) at each of those moments.
    this.startBusy = 0
    this.lookupBusy = 0
    this.attemptBusy = 0
    this.tcpBusy = 0
    this.tunnelBusy = 0
    this.readyBusy = 0
  }

  open () {
    this.reconnectTimer = null
    // A reconnect planned before the connection was parked finds it so;
    // an unpark that reopened it first finds its socket.
    if (this.stopped || this.parked || this.socket !== null) return
    this.client.onOpen()
    this.connected = false
    this.countedFailure = false
    this.lookupAt = 0
    this.attemptAt = 0
    this.tcpAt = 0
    this.tunnelAt = 0
    this.readyAt = 0
    this.connectStartedAt = performance.now()
    this.startBusy = busyMs()
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
  // on. False when the connection has moved on (stopped, failed, timed out).
  upgrade (from, to) {
    if (this.socket !== from || this.stopped) return false
    this.attach(to)
    return true
  }

  // --- called by the transport ---

  // A step of opening the socket is over: 'lookup' (the name resolved),
  // 'attempt' (the connect handed to the kernel: where the TCP connect
  // starts), 'tcp' (TCP up, when more follows before onConnect: TLS, a
  // tunnel), 'tunnel' (the proxy answered CONNECT).
  mark (step) {
    const now = step === 'attempt' ? performance.now() : this.observed()
    const busy = busyMs()
    if (step === 'lookup') {
      this.lookupAt = now
      this.lookupBusy = busy
    } else if (step === 'attempt') {
      this.attemptAt = now
      this.attemptBusy = busy
    } else if (step === 'tcp') {
      this.tcpAt = now
      this.tcpBusy = busy
    } else {
      this.tunnelAt = now
      this.tunnelBusy = busy
    }
  }

  // When the end of a step was first observable (observedAt), never before
  // the steps before it: a poll's callbacks that began before this socket
  // was opened (it was, in one of them) did not observe its steps.
  observed () {
    const at = observedAt()
    const after = Math.max(this.connectStartedAt, this.lookupAt, this.attemptAt, this.tcpAt, this.tunnelAt)
    return at > after ? at : after
  }

  onConnect () {
    this.connected = true
    this.readyAt = this.observed()
    this.readyBusy = busyMs()
    // TCP marked before the ready moment: a handshake came after it.
    this.secure = this.tcpAt !== 0
    if (!this.secure) {
      this.tcpAt = this.readyAt
      this.tcpBusy = this.readyBusy
    }
    this.client.onReady()
  }

  // The steps of opening the socket now ready, in µs: { dns, connect,
  // proxyConnect, tls }, a step this transport did not take as -1, and
  // the time our event loop was busy inside each, its generator delay:
  // { dnsDelay, connectDelay, proxyConnectDelay, tlsDelay } (0 for a step
  // not taken). A name that is an address (or a
  // Unix socket) takes no lookup: dns 0. The TCP connect starts when it
  // was handed to the kernel (else, a Unix socket's, when it was asked for).
  phases () {
    const start = this.connectStartedAt
    const tcpFrom = this.attemptAt !== 0 ? this.attemptAt : this.lookupAt !== 0 ? this.lookupAt : start
    const tcpFromBusy = this.attemptAt !== 0 ? this.attemptBusy : this.lookupAt !== 0 ? this.lookupBusy : this.startBusy
    const tunnelled = this.tunnelAt !== 0
    const tlsFrom = tunnelled ? this.tunnelAt : this.tcpAt
    const tlsFromBusy = tunnelled ? this.tunnelBusy : this.tcpBusy
    const dnsDelay = this.lookupAt === 0 ? 0 : this.lookupBusy - this.startBusy
    const connectDelay = this.tcpBusy - tcpFromBusy
    const proxyConnectDelay = tunnelled ? this.tunnelBusy - this.tcpBusy : 0
    const tlsDelay = this.secure ? this.readyBusy - tlsFromBusy : 0
    return {
      dns: this.lookupAt === 0 ? 0 : us(this.lookupAt - start),
      connect: us(this.tcpAt - tcpFrom),
      proxyConnect: tunnelled ? us(this.tunnelAt - this.tcpAt) : -1,
      tls: this.secure ? us(this.readyAt - tlsFrom) : -1,
      dnsDelay: us(dnsDelay),
      connectDelay: us(connectDelay),
      proxyConnectDelay: us(proxyConnectDelay),
      tlsDelay: us(tlsDelay)
    }
  }

  onData (buf, start, end) {
    this.client.onData(buf, start, end)
  }

  // --- the socket's events ---

  onSocketError (socket, err) {
    if (socket !== this.socket) return
    this.fail(err)
  }

  onSocketEnd (socket) {
    if (socket !== this.socket) return
    this.client.onEnd()
    if (socket === this.socket) socket.destroy()
  }

  onSocketClose (socket) {
    if (socket !== this.socket) return
    const client = this.client
    if (!this.stopped && !this.countedFailure) {
      const err = client.onClose(this.connected)
      if (err !== null) this.fail(err)
    }
    this.socket = null
    this.connected = false
    client.dropInFlight()
    if (this.stopped || client.done) return
    if (client.nothingLeft()) return client.finish()
    // A connection closed before a single request went on it (a server
    // that closes on accept, under a rate with nothing due yet) is a
    // failure too for the back-off, though no request was lost.
    if (!this.countedFailure && client.sentOnSocket === 0) this.failures++
    let delay = 0
    if (this.countedFailure || client.sentOnSocket === 0) {
      // Back off on repeated failures so a dead server is not spun on.
      delay = this.backoff(this.failures)
    }
    if (delay === 0) setImmediate(() => this.open())
    else this.reconnectTimer = setTimeout(() => this.open(), delay)
  }

  // One failure of this connection, reported once; the protocol ends the
  // requests it had in flight.
  fail (err) {
    if (this.countedFailure) return
    this.countedFailure = true
    this.failures++
    this.client.onFail(err, this.connected)
    if (this.socket) this.socket.destroy()
  }

  // A response came back: the failures in a row are over.
  succeeded () {
    this.failures = 0
  }

  // After `failures` in a row: nothing the first time, then 5 ms doubling.
  backoff (failures) {
    return failures <= 1 ? 0 : Math.min(this.maxBackoff, 5 * 2 ** (failures - 2))
  }

  // The socket is done with (reconnectRate reached, or the server said it
  // closes): a new one at once, with nothing counted against this one.
  recycle () {
    const socket = this.socket
    this.socket = null
    socket.destroy()
    setImmediate(() => this.open())
  }

  // Called by the run's sweep, not per request: no timer per request. A
  // request waits from when it was sent; a connection from when it began
  // to connect, and then for the protocol's set-up, which is part of
  // connecting: not done within the timeout, it counts as a connection
  // that could not be opened.
  checkTimeout (now) {
    if (this.socket === null || this.countedFailure) return
    const client = this.client
    const waiting = client.inFlight > 0
    const since = waiting ? client.oldestSentAt() : (this.connected ? client.setUpSince() : this.connectStartedAt)
    if (since !== 0 && now - since >= this.timeoutMs) {
      this.fail(new RequestTimeoutError(this.timeoutMs / 1000, !waiting))
    }
  }

  // --connectionStages ramps down: the protocol parks a connection once
  // it has nothing in flight. Closed by us, nothing counted, and not
  // opened again until unpark(); a connect under way is abandoned.
  park () {
    this.parked = true
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer)
    this.reconnectTimer = null
    const socket = this.socket
    if (socket === null) return
    this.socket = null
    this.connected = false
    socket.destroy()
  }

  unpark () {
    if (!this.parked) return
    this.parked = false
    this.failures = 0
    this.open()
  }

  stop () {
    this.stopped = true
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer)
    this.reconnectTimer = null
    if (this.socket) this.socket.destroy()
  }
}

function us (ms) {
  return ms > 0 ? Math.round(ms * 1000) : 0
}

module.exports = { Connection }
