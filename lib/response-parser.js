'use strict'

// Incremental HTTP/1.x response parser: a byte-level state machine over
// Buffers that knows nothing of sockets or timers. Input may be cut
// anywhere (one byte at a time included) and may hold several pipelined
// responses. Only the headers that frame a message are decoded (content-length,
// transfer-encoding, connection); all of them only when `wantHeaders` is set.
//
// The handler receives:
//   onHeadersComplete(statusCode, headers) -> true when the response has no
//     body whatever its headers say (the answer to a HEAD request)
//   onBody(buf, start, end)              only when `wantBody` is set
//   onMessageComplete(statusCode, bytes, shouldClose)
//   onParseError(err)                    the parser then ignores input until reset()

const { ResponseParseError } = require('./errors')

const S_START = 0
const S_PROTO = 1
const S_MINOR = 2
const S_SP = 3
const S_CODE = 4
const S_AFTER_CODE = 5
const S_REASON = 6
const S_STATUS_LF = 7
const S_HEADER_START = 8
const S_NAME = 9
const S_VALUE_WS = 10
const S_VALUE = 11
const S_VALUE_LF = 12
const S_HEADERS_LF = 13
const S_BODY_LEN = 14
const S_CHUNK_SIZE = 15
const S_CHUNK_EXT = 16
const S_CHUNK_SIZE_LF = 17
const S_CHUNK_DATA = 18
const S_CHUNK_DATA_CR = 19
const S_CHUNK_DATA_LF = 20
const S_TRAILER_START = 21
const S_TRAILER_LINE = 22
const S_TRAILER_LF = 23
const S_BODY_EOF = 24
const S_DEAD = 25

const CR = 13
const LF = 10
const SP = 32
const HT = 9

const PROTO = Buffer.from('HTTP/1.')

// Header names we must understand to frame messages, as lower-case bytes.
const H_NONE = 0
const H_CONTENT_LENGTH = 1
const H_TRANSFER_ENCODING = 2
const H_CONNECTION = 4
const CL = Buffer.from('content-length')
const TE = Buffer.from('transfer-encoding')
const CONN = Buffer.from('connection')

const TOKEN = new Uint8Array(256)
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
  TOKEN[c.charCodeAt(0)] = 1
}

const HEX = new Int8Array(256).fill(-1)
for (let i = 0; i < 10; i++) HEX[48 + i] = i
for (let i = 0; i < 6; i++) {
  HEX[65 + i] = 10 + i
  HEX[97 + i] = 10 + i
}

// Values of transfer-encoding / connection are short; longer ones are
// truncated, which cannot turn a non-matching value into a matching one
// because we only look for whole tokens.
const VALUE_MAX = 256

class ResponseParser {
  constructor (handler) {
    this.handler = handler
    this.wantHeaders = false
    this.wantBody = false
    this.state = S_START
    this.pos = 0
    this.statusCode = 0
    this.httpMinor = 1
    this.bytes = 0
    this.contentLength = -1
    this.chunked = false
    this.connClose = false
    this.keepAlive = false
    this.remaining = 0
    this.chunkDigits = 0
    this.nameMatch = 0
    this.nameLen = 0
    this.headerKind = H_NONE
    this.valueBuf = Buffer.allocUnsafe(VALUE_MAX)
    this.valueLen = 0
    this.clDigits = 0
    this.clDone = false
    this.clPrev = -1
    this.headers = null
    this.nameStr = ''
    this.valueStr = ''
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
    return this.state === S_START && this.bytes === 0
  }

  resetMessage () {
    this.statusCode = 0
    this.httpMinor = 1
    this.contentLength = -1
    this.chunked = false
    this.connClose = false
    this.keepAlive = false
    this.headers = this.wantHeaders ? [] : null
  }

  fail (code, message) {
    this.state = S_DEAD
    this.handler.onParseError(new ResponseParseError(code, message))
  }

  // The peer closed the connection. A response delimited by the close is
  // complete now; anything else that was started is truncated.
  finish () {
    if (this.state === S_BODY_EOF) {
      this.connClose = true
      this.complete()
      return
    }
    if (this.state === S_DEAD || (this.state === S_START && this.bytes === 0)) return
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
    if (minor < 0 || minor > 9 || a < 0 || a > 9 || b < 0 || b > 9 || c < 0 || c > 9) return false
    this.httpMinor = minor
    this.statusCode = a * 100 + b * 10 + c
    return true
  }

