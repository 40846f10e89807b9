'use strict'

// HTTP/2 on one connection (RFC 9113), from the codec in this folder: the
// public Client of autocannon's API (lib/client/client.js) over streams.
// Its Connection (lib/transport/connection.js) drives it through the same
// calls as HTTP/1.1's client, and the run is reached through the same port
// (lib/engine/run.js).
//
// The connection starts with our preface, SETTINGS and a connection
// WINDOW_UPDATE; requests go once the server's SETTINGS came (they say how
// many streams it takes at once). `pipelining` is the streams in flight
// per connection, at most the server's SETTINGS_MAX_CONCURRENT_STREAMS.
// Windows we grant are large (streams need no WINDOW_UPDATE for ordinary
// responses; the connection gets one per half window read); windows the
// server grants are kept to: a request body that does not fit waits for
// its WINDOW_UPDATE.
//
// Streams end in any order, so each request in flight has a slot (send
// time, planned time, entry, what is read of its response), taken from a
// free list and found from its stream id; nothing is allocated per request
// but the write that carries a batch of them.
//
// Every request started ends once: a response; an error (RST_STREAM by
// its code, a protocol error, the connection's failure for all those in
// flight); or, after a GOAWAY, when its stream is above the server's last
// one, sent again on the next connection as never started.

const { performance } = require('perf_hooks')
const { ClientBase } = require('../client/client')
const { sequenceFor } = require('../http1/request-sequence')
const { ResponseParseError, RequestTimeoutError } = require('../core/errors')
const {
  FrameParser, CLIENT_PREFACE, MAX_WINDOW, encodeSettings, encodeWindowUpdate, encodePing, encodeRstStream,
  encodeGoaway, encodeData, setStreamId, DEFAULT_MAX_FRAME_SIZE
} = require('./frames')
const { Decoder, DEFAULT_TABLE_SIZE } = require('./hpack')
const { ERROR_CODES, http2Error, resetError, goawayError } = require('./errors')
const { h2Encoding, withTableSizeUpdate } = require('./request-frames')

// The window we grant each stream and, after our first WINDOW_UPDATE, the
// connection (as h2load's defaults): large enough that flow control
// never holds a benchmark's responses back.
const WINDOW = (1 << 30) - 1
// A window is topped up once this much of it was read.
const WINDOW_REFILL = 1 << 29
// The frames we take: larger than the default, so a large body costs
// fewer frames.
const MAX_FRAME_SIZE = 1 << 16
// The client's streams are odd, up to 2^31-1 (§5.1.1).
const MAX_STREAM_ID = 0x7fffffff
const INITIAL_WINDOW = 65535

// Sent once at each connection's start.
const PREFACE = Buffer.concat([
  CLIENT_PREFACE,
  encodeSettings({ headerTableSize: DEFAULT_TABLE_SIZE, enablePush: 0, initialWindowSize: WINDOW, maxFrameSize: MAX_FRAME_SIZE }),
  encodeWindowUpdate(0, WINDOW - INITIAL_WINDOW)
])
const SETTINGS_ACK = encodeSettings({}, true)

class Http2Client extends ClientBase {
  constructor (run, setup, target, index, connect, requests, order = null) {
    super(run, setup, target, index, connect, sequenceFor(setup, target, requests, order, index, h2Encoding(target)))
    this.timeoutMs = setup.timeoutMs
    // The last stream id this client opens on a connection before it
    // moves to a new one.
    this.maxStreamId = MAX_STREAM_ID

    // Per connection (newConnection()).
    this.parser = null
    this.decoder = null
    this.readyAt = 0
    this.newConnection()
    // Streams whose body waits for a window, by id, oldest first.
    this.blocked = []

    // Slots of the requests in flight.
    const p = this.pipelining
    this.free = new Int32Array(p)
    this.freeTop = 0
    this.slotOf = new Map()
    this.busy = new Uint8Array(p)
    this.streamOf = new Int32Array(p)
    this.status = new Int32Array(p)
    this.bytesOf = new Float64Array(p)
    this.bodySize = new Float64Array(p)
    this.recvStream = new Float64Array(p)
    this.streamWindow = new Float64Array(p)
    this.bodyOff = new Float64Array(p)
    this.bodyOf = new Array(p).fill(null)
    this.chunks = new Array(p).fill(null)
    this.headersOf = new Array(p).fill(null)
    this.tooLarge = new Uint8Array(p)
    this.freeAll()

    // A batch being built: its requests, planned times and entries.
    this.batchReqs = new Array(p).fill(null)
    this.batchPlanned = new Float64Array(p)
    this.batchEntry = new Int32Array(p)
    this.batchWhole = new Uint8Array(p)

    // The one request of a sequence that never changes, or null.
    this.fixed = null
    // The frame parser calls these (its names are not the connection's).
    this.frames = {
      onData: (id, buf, start, end, endStream, flow) => this.onStreamData(id, buf, start, end, endStream, flow),
      onHeaders: (id, buf, start, end, endStream) => this.onHeaders(id, buf, start, end, endStream),
      onSettings: (ack, settings) => this.onSettings(ack, settings),
      onPing: (ack, opaque) => this.onPing(ack, opaque),
      onGoaway: (lastId, code, debug) => this.onGoaway(lastId, code, debug),
      onRstStream: (id, code) => this.onRstStream(id, code),
      onWindowUpdate: (id, increment) => this.onWindowUpdate(id, increment),
      onStreamError: (err) => this.onStreamError(err),
      onError: (err) => this.onConnectionError(err)
    }
    this.watchListeners()
  }

