'use strict'

// Incremental HTTP/1.x response parser: a byte-level state machine over
// Buffers that knows nothing of sockets or timers. Input may be cut
// anywhere (one byte at a time included) and may hold several pipelined
// responses. Only the headers that frame a message are decoded
// (content-length, transfer-encoding, connection, proxy-connection); all of
// them only when `wantHeaders` is set. A head equal byte for byte to the
// last one is not parsed again (the head cache, below).
//
// It follows Node's own parser (llhttp, as node:http's client sets it up)
// wherever that costs nothing on the hot path; fuzz/ compares the two on
// random and broken streams, and fuzz/README.md lists where and why we
// deliberately differ (bare LF line ends accepted, header lines nobody
// asked for skipped unvalidated, the head limit counted in wire bytes,
// spaces after a chunk size accepted, Content-Length with
// Transfer-Encoding accepted on 1xx/204/304, lengths above 2^53 refused,
// only HTTP/1.0 and HTTP/1.1 spoken).
//
// The handler receives:
//   onHeadersComplete(statusCode, headers) -> true when the response has no
//     body whatever its headers say (the answer to a HEAD request)
//   onBody(buf, start, end)              only when `wantBody` is set
//   onMessageComplete(statusCode, bytes, shouldClose)
//   onParseError(err)                    the parser then ignores input until reset()
// and `firstByteAt`, the handler's `readAt` (set before each execute) at
// the first byte of the response's head (of an interim one, when it had
// one).
//
// Interim responses (1xx but 101) are not reported; their bytes count
// towards the final response's. After a response that closes the
// connection (shouldClose), only stray line ends may follow, as in llhttp
// (HPE_CLOSED_CONNECTION); after a 101 the rest is another protocol and is
// ignored.

const { CountedError } = require('../core/errors')

// The head (status line and header lines; trailers reuse the header
// states) is states 1..S_LAST_HEAD, so one comparison tells whether the
// head limit applies.
const S_START = 0
const S_PROTO = 1
const S_MINOR = 2
const S_SP = 3
const S_CODE = 4
const S_AFTER_CODE = 5
const S_REASON = 6
const S_STATUS_LF = 7
const S_FIRST_HEADER = 8
const S_HEADER_START = 9
const S_NAME = 10
const S_SKIP = 11
const S_VALUE_WS = 12
const S_VALUE = 13
const S_VALUE_LF = 14
const S_EMPTY_FRAMING = 15
const S_HEADERS_LF = 16
const S_LAST_HEAD = 16
const S_BODY_LEN = 17
const S_CHUNK_SIZE = 18
const S_CHUNK_SIZE_WS = 19
const S_CHUNK_SIZE_LF = 20
const S_EXT_START = 21
const S_EXT_NAME = 22
const S_EXT_VALUE = 23
const S_EXT_QUOTED = 24
const S_EXT_QPAIR = 25
const S_EXT_QDONE = 26
const S_CHUNK_DATA = 27
const S_CHUNK_DATA_CR = 28
const S_CHUNK_DATA_LF = 29
const S_BODY_EOF = 30
const S_CLOSED = 31
const S_DEAD = 32

const CR = 13
const LF = 10
const SP = 32
const HT = 9
const COLON = 0x3a
const COMMA = 0x2c
const SEMI = 0x3b
const EQUALS = 0x3d
const DQUOTE = 0x22
const BACKSLASH = 0x5c

const PROTO = Buffer.from('HTTP/1.')

// Node's defaults: --max-http-header-size, and kMaxChunkExtensionsSize of
// src/node_http_parser.cc (name and value bytes of one chunk's extensions).
const MAX_HEADER_SIZE = 16384
const MAX_CHUNK_EXTENSIONS = 16384

// Lengths are numbers; past 2^53 they would no longer be exact. llhttp
// takes up to 2^64 - 1, but no test streams 9 PB.
const MAX_LENGTH = Number.MAX_SAFE_INTEGER

// A benchmark's responses mostly repeat the last head byte for byte (only
// a Date line changes, once a second). The last final head read whole in
// one buffer is kept, up to this size; one that matches it is not parsed
// again (one memcmp instead of a byte loop), its framing taken from the
// copy. After this many misses in a row (heads that differ each time) the
// parser stops trying.
const HEAD_CACHE_SIZE = 512
const HEAD_CACHE_MISSES = 8

// Header names we must understand to frame messages, as lower-case bytes.
// llhttp treats Proxy-Connection as Connection, and so do we.
const H_NONE = 0
const H_CONTENT_LENGTH = 1
const H_TRANSFER_ENCODING = 2
const H_CONNECTION = 4
const H_PROXY_CONNECTION = 8
const CL = Buffer.from('content-length')
const TE = Buffer.from('transfer-encoding')
const CONN = Buffer.from('connection')
const PCONN = Buffer.from('proxy-connection')

const TOKEN = new Uint8Array(256)
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
  TOKEN[c.charCodeAt(0)] = 1
}
// qdtext and quoted-pair of a chunk extension's quoted value (RFC 9110 5.6.4).
const QDTEXT = new Uint8Array(256)
const QPAIR = new Uint8Array(256)
for (let c = 0; c < 256; c++) {
  const vchar = (c >= 0x21 && c <= 0x7e) || c >= 0x80
  QPAIR[c] = vchar || c === SP || c === HT ? 1 : 0
  QDTEXT[c] = QPAIR[c] === 1 && c !== DQUOTE && c !== BACKSLASH ? 1 : 0
}

