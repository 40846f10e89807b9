'use strict'

// HTTP/2 frames (RFC 9113 §4, §6), from a client's side: encoders for
// what a client sends, and an incremental FrameParser for what a server
// sends. Like the HTTP/1.1 response parser, the parser is a state machine
// over Buffers that knows nothing of sockets: input may be cut anywhere
// (one byte at a time included) and hold many frames.
//
// Frames are handed over where they lie in the read buffer; a frame is
// copied only when it straddles two reads (and a header block when it
// spans HEADERS and CONTINUATION frames). DATA is never copied: it is
// handed over piece by piece as it arrives.
//
// The handler receives, all with buffers valid during the call only:
//   onData(streamId, buf, start, end, endStream, flowControlled)
//     one or more calls per DATA frame. flowControlled: the frame's octets
//     this call accounts for (padding and its length octet count towards
//     flow control, §6.1), so the calls of one frame add up to its length;
//     a frame read whole is one call, and a frame whose padding comes in a
//     later read ends with a call with start === end. endStream is set on
//     the frame's last call only. wire: the octets on the wire this call
//     accounts for (flowControlled, plus the frame's 9-octet header on its
//     first call), for counting bytes read as HTTP/1.1 counts them.
//   onHeaders(streamId, buf, start, end, endStream, wire)
//     a whole header block, once per HEADERS frame with its CONTINUATION
//     frames, in the order they came (the HPACK decoder needs them so);
//     wire: the octets of those frames, headers, padding and all.
//   onSettings(ack, settings)  settings: { headerTableSize, enablePush,
//     maxConcurrentStreams, initialWindowSize, maxFrameSize,
//     maxHeaderListSize } as present in the frame, checked; null for an ACK
//   onPing(ack, opaque)        opaque: the 8 octets, to send back
//   onGoaway(lastStreamId, errorCode, debug)  debug: a Buffer of its own
//   onRstStream(streamId, errorCode)
//   onWindowUpdate(streamId, increment)
//   onStreamError(err)         a stream error (§5.4.2): err.streamId is the
//                              stream to reset, err.http2Code the code
//   onError(err)               a connection error (§5.4.1): send GOAWAY
//                              with err.http2Code; the parser then ignores
//                              its input
// Errors are registered CountedErrors (see ./errors.js).
//
// PRIORITY frames and unknown frame types are skipped; PUSH_PROMISE is a
// connection error, since a client of ours sends SETTINGS_ENABLE_PUSH 0.

const { http2Error, http1AnswerError } = require('./errors')

const CLIENT_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1')

const FRAME_HEADER_SIZE = 9

const FRAME_TYPES = Object.freeze({
  DATA: 0x0,
  HEADERS: 0x1,
  PRIORITY: 0x2,
  RST_STREAM: 0x3,
  SETTINGS: 0x4,
  PUSH_PROMISE: 0x5,
  PING: 0x6,
  GOAWAY: 0x7,
  WINDOW_UPDATE: 0x8,
  CONTINUATION: 0x9
})

const FLAGS = Object.freeze({
  END_STREAM: 0x1,
  ACK: 0x1,
  END_HEADERS: 0x4,
  PADDED: 0x8,
  PRIORITY: 0x20
})

// SETTINGS parameters (§6.5.2), by the names onSettings uses.
const SETTINGS = Object.freeze({
  headerTableSize: 0x1,
  enablePush: 0x2,
  maxConcurrentStreams: 0x3,
  initialWindowSize: 0x4,
  maxFrameSize: 0x5,
  maxHeaderListSize: 0x6
})
const SETTING_NAMES = []
for (const [name, id] of Object.entries(SETTINGS)) SETTING_NAMES[id] = name

const DEFAULT_MAX_FRAME_SIZE = 16384
const MAX_FRAME_SIZE_LIMIT = 16777215
const MAX_WINDOW = 2147483647
// A header block assembled from HEADERS and CONTINUATION frames is held in
// memory until its last frame: past this size we stop (CONTINUATION floods).
const DEFAULT_MAX_HEADER_BLOCK_SIZE = 262144

const { DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS: T_SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION } = FRAME_TYPES
const { END_STREAM, ACK, END_HEADERS, PADDED, PRIORITY: F_PRIORITY } = FLAGS

// --- Encoders ----------------------------------------------------------------

