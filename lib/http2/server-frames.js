'use strict'

// What an HTTP/2 client (client-h2.js) does with each frame the server
// sends: the FrameParser's calls, as functions of the client's protocol
// object `h2` (its streams' slots, windows and settings live there).
// Responses complete on END_STREAM; a RST_STREAM or a stream error ends
// its request; a connection error fails the connection. What the server
// says it did not process (REFUSED_STREAM before any response, streams
// above a GOAWAY's last) goes again (RFC 9113 §8.7), counted once, as
// long as the server answers in between: at most `pipelining` in a row
// with no response since, after which such a request ends in an error, so
// a server that refuses every stream cannot hold a run in a loop. (A mark
// on the retried request itself would not do: it is given back to the run
// and made anew, and a server that refuses every tenth stream refuses a
// retry sent at the same place of the next round.)

const { MAX_WINDOW, encodeSettings, encodeWindowUpdate, encodePing, encodeRstStream, encodeGoaway } = require('./frames')
const { ERROR_CODES, http2Error, resetError, notProcessedAgainError } = require('./errors')

// A window is topped up once this much of it was read.
const WINDOW_REFILL = 1 << 29
const SETTINGS_ACK = encodeSettings({}, true)

function onSettings (h2, ack, settings) {
  if (ack) return
  if (settings.maxConcurrentStreams !== undefined) h2.streamLimit = Math.min(h2.pipelining, settings.maxConcurrentStreams)
  if (settings.initialWindowSize !== undefined) {
    // Open streams' windows move by the change (§6.9.2).
    const delta = settings.initialWindowSize - h2.peerInitialWindow
    h2.peerInitialWindow = settings.initialWindowSize
    for (let i = 0; i < h2.pipelining; i++) if (h2.streamOf[i] !== 0) h2.streamWindow[i] += delta
  }
  if (settings.headerTableSize !== undefined && settings.headerTableSize < h2.peerTableSize) h2.needSizeUpdate = true
  if (settings.headerTableSize !== undefined) h2.peerTableSize = settings.headerTableSize
  h2.control(SETTINGS_ACK)
  if (!h2.ready) {
    h2.ready = true
    h2.connection.succeeded()
  }
  if (h2.blocked.length > 0) h2.sendBodies()
}

function onPing (h2, ack, opaque) {
  if (!ack) h2.control(encodePing(opaque, true))
}

function onWindowUpdate (h2, id, increment) {
  if (id === 0) {
    h2.sendWindow += increment
    if (h2.sendWindow > MAX_WINDOW) return onConnectionError(h2, http2Error('FLOW_CONTROL_ERROR', `a WINDOW_UPDATE that took the connection's window to ${h2.sendWindow}, above 2^31-1`))
  } else {
    const slot = h2.slotOf.get(id)
    if (slot === undefined) return
    h2.streamWindow[slot] += increment
  }
  if (h2.blocked.length > 0) h2.sendBodies()
}

// wire: the octets its frames took on the wire (frames.js): what a
// response counts in bytes read, as HTTP/1.1 counts a response's head and
// body as they came (a benchmark's throughput is bytes on the wire, the
// same way over both protocols).
function onHeaders (h2, id, buf, start, end, endStream, wire = end - start) {
  // Every block is decoded, whoever's: the table must stay in step.
  const slot = h2.slotOf.get(id)
  const want = h2.client.wantHeaders && slot !== undefined
  let status
  try {
    status = h2.decoder.decode(buf, start, end, want)
  } catch (err) {
    return onConnectionError(h2, err)
  }
  if (slot === undefined) return
  h2.bytesOf[slot] += wire
  if (h2.status[slot] !== 0) {
    // Trailers.
    if (endStream) complete(h2, slot)
    return
  }
  // The response's first byte (of an interim response's, if any).
  if (h2.firstAt[slot] === 0) h2.firstAt[slot] = h2.client.readAt
  if (status >= 100 && status < 200 && !endStream) return
  if (status <= 0) return streamError(h2, slot, http2Error('PROTOCOL_ERROR', `a response on stream ${id} without a valid :status`, id))
  h2.status[slot] = status
  if (want) {
    h2.headersOf[slot] = h2.decoder.headers
    h2.client.emitHeaders(h2.decoder.headers)
  }
  if (h2.client.wantBody) h2.chunks[slot] = []
  if (endStream) complete(h2, slot)
}