const HEX = new Int8Array(256).fill(-1)
for (let i = 0; i < 10; i++) HEX[48 + i] = i
for (let i = 0; i < 6; i++) {
  HEX[65 + i] = 10 + i
  HEX[97 + i] = 10 + i
}

// Transfer-Encoding and Connection values are gathered lower-cased in a
// small buffer and read by the token machines below whenever it fills up
// and at the end of the value, so a value of any length is read whole.
const VALUE_MAX = 256

// Transfer-Encoding, as llhttp reads it: chunked when the last of the
// comma-separated codings is "chunked", followed by spaces only.
const TE_NONE = 0 // no value (yet): an empty field is an error
const TE_START = 1
const TE_WORD = 2
const TE_LAST = 3
const TE_TOKEN = 4
const CHUNKED = Buffer.from('chunked')

// Connection, as llhttp 9.4 reads it: a token is close, keep-alive or
// upgrade when it is that word alone, with optional whitespace (spaces and
// tabs) before the next comma.
const CONN_START = 0
const CONN_WORD = 1
const CONN_WS = 2
const CONN_TOKEN = 3
const W_CLOSE = Buffer.from('close')
const W_KEEP_ALIVE = Buffer.from('keep-alive')
const W_UPGRADE = Buffer.from('upgrade')

class ResponseParser {
  constructor (handler) {
    this.handler = handler
    this.wantHeaders = false
    this.wantBody = false
    // Largest head (status line and header lines), and largest trailer
    // section, in bytes on the wire. Node's limit is on fewer bytes: see
    // fuzz/README.md.
    this.maxHeaderSize = MAX_HEADER_SIZE
    this.state = S_START
    this.pos = 0
    this.statusCode = 0
    this.httpMinor = 1
    this.readAt = 0
    this.firstByteAt = 0
    // Bytes of the response so far (interim responses included), and where
    // its current head or trailer section began, in the same count.
    this.bytes = 0
    this.headStart = 0
    this.contentLength = -1
    this.clSeen = false
    this.teSeen = false
    this.chunked = false
    this.connClose = false
    this.keepAlive = false
    this.noBody = false
    this.inTrailers = false
    this.remaining = 0
    this.chunkDigits = 0
    this.extBytes = 0
    this.nameMatch = 0
    this.nameLen = 0
    this.headerKind = H_NONE
    this.valueBuf = Buffer.allocUnsafe(VALUE_MAX)
    this.valueLen = 0
    this.clDigits = 0
    this.clSpace = false
    this.teState = TE_NONE
    this.tePos = 0
    this.connState = CONN_START
    this.connWord = null
    this.connPos = 0
    this.headers = null
    this.trailerSink = []
    this.nameStr = ''
    this.valueStr = ''
    // The head cache (HEAD_CACHE_SIZE): its bytes, their length (0: none),
    // the misses in a row, and the framing that head gave.
    this.lastHead = null
    this.lastHeadView = null
    this.lastHeadLen = 0
    this.lastHeadMisses = 0
    // The buffer read into, seen twice in a row (a plain socket reads into
    // one shared buffer), and a DataView of it for sameHead.
    this.readBuf = null
    this.readView = null
    this.lastStatus = 0
    this.lastMinor = 1
    this.lastContentLength = -1
    this.lastClSeen = false
    this.lastTeSeen = false
    this.lastChunked = false
    this.lastConnClose = false
    this.lastKeepAlive = false
  }

  reset () {
    this.state = S_START
    this.bytes = 0
    this.resetMessage()
  }

  // Ignore whatever else arrives on this connection.
  abort () {
    this.state = S_DEAD
  }

  // True between two responses: nothing of a next one has arrived yet.
  get idle () {
    return (this.state === S_START || this.state === S_CLOSED) && this.bytes === 0
  }

  resetMessage () {
    this.statusCode = 0
    this.httpMinor = 1
    this.contentLength = -1
    this.clSeen = false
    this.teSeen = false
    this.chunked = false
    this.connClose = false
    this.keepAlive = false
    this.noBody = false
    this.inTrailers = false
    this.headers = this.wantHeaders ? [] : null
  }

  fail (code, message) {
    this.state = S_DEAD
    this.handler.onParseError(new CountedError(code, message))
  }

  // An error at a byte of the stream, `rel` bytes after where `bytes` was
  // last brought up to date. Past the head limit, the limit is the error:
  // what a parser reports must not depend on how the input was cut, and
  // the limit is checked once per read.
  failAt (rel, code, message) {
    const state = this.state
    if (state !== S_START && state <= S_LAST_HEAD && this.bytes + rel - this.headStart > this.maxHeaderSize) return this.headerOverflow()
    this.fail(code, message)
  }