function writeFrameHeader (buf, offset, length, type, flags, streamId) {
  buf[offset] = length >>> 16
  buf[offset + 1] = (length >>> 8) & 0xff
  buf[offset + 2] = length & 0xff
  buf[offset + 3] = type
  buf[offset + 4] = flags
  buf.writeUInt32BE(streamId & 0x7fffffff, offset + 5)
}

function encodeFrame (type, flags, streamId, payload) {
  const length = payload ? payload.length : 0
  const out = Buffer.allocUnsafe(FRAME_HEADER_SIZE + length)
  writeFrameHeader(out, 0, length, type, flags, streamId)
  if (length > 0) payload.copy(out, FRAME_HEADER_SIZE)
  return out
}

// settings: by the names of SETTINGS, sent in the order given.
function encodeSettings (settings = {}, ack = false) {
  if (ack) return encodeFrame(T_SETTINGS, ACK, 0, null)
  const names = Object.keys(settings).filter((name) => settings[name] !== undefined)
  const payload = Buffer.allocUnsafe(6 * names.length)
  names.forEach((name, k) => {
    const id = SETTINGS[name]
    if (id === undefined) throw new TypeError(`unknown HTTP/2 setting ${name}`)
    payload.writeUInt16BE(id, 6 * k)
    payload.writeUInt32BE(Number(settings[name]), 6 * k + 2)
  })
  return encodeFrame(T_SETTINGS, 0, 0, payload)
}

// Frames of `type` carrying payload[0..], each at most maxFrameSize; the
// flags of the first and of the last frame as given, one Buffer.
function split (payload, maxFrameSize, frameOf) {
  const count = Math.max(1, Math.ceil(payload.length / maxFrameSize))
  const out = Buffer.allocUnsafe(count * FRAME_HEADER_SIZE + payload.length)
  let o = 0
  for (let k = 0; k < count; k++) {
    const start = k * maxFrameSize
    const length = Math.min(maxFrameSize, payload.length - start)
    const [type, flags] = frameOf(k, k === count - 1)
    o = writeFramePayload(out, o, type, flags, payload, start, length)
  }
  return out
}

function writeFramePayload (out, o, type, flags, payload, start, length) {
  writeFrameHeader(out, o, length, type, flags, 0)
  payload.copy(out, o + FRAME_HEADER_SIZE, start, start + length)
  return o + FRAME_HEADER_SIZE + length
}

// A header block as HEADERS, then CONTINUATION frames when it is larger
// than the server's SETTINGS_MAX_FRAME_SIZE. Built once per request shape
// and connection; setStreamId then moves it to each request's stream.
function encodeHeaders (streamId, block, endStream, maxFrameSize = DEFAULT_MAX_FRAME_SIZE) {
  const out = split(block, maxFrameSize, (k, last) => [
    k === 0 ? HEADERS : CONTINUATION,
    (k === 0 && endStream ? END_STREAM : 0) | (last ? END_HEADERS : 0)
  ])
  return setStreamId(out, streamId)
}

// A body as DATA frames of at most maxFrameSize; END_STREAM on the last.
// Flow control is the caller's: this sends all it is given.
function encodeData (streamId, data, endStream, maxFrameSize = DEFAULT_MAX_FRAME_SIZE) {
  const out = split(data, maxFrameSize, (k, last) => [DATA, last && endStream ? END_STREAM : 0])
  return setStreamId(out, streamId)
}

function encodeWindowUpdate (streamId, increment) {
  if (!(increment >= 1 && increment <= MAX_WINDOW)) throw new RangeError(`a window increment must be 1 to 2^31-1, not ${increment}`)
  const payload = Buffer.allocUnsafe(4)
  payload.writeUInt32BE(increment, 0)
  return encodeFrame(WINDOW_UPDATE, 0, streamId, payload)
}

function encodePing (opaque, ack = false) {
  if (opaque.length !== 8) throw new RangeError('a PING carries 8 octets')
  return encodeFrame(PING, ack ? ACK : 0, 0, opaque)
}

function encodeRstStream (streamId, errorCode) {
  const payload = Buffer.allocUnsafe(4)
  payload.writeUInt32BE(errorCode, 0)
  return encodeFrame(RST_STREAM, 0, streamId, payload)
}

function encodeGoaway (lastStreamId, errorCode, debug) {
  const extra = debug ? Buffer.from(debug) : Buffer.alloc(0)
  const payload = Buffer.allocUnsafe(8 + extra.length)
  payload.writeUInt32BE(lastStreamId & 0x7fffffff, 0)
  payload.writeUInt32BE(errorCode, 4)
  extra.copy(payload, 8)
  return encodeFrame(GOAWAY, 0, 0, payload)
}