  refreshFastPath () {
    this.fixed = this.sequence.staticBytes
    this.refreshWants()
  }

  freeAll () {
    const p = this.pipelining
    for (let i = 0; i < p; i++) {
      this.free[i] = p - 1 - i
      this.busy[i] = 0
      this.streamOf[i] = 0
      this.bodyOf[i] = null
      this.chunks[i] = null
      this.headersOf[i] = null
    }
    this.freeTop = p
    this.slotOf.clear()
    this.inFlight = 0
    this.blocked.length = 0
  }

  // --- the connection's calls ---

  // A new socket: a new HTTP/2 connection, nothing of the last carries over.
  onOpen () {
    this.parser = new FrameParser(this.frames, { maxFrameSize: MAX_FRAME_SIZE })
    this.decoder = new Decoder(DEFAULT_TABLE_SIZE)
    this.newConnection()
  }

  newConnection () {
    // Set once the server's SETTINGS came.
    this.ready = false
    this.nextStreamId = 1
    this.streamLimit = this.pipelining
    this.goingAway = false
    this.goawayCode = 0
    this.goawayDebug = null
    // The server's window for what we send on the connection, its initial
    // window for each stream, and its decoder's table size.
    this.sendWindow = INITIAL_WINDOW
    this.peerInitialWindow = INITIAL_WINDOW
    this.peerTableSize = DEFAULT_TABLE_SIZE
    this.needSizeUpdate = false
    // Octets of DATA read since the connection's last WINDOW_UPDATE.
    this.recvOwed = 0
    this.sentOnSocket = 0
  }

  onReady () {
    this.readyAt = performance.now()
    this.connection.socket.write(PREFACE)
  }

  onData (buf, start, end) {
    this.readAt = performance.now()
    this.parser.execute(buf, start, end)
    this.pump()
  }

  onEnd () {
    this.readAt = performance.now()
  }

  // The socket closed without a failure counted: → the error to count, or
  // null. Requests the server had taken end with it.
  onClose (connected) {
    if (this.inFlight > 0 && this.goingAway && this.goawayCode !== ERROR_CODES.NO_ERROR) return goawayError(this.goawayCode, this.goawayDebug)
    if (this.inFlight > 0) return new ResponseParseError('AC_SOCKET_HANG_UP', 'socket hang up: the connection closed with requests in flight')
    if (!connected) return new ResponseParseError('AC_SOCKET_HANG_UP', 'socket hang up: the connection closed before it was established')
    if (!this.ready) return new ResponseParseError('AC_H2_NO_SETTINGS', 'the HTTP/2 server closed the connection before sending its SETTINGS')
    return null
  }

  // Until the server's SETTINGS came, the connection is not set up: a
  // failure then is a failed connection (one request, as for TCP).
  onFail (err, connected) {
    super.onFail(err, connected && this.ready)
  }

  dropInFlight () {
    this.freeAll()
    // A setupRequest still settling held a slot: it ended with the rest.
    this.pendingRequest = null
  }

  oldestSentAt () {
    let oldest = Infinity
    for (let i = 0; i < this.pipelining; i++) if (this.busy[i] === 1 && this.sentAt[i] < oldest) oldest = this.sentAt[i]
    return oldest === Infinity ? 0 : oldest
  }

  // The server's SETTINGS are part of connecting: not there within the
  // timeout, the connection counts as one that could not be opened.
  checkTimeout (now) {
    const connection = this.connection
    if (!this.ready && connection.connected && connection.socket !== null && !connection.countedFailure && now - this.readyAt >= this.timeoutMs) {
      return connection.fail(new RequestTimeoutError(this.timeoutMs / 1000, true))
    }
    connection.checkTimeout(now)
  }

