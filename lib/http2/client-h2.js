'use strict'

// HTTP/2 on one connection (RFC 9113), from the codec in this folder: the
// protocol object a connection's Client (lib/client/client.js, which says
// what a protocol answers to) holds, as HTTP/1.1's (lib/http1/client-h1.js).
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
// flight); or, when the server did not process it (REFUSED_STREAM, or
// its stream above a GOAWAY's last), sent again as never started, counted
// once in `resent`: at most `pipelining` in a row with no response in
// between, beyond which it ends in an error (server-frames.js).

const { performance } = require('perf_hooks')
const { CountedError, socketHangUp } = require('../core/errors')
const { FrameParser, CLIENT_PREFACE, encodeSettings, encodeWindowUpdate, encodeData, setStreamId, DEFAULT_MAX_FRAME_SIZE } = require('./frames')
const { Decoder, DEFAULT_TABLE_SIZE } = require('./hpack')
const { ERROR_CODES, goawayError } = require('./errors')
const { h2Encoding, withTableSizeUpdate } = require('./request-frames')
const {
  onSettings, onPing, onWindowUpdate, onHeaders, onStreamData, onRstStream, onStreamError, onConnectionError, onGoaway
} = require('./server-frames')

// The window we grant each stream and, after our first WINDOW_UPDATE, the
// connection (as h2load's defaults): large enough that flow control
// never holds a benchmark's responses back.
const WINDOW = (1 << 30) - 1
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

class Http2 {
  // client: the Client it frames requests for; setup: Run#clientSetup.
  constructor (client, setup) {
    this.client = client
    this.connection = client.connection
    this.sequence = client.sequence
    this.pipelining = setup.pipelining
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

    // Slots of the requests in flight: when each was sent, when it was
    // planned to go, the sequence entry it is, and its stream's state.
    const p = this.pipelining
    this.sentAt = new Float64Array(p)
    this.plannedAt = new Float64Array(p)
    // When the first byte of its response came (the read's time; 0: none yet).
    this.firstAt = new Float64Array(p)
    this.entryOf = new Int32Array(p)
    this.inFlight = 0
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
    // Requests sent again since the last response (on any connection).
    this.resentInRow = 0
    this.freeAll()

    // A batch being built: its requests, planned times and entries.
    this.batchReqs = new Array(p).fill(null)
    this.batchPlanned = new Float64Array(p)
    this.batchEntry = new Int32Array(p)
    this.batchWhole = new Uint8Array(p)

    // The one request of a sequence that never changes, or null.
    this.fixed = null
    // The frame parser's calls: what the server's frames do (server-frames.js).
    this.frames = {
      onData: (id, buf, start, end, endStream, flow, wire) => onStreamData(this, id, buf, start, end, endStream, flow, wire),
      onHeaders: (id, buf, start, end, endStream, wire) => onHeaders(this, id, buf, start, end, endStream, wire),
      onSettings: (ack, settings) => onSettings(this, ack, settings),
      onPing: (ack, opaque) => onPing(this, ack, opaque),
      onGoaway: (lastId, code, debug) => onGoaway(this, lastId, code, debug),
      onRstStream: (id, code) => onRstStream(this, id, code),
      onWindowUpdate: (id, increment) => onWindowUpdate(this, id, increment),
      onStreamError: (err) => onStreamError(this, err),
      onError: (err) => onConnectionError(this, err)
    }
  }