// Sets the stream of every frame in `frames` (whole frames, one after the
// other; or those of frames[start..end)), in place: a request's frames
// are built once and copied to each stream's place in a write. Only once
// the socket is done with the previous write of them.
function setStreamId (frames, streamId, start = 0, end = frames.length) {
  for (let o = start; o + FRAME_HEADER_SIZE <= end;) {
    frames.writeUInt32BE(streamId & 0x7fffffff, o + 5)
    o += FRAME_HEADER_SIZE + ((frames[o] << 16) | (frames[o + 1] << 8) | frames[o + 2])
  }
  return frames
}

// --- Parser ------------------------------------------------------------------

const S_HEAD = 0
const S_PAYLOAD = 1
const S_DATA_PAD_LENGTH = 2
const S_DATA = 3
const S_PADDING = 4
const S_SKIP = 5
const S_DEAD = 6

const EMPTY = Buffer.alloc(0)

// "HTTP/1." read as the 9 octets of a frame header: "HTT" its length, "P"
// its type, "/" its flags, "1." the top of its stream id (then the minor
// version and a space).
const HTTP1_LENGTH = 0x485454
const HTTP1_TYPE = 0x50
const HTTP1_FLAGS = 0x2f
const HTTP1_STREAM_HIGH = 0x312e

class FrameParser {
  // maxFrameSize: the SETTINGS_MAX_FRAME_SIZE we advertise.
  constructor (handler, { maxFrameSize = DEFAULT_MAX_FRAME_SIZE, maxHeaderBlockSize = DEFAULT_MAX_HEADER_BLOCK_SIZE } = {}) {
    this.handler = handler
    this.maxFrameSize = maxFrameSize
    this.maxHeaderBlockSize = maxHeaderBlockSize
    this.state = S_HEAD
    // The frame being read.
    this.length = 0
    this.type = 0
    this.flags = 0
    this.streamId = 0
    // A frame header, or a whole frame's payload, that straddles reads.
    this.head = Buffer.allocUnsafe(FRAME_HEADER_SIZE)
    this.headLength = 0
    this.payload = null
    this.payloadLength = 0
    // DATA: octets of data and of padding still to come, and octets read
    // but not yet reported as flow-controlled.
    this.left = 0
    this.padLeft = 0
    this.flow = 0
    // The 9 octets of the DATA frame being read, until its first call.
    this.dataHead = 0
    // A header block awaiting its CONTINUATION frames on blockStream, and
    // the octets of its frames so far.
    this.blockWire = 0
    this.block = null
    this.blockLength = 0
    this.blockStream = 0
    this.blockEndStream = false
    // The server's connection preface is a SETTINGS frame (§3.4).
    this.prefaceSeen = false
  }

  // Ignore whatever else arrives.
  abort () {
    this.state = S_DEAD
  }

  fail (name, message) {
    this.state = S_DEAD
    this.handler.onError(http2Error(name, message))
    return false
  }