function onStreamData (h2, id, buf, start, end, endStream, flow, wire = flow) {
  h2.recvOwed += flow
  if (h2.recvOwed >= WINDOW_REFILL) {
    h2.control(encodeWindowUpdate(0, h2.recvOwed))
    h2.recvOwed = 0
  }
  const slot = h2.slotOf.get(id)
  if (slot === undefined) return
  if (h2.status[slot] === 0) return streamError(h2, slot, http2Error('PROTOCOL_ERROR', `DATA on stream ${id} before its response's HEADERS`, id))
  h2.recvStream[slot] += flow
  if (h2.recvStream[slot] >= WINDOW_REFILL && !endStream) {
    h2.control(encodeWindowUpdate(id, h2.recvStream[slot]))
    h2.recvStream[slot] = 0
  }
  const length = end - start
  h2.bytesOf[slot] += wire
  const chunks = h2.chunks[slot]
  if (chunks !== null && length > 0 && h2.tooLarge[slot] === 0) {
    h2.bodySize[slot] += length
    // Kept no further: read to its end, then counted as an error.
    if (h2.bodySize[slot] > h2.client.maxBodySize) h2.tooLarge[slot] = 1
    // Copied: the read buffer is shared and reused.
    else chunks.push(Buffer.from(buf.subarray(start, end)))
  }
  if (endStream) complete(h2, slot)
}

// A response ended (END_STREAM).
function complete (h2, slot) {
  const id = h2.streamOf[slot]
  // The server answered before taking the whole body: the rest is not sent.
  if (h2.bodyOf[slot] !== null) h2.control(encodeRstStream(id, ERROR_CODES.NO_ERROR))
  const status = h2.status[slot]
  const bytes = h2.bytesOf[slot]
  const sentAt = h2.sentAt[slot]
  const plannedAt = h2.plannedAt[slot]
  const firstAt = h2.firstAt[slot]
  const entry = h2.entryOf[slot]
  const chunks = h2.chunks[slot]
  const headers = h2.headersOf[slot]
  const tooLarge = h2.tooLarge[slot] === 1
  h2.releaseSlot(slot)
  // The server answers: what it refuses may go again.
  h2.resentInRow = 0
  if (tooLarge) return h2.client.overflowed()
  let body = null
  if (chunks !== null) body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)
  h2.client.respond(status, bytes, sentAt, plannedAt, entry, body, headers, firstAt)
}

function onRstStream (h2, id, code) {
  const slot = h2.slotOf.get(id)
  if (slot === undefined) return
  // Refused before any response: not processed, so it may go again.
  if (code === ERROR_CODES.REFUSED_STREAM && h2.status[slot] === 0 && h2.resentInRow < h2.pipelining) {
    h2.resentInRow++
    h2.releaseSlot(slot)
    return h2.client.resend(1)
  }
  endInError(h2, slot, resetError(code, id))
}

// A stream error of ours (§5.4.2): the stream is reset, its request ends
// in that error.
function onStreamError (h2, err) {
  const slot = h2.slotOf.get(err.streamId)
  if (slot === undefined) {
    h2.control(encodeRstStream(err.streamId, err.http2Code))
    return
  }
  streamError(h2, slot, err)
}

function streamError (h2, slot, err) {
  h2.control(encodeRstStream(h2.streamOf[slot], err.http2Code))
  endInError(h2, slot, err)
}

function endInError (h2, slot, err) {
  h2.releaseSlot(slot)
  h2.client.requestFailed(err)
}

// A connection error (§5.4.1): GOAWAY with its code, and the connection
// fails, with every request in flight.
function onConnectionError (h2, err) {
  h2.parser.abort()
  h2.control(encodeGoaway(0, err.http2Code === undefined ? ERROR_CODES.INTERNAL_ERROR : err.http2Code))
  h2.client.fail(err)
}

// Streams above lastId were not processed (§6.8): they go again on the
// next connection, counted once (beyond the resends in a row allowed,
// they end in an error). No new stream goes on this one, which
// closes once the rest are answered.
function onGoaway (h2, lastId, code, debug) {
  h2.goingAway = true
  h2.accepting = false
  h2.goawayCode = code
  h2.goawayDebug = debug
  let unprocessed = 0
  for (let i = 0; i < h2.pipelining; i++) {
    const id = h2.streamOf[i]
    if (id <= lastId) continue
    if (h2.resentInRow >= h2.pipelining) {
      endInError(h2, i, notProcessedAgainError(id, lastId, h2.resentInRow))
      continue
    }
    h2.resentInRow++
    h2.releaseSlot(i)
    unprocessed++
  }
  if (unprocessed > 0) h2.client.resend(unprocessed)
  h2.client.checkIdle()
}

module.exports = { onSettings, onPing, onWindowUpdate, onHeaders, onStreamData, onRstStream, onStreamError, onConnectionError, onGoaway }