  refresh () {
    this.fixed = this.sequence.staticBytes
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

  // --- the socket ---

  // A new socket: a new HTTP/2 connection, nothing of the last carries over.
  open () {
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
    this.accepting = true
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
  }

  connected () {
    this.readyAt = performance.now()
    const socket = this.connection.socket
    // ALPN is asked before the run (alpn-check.js), and again on every
    // connection: a server that stops offering h2 mid-run (a deploy, a
    // fallback) fails the connection by its cause instead of leaving it
    // waiting for SETTINGS that never come.
    if (this.client.target.secure && socket.alpnProtocol !== 'h2') {
      const chosen = socket.alpnProtocol
      return this.client.fail(new CountedError('AC_H2_NOT_OFFERED', `the server at ${this.client.target.origin} did not offer HTTP/2 on a new connection (ALPN h2${chosen ? `: it chose ${chosen}` : ''})`))
    }
    socket.write(PREFACE)
  }

  read (buf, start, end) {
    this.parser.execute(buf, start, end)
    return true
  }

  end () {}

  // Requests the server had taken end with the socket: in the GOAWAY's
  // error, if it sent one.
  unanswered () {
    if (this.goingAway && this.goawayCode !== ERROR_CODES.NO_ERROR) return goawayError(this.goawayCode, this.goawayDebug)
    return socketHangUp()
  }

  closedIdle () {
    if (!this.ready) return new CountedError('AC_H2_NO_SETTINGS', 'the HTTP/2 server closed the connection before sending its SETTINGS')
    return null
  }

  drop () {
    this.freeAll()
  }

  oldestSentAt () {
    let oldest = Infinity
    for (let i = 0; i < this.pipelining; i++) if (this.busy[i] === 1 && this.sentAt[i] < oldest) oldest = this.sentAt[i]
    return oldest === Infinity ? 0 : oldest
  }

  // The server's SETTINGS are part of connecting: not there within the
  // timeout, the connection counts as one that could not be opened.
  setUpSince () {
    return this.ready ? 0 : this.readyAt
  }

  // After a GOAWAY, or with the stream ids used up, a new connection
  // takes over.
  get spent () {
    return this.goingAway || this.idsLeft() === 0
  }

  retire () {
    this.parser.abort()
  }

  stop () {
    if (this.parser !== null) this.parser.abort()
  }

  // --- sending ---

  // Stream ids left on this connection.
  idsLeft () {
    return this.nextStreamId > this.maxStreamId ? 0 : ((this.maxStreamId - this.nextStreamId) >>> 1) + 1
  }

  // Streams are opened again as soon as they are free: one write per read
  // carries all that read's responses made room for. (Waiting for half of
  // them, as HTTP/1.1's pipeline does, costs more per request against
  // nginx: the server then gets fewer requests per read.)
  room () {
    return Math.min(this.streamLimit - this.inFlight, this.idsLeft())
  }

  send (n, now, planned) {
    const fixed = this.fixed
    if (fixed !== null) {
      for (let k = 0; k < n; k++) this.queue(fixed, now, planned === null ? now : planned[k], 0, k)
      this.write(n, now)
    } else {
      this.client.sendEach(n, now, planned)
    }
  }

  queue (encoded, now, planned, entry, k) {
    this.batchReqs[k] = encoded
    this.batchPlanned[k] = planned
    this.batchEntry[k] = entry
  }

  flush (count, now) {
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
    this.firstAt[slot] = 0
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
        this.control(encodeData(id, body.subarray(off, off + n), last, DEFAULT_MAX_FRAME_SIZE))
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

  // A setupRequest's promise holds a slot, so that a timeout counts from
  // now.
  hold () {
    return this.takeSlot(performance.now())
  }

  release (slot) {
    this.releaseSlot(slot)
  }

  sendHeld (encoded, entry, planned) {
    this.queue(encoded, 0, planned, entry, 0)
    this.write(1, performance.now())
  }

  // Frames of our own between the requests' (acknowledgements, windows,
  // resets, bodies that waited): not once the connection is failing or
  // the run is over, which may happen in the middle of a read.
  control (frames) {
    const connection = this.connection
    if (this.client.stopped || connection.countedFailure || connection.socket === null) return
    connection.socket.write(frames)
  }
}

module.exports = {
  name: 'h2',
  create: (client, setup) => new Http2(client, setup),
  encodingFor: h2Encoding,
  Http2
}