  execute (buf, start = 0, end = buf.length) {
    let i = start
    while (i < end) {
      switch (this.state) {
        case S_HEAD: {
          let h = buf
          let p = i
          if (this.headLength === 0 && end - i >= FRAME_HEADER_SIZE) {
            i += FRAME_HEADER_SIZE
          } else {
            const take = Math.min(FRAME_HEADER_SIZE - this.headLength, end - i)
            buf.copy(this.head, this.headLength, i, i + take)
            this.headLength += take
            i += take
            if (this.headLength < FRAME_HEADER_SIZE) return
            this.headLength = 0
            h = this.head
            p = 0
          }
          this.length = (h[p] << 16) | (h[p + 1] << 8) | h[p + 2]
          this.type = h[p + 3]
          this.flags = h[p + 4]
          this.streamId = ((h[p + 5] & 0x7f) << 24 | (h[p + 6] << 16) | (h[p + 7] << 8) | h[p + 8]) >>> 0
          if (this.frameStart() === false) return
          // The whole payload is here: read where it lies.
          if (this.state === S_PAYLOAD && end - i >= this.length) {
            this.state = S_HEAD
            const e = i + this.length
            this.frame(buf, i, e)
            i = e
          }
          continue
        }
        case S_PAYLOAD: {
          // The payload straddles reads: gathered in a buffer kept for
          // the next time.
          if (this.payload === null || this.payload.length < this.length) {
            this.payload = Buffer.allocUnsafe(Math.max(this.length, DEFAULT_MAX_FRAME_SIZE))
          }
          const take = Math.min(this.length - this.payloadLength, end - i)
          buf.copy(this.payload, this.payloadLength, i, i + take)
          this.payloadLength += take
          i += take
          if (this.payloadLength === this.length) {
            this.state = S_HEAD
            this.frame(this.payload, 0, this.length)
          }
          continue
        }
        case S_DATA_PAD_LENGTH: {
          const pad = buf[i++]
          if (pad >= this.length) return this.fail('PROTOCOL_ERROR', `a DATA frame of ${this.length} octets with ${pad} octets of padding`)
          this.left = this.length - 1 - pad
          this.padLeft = pad
          this.flow = 1
          if (this.left > 0) this.state = S_DATA
          else if (pad > 0) this.state = S_PADDING
          else this.dataEnd(buf, i)
          continue
        }
        case S_DATA: {
          const take = Math.min(this.left, end - i)
          let flow = take + this.flow
          let next = i + take
          this.left -= take
          this.flow = 0
          // Padding already here goes with the data: one call a frame.
          if (this.left === 0 && this.padLeft > 0 && end - next >= this.padLeft) {
            flow += this.padLeft
            next += this.padLeft
            this.padLeft = 0
          }
          const last = this.left === 0 && this.padLeft === 0
          if (this.left === 0) this.state = last ? S_HEAD : S_PADDING
          const head = this.dataHead
          this.dataHead = 0
          this.handler.onData(this.streamId, buf, i, i + take, last && (this.flags & END_STREAM) !== 0, flow, flow + head)
          i = next
          continue
        }
        case S_PADDING: {
          const take = Math.min(this.padLeft, end - i)
          this.padLeft -= take
          this.flow += take
          i += take
          if (this.padLeft === 0) this.dataEnd(buf, i)
          continue
        }
        case S_SKIP: {
          const take = Math.min(this.left, end - i)
          this.left -= take
          i += take
          if (this.left === 0) this.state = S_HEAD
          continue
        }
        default:
          return
      }
    }
  }

  // The end of a DATA frame whose last octets were padding (or none).
  dataEnd (buf, i) {
    const flow = this.flow
    const head = this.dataHead
    this.flow = 0
    this.dataHead = 0
    this.state = S_HEAD
    this.handler.onData(this.streamId, buf, i, i, (this.flags & END_STREAM) !== 0, flow, flow + head)
  }