  // --- sending ---

  // Stream ids left on this connection.
  idsLeft () {
    return this.nextStreamId > this.maxStreamId ? 0 : ((this.maxStreamId - this.nextStreamId) >>> 1) + 1
  }

  canSend () {
    if (this.goingAway || this.pendingRequest !== null || this.parked) return false
    if (this.maxRequests && this.completed + this.inFlight >= this.maxRequests) return false
    if (this.reconnectRate && this.sentOnSocket >= this.reconnectRate) return false
    return true
  }

  pump () {
    const connection = this.connection
    if (!this.ready || !connection.connected || this.stopped || connection.countedFailure) return
    const room = Math.min(this.streamLimit - this.inFlight, this.idsLeft())
    // Streams are opened again as soon as they are free: one write per
    // read carries all that read's responses made room for. (Waiting for
    // half of them, as HTTP/1.1's pipeline does, costs more per request
    // against nginx: the server then gets fewer requests per read.)
    if (room < 1 || !this.canSend()) return this.checkIdle()
    let n = this.allowed(room)
    n = this.run.take(this, n)
    if (n === 0) return this.checkIdle()
    // Counted before anything can end them (see HTTP/1.1's pump).
    this.sentOnSocket += n
    this.recorder.started(n)
    const now = performance.now()
    const planned = this.planned
    if (this.fixed !== null) {
      for (let k = 0; k < n; k++) this.queueRequest(this.fixed, now, planned === null ? now : planned[k], 0, k)
      this.write(n, now)
    } else {
      this.sendEach(n, now, planned)
    }
  }

  queueRequest (encoded, now, planned, entry, k) {
    this.batchReqs[k] = encoded
    this.batchPlanned[k] = planned
    this.batchEntry[k] = entry
  }

  flushQueued (count, now) {
    this.write(count, now)
  }

  // Opens a stream for each request of the batch, all in one write. A
  // body goes with its HEADERS when the server's windows hold it, else it
  // waits (sendBodies).
  write (count, now) {
    const reqs = this.batchReqs
    if (this.needSizeUpdate) {
      reqs[0] = withTableSizeUpdate(reqs[0])
      this.needSizeUpdate = false
    }
    const whole = this.batchWhole
    let size = 0
    let window = this.sendWindow
    for (let i = 0; i < count; i++) {
      const req = reqs[i]
      const body = req.body
      if (body === null || (body.length <= window && body.length <= this.peerInitialWindow)) {
        whole[i] = 1
        size += req.frames.length
        if (body !== null) window -= body.length
      } else {
        whole[i] = 0
        size += req.head.length
      }
    }
    const out = Buffer.allocUnsafe(size)
    let o = 0
    let waiting = false
    for (let i = 0; i < count; i++) {
      const req = reqs[i]
      const slot = this.openStream(now, this.batchPlanned[i], this.batchEntry[i])
      const id = this.streamOf[slot]
      const frames = whole[i] === 1 ? req.frames : req.head
      frames.copy(out, o)
      setStreamId(out, id, o, o + frames.length)
      o += frames.length
      const body = req.body
      if (body === null) continue
      if (whole[i] === 1) {
        this.sendWindow -= body.length
        this.streamWindow[slot] -= body.length
      } else {
        this.bodyOf[slot] = body
        this.bodyOff[slot] = 0
        this.blocked.push(id)
        waiting = true
      }
    }
    this.connection.socket.write(out)
    if (waiting) this.sendBodies()
  }

  openStream (now, plannedAt, entry) {
    const slot = this.takeSlot(now)
    const id = this.nextStreamId
    this.nextStreamId += 2
    this.streamOf[slot] = id
    this.slotOf.set(id, slot)
    this.plannedAt[slot] = plannedAt
    this.entryOf[slot] = entry
    this.streamWindow[slot] = this.peerInitialWindow
    return slot
  }

  takeSlot (now) {
    const slot = this.free[--this.freeTop]
    this.busy[slot] = 1
    this.sentAt[slot] = now
    this.status[slot] = 0
    this.bytesOf[slot] = 0
    this.bodySize[slot] = 0
    this.recvStream[slot] = 0
    this.tooLarge[slot] = 0
    this.inFlight++
    return slot
  }

  releaseSlot (slot) {
    const id = this.streamOf[slot]
    if (id !== 0) this.slotOf.delete(id)
    this.streamOf[slot] = 0
    this.busy[slot] = 0
    this.bodyOf[slot] = null
    this.chunks[slot] = null
    this.headersOf[slot] = null
    this.free[this.freeTop++] = slot
    this.inFlight--
  }