  // The peer closed the connection. A response delimited by the close is
  // complete now; anything else that was started is truncated (an interim
  // response without its final one included).
  finish () {
    if (this.state === S_BODY_EOF) {
      this.complete()
      return
    }
    if (this.state === S_DEAD || ((this.state === S_START || this.state === S_CLOSED) && this.bytes === 0)) return
    this.fail('HPE_INCOMPLETE', 'connection closed before the response was complete')
  }

  // "HTTP/1.x NNN" at buf[i..i+11], well formed: sets version and status.
  statusLine (buf, i) {
    if (buf[i + 1] !== 0x54 || buf[i + 2] !== 0x54 || buf[i + 3] !== 0x50 || buf[i + 4] !== 0x2f ||
      buf[i + 5] !== 0x31 || buf[i + 6] !== 0x2e || buf[i + 8] !== SP) return false
    const minor = buf[i + 7] - 48
    const a = buf[i + 9] - 48
    const b = buf[i + 10] - 48
    const c = buf[i + 11] - 48
    if ((minor !== 0 && minor !== 1) || a < 0 || a > 9 || b < 0 || b > 9 || c < 0 || c > 9) return false
    this.httpMinor = minor
    this.statusCode = a * 100 + b * 10 + c
    return true
  }

  // The head that just ended at buf[end] began at buf[from] in the same
  // buffer: kept, with its framing, for the next response to match.
  rememberHead (buf, from, end) {
    const len = end - from
    if (len > HEAD_CACHE_SIZE || this.lastHeadMisses >= HEAD_CACHE_MISSES || this.statusCode < 200 || this.headers !== null) return
    if (this.lastHead === null) {
      this.lastHead = Buffer.allocUnsafe(HEAD_CACHE_SIZE)
      this.lastHeadView = new DataView(this.lastHead.buffer, this.lastHead.byteOffset, HEAD_CACHE_SIZE)
    }
    buf.copy(this.lastHead, 0, from, end)
    this.lastHeadLen = len
    this.lastStatus = this.statusCode
    this.lastMinor = this.httpMinor
    this.lastContentLength = this.contentLength
    this.lastClSeen = this.clSeen
    this.lastTeSeen = this.teSeen
    this.lastChunked = this.chunked
    this.lastConnClose = this.connClose
    this.lastKeepAlive = this.keepAlive
  }

  // Does buf[i...] start with the kept head? Then its framing is this
  // response's. Only called with the whole kept length in the buffer.
  sameHead (buf, i) {
    const len = this.lastHeadLen
    const last = this.lastHead
    // The line end before the blank line differs in most misses, and costs
    // nothing to look at first.
    if (buf[i + len - 3] !== last[len - 3] || !this.sameBytes(buf, i, len)) {
      if (++this.lastHeadMisses >= HEAD_CACHE_MISSES) this.lastHeadLen = 0
      return false
    }
    this.lastHeadMisses = 0
    this.statusCode = this.lastStatus
    this.httpMinor = this.lastMinor
    this.contentLength = this.lastContentLength
    this.clSeen = this.lastClSeen
    this.teSeen = this.lastTeSeen
    this.chunked = this.lastChunked
    this.connClose = this.lastConnClose
    this.keepAlive = this.lastKeepAlive
    return true
  }

  // buf[i, i + len) equals the kept head's first len bytes. Four bytes at a
  // time through DataViews when the buffer is the one read into last time
  // (for a head's few hundred bytes, less than Buffer#compare's call into
  // C++, once per response); else Buffer#compare, with no view made for a
  // buffer that may not come again (TLS reads are new buffers).
  sameBytes (buf, i, len) {
    if (buf !== this.readBuf) {
      this.readBuf = buf
      this.readView = null
      return buf.compare(this.lastHead, 0, len, i, i + len) === 0
    }
    let view = this.readView
    if (view === null) view = this.readView = new DataView(buf.buffer, buf.byteOffset, buf.length)
    const last = this.lastHeadView
    let k = 0
    for (const words = len - 3; k < words; k += 4) {
      if (view.getInt32(i + k, true) !== last.getInt32(k, true)) return false
    }
    for (; k < len; k++) {
      if (buf[i + k] !== this.lastHead[k]) return false
    }
    return true
  }