  // Checks a frame header and sets the state that reads its payload;
  // false after a connection error. Whatever can be checked from the
  // header is, so errors do not depend on how the input was cut.
  frameStart () {
    const { length, type, flags, streamId } = this
    if (length > this.maxFrameSize) {
      // "HTTP/1.x " where the server's first frame header should be: an
      // HTTP/1 server's answer to our preface, no frame at all.
      if (!this.prefaceSeen && length === HTTP1_LENGTH && type === HTTP1_TYPE && flags === HTTP1_FLAGS && (streamId >>> 16) === HTTP1_STREAM_HIGH) {
        this.state = S_DEAD
        this.handler.onError(http1AnswerError(`1.${String.fromCharCode((streamId >>> 8) & 0xff)}`))
        return false
      }
      return this.fail('FRAME_SIZE_ERROR', `a frame of ${length} octets, above our SETTINGS_MAX_FRAME_SIZE of ${this.maxFrameSize}`)
    }
    if (this.blockStream !== 0 && (type !== CONTINUATION || streamId !== this.blockStream)) {
      return this.fail('PROTOCOL_ERROR', `a frame of type ${type} on stream ${streamId} inside the header block of stream ${this.blockStream}, where only its CONTINUATION frames may come`)
    }
    if (!this.prefaceSeen) {
      if (type !== T_SETTINGS || (flags & ACK) !== 0) return this.fail('PROTOCOL_ERROR', 'the server\'s connection preface does not begin with a SETTINGS frame')
      this.prefaceSeen = true
    }
    switch (type) {
      case DATA:
        if (streamId === 0) return this.fail('PROTOCOL_ERROR', 'a DATA frame on stream 0')
        this.flow = 0
        this.padLeft = 0
        this.dataHead = FRAME_HEADER_SIZE
        if ((flags & PADDED) !== 0) {
          if (length === 0) return this.fail('FRAME_SIZE_ERROR', 'a padded DATA frame without its pad length')
          this.state = S_DATA_PAD_LENGTH
        } else if (length === 0) {
          this.handler.onData(streamId, EMPTY, 0, 0, (flags & END_STREAM) !== 0, 0, FRAME_HEADER_SIZE)
        } else {
          this.left = length
          this.state = S_DATA
        }
        return true
      case HEADERS: {
        if (streamId === 0) return this.fail('PROTOCOL_ERROR', 'a HEADERS frame on stream 0')
        const fixed = ((flags & PADDED) !== 0 ? 1 : 0) + ((flags & F_PRIORITY) !== 0 ? 5 : 0)
        if (length < fixed) return this.fail('FRAME_SIZE_ERROR', `a HEADERS frame of ${length} octets, too short for its pad length and priority`)
        return this.readPayload()
      }
      case CONTINUATION:
        if (this.blockStream === 0) return this.fail('PROTOCOL_ERROR', `a CONTINUATION frame on stream ${streamId} after no HEADERS without END_HEADERS`)
        return this.readPayload()
      case PRIORITY:
        // Deprecated (§5.3.2), and ours to ignore; its size is still checked.
        if (streamId === 0) return this.fail('PROTOCOL_ERROR', 'a PRIORITY frame on stream 0')
        if (length !== 5) this.handler.onStreamError(http2Error('FRAME_SIZE_ERROR', `a PRIORITY frame of ${length} octets`, streamId))
        return this.skip()
      case RST_STREAM:
        if (streamId === 0) return this.fail('PROTOCOL_ERROR', 'a RST_STREAM frame on stream 0')
        if (length !== 4) return this.fail('FRAME_SIZE_ERROR', `a RST_STREAM frame of ${length} octets`)
        return this.readPayload()
      case T_SETTINGS:
        if (streamId !== 0) return this.fail('PROTOCOL_ERROR', `a SETTINGS frame on stream ${streamId}`)
        if ((flags & ACK) !== 0 && length !== 0) return this.fail('FRAME_SIZE_ERROR', `a SETTINGS ACK with ${length} octets`)
        if (length % 6 !== 0) return this.fail('FRAME_SIZE_ERROR', `a SETTINGS frame of ${length} octets, not a multiple of 6`)
        return this.readPayload()
      case PUSH_PROMISE:
        return this.fail('PROTOCOL_ERROR', `a PUSH_PROMISE on stream ${streamId}, though we sent SETTINGS_ENABLE_PUSH 0`)
      case PING:
        if (streamId !== 0) return this.fail('PROTOCOL_ERROR', `a PING frame on stream ${streamId}`)
        if (length !== 8) return this.fail('FRAME_SIZE_ERROR', `a PING frame of ${length} octets`)
        return this.readPayload()
      case GOAWAY:
        if (streamId !== 0) return this.fail('PROTOCOL_ERROR', `a GOAWAY frame on stream ${streamId}`)
        if (length < 8) return this.fail('FRAME_SIZE_ERROR', `a GOAWAY frame of ${length} octets`)
        return this.readPayload()
      case WINDOW_UPDATE:
        if (length !== 4) return this.fail('FRAME_SIZE_ERROR', `a WINDOW_UPDATE frame of ${length} octets`)
        return this.readPayload()
      default:
        // Unknown types are ignored (§4.1, §5.5).
        return this.skip()
    }
  }

  readPayload () {
    this.state = S_PAYLOAD
    this.payloadLength = 0
    return true
  }

  skip () {
    this.left = this.length
    if (this.left > 0) this.state = S_SKIP
    return true
  }

