'use strict'

// HTTP/2 on one connection (RFC 9113), from the codec in this folder: the
// framing object a connection's Client (lib/client/client.js, which lists
// what a framing answers to and calls back) holds, as HTTP/1.1's
// (lib/http1/client-h1.js).
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
// between, beyond which it ends in an error (the server's frames, below).

const { CountedError, socketHangUp } = require('../core/errors')
const {
  FrameParser, CLIENT_PREFACE, MAX_WINDOW, encodeSettings, encodeWindowUpdate, encodeData, encodePing, encodeRstStream, encodeGoaway,
  setStreamId, DEFAULT_MAX_FRAME_SIZE
} = require('./frames')
const { Decoder, DEFAULT_TABLE_SIZE } = require('./hpack')
const { ERROR_CODES, goawayError, http2Error, resetError, notProcessedAgainError } = require('./errors')
const { h2Encoding, withTableSizeUpdate } = require('./request-frames')

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
// A window is topped up once this much of it was read.
const WINDOW_REFILL = 1 << 29
const SETTINGS_ACK = encodeSettings({}, true)

// Sent once at each connection's start.
const PREFACE = Buffer.concat([
  CLIENT_PREFACE,
  encodeSettings({ headerTableSize: DEFAULT_TABLE_SIZE, enablePush: 0, initialWindowSize: WINDOW, maxFrameSize: MAX_FRAME_SIZE }),
  encodeWindowUpdate(0, WINDOW - INITIAL_WINDOW)
])

class Http2 {
  // client: the Client it frames requests for (its calls back only);
  // setup: Run#clientSetup; slots: the Client's requests in flight, in
  // any order; sequence: the requests it sends; target: where.
  constructor (client, setup, slots, sequence, target) {
    this.client = client
    this.slots = slots
    this.sequence = sequence
    this.target = target
    this.maxBodySize = setup.maxBodySize
    this.pipelining = setup.pipelining
    // The socket, once connected (connected()); null once closed.
    this.socket = null
    this.wantBody = false
    this.wantHeaders = false
    // The time of the read being handled (read()).
    this.readAt = 0
    // The last stream id this client opens on a connection before it
    // moves to a new one.
    this.maxStreamId = MAX_STREAM_ID

    // Per connection (newConnection()).
    this.parser = null
    this.decoder = null
    this.newConnection()
    // Streams whose body waits for a window, by id, oldest first.
    this.blocked = []

    // Each request in flight's stream, under the slot the Client's table
    // gave it (its times are there): its id (0: no stream), what was read
    // of its response, its windows, its body waiting to go.
    const p = this.pipelining
    this.slotOf = new Map()
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
    this.forgetStreams()

    // A batch being built: its requests, planned times and entries.
    this.batchReqs = new Array(p).fill(null)
    this.batchPlanned = new Float64Array(p)
    this.batchEntry = new Int32Array(p)
    this.batchWhole = new Uint8Array(p)

    // The one request of a sequence that never changes, or null.
    this.fixed = null
  }

  refresh (wantBody, wantHeaders) {
    this.fixed = this.sequence.staticBytes
    this.wantBody = wantBody
    this.wantHeaders = wantHeaders
  }