  execute (buf, start = 0, end = buf.length) {
    let i = start
    let msgStart = start
    // Where the head being parsed began in this buffer (-1: in an earlier
    // one), for the head cache.
    let headAt = -1
    while (i < end) {
      switch (this.state) {
        case S_START: {
          const c = buf[i]
          if (c === CR || c === LF) {
            // Stray line ends between responses are tolerated, not counted.
            i++
            msgStart = i
            continue
          }
          if (c !== 0x48) return this.failAt(i - msgStart, 'HPE_INVALID_CONSTANT', 'expected "HTTP/1." at the start of a response')
          this.resetMessage()
          // After an interim response, the final one's head goes on the
          // same response's count: its first byte came earlier.
          if (this.bytes === 0) this.firstByteAt = this.readAt
          this.headStart = this.bytes
          const cached = this.lastHeadLen
          if (cached !== 0 && end - i >= cached && this.headers === null && this.sameHead(buf, i)) {
            i += cached
            this.bytes += i - msgStart
            msgStart = i
            if (this.headersComplete() === false) return
            continue
          }
          headAt = i
          if (end - i > 12 && this.statusLine(buf, i)) {
            // Whole "HTTP/1.x NNN" in this read: one step instead of twelve.
            i += 12
            this.state = S_AFTER_CODE
            continue
          }
          this.state = S_PROTO
          this.pos = 1
          i++
          continue
        }
        case S_PROTO: {
          // "HTTP/1." – a major version other than 1 is not HTTP/1.x to us
          // (llhttp also takes 0.9 and 2.0); other misses are as llhttp names them.
          const c = buf[i]
          const pos = this.pos
          if (c !== PROTO[pos]) {
            if (pos < 5 || (pos === 5 && c >= 48 && c <= 57)) return this.failAt(i - msgStart, 'HPE_INVALID_CONSTANT', 'expected "HTTP/1." at the start of a response')
            return this.failAt(i - msgStart, 'HPE_INVALID_VERSION', 'invalid HTTP version')
          }
          i++
          if (++this.pos === PROTO.length) this.state = S_MINOR
          continue
        }
        case S_MINOR: {
          const c = buf[i]
          if (c !== 48 && c !== 49) return this.failAt(i - msgStart, 'HPE_INVALID_VERSION', 'invalid HTTP version')
          this.httpMinor = c - 48
          this.state = S_SP
          i++
          continue
        }
        case S_SP:
          if (buf[i] !== SP) return this.failAt(i - msgStart, 'HPE_INVALID_VERSION', 'invalid HTTP version')
          this.state = S_CODE
          this.pos = 0
          this.statusCode = 0
          i++
          continue
        case S_CODE: {
          const c = buf[i]
          if (c < 48 || c > 57) return this.failAt(i - msgStart, 'HPE_INVALID_STATUS', 'invalid status code')
          this.statusCode = this.statusCode * 10 + (c - 48)
          i++
          if (++this.pos === 3) this.state = S_AFTER_CODE
          continue
        }
        case S_AFTER_CODE: {
          const c = buf[i]
          if (c === SP) this.state = S_REASON
          else if (c === CR) this.state = S_STATUS_LF
          else if (c === LF) this.state = S_FIRST_HEADER
          else return this.failAt(i - msgStart, 'HPE_INVALID_STATUS', 'invalid status code')
          i++
          continue
        }
        case S_REASON: {
          // Any byte but CR and LF. Lines are short: a JS scan beats a
          // native indexOf call here.
          let c = 0
          while (i < end) {
            c = buf[i]
            if (c <= CR && (c === CR || c === LF)) break
            i++
          }
          if (i === end) continue
          i++
          this.state = c === CR ? S_STATUS_LF : S_FIRST_HEADER
          continue
        }
        case S_STATUS_LF:
          // Only LF: llhttp 9.4 refuses "\r\r" too (9.3 took the second CR
          // for the LF, see fuzz/known.js).
          if (buf[i] !== LF) return this.failAt(i - msgStart, 'HPE_STRICT', 'expected LF after CR in the status line')
          this.state = S_FIRST_HEADER
          i++
          continue
        case S_FIRST_HEADER:
          // No header line may start with a space, but the first one gets
          // llhttp's own code for it.
          if (buf[i] === SP) return this.failAt(i - msgStart, 'HPE_UNEXPECTED_SPACE', 'unexpected space after the status line')
          // falls through
        case S_HEADER_START: {
          const c = buf[i]
          if (c === CR) {
            this.state = S_HEADERS_LF
            i++
            continue
          }
          if (c === LF) {
            i++
            this.bytes += i - msgStart
            if (headAt !== -1 && !this.inTrailers) this.rememberHead(buf, headAt, i)
            headAt = -1
            msgStart = i
            if ((this.inTrailers ? this.trailersComplete() : this.headersComplete()) === false) return
            continue
          }
          // A space or tab here is obsolete line folding, refused as llhttp does.
          if (TOKEN[c] !== 1) return this.failAt(i - msgStart, 'HPE_INVALID_HEADER_TOKEN', 'invalid character in a header name')
          // The framing names start with c, t or p: any other line nobody
          // wants is skipped from here.
          const lc = c | 0x20
          const m = lc === 0x63 ? H_CONTENT_LENGTH | H_CONNECTION : lc === 0x74 ? H_TRANSFER_ENCODING : lc === 0x70 ? H_PROXY_CONNECTION : H_NONE
          if (m === H_NONE && this.headers === null) {
            this.state = S_SKIP
            i++
            continue
          }
          this.state = S_NAME
          this.nameLen = 0
          this.nameMatch = m
          if (this.headers !== null) this.nameStr = ''
          // on to S_NAME with the same byte
          continue
        }
        case S_NAME: {
          const nameStart = i
          const precise = this.headers !== null
          let m = this.nameMatch
          let n = this.nameLen
          while (i < end) {
            const c = buf[i]
            if (c === COLON) break
            if (TOKEN[c] !== 1) return this.failAt(i - msgStart, 'HPE_INVALID_HEADER_TOKEN', 'invalid character in a header name')
            if (m !== 0) {
              // Token characters | 0x20 only turn A-Z into a-z as far as
              // these names (letters and '-') are concerned.
              const lc = c | 0x20
              if ((m & H_CONTENT_LENGTH) !== 0 && CL[n] !== lc) m &= ~H_CONTENT_LENGTH
              if ((m & H_TRANSFER_ENCODING) !== 0 && TE[n] !== lc) m &= ~H_TRANSFER_ENCODING
              if ((m & H_CONNECTION) !== 0 && CONN[n] !== lc) m &= ~H_CONNECTION
              if ((m & H_PROXY_CONNECTION) !== 0 && PCONN[n] !== lc) m &= ~H_PROXY_CONNECTION
            }
            n++
            i++
            if (m === 0 && !precise) break
          }
          this.nameMatch = m
          this.nameLen = n
          if (m === 0 && !precise) {
            // Not a framing header and nobody wants it: skip the line.
            this.state = S_SKIP
            continue
          }
          if (precise) this.nameStr += buf.latin1Slice(nameStart, i)
          if (i === end) continue
          // at ':'
          i++
          let kind = H_NONE
          if (m !== 0) {
            if ((m & H_CONTENT_LENGTH) !== 0 && n === CL.length) kind = H_CONTENT_LENGTH
            else if ((m & H_TRANSFER_ENCODING) !== 0 && n === TE.length) kind = H_TRANSFER_ENCODING
            else if (((m & H_CONNECTION) !== 0 && n === CONN.length) || ((m & H_PROXY_CONNECTION) !== 0 && n === PCONN.length)) kind = H_CONNECTION
          }
          // Both framings at once cannot be trusted (request smuggling,
          // RFC 9112 6.1): an error whichever comes first, as in llhttp 9,
          // but only when the status allows a body (llhttp: always).
          if (((kind === H_TRANSFER_ENCODING && this.clSeen) || (kind === H_CONTENT_LENGTH && this.teSeen)) && !this.bodylessStatus()) {
            return kind === H_CONTENT_LENGTH
              ? this.failAt(i - msgStart, 'HPE_INVALID_CONTENT_LENGTH', 'content-length together with transfer-encoding')
              : this.failAt(i - msgStart, 'HPE_INVALID_TRANSFER_ENCODING', 'transfer-encoding together with content-length')
          }
          this.headerKind = kind
          if (kind === H_NONE && !precise) {
            this.state = S_SKIP
            continue
          }
          if (kind === H_CONTENT_LENGTH) this.clDigits = 0
          else if (kind === H_TRANSFER_ENCODING) this.teState = TE_NONE
          else if (kind === H_CONNECTION) this.connState = CONN_START
          this.valueLen = 0
          if (precise) this.valueStr = ''
          this.state = S_VALUE_WS
          continue
        }
        case S_SKIP: {
          // Uninteresting header: skip to its end without looking.
          while (i < end && buf[i] !== LF) i++
          if (i === end) continue
          i++
          this.state = S_HEADER_START
          continue
        }
        case S_VALUE_WS: {
          const c = buf[i]
          if (c === SP || c === HT) {
            i++
            continue
          }
          this.state = S_VALUE
          if (c === CR || c === LF) continue
          const kind = this.headerKind
          if (kind === H_CONTENT_LENGTH) {
            if (this.clSeen) return this.failAt(i - msgStart, 'HPE_UNEXPECTED_CONTENT_LENGTH', 'duplicate content-length')
            this.contentLength = 0
            this.clSpace = false
          } else if (kind === H_TRANSFER_ENCODING) {
            // Each field starts over: the last one decides, as in a combined list.
            this.teSeen = true
            this.chunked = false
            this.teState = TE_START
          }
          continue
        }
        case S_VALUE: {
          const kind = this.headerKind
          const valueStart = i
          let c = 0
          if (kind === H_CONTENT_LENGTH) {
            // Digits, then optional whitespace only (RFC 9110 5.5: spaces
            // and tabs), as llhttp 9.4 reads it.
            while (i < end) {
              c = buf[i]
              if (c === CR || c === LF) break
              if (c >= 48 && c <= 57 && !this.clSpace) {
                const v = this.contentLength * 10 + (c - 48)
                if (v > MAX_LENGTH) return this.failAt(i - msgStart, 'HPE_INVALID_CONTENT_LENGTH', 'content-length is too large')
                this.contentLength = v
                this.clDigits++
              } else if ((c === SP || c === HT) && this.clDigits > 0) {
                this.clSpace = true
              } else {
                return this.failAt(i - msgStart, 'HPE_INVALID_CONTENT_LENGTH', 'invalid content-length')
              }
              i++
            }
          } else if (kind === H_NONE) {
            // Field content: HTAB, SP, VCHAR, obs-text.
            while (i < end) {
              c = buf[i]
              if (c < 32 || c === 127) {
                if (c === CR || c === LF) break
                if (c !== HT) return this.failAt(i - msgStart, 'HPE_INVALID_HEADER_TOKEN', 'invalid character in a header value')
              }
              i++
            }
          } else {
            const vb = this.valueBuf
            while (i < end) {
              c = buf[i]
              if (c < 32 || c === 127) {
                if (c === CR || c === LF) break
                if (c !== HT) return this.failAt(i - msgStart, 'HPE_INVALID_HEADER_TOKEN', 'invalid character in a header value')
              }
              vb[this.valueLen++] = (c >= 65 && c <= 90) ? c | 0x20 : c
              if (this.valueLen === VALUE_MAX) this.scanValue()
              i++
            }
          }
          if (this.headers !== null) this.valueStr += buf.latin1Slice(valueStart, i)
          if (i === end) continue
          i++
          if (c === CR) {
            this.state = S_VALUE_LF
            continue
          }
          this.headerValueComplete()
          continue
        }
        case S_VALUE_LF:
          if (buf[i] !== LF) return this.failAt(i - msgStart, 'HPE_STRICT', 'expected LF after CR in a header')
          i++
          this.headerValueComplete()
          continue
        case S_EMPTY_FRAMING:
          // llhttp reports an empty Content-Length or Transfer-Encoding once
          // it has seen that the next line is not a continuation (which is
          // an error of its own).
          if (buf[i] === SP || buf[i] === HT) return this.failAt(i - msgStart, 'HPE_INVALID_HEADER_TOKEN', 'invalid character in a header value')
          return this.headerKind === H_CONTENT_LENGTH
            ? this.failAt(i - msgStart, 'HPE_INVALID_CONTENT_LENGTH', 'empty content-length')
            : this.failAt(i - msgStart, 'HPE_INVALID_TRANSFER_ENCODING', 'empty transfer-encoding')
        case S_HEADERS_LF:
          if (buf[i] !== LF) return this.failAt(i - msgStart, 'HPE_STRICT', 'expected LF after CR at the end of the headers')
          i++
          this.bytes += i - msgStart
          if (headAt !== -1 && !this.inTrailers) this.rememberHead(buf, headAt, i)
          headAt = -1
          msgStart = i
          if ((this.inTrailers ? this.trailersComplete() : this.headersComplete()) === false) return
          continue
        case S_BODY_LEN: {
          const avail = end - i
          const take = avail < this.remaining ? avail : this.remaining
          if (this.wantBody) this.handler.onBody(buf, i, i + take)
          i += take
          this.remaining -= take
          if (this.remaining === 0) {
            this.bytes += i - msgStart
            msgStart = i
            if (this.complete() === false) return
          }
          continue
        }
        case S_CHUNK_SIZE: {
          const c = buf[i]
          const h = HEX[c]
          if (h !== -1) {
            const v = this.remaining * 16 + h
            if (v > MAX_LENGTH) return this.failAt(i - msgStart, 'HPE_INVALID_CHUNK_SIZE', 'chunk size is too large')
            this.remaining = v
            this.chunkDigits++
            i++
            continue
          }
          if (this.chunkDigits === 0) return this.failAt(i - msgStart, 'HPE_INVALID_CHUNK_SIZE', 'invalid chunk size')
          this.state = S_CHUNK_SIZE_WS
          continue
        }
        case S_CHUNK_SIZE_WS: {
          // Spaces and tabs after the size are tolerated (llhttp only with
          // its lenient flag for them).
          const c = buf[i++]
          if (c === CR) this.state = S_CHUNK_SIZE_LF
          else if (c === SEMI) {
            this.state = S_EXT_START
            this.extBytes = 0
          } else if (c === LF) this.chunkSizeDone(this.bytes + (i - msgStart))
          else if (c !== SP && c !== HT) return this.failAt(i - msgStart, 'HPE_INVALID_CHUNK_SIZE', 'invalid chunk size')
          continue
        }
        // Chunk extensions: ;name[=token|"quoted"] ..., checked as llhttp
        // does, and no more than MAX_CHUNK_EXTENSIONS name and value bytes
        // per chunk, as Node allows.
        case S_EXT_START: {
          // A line end right after ';' is an error (a bare LF too, as the
          // CRLF it stands for).
          const c = buf[i]
          if (c === SP || c === CR || c === LF) return this.failAt(i - msgStart, 'HPE_STRICT', 'invalid character in chunk extensions')
          this.state = S_EXT_NAME
          continue
        }
        case S_EXT_NAME: {
          const c = buf[i++]
          if (TOKEN[c] === 1) {
            if (++this.extBytes > MAX_CHUNK_EXTENSIONS) return this.extOverflow()
          } else if (c === EQUALS) this.state = S_EXT_VALUE
          else if (c === SEMI) this.state = S_EXT_START
          else if (c === CR) this.state = S_CHUNK_SIZE_LF
          else if (c === LF) this.chunkSizeDone(this.bytes + (i - msgStart))
          else return this.failAt(i - msgStart, 'HPE_STRICT', 'invalid character in a chunk extension name')
          continue
        }
        case S_EXT_VALUE: {
          const c = buf[i++]
          if (TOKEN[c] === 1 || c === DQUOTE) {
            if (++this.extBytes > MAX_CHUNK_EXTENSIONS) return this.extOverflow()
            if (c === DQUOTE) this.state = S_EXT_QUOTED
          } else if (c === SEMI) this.state = S_EXT_START
          else if (c === CR) this.state = S_CHUNK_SIZE_LF
          else if (c === LF) this.chunkSizeDone(this.bytes + (i - msgStart))
          else return this.failAt(i - msgStart, 'HPE_STRICT', 'invalid character in a chunk extension value')
          continue
        }
        case S_EXT_QUOTED: {
          const c = buf[i++]
          if (QDTEXT[c] !== 1 && c !== DQUOTE && c !== BACKSLASH) return this.failAt(i - msgStart, 'HPE_STRICT', 'invalid character in a chunk extension quoted value')
          if (++this.extBytes > MAX_CHUNK_EXTENSIONS) return this.extOverflow()
          if (c === DQUOTE) this.state = S_EXT_QDONE
          else if (c === BACKSLASH) this.state = S_EXT_QPAIR
          continue
        }
        case S_EXT_QPAIR: {
          const c = buf[i++]
          if (QPAIR[c] !== 1) return this.failAt(i - msgStart, 'HPE_STRICT', 'invalid quoted-pair in a chunk extension')
          if (++this.extBytes > MAX_CHUNK_EXTENSIONS) return this.extOverflow()
          this.state = S_EXT_QUOTED
          continue
        }
        case S_EXT_QDONE: {
          const c = buf[i++]
          if (c === SEMI) this.state = S_EXT_START
          else if (c === CR) this.state = S_CHUNK_SIZE_LF
          else if (c === LF) this.chunkSizeDone(this.bytes + (i - msgStart))
          else return this.failAt(i - msgStart, 'HPE_STRICT', 'invalid character after a chunk extension quoted value')
          continue
        }
        case S_CHUNK_SIZE_LF:
          if (buf[i] !== LF) return this.failAt(i - msgStart, 'HPE_STRICT', 'expected LF after a chunk size')
          i++
          this.chunkSizeDone(this.bytes + (i - msgStart))
          continue
        case S_CHUNK_DATA: {
          const avail = end - i
          const take = avail < this.remaining ? avail : this.remaining
          if (this.wantBody) this.handler.onBody(buf, i, i + take)
          i += take
          this.remaining -= take
          if (this.remaining === 0) this.state = S_CHUNK_DATA_CR
          continue
        }
        case S_CHUNK_DATA_CR: {
          const c = buf[i]
          if (c === CR) this.state = S_CHUNK_DATA_LF
          else if (c === LF) this.startChunk()
          else return this.failAt(i - msgStart, 'HPE_STRICT', 'expected CRLF after chunk data')
          i++
          continue
        }
        case S_CHUNK_DATA_LF:
          if (buf[i] !== LF) return this.failAt(i - msgStart, 'HPE_STRICT', 'expected CRLF after chunk data')
          i++
          this.startChunk()
          continue
        case S_BODY_EOF:
          if (this.wantBody) this.handler.onBody(buf, i, end)
          i = end
          continue
        case S_CLOSED: {
          const c = buf[i]
          if (c !== CR && c !== LF) return this.failAt(i - msgStart, 'HPE_CLOSED_CONNECTION', 'data after a response that closed the connection')
          i++
          msgStart = i
          continue
        }
        case S_DEAD:
          return
      }
    }
    const state = this.state
    if (state !== S_START) {
      this.bytes += end - msgStart
      // The head limit, checked once per read so that the fast path pays
      // nothing per line: a server sending endless headers is stopped
      // within one read of passing it.
      if (state <= S_LAST_HEAD && this.bytes - this.headStart > this.maxHeaderSize) this.headerOverflow()
    }
  }

