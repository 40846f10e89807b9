'use strict'

// One connection's socket, apart from the protocol spoken on it (as
// undici's connect.js is apart from client-h1): opened through the
// target's transport (transport.js: TCP, TLS, a proxy's tunnel), its
// ready moment, its end and close, one failure counted once, the back-off
// before it opens again, and the timeouts the run's sweep checks.
//
// What it carries is driven through a fixed set of calls, the same
// whatever the protocol (`protocol` here is the connection's Client,
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
// request path.

const { performance } = require('perf_hooks')
const { RequestTimeoutError } = require('../core/errors')

// A connection that keeps failing waits before it tries again, from 5 ms
// doubling up to this; with an amount, failures use up the amount, so a
// run against a dead target ends soon instead of creeping.
const MAX_BACKOFF_MS = 1000
const MAX_BACKOFF_AMOUNT_MS = 50

class Connection {
  constructor (protocol, connect, { timeoutMs, amount }) {
    this.protocol = protocol
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
    this.tcpAt = 0
    this.tunnelAt = 0
    this.secure = false
    this.readyAt = 0
  }

  open () {
    this.reconnectTimer = null
    // A reconnect planned before the connection was parked finds it so;
    // an unpark that reopened it first finds its socket.
    if (this.stopped || this.parked || this.socket !== null) return
    this.protocol.onOpen()
    this.connected = false
    this.countedFailure = false
    this.lookupAt = 0
    this.tcpAt = 0
    this.tunnelAt = 0
    this.readyAt = 0
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
  // on. False when the connection has moved on (stopped, failed, timed out).
  upgrade (from, to) {
    if (this.socket !== from || this.stopped) return false
    this.attach(to)
    return true
  }

  // --- called by the transport ---

  // A step of opening the socket is over: 'lookup' (the name resolved),
  // 'tcp' (TCP up, when more follows before onConnect: TLS, a tunnel),
  // 'tunnel' (the proxy answered CONNECT).
  mark (step) {
    const now = performance.now()
    if (step === 'lookup') this.lookupAt = now
    else if (step === 'tcp') this.tcpAt = now
    else this.tunnelAt = now
  }

  onConnect () {
    this.connected = true
    this.readyAt = performance.now()
    // TCP marked before the ready moment: a handshake came after it.
    this.secure = this.tcpAt !== 0
    if (!this.secure) this.tcpAt = this.readyAt
    this.protocol.onReady()
  }

  // The steps of opening the socket now ready, in µs: { dns, connect,
  // proxyConnect, tls }, a step this transport did not take as -1. A name
  // that is an address (or a Unix socket) takes no lookup: dns 0.
  phases () {
    const start = this.connectStartedAt
    const tcpFrom = this.lookupAt === 0 ? start : this.lookupAt
    const tlsFrom = this.tunnelAt === 0 ? this.tcpAt : this.tunnelAt
    return {
      dns: this.lookupAt === 0 ? 0 : us(this.lookupAt - start),
      connect: us(this.tcpAt - tcpFrom),
      proxyConnect: this.tunnelAt === 0 ? -1 : us(this.tunnelAt - this.tcpAt),
      tls: this.secure ? us(this.readyAt - tlsFrom) : -1
    }
  }

  onData (buf, start, end) {
    this.protocol.onData(buf, start, end)
  }

  // --- the socket's events ---

  onSocketError (socket, err) {
    if (socket !== this.socket) return
    this.fail(err)
  }

  onSocketEnd (socket) {
    if (socket !== this.socket) return
    this.protocol.onEnd()
    if (socket === this.socket) socket.destroy()
  }

  onSocketClose (socket) {
    if (socket !== this.socket) return
    const protocol = this.protocol
    if (!this.stopped && !this.countedFailure) {
      const err = protocol.onClose(this.connected)
      if (err !== null) this.fail(err)
    }
    this.socket = null
    this.connected = false
    protocol.dropInFlight()
    if (this.stopped || protocol.done) return
    if (protocol.nothingLeft()) return protocol.finish()
    // A connection closed before a single request went on it (a server
    // that closes on accept, under a rate with nothing due yet) is a
    // failure too for the back-off, though no request was lost.
    if (!this.countedFailure && protocol.sentOnSocket === 0) this.failures++
    let delay = 0
    if (this.countedFailure || protocol.sentOnSocket === 0) {
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
    this.protocol.onFail(err, this.connected)
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
    const protocol = this.protocol
    const waiting = protocol.inFlight > 0
    const since = waiting ? protocol.oldestSentAt() : (this.connected ? protocol.setUpSince() : this.connectStartedAt)
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