  forgetStreams () {
    for (let i = 0; i < this.pipelining; i++) {
      this.streamOf[i] = 0
      this.bodyOf[i] = null
      this.chunks[i] = null
      this.headersOf[i] = null
    }
    this.slotOf.clear()
    this.blocked.length = 0
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

  // --- the socket ---

  // A new socket: a new HTTP/2 connection, nothing of the last carries
  // over. Requests go once the server's SETTINGS came (ready).
  connected (socket) {
    this.socket = socket
    this.parser = new FrameParser(this, { maxFrameSize: MAX_FRAME_SIZE })
    this.decoder = new Decoder(DEFAULT_TABLE_SIZE)
    this.newConnection()
    // ALPN is asked before the run (alpn-check.js), and again on every
    // connection: a server that stops offering h2 mid-run (a deploy, a
    // fallback) fails the connection by its cause instead of leaving it
    // waiting for SETTINGS that never come.
    if (this.target.secure && socket.alpnProtocol !== 'h2') {
      const chosen = socket.alpnProtocol
      return this.client.fail(new CountedError('AC_H2_NOT_OFFERED', `the server at ${this.target.origin} did not offer HTTP/2 on a new connection (ALPN h2${chosen ? `: it chose ${chosen}` : ''})`))
    }
    socket.write(PREFACE)
  }

  // now: the time of this read, for the responses whose first byte it
  // holds.
  read (buf, start, end, now) {
    this.readAt = now
    this.parser.execute(buf, start, end)
    return true
  }

  end () {}

  // Requests the server had taken end with the socket: in the GOAWAY's
  // error, if it sent one. With none in flight, a close before the
  // server's SETTINGS (the end of the connection's set-up) counts.
  closed () {
    if (this.slots.count === 0) {
      if (!this.ready) return new CountedError('AC_H2_NO_SETTINGS', 'the HTTP/2 server closed the connection before sending its SETTINGS')
      return null
    }
    if (this.goingAway && this.goawayCode !== ERROR_CODES.NO_ERROR) return goawayError(this.goawayCode, this.goawayDebug)
    return socketHangUp()
  }

  // After a GOAWAY, or with the stream ids used up, a new connection
  // takes over.
  get spent () {
    return this.goingAway || this.idsLeft() === 0
  }

  // The socket is given up (closed, failed, recycled, parked, or the run
  // is over): its frames are read no further, its streams are gone, and
  // nothing is written until the next connection is set up.
  close () {
    if (this.parser !== null) this.parser.abort()
    this.socket = null
    this.forgetStreams()
    this.newConnection()
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
    return Math.min(this.streamLimit - this.slots.count, this.idsLeft())
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
    this.socket.write(out)
    if (waiting) this.sendBodies()
  }

  openStream (now, plannedAt, entry) {
    const slot = this.slots.take(now, plannedAt, entry)
    this.status[slot] = 0
    this.bytesOf[slot] = 0
    this.bodySize[slot] = 0
    this.recvStream[slot] = 0
    this.tooLarge[slot] = 0
    const id = this.nextStreamId
    this.nextStreamId += 2
    this.streamOf[slot] = id
    this.slotOf.set(id, slot)
    this.streamWindow[slot] = this.peerInitialWindow
    return slot
  }

  // A stream ended: its slot goes back to the Client's table.
  releaseSlot (slot) {
    const id = this.streamOf[slot]
    if (id !== 0) this.slotOf.delete(id)
    this.streamOf[slot] = 0
    this.bodyOf[slot] = null
    this.chunks[slot] = null
    this.headersOf[slot] = null
    this.slots.release(slot)
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

  // Frames of our own between the requests' (acknowledgements, windows,
  // resets, bodies that waited): not once the connection is failing or
  // the run is over, which may happen in the middle of a read.
  control (frames) {
    if (this.socket !== null) this.socket.write(frames)
  }

  // --- the server's frames: the FrameParser's calls ---
  //
  // Responses complete on END_STREAM; a RST_STREAM or a stream error ends
  // its request; a connection error fails the connection. What the server
  // says it did not process (REFUSED_STREAM before any response, streams
  // above a GOAWAY's last) goes again (RFC 9113 §8.7), counted once, as
  // long as the server answers in between: at most `pipelining` in a row
  // with no response since, after which such a request ends in an error,
  // so a server that refuses every stream cannot hold a run in a loop. (A
  // mark on the retried request itself would not do: it is given back to
  // the run and made anew, and a server that refuses every tenth stream
  // refuses a retry sent at the same place of the next round.)

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
    this.control(SETTINGS_ACK)
    if (!this.ready) {
      this.ready = true
      this.client.setUp()
    }
    if (this.blocked.length > 0) this.sendBodies()
  }

  onPing (ack, opaque) {
    if (!ack) this.control(encodePing(opaque, true))
  }

  onWindowUpdate (id, increment) {
    if (id === 0) {
      this.sendWindow += increment
      if (this.sendWindow > MAX_WINDOW) return this.onError(http2Error('FLOW_CONTROL_ERROR', `a WINDOW_UPDATE that took the connection's window to ${this.sendWindow}, above 2^31-1`))
    } else {
      const slot = this.slotOf.get(id)
      if (slot === undefined) return
      this.streamWindow[slot] += increment
    }
    if (this.blocked.length > 0) this.sendBodies()
  }

  // wire: the octets its frames took on the wire (frames.js): what a
  // response counts in bytes read, as HTTP/1.1 counts a response's head and
  // body as they came (a benchmark's throughput is bytes on the wire, the
  // same way over both protocols).
  onHeaders (id, buf, start, end, endStream, wire = end - start) {
    // Every block is decoded, whoever's: the table must stay in step.
    const slot = this.slotOf.get(id)
    const want = this.wantHeaders && slot !== undefined
    let status
    try {
      status = this.decoder.decode(buf, start, end, want)
    } catch (err) {
      return this.onError(err)
    }
    if (slot === undefined) return
    this.bytesOf[slot] += wire
    if (this.status[slot] !== 0) {
      // Trailers.
      if (endStream) this.complete(slot)
      return
    }
    // The response's first byte (of an interim response's, if any).
    const firstAt = this.slots.firstAt
    if (firstAt[slot] === 0) firstAt[slot] = this.readAt
    if (status >= 100 && status < 200 && !endStream) return
    if (status <= 0) return this.streamError(slot, http2Error('PROTOCOL_ERROR', `a response on stream ${id} without a valid :status`, id))
    this.status[slot] = status
    if (want) {
      this.headersOf[slot] = this.decoder.headers
      this.client.emitHeaders(this.decoder.headers)
    }
    if (this.wantBody) this.chunks[slot] = []
    if (endStream) this.complete(slot)
  }

  onData (id, buf, start, end, endStream, flow, wire = flow) {
    this.recvOwed += flow
    if (this.recvOwed >= WINDOW_REFILL) {
      this.control(encodeWindowUpdate(0, this.recvOwed))
      this.recvOwed = 0
    }
    const slot = this.slotOf.get(id)
    if (slot === undefined) return
    if (this.status[slot] === 0) return this.streamError(slot, http2Error('PROTOCOL_ERROR', `DATA on stream ${id} before its response's HEADERS`, id))
    this.recvStream[slot] += flow
    if (this.recvStream[slot] >= WINDOW_REFILL && !endStream) {
      this.control(encodeWindowUpdate(id, this.recvStream[slot]))
      this.recvStream[slot] = 0
    }
    const length = end - start
    this.bytesOf[slot] += wire
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
    if (this.bodyOf[slot] !== null) this.control(encodeRstStream(id, ERROR_CODES.NO_ERROR))
    const status = this.status[slot]
    const bytes = this.bytesOf[slot]
    const chunks = this.chunks[slot]
    const headers = this.headersOf[slot]
    const tooLarge = this.tooLarge[slot] === 1
    this.releaseSlot(slot)
    // The server answers: what it refuses may go again.
    this.resentInRow = 0
    if (tooLarge) return this.client.overflowed()
    let body = null
    if (chunks !== null) body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
    this.client.respond(slot, status, bytes, body, headers)
  }

  onRstStream (id, code) {
    const slot = this.slotOf.get(id)
    if (slot === undefined) return
    // Refused before any response: not processed, so it may go again.
    if (code === ERROR_CODES.REFUSED_STREAM && this.status[slot] === 0 && this.resentInRow < this.pipelining) {
      this.resentInRow++
      this.releaseSlot(slot)
      return this.client.resend(1)
    }
    this.endInError(slot, resetError(code, id))
  }

  // A stream error of ours (§5.4.2): the stream is reset, its request ends
  // in that error.
  onStreamError (err) {
    const slot = this.slotOf.get(err.streamId)
    if (slot === undefined) {
      this.control(encodeRstStream(err.streamId, err.http2Code))
      return
    }
    this.streamError(slot, err)
  }

  streamError (slot, err) {
    this.control(encodeRstStream(this.streamOf[slot], err.http2Code))
    this.endInError(slot, err)
  }

  endInError (slot, err) {
    this.releaseSlot(slot)
    this.client.requestFailed(err)
  }

  // A connection error (§5.4.1): GOAWAY with its code, and the connection
  // fails, with every request in flight.
  onError (err) {
    this.parser.abort()
    this.control(encodeGoaway(0, err.http2Code === undefined ? ERROR_CODES.INTERNAL_ERROR : err.http2Code))
    this.client.fail(err)
  }

  // Streams above lastId were not processed (§6.8): they go again on the
  // next connection, counted once (beyond the resends in a row allowed,
  // they end in an error). No new stream goes on this one, which
  // closes once the rest are answered.
  onGoaway (lastId, code, debug) {
    this.goingAway = true
    this.accepting = false
    this.goawayCode = code
    this.goawayDebug = debug
    let unprocessed = 0
    for (let i = 0; i < this.pipelining; i++) {
      const id = this.streamOf[i]
      if (id <= lastId) continue
      if (this.resentInRow >= this.pipelining) {
        this.endInError(i, notProcessedAgainError(id, lastId, this.resentInRow))
        continue
      }
      this.resentInRow++
      this.releaseSlot(i)
      unprocessed++
    }
    if (unprocessed > 0) this.client.resend(unprocessed)
    this.client.checkIdle()
  }
}

module.exports = {
  // Streams end in any order: the Client's requests in flight too.
  inOrder: false,
  create: (client, setup, slots, sequence, target) => new Http2(client, setup, slots, sequence, target),
  encodingFor: h2Encoding,
  Http2
}