  // Bodies waiting for a window get what the windows now allow, in the
  // order they were sent.
  sendBodies () {
    const blocked = this.blocked
    let kept = 0
    for (let i = 0; i < blocked.length; i++) {
      const id = blocked[i]
      const slot = this.slotOf.get(id)
      if (slot === undefined || this.bodyOf[slot] === null) continue
      const body = this.bodyOf[slot]
      const off = this.bodyOff[slot]
      const n = Math.min(body.length - off, this.sendWindow, this.streamWindow[slot])
      if (n > 0) {
        const last = off + n === body.length
        this.send(encodeData(id, body.subarray(off, off + n), last, DEFAULT_MAX_FRAME_SIZE))
        this.sendWindow -= n
        this.streamWindow[slot] -= n
        this.bodyOff[slot] = off + n
        if (last) {
          this.bodyOf[slot] = null
          continue
        }
      }
      blocked[kept++] = id
    }
    blocked.length = kept
  }

  // A setupRequest's promise (awaitRequest) holds a slot, so that a
  // timeout counts from now.
  holdSlot () {
    return this.takeSlot(performance.now())
  }

  releaseHold (slot) {
    this.releaseSlot(slot)
  }

  // After a GOAWAY the server takes no new stream.
  maySendSettled () {
    return !this.goingAway
  }

  sendSettled (encoded, entry, planned) {
    this.queueRequest(encoded, 0, planned, entry, 0)
    this.write(1, performance.now())
  }

  // Nothing more to send on this socket: reconnect or finish.
  checkIdle () {
    if (this.inFlight > 0 || this.pendingRequest !== null) return
    if (this.parked) return this.connection.park()
    if (this.maxRequests && this.completed >= this.maxRequests) return this.finish()
    if (this.run.exhausted()) return this.finish()
    if (this.connection.socket === null || !this.ready) return
    // After a GOAWAY, or with the stream ids used up, a new connection
    // takes over; reconnectRate asks for one too.
    if (this.goingAway || this.idsLeft() === 0 || (this.reconnectRate && this.sentOnSocket >= this.reconnectRate)) {
      this.parser.abort()
      this.connection.recycle()
    }
  }

  // Frames of our own between the requests' (acknowledgements, windows,
  // resets, bodies that waited): not once the connection is failing or
  // the run is over, which may happen in the middle of a read.
  send (frames) {
    const connection = this.connection
    if (this.stopped || connection.countedFailure || connection.socket === null) return
    connection.socket.write(frames)
  }

  stop () {
    super.stop()
    if (this.parser !== null) this.parser.abort()
  }

  // --- the server's frames ---

  onSettings (ack, settings) {
    if (ack) return
    if (settings.maxConcurrentStreams !== undefined) this.streamLimit = Math.min(this.pipelining, settings.maxConcurrentStreams)
    if (settings.initialWindowSize !== undefined) {
      // Open streams' windows move by the change (§6.9.2).
      const delta = settings.initialWindowSize - this.peerInitialWindow
      this.peerInitialWindow = settings.initialWindowSize
      for (let i = 0; i < this.pipelining; i++) if (this.streamOf[i] !== 0) this.streamWindow[i] += delta
    }
    if (settings.headerTableSize !== undefined && settings.headerTableSize < this.peerTableSize) this.needSizeUpdate = true
    if (settings.headerTableSize !== undefined) this.peerTableSize = settings.headerTableSize
    this.send(SETTINGS_ACK)
    if (!this.ready) {
      this.ready = true
      this.connection.succeeded()
    }
    if (this.blocked.length > 0) this.sendBodies()
  }

  onPing (ack, opaque) {
    if (!ack) this.send(encodePing(opaque, true))
  }

  onWindowUpdate (id, increment) {
    if (id === 0) {
      this.sendWindow += increment
      if (this.sendWindow > MAX_WINDOW) return this.onConnectionError(http2Error('FLOW_CONTROL_ERROR', `a WINDOW_UPDATE that took the connection's window to ${this.sendWindow}, above 2^31-1`))
    } else {
      const slot = this.slotOf.get(id)
      if (slot === undefined) return
      this.streamWindow[slot] += increment
    }
    if (this.blocked.length > 0) this.sendBodies()
  }