  execute (buf, start = 0, end = buf.length) {
    let i = start
    let msgStart = start
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
          if (c !== 0x48) return this.fail('HPE_INVALID_CONSTANT', 'expected "HTTP/1." at the start of a response')
          this.resetMessage()
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
        case S_PROTO:
          if (buf[i] !== PROTO[this.pos]) return this.fail('HPE_INVALID_CONSTANT', 'expected "HTTP/1." at the start of a response')
          i++
          if (++this.pos === PROTO.length) this.state = S_MINOR
          continue
        case S_MINOR: {
          const c = buf[i]
          if (c < 48 || c > 57) return this.fail('HPE_INVALID_VERSION', 'invalid HTTP version')
          this.httpMinor = c - 48
          this.state = S_SP
          i++
          continue
        }
        case S_SP:
          if (buf[i] !== SP) return this.fail('HPE_INVALID_VERSION', 'invalid HTTP version')
          this.state = S_CODE
          this.pos = 0
          this.statusCode = 0
          i++
          continue
        case S_CODE: {
          const c = buf[i]
          if (c < 48 || c > 57) return this.fail('HPE_INVALID_STATUS', 'invalid status code')
          this.statusCode = this.statusCode * 10 + (c - 48)
          i++
          if (++this.pos === 3) this.state = S_AFTER_CODE
          continue
        }
        case S_AFTER_CODE: {
          const c = buf[i]
          if (c === SP) this.state = S_REASON
          else if (c === CR) this.state = S_STATUS_LF
          else if (c === LF) this.state = S_HEADER_START
          else return this.fail('HPE_INVALID_STATUS', 'invalid status code')
          if (this.statusCode < 100) return this.fail('HPE_INVALID_STATUS', 'invalid status code')
          i++
          continue
        }
        case S_REASON: {
          // Lines are short: a JS scan beats a native indexOf call here.
          while (i < end && buf[i] !== LF) i++
          if (i === end) continue
          i++
          this.state = S_HEADER_START
          continue
        }
        case S_STATUS_LF:
          if (buf[i] !== LF) return this.fail('HPE_STRICT', 'expected LF after CR in the status line')
          this.state = S_HEADER_START
          i++
          continue
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
            msgStart = i
            if (this.headersComplete() === false) return
            continue
          }
          if (TOKEN[c] !== 1) return this.fail('HPE_INVALID_HEADER_TOKEN', 'invalid character in a header name')
          this.state = S_NAME
          this.nameLen = 0
          this.nameMatch = H_CONTENT_LENGTH | H_TRANSFER_ENCODING | H_CONNECTION
          if (this.headers !== null) this.nameStr = ''
          // fall through to S_NAME on the same byte
          continue
        }
        case S_NAME: {
          const nameStart = i
          while (i < end) {
            const c = buf[i]
            if (c === 0x3a) break
            if (TOKEN[c] !== 1) return this.fail('HPE_INVALID_HEADER_TOKEN', 'invalid character in a header name')
            const lc = c | 0x20
            const n = this.nameLen
            let m = this.nameMatch
            if ((m & H_CONTENT_LENGTH) !== 0 && CL[n] !== lc) m &= ~H_CONTENT_LENGTH
            if ((m & H_TRANSFER_ENCODING) !== 0 && TE[n] !== lc) m &= ~H_TRANSFER_ENCODING
            if ((m & H_CONNECTION) !== 0 && CONN[n] !== lc) m &= ~H_CONNECTION
            this.nameMatch = m
            this.nameLen = n + 1
            i++
            if (m === 0 && this.headers === null) break
          }
          if (this.nameMatch === 0 && this.headers === null) {
            // Not a framing header and nobody wants it: skip the line.
            this.headerKind = H_NONE
            this.state = S_VALUE
            continue
          }
          if (this.headers !== null) this.nameStr += buf.latin1Slice(nameStart, i)
          if (i === end) continue
          // at ':'
          const m = this.nameMatch
          const n = this.nameLen
          if ((m & H_CONTENT_LENGTH) !== 0 && n === CL.length) this.headerKind = H_CONTENT_LENGTH
          else if ((m & H_TRANSFER_ENCODING) !== 0 && n === TE.length) this.headerKind = H_TRANSFER_ENCODING
          else if ((m & H_CONNECTION) !== 0 && n === CONN.length) this.headerKind = H_CONNECTION
          else this.headerKind = H_NONE
          this.valueLen = 0
          this.clDigits = 0
          this.clDone = false
          if (this.headers !== null) this.valueStr = ''
          this.state = S_VALUE_WS
          i++
          continue
        }
        case S_VALUE_WS: {
          const c = buf[i]
          if (c === SP || c === HT) {
            i++
            continue
          }
          this.state = S_VALUE
          if (this.headerKind === H_CONTENT_LENGTH) {
            // Kept to compare with a repeated Content-Length.
            this.clPrev = this.contentLength
            this.contentLength = 0
          }
          continue
        }
        case S_VALUE: {
          const kind = this.headerKind
          if (kind === H_NONE && this.headers === null) {
            // Uninteresting header: skip to its end without looking.
            while (i < end && buf[i] !== LF) i++
            if (i === end) continue
            i++
            this.state = S_HEADER_START
            continue
          }
          const valueStart = i
          let c = 0
          while (i < end) {
            c = buf[i]
            if (c === CR || c === LF) break
            if (c < 32 && c !== HT) return this.fail('HPE_INVALID_HEADER_TOKEN', 'invalid character in a header value')
            if (kind === H_CONTENT_LENGTH) {
              if (c >= 48 && c <= 57 && !this.clDone) {
                this.contentLength = this.contentLength * 10 + (c - 48)
                if (++this.clDigits > 15) return this.fail('HPE_INVALID_CONTENT_LENGTH', 'content-length is too large')
              } else if (c === SP || c === HT) {
                this.clDone = this.clDigits > 0
              } else {
                return this.fail('HPE_INVALID_CONTENT_LENGTH', 'invalid content-length')
              }
            } else if (kind !== H_NONE && this.valueLen < VALUE_MAX) {
              this.valueBuf[this.valueLen++] = (c >= 65 && c <= 90) ? c | 0x20 : c
            }
            i++
          }
          if (this.headers !== null) this.valueStr += buf.latin1Slice(valueStart, i)
          if (i === end) continue
          i++
          if (c === CR) {
            this.state = S_VALUE_LF
            continue
          }
          this.state = S_HEADER_START
          if (this.headerValueComplete() === false) return
          continue
        }
        case S_VALUE_LF:
          if (buf[i] !== LF) return this.fail('HPE_STRICT', 'expected LF after CR in a header')
          i++
          this.state = S_HEADER_START
          if (this.headerValueComplete() === false) return
          continue
        case S_HEADERS_LF:
          if (buf[i] !== LF) return this.fail('HPE_STRICT', 'expected LF after CR at the end of the headers')
          i++
          this.bytes += i - msgStart
          msgStart = i
          if (this.headersComplete() === false) return
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
            if (++this.chunkDigits > 12) return this.fail('HPE_INVALID_CHUNK_SIZE', 'chunk size is too large')
            this.remaining = this.remaining * 16 + h
            i++
            continue
          }
          if (this.chunkDigits === 0) return this.fail('HPE_INVALID_CHUNK_SIZE', 'invalid chunk size')
          if (c === CR) this.state = S_CHUNK_SIZE_LF
          else if (c === LF) {
            this.state = this.remaining === 0 ? S_TRAILER_START : S_CHUNK_DATA
          } else if (c === 0x3b || c === SP || c === HT) this.state = S_CHUNK_EXT
          else return this.fail('HPE_INVALID_CHUNK_SIZE', 'invalid chunk size')
          i++
          continue
        }
        case S_CHUNK_EXT: {
          const lf = buf.indexOf(LF, i)
          if (lf === -1 || lf >= end) {
            i = end
            continue
          }
          i = lf + 1
          this.state = this.remaining === 0 ? S_TRAILER_START : S_CHUNK_DATA
          continue
        }
        case S_CHUNK_SIZE_LF:
          if (buf[i] !== LF) return this.fail('HPE_STRICT', 'expected LF after a chunk size')
          i++
          this.state = this.remaining === 0 ? S_TRAILER_START : S_CHUNK_DATA
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
          else return this.fail('HPE_STRICT', 'expected CRLF after chunk data')
          i++
          continue
        }
        case S_CHUNK_DATA_LF:
          if (buf[i] !== LF) return this.fail('HPE_STRICT', 'expected CRLF after chunk data')
          i++
          this.startChunk()
          continue
        case S_TRAILER_START: {
          const c = buf[i]
          if (c === CR) {
            this.state = S_TRAILER_LF
            i++
            continue
          }
          i++
          if (c === LF) {
            this.bytes += i - msgStart
            msgStart = i
            if (this.complete() === false) return
            continue
          }
          this.state = S_TRAILER_LINE
          continue
        }
        case S_TRAILER_LINE: {
          const lf = buf.indexOf(LF, i)
          if (lf === -1 || lf >= end) {
            i = end
            continue
          }
          i = lf + 1
          this.state = S_TRAILER_START
          continue
        }
        case S_TRAILER_LF:
          if (buf[i] !== LF) return this.fail('HPE_STRICT', 'expected LF at the end of the trailers')
          i++
          this.bytes += i - msgStart
          msgStart = i
          if (this.complete() === false) return
          continue
        case S_BODY_EOF:
          if (this.wantBody) this.handler.onBody(buf, i, end)
          i = end
          continue
        case S_DEAD:
          return
      }
    }
    if (this.state !== S_START) this.bytes += end - msgStart
  }

  startChunk () {
    this.state = S_CHUNK_SIZE
    this.remaining = 0
    this.chunkDigits = 0
  }

  headerValueComplete () {
    if (this.headers !== null) {
      this.headers.push(this.nameStr, trimOws(this.valueStr))
    }
    const kind = this.headerKind
    if (kind === H_CONTENT_LENGTH) {
      if (this.clDigits === 0) {
        this.fail('HPE_INVALID_CONTENT_LENGTH', 'empty content-length')
        return false
      }
      // Several Content-Length fields must agree, or the framing is unknowable.
      if (this.clPrev !== -1 && this.clPrev !== this.contentLength) {
        this.fail('HPE_UNEXPECTED_CONTENT_LENGTH', 'conflicting content-length values')
        return false
      }
    } else if (kind === H_TRANSFER_ENCODING) {
      // chunked must be the last coding for the body to be chunk-framed.
      this.chunked = lastTokenIs(this.valueBuf, this.valueLen, 'chunked')
    } else if (kind === H_CONNECTION) {
      if (hasToken(this.valueBuf, this.valueLen, 'close')) this.connClose = true
      if (hasToken(this.valueBuf, this.valueLen, 'keep-alive')) this.keepAlive = true
    }
    return true
  }

  headersComplete () {
    const status = this.statusCode
    if (status >= 100 && status < 200 && status !== 101) {
      // Interim response (100 Continue, 103 Early Hints): the final one follows.
      this.state = S_START
      return true
    }
    const noBody = this.handler.onHeadersComplete(status, this.headers) === true
    if (this.state === S_DEAD) return false
    if (noBody || status === 204 || status === 304 || status === 101) return this.complete()
    if (this.chunked) {
      this.startChunk()
      return true
    }
    if (this.contentLength >= 0) {
      if (this.contentLength === 0) return this.complete()
      this.state = S_BODY_LEN
      this.remaining = this.contentLength
      return true
    }
    this.state = S_BODY_EOF
    return true
  }

  complete () {
    const status = this.statusCode
    const bytes = this.bytes
    const close = this.connClose || (this.httpMinor === 0 && !this.keepAlive) || status === 101
    this.state = S_START
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

function tokenAt (buf, len, start, word) {
  for (let k = 0; k < word.length; k++) {
    if (buf[start + k] !== word.charCodeAt(k)) return false
  }
  const after = start + word.length
  return after === len || buf[after] === 0x2c || buf[after] === SP || buf[after] === HT
}

function hasToken (buf, len, word) {
  let i = 0
  while (i < len) {
    while (i < len && (buf[i] === SP || buf[i] === HT || buf[i] === 0x2c)) i++
    if (i + word.length <= len && tokenAt(buf, len, i, word)) return true
    while (i < len && buf[i] !== 0x2c) i++
  }
  return false
}

function lastTokenIs (buf, len, word) {
  let e = len
  while (e > 0 && (buf[e - 1] === SP || buf[e - 1] === HT)) e--
  let s = e
  while (s > 0 && buf[s - 1] !== 0x2c) s--
  while (s < e && (buf[s] === SP || buf[s] === HT)) s++
  return e - s === word.length && tokenAt(buf, e, s, word)
}

module.exports = { ResponseParser }