  // A whole payload (but DATA's), at buf[start..end).
  frame (buf, start, end) {
    const { type, flags, streamId } = this
    switch (type) {
      case HEADERS: {
        let s = start
        let e = end
        if ((flags & PADDED) !== 0) {
          const pad = buf[s++]
          const room = this.length - ((flags & F_PRIORITY) !== 0 ? 6 : 1)
          if (pad > room) return this.fail('PROTOCOL_ERROR', `a HEADERS frame with ${pad} octets of padding and ${room} for padding and its header block`)
          e -= pad
        }
        if ((flags & F_PRIORITY) !== 0) s += 5
        const endStream = (flags & END_STREAM) !== 0
        if ((flags & END_HEADERS) !== 0) {
          if (e - s > this.maxHeaderBlockSize) return this.blockTooLarge(e - s)
          this.handler.onHeaders(streamId, buf, s, e, endStream, FRAME_HEADER_SIZE + this.length)
          return
        }
        this.blockWire = FRAME_HEADER_SIZE + this.length
        this.blockLength = 0
        this.blockStream = streamId
        this.blockEndStream = endStream
        this.append(buf, s, e)
        return
      }
      case CONTINUATION: {
        this.blockWire += FRAME_HEADER_SIZE + this.length
        if (this.append(buf, start, end) === false || (flags & END_HEADERS) === 0) return
        this.blockStream = 0
        this.handler.onHeaders(streamId, this.block, 0, this.blockLength, this.blockEndStream, this.blockWire)
        return
      }
      case RST_STREAM:
        this.handler.onRstStream(streamId, buf.readUInt32BE(start))
        return
      case T_SETTINGS:
        this.settings(buf, start, end)
        return
      case PING:
        this.handler.onPing((flags & ACK) !== 0, buf.subarray(start, start + 8))
        return
      case GOAWAY:
        this.handler.onGoaway(buf.readUInt32BE(start) & 0x7fffffff, buf.readUInt32BE(start + 4), Buffer.from(buf.subarray(start + 8, end)))
        return
      case WINDOW_UPDATE: {
        const increment = buf.readUInt32BE(start) & 0x7fffffff
        if (increment !== 0) this.handler.onWindowUpdate(streamId, increment)
        else if (streamId === 0) this.fail('PROTOCOL_ERROR', 'a WINDOW_UPDATE of 0 for the connection')
        else this.handler.onStreamError(http2Error('PROTOCOL_ERROR', `a WINDOW_UPDATE of 0 on stream ${streamId}`, streamId))
      }
    }
  }

  // Adds a fragment to the header block being assembled.
  append (buf, start, end) {
    const length = this.blockLength + (end - start)
    if (length > this.maxHeaderBlockSize) return this.blockTooLarge(length)
    if (this.block === null || this.block.length < length) {
      const grown = Buffer.allocUnsafe(Math.max(length, 2 * (this.block === null ? DEFAULT_MAX_FRAME_SIZE : this.block.length)))
      if (this.block !== null) this.block.copy(grown, 0, 0, this.blockLength)
      this.block = grown
    }
    buf.copy(this.block, this.blockLength, start, end)
    this.blockLength = length
    return true
  }

  blockTooLarge (length) {
    return this.fail('ENHANCE_YOUR_CALM', `a header block of ${length} octets or more, above the ${this.maxHeaderBlockSize} we take`)
  }

  settings (buf, start, end) {
    if ((this.flags & ACK) !== 0) {
      this.handler.onSettings(true, null)
      return
    }
    const settings = {}
    for (let p = start; p < end; p += 6) {
      const id = buf.readUInt16BE(p)
      const value = buf.readUInt32BE(p + 2)
      // Unknown parameters are ignored (§6.5.2).
      const name = SETTING_NAMES[id]
      if (name === undefined) continue
      if (id === SETTINGS.enablePush && value !== 0) return this.fail('PROTOCOL_ERROR', `SETTINGS_ENABLE_PUSH ${value} from a server`)
      if (id === SETTINGS.initialWindowSize && value > MAX_WINDOW) return this.fail('FLOW_CONTROL_ERROR', `SETTINGS_INITIAL_WINDOW_SIZE ${value}, above 2^31-1`)
      if (id === SETTINGS.maxFrameSize && (value < DEFAULT_MAX_FRAME_SIZE || value > MAX_FRAME_SIZE_LIMIT)) return this.fail('PROTOCOL_ERROR', `SETTINGS_MAX_FRAME_SIZE ${value}, outside 2^14 to 2^24-1`)
      settings[name] = value
    }
    this.handler.onSettings(false, settings)
  }
}

module.exports = {
  CLIENT_PREFACE,
  FRAME_HEADER_SIZE,
  FRAME_TYPES,
  FLAGS,
  SETTINGS,
  DEFAULT_MAX_FRAME_SIZE,
  MAX_WINDOW,
  FrameParser,
  writeFrameHeader,
  encodeFrame,
  encodeSettings,
  encodeHeaders,
  encodeData,
  encodeWindowUpdate,
  encodePing,
  encodeRstStream,
  encodeGoaway,
  setStreamId
}