  onHeaders (id, buf, start, end, endStream) {
    // Every block is decoded, whoever's: the table must stay in step.
    const slot = this.slotOf.get(id)
    const want = this.wantHeaders && slot !== undefined
    let status
    try {
      status = this.decoder.decode(buf, start, end, want)
    } catch (err) {
      return this.onConnectionError(err)
    }
    if (slot === undefined) return
    this.bytesOf[slot] += end - start
    if (this.status[slot] !== 0) {
      // Trailers.
      if (endStream) this.complete(slot)
      return
    }
    if (status >= 100 && status < 200 && !endStream) return
    if (status <= 0) return this.streamError(slot, http2Error('PROTOCOL_ERROR', `a response on stream ${id} without a valid :status`, id))
    this.status[slot] = status
    if (want) {
      this.headersOf[slot] = this.decoder.headers
      this.emitHeaders(this.decoder.headers)
    }
    if (this.wantBody) this.chunks[slot] = []
    if (endStream) this.complete(slot)
  }

  onStreamData (id, buf, start, end, endStream, flow) {
    this.recvOwed += flow
    if (this.recvOwed >= WINDOW_REFILL) {
      this.send(encodeWindowUpdate(0, this.recvOwed))
      this.recvOwed = 0
    }
    const slot = this.slotOf.get(id)
    if (slot === undefined) return
    if (this.status[slot] === 0) return this.streamError(slot, http2Error('PROTOCOL_ERROR', `DATA on stream ${id} before its response's HEADERS`, id))
    this.recvStream[slot] += flow
    if (this.recvStream[slot] >= WINDOW_REFILL && !endStream) {
      this.send(encodeWindowUpdate(id, this.recvStream[slot]))
      this.recvStream[slot] = 0
    }
    const length = end - start
    this.bytesOf[slot] += length
    const chunks = this.chunks[slot]
    if (chunks !== null && length > 0 && this.tooLarge[slot] === 0) {
      this.bodySize[slot] += length
      // Kept no further: read to its end, then counted as an error.
      if (this.bodySize[slot] > this.maxBodySize) this.tooLarge[slot] = 1
      // Copied: the read buffer is shared and reused.
      else chunks.push(Buffer.from(buf.subarray(start, end)))
    }
    if (endStream) this.complete(slot)
  }

  // A response ended (END_STREAM).
  complete (slot) {
    const id = this.streamOf[slot]
    // The server answered before taking the whole body: the rest is not sent.
    if (this.bodyOf[slot] !== null) this.send(encodeRstStream(id, ERROR_CODES.NO_ERROR))
    const status = this.status[slot]
    const bytes = this.bytesOf[slot]
    const sentAt = this.sentAt[slot]
    const plannedAt = this.plannedAt[slot]
    const entry = this.entryOf[slot]
    const chunks = this.chunks[slot]
    const headers = this.headersOf[slot]
    const tooLarge = this.tooLarge[slot] === 1
    this.releaseSlot(slot)
    this.completed++
    this.connection.succeeded()
    if (tooLarge) return this.bodyOverflow()
    let body = null
    if (chunks !== null) body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
    this.respond(status, bytes, sentAt, plannedAt, entry, body, headers)
  }

  onRstStream (id, code) {
    const slot = this.slotOf.get(id)
    if (slot === undefined) return
    this.endInError(slot, resetError(code, id))
  }

  // A stream error of ours (§5.4.2): the stream is reset, its request ends
  // in that error.
  onStreamError (err) {
    const slot = this.slotOf.get(err.streamId)
    if (slot === undefined) {
      this.send(encodeRstStream(err.streamId, err.http2Code))
      return
    }
    this.streamError(slot, err)
  }

  streamError (slot, err) {
    this.send(encodeRstStream(this.streamOf[slot], err.http2Code))
    this.endInError(slot, err)
  }

  endInError (slot, err) {
    this.releaseSlot(slot)
    this.completed++
    this.run.onClientError(this, err, 1, 'parse', true)
  }

  // A connection error (§5.4.1): GOAWAY with its code, and the connection
  // fails, with every request in flight.
  onConnectionError (err) {
    this.parser.abort()
    this.send(encodeGoaway(0, err.http2Code === undefined ? ERROR_CODES.INTERNAL_ERROR : err.http2Code))
    this.fail(err)
  }

  // Streams above lastId were not processed (§6.8): they go again on the
  // next connection, counted once. No new stream goes on this one, which
  // closes once the rest are answered.
  onGoaway (lastId, code, debug) {
    this.goingAway = true
    this.goawayCode = code
    this.goawayDebug = debug
    let unprocessed = 0
    for (let i = 0; i < this.pipelining; i++) {
      if (this.streamOf[i] > lastId) {
        this.releaseSlot(i)
        unprocessed++
      }
    }
    if (unprocessed > 0) this.resend(unprocessed)
    this.checkIdle()
  }
}

module.exports = { Http2Client }