  // Interim (1xx but 101), 204 and 304 never have a body, whatever their headers say.
  bodylessStatus () {
    const status = this.statusCode
    return (status >= 100 && status < 200 && status !== 101) || status === 204 || status === 304
  }

  headerOverflow () {
    this.fail('HPE_HEADER_OVERFLOW', `${this.inTrailers ? 'trailers' : 'response head'} larger than ${this.maxHeaderSize} bytes`)
  }

  extOverflow () {
    this.fail('HPE_CHUNK_EXTENSIONS_OVERFLOW', `chunk extensions larger than ${MAX_CHUNK_EXTENSIONS} bytes`)
  }

  startChunk () {
    this.state = S_CHUNK_SIZE
    this.remaining = 0
    this.chunkDigits = 0
  }

  // The chunk size line ended; `at` is where the next byte is, counted as
  // `bytes` is. The last chunk is followed by trailers: header lines,
  // framing headers included (Connection: close there closes), with a
  // limit of their own.
  chunkSizeDone (at) {
    if (this.remaining !== 0) {
      this.state = S_CHUNK_DATA
      return
    }
    this.inTrailers = true
    this.headStart = at
    // Trailers are checked as headers are, but not delivered: the headers
    // array the handler got stays as it was.
    if (this.headers !== null) {
      this.headers = this.trailerSink
      this.headers.length = 0
    }
    this.state = S_HEADER_START
  }

  headerValueComplete () {
    if (this.headers !== null) this.headers.push(this.nameStr, trimOws(this.valueStr))
    this.state = S_HEADER_START
    const kind = this.headerKind
    if (kind === H_NONE) return
    if (kind === H_CONTENT_LENGTH) {
      if (this.clDigits === 0) this.state = S_EMPTY_FRAMING
      else this.clSeen = true
    } else if (kind === H_TRANSFER_ENCODING) {
      // An empty field names no coding: llhttp 9.4 refuses it (9.3 let it
      // change nothing), on any status and in trailers too.
      if (this.teState === TE_NONE) {
        this.state = S_EMPTY_FRAMING
        return
      }
      this.scanValue()
      this.chunked = this.teState === TE_LAST
    } else {
      this.scanValue()
      if (this.connState === CONN_WS) this.connectionToken()
    }
  }

  // Runs the Transfer-Encoding or Connection token machine over the bytes
  // gathered in valueBuf.
  scanValue () {
    const vb = this.valueBuf
    const len = this.valueLen
    this.valueLen = 0
    if (this.headerKind === H_TRANSFER_ENCODING) {
      let s = this.teState
      let pos = this.tePos
      for (let k = 0; k < len; k++) {
        const c = vb[k]
        if (s === TE_START) {
          if (c === SP || c === HT) continue
          if (c === 0x63) {
            s = TE_WORD
            pos = 1
            continue
          }
          s = TE_TOKEN
        } else if (s === TE_WORD) {
          if (c === CHUNKED[pos]) {
            if (++pos === CHUNKED.length) s = TE_LAST
            continue
          }
          s = TE_TOKEN
        } else if (s === TE_LAST) {
          if (c === SP) continue
          if (c === COMMA) {
            s = TE_START
            continue
          }
          s = TE_TOKEN
        }
        // TE_TOKEN
        if (c === COMMA) s = TE_START
      }
      this.teState = s
      this.tePos = pos
      return
    }
    let s = this.connState
    let word = this.connWord
    let pos = this.connPos
    for (let k = 0; k < len; k++) {
      const c = vb[k]
      if (s === CONN_START) {
        if (c === SP || c === HT) continue
        word = c === 0x63 ? W_CLOSE : c === 0x6b ? W_KEEP_ALIVE : c === 0x75 ? W_UPGRADE : null
        if (word !== null) {
          s = CONN_WORD
          pos = 1
          continue
        }
        s = CONN_TOKEN
      } else if (s === CONN_WORD) {
        if (c === word[pos]) {
          if (++pos === word.length) s = CONN_WS
          continue
        }
        s = CONN_TOKEN
      } else if (s === CONN_WS) {
        if (c === SP || c === HT) continue
        if (c === COMMA) {
          this.connWord = word
          this.connectionToken()
          s = CONN_START
          continue
        }
        s = CONN_TOKEN
      }
      // CONN_TOKEN
      if (c === COMMA) s = CONN_START
    }
    this.connState = s
    this.connWord = word
    this.connPos = pos
  }

  connectionToken () {
    if (this.connWord === W_CLOSE) this.connClose = true
    else if (this.connWord === W_KEEP_ALIVE) this.keepAlive = true
  }

  headersComplete () {
    if (this.bytes - this.headStart > this.maxHeaderSize) {
      this.headerOverflow()
      return false
    }
    const status = this.statusCode
    if (status >= 100 && status < 200 && status !== 101) {
      // Interim response (100 Continue, 103 Early Hints): the final one
      // follows, unless this one closed the connection.
      this.noBody = true
      this.state = this.closes() ? S_CLOSED : S_START
      return true
    }
    const noBody = this.handler.onHeadersComplete(status, this.headers) === true
    if (this.state === S_DEAD) return false
    if (noBody || status === 204 || status === 304 || status === 101) {
      this.noBody = true
      return this.complete()
    }
    if (this.chunked) {
      this.startChunk()
      return true
    }
    // Transfer-Encoding without chunked last: the body runs to the close.
    if (this.teSeen || !this.clSeen) {
      this.state = S_BODY_EOF
      return true
    }
    if (this.contentLength === 0) return this.complete()
    this.state = S_BODY_LEN
    this.remaining = this.contentLength
    return true
  }

  trailersComplete () {
    if (this.bytes - this.headStart > this.maxHeaderSize) {
      this.headerOverflow()
      return false
    }
    return this.complete()
  }

  // Whether the connection ends with this response (llhttp's
  // should_keep_alive, negated): HTTP/1.1 unless Connection: close,
  // HTTP/1.0 only with Connection: keep-alive, and never when the body
  // runs to the close.
  closes () {
    if (this.httpMinor === 1 ? this.connClose : !this.keepAlive) return true
    if (this.noBody) return false
    if (this.teSeen) return !this.chunked
    return !this.clSeen
  }

  complete () {
    const status = this.statusCode
    const bytes = this.bytes
    let close = true
    if (status === 101) {
      // What follows is another protocol.
      this.state = S_DEAD
    } else {
      close = this.closes()
      this.state = close ? S_CLOSED : S_START
    }
    this.bytes = 0
    this.handler.onMessageComplete(status, bytes, close)
    return this.state !== S_DEAD
  }
}

// Trailing optional whitespace is SP and HTAB only: String#trimEnd would
// also strip obs-text such as 0xA0 (NBSP in latin1).
function trimOws (str) {
  let e = str.length
  while (e > 0 && (str.charCodeAt(e - 1) === SP || str.charCodeAt(e - 1) === HT)) e--
  return e === str.length ? str : str.slice(0, e)
}

module.exports = { ResponseParser }
