'use strict'

// HPACK (RFC 7541), as a load generator needs it: a Decoder for the
// server's response header blocks, and an encoder for request header
// blocks that are built once per request shape and sent unchanged.
//
// The Decoder keeps the dynamic table in step with the server's encoder,
// so it must read every field of every block; but it builds strings only
// for what it keeps (fields inserted into the table) or was asked for (the
// whole list, with `wantHeaders`). Everything else is read as bytes where
// it lies: an indexed field costs a table lookup, a literal one a bounds
// check, plus one pass of the Huffman table over its value, as every
// Huffman string must be checked (§5.2). `:status` comes back as a number
// whatever way it was sent.
//
// The encoder never touches its dynamic table (no field is indexed), so
// its blocks do not depend on what was sent before on the connection and
// one Buffer serves every request of that shape.
//
// Strings are latin1 on the way in, one character per octet as the table's
// sizes count them (§4.1), and as the HTTP/1.1 parser reads header values.

const { huffmanDecode, huffmanValid, huffmanEncode, huffmanLength } = require('./hpack-huffman')
const { http2Error } = require('./errors')
const { InvalidOptionError } = require('../core/errors')
const { isToken, isValidHeaderValue } = require('../core/http-syntax')

// RFC 7541 Appendix A; index 0 is not an entry.
const STATIC_TABLE = Object.freeze([
  null,
  [':authority', ''],
  [':method', 'GET'],
  [':method', 'POST'],
  [':path', '/'],
  [':path', '/index.html'],
  [':scheme', 'http'],
  [':scheme', 'https'],
  [':status', '200'],
  [':status', '204'],
  [':status', '206'],
  [':status', '304'],
  [':status', '400'],
  [':status', '404'],
  [':status', '500'],
  ['accept-charset', ''],
  ['accept-encoding', 'gzip, deflate'],
  ['accept-language', ''],
  ['accept-ranges', ''],
  ['accept', ''],
  ['access-control-allow-origin', ''],
  ['age', ''],
  ['allow', ''],
  ['authorization', ''],
  ['cache-control', ''],
  ['content-disposition', ''],
  ['content-encoding', ''],
  ['content-language', ''],
  ['content-length', ''],
  ['content-location', ''],
  ['content-range', ''],
  ['content-type', ''],
  ['cookie', ''],
  ['date', ''],
  ['etag', ''],
  ['expect', ''],
  ['expires', ''],
  ['from', ''],
  ['host', ''],
  ['if-match', ''],
  ['if-modified-since', ''],
  ['if-none-match', ''],
  ['if-range', ''],
  ['if-unmodified-since', ''],
  ['last-modified', ''],
  ['link', ''],
  ['location', ''],
  ['max-forwards', ''],
  ['proxy-authenticate', ''],
  ['proxy-authorization', ''],
  ['range', ''],
  ['referer', ''],
  ['refresh', ''],
  ['retry-after', ''],
  ['server', ''],
  ['set-cookie', ''],
  ['strict-transport-security', ''],
  ['transfer-encoding', ''],
  ['user-agent', ''],
  ['vary', ''],
  ['via', ''],
  ['www-authenticate', '']
].map((e) => e && Object.freeze(e)))

const STATIC_COUNT = 61
const STATIC_NAMES = STATIC_TABLE.map((e) => e && e[0])
const STATIC_VALUES = STATIC_TABLE.map((e) => e && e[1])
// Entries 8..14 are ':status' with a value.
const STATUS_FIRST = 8
const STATUS_LAST = 14
const STATIC_STATUS = STATIC_TABLE.map((e, i) => i >= STATUS_FIRST && i <= STATUS_LAST ? Number(e[1]) : 0)

// SETTINGS_HEADER_TABLE_SIZE's initial value (RFC 9113 §6.5.2).
const DEFAULT_TABLE_SIZE = 4096
// What an entry costs besides its octets (§4.1).
const ENTRY_OVERHEAD = 32

// An integer's continuation bytes, at most: 4 × 7 bits holds any table
// size, index or string length a real peer sends, and the sum stays far
// below 2^53.
const MAX_INTEGER_BYTES = 4

const STATUS_BYTES = Buffer.from(':status', 'latin1')
const HUFFMAN_ERROR = 'a Huffman-coded string with EOS in it, or padding that is not 1 to 7 one bits'

function compressionError (message) {
  return http2Error('COMPRESSION_ERROR', message)
}

// A status is three digits (RFC 9110 §15); anything else is -1.
function statusOf (src, start, end) {
  if (end - start !== 3) return -1
  const a = src[start] - 48
  const b = src[start + 1] - 48
  const c = src[start + 2] - 48
  if (a < 1 || a > 9 || b < 0 || b > 9 || c < 0 || c > 9) return -1
  return a * 100 + b * 10 + c
}

// Room for a table of `size` octets: each entry is at least 32.
function capacityFor (size) {
  let cap = 8
  while (cap < size / ENTRY_OVERHEAD) cap *= 2
  return cap
}

class Decoder {
  // tableSize: the SETTINGS_HEADER_TABLE_SIZE we advertise.
  constructor (tableSize = DEFAULT_TABLE_SIZE) {
    // What the server may grow the table to, and what it has it at.
    this.limit = tableSize
    this.maxSize = tableSize
    // Octets the entries take (§4.1) and how many there are.
    this.size = 0
    this.count = 0
    // The entries, in a ring: the newest at `newest`, older ones before it.
    // statuses[slot]: the value as a number when the name is ':status'
    // (-1 when not three digits), 0 otherwise.
    const cap = capacityFor(tableSize)
    this.names = new Array(cap).fill('')
    this.values = new Array(cap).fill('')
    this.statuses = new Int16Array(cap)
    this.mask = cap - 1
    this.newest = 0
    // Set when our limit went below the table's size: the server must then
    // start its next block with a size update (§4.2).
    this.updateRequired = false
    // The last block's fields as a flat list [name, value, name, value…],
    // as the HTTP/1.1 parser gives them; null unless asked for.
    this.headers = null
    // Where the last integer or string read ended, and where a string's
    // octets lie: in the block itself, or in `scratch` once Huffman-decoded.
    this.pos = 0
    this.src = null
    this.srcStart = 0
    this.srcEnd = 0
    this.scratch = Buffer.allocUnsafe(256)
  }

  // Our SETTINGS_HEADER_TABLE_SIZE changed and the server acknowledged it
  // (RFC 9113 §6.5.3).
  setLimit (size) {
    if (size < this.maxSize) this.updateRequired = true
    this.limit = size
    if (capacityFor(size) > this.mask + 1) this.grow(capacityFor(size))
  }

  grow (cap) {
    const names = new Array(cap).fill('')
    const values = new Array(cap).fill('')
    const statuses = new Int16Array(cap)
    // Oldest first, so the newest ends at count - 1.
    for (let k = 0; k < this.count; k++) {
      const slot = (this.newest - this.count + 1 + k) & this.mask
      names[k] = this.names[slot]
      values[k] = this.values[slot]
      statuses[k] = this.statuses[slot]
    }
    this.names = names
    this.values = values
    this.statuses = statuses
    this.mask = cap - 1
    this.newest = (this.count - 1) & this.mask
  }

  // Decodes one whole header block, buf[start..end). Returns the :status
  // (0 when the block has none, -1 when it is not three digits); with
  // wantHeaders, this.headers is the list of fields. Throws a
  // COMPRESSION_ERROR (a connection error) on a block that cannot be
  // decoded; the table is then out of step and the connection is done.
  decode (buf, start, end, wantHeaders) {
    const headers = wantHeaders ? [] : null
    this.headers = headers
    let status = 0
    let i = start
    if (this.updateRequired && (i >= end || (buf[i] & 0xe0) !== 0x20)) {
      throw compressionError(`the header block does not begin with the dynamic table size update our SETTINGS_HEADER_TABLE_SIZE of ${this.limit} requires`)
    }
    // Size updates come first, if at all (§4.2).
    while (i < end && (buf[i] & 0xe0) === 0x20) i = this.sizeUpdate(buf, i, end)
    while (i < end) {
      const b = buf[i]
      if (b >= 0x80) {
        // Indexed field (§6.1).
        let index = b & 0x7f
        if (index === 0x7f) {
          index = this.integer(buf, i, end, 0x7f)
          i = this.pos
        } else i++
        if (index <= STATIC_COUNT) {
          if (index === 0) throw compressionError('an indexed header field with index 0')
          if (status === 0) status = STATIC_STATUS[index]
          if (headers !== null) headers.push(STATIC_NAMES[index], STATIC_VALUES[index])
        } else {
          const slot = this.slot(index)
          if (status === 0) status = this.statuses[slot]
          if (headers !== null) headers.push(this.names[slot], this.values[slot])
        }
        continue
      }
      if (b >= 0x20 && b < 0x40) throw compressionError('a dynamic table size update after a header field')
      // Literal field (§6.2): with incremental indexing (01), without
      // indexing (0000) or never indexed (0001).
      const incremental = b >= 0x40
      const prefix = incremental ? 0x3f : 0x0f
      let index = b & prefix
      if (index === prefix) {
        index = this.integer(buf, i, end, prefix)
        i = this.pos
      } else i++
      const keep = incremental || headers !== null
      let name = ''
      let isStatus = false
      if (index > STATIC_COUNT) {
        const slot = this.slot(index)
        name = this.names[slot]
        isStatus = this.statuses[slot] !== 0
      } else if (index !== 0) {
        name = STATIC_NAMES[index]
        isStatus = index >= STATUS_FIRST && index <= STATUS_LAST
      } else {
        this.literal(buf, i, end)
        i = this.pos
        if (keep) {
          name = this.src.latin1Slice(this.srcStart, this.srcEnd)
          isStatus = name === ':status'
        } else isStatus = this.srcEnd - this.srcStart === 7 && STATUS_BYTES.equals(this.src.subarray(this.srcStart, this.srcEnd))
      }
      if (!keep && !isStatus) {
        // A value nobody reads: checked, not decoded.
        i = this.skipLiteral(buf, i, end)
        continue
      }
      this.literal(buf, i, end)
      i = this.pos
      const fieldStatus = isStatus ? statusOf(this.src, this.srcStart, this.srcEnd) : 0
      if (status === 0) status = fieldStatus
      if (keep) {
        const value = this.src.latin1Slice(this.srcStart, this.srcEnd)
        if (incremental) this.insert(name, value, fieldStatus)
        if (headers !== null) headers.push(name, value)
      }
    }
    this.src = null
    return status
  }

  // A dynamic table size update at buf[i] (§6.3); returns where it ends.
  sizeUpdate (buf, i, end) {
    let size = buf[i] & 0x1f
    if (size === 0x1f) {
      size = this.integer(buf, i, end, 0x1f)
      i = this.pos
    } else i++
    if (size > this.limit) throw compressionError(`a dynamic table size update to ${size}, above our SETTINGS_HEADER_TABLE_SIZE of ${this.limit}`)
    this.maxSize = size
    this.evict(size)
    this.updateRequired = false
    return i
  }

  // An integer whose prefix at buf[i] is all ones (`max`): the rest
  // follows, 7 bits a byte, least significant first (§5.1). Sets this.pos.
  integer (buf, i, end, max) {
    let value = max
    let factor = 1
    for (let n = 1; n <= MAX_INTEGER_BYTES; n++) {
      if (i + n >= end) throw compressionError('the header block ends inside an integer')
      const b = buf[i + n]
      value += (b & 0x7f) * factor
      if (b < 0x80) {
        this.pos = i + n + 1
        return value
      }
      factor *= 128
    }
    throw compressionError(`an integer longer than ${MAX_INTEGER_BYTES + 1} bytes`)
  }

  // The string literal at buf[i] (§5.2): its octets are then
  // this.src[srcStart..srcEnd), and this.pos is after it.
  literal (buf, i, end) {
    const length = this.stringLength(buf, i, end)
    const b = buf[i]
    i = this.pos
    this.pos = i + length
    if (b < 0x80) {
      this.src = buf
      this.srcStart = i
      this.srcEnd = i + length
      return
    }
    // The shortest code is 5 bits: at most 8/5 octets per octet.
    if (this.scratch.length < length * 2) this.scratch = Buffer.allocUnsafe(length * 2)
    const n = huffmanDecode(buf, i, i + length, this.scratch, 0)
    if (n < 0) throw compressionError(HUFFMAN_ERROR)
    this.src = this.scratch
    this.srcStart = 0
    this.srcEnd = n
  }

  // The string literal at buf[i], checked but not decoded; returns where
  // it ends.
  skipLiteral (buf, i, end) {
    const length = this.stringLength(buf, i, end)
    const start = this.pos
    if (buf[i] >= 0x80 && !huffmanValid(buf, start, start + length)) throw compressionError(HUFFMAN_ERROR)
    return start + length
  }

  // The length prefix of the string literal at buf[i] (§5.2): returns
  // its octet count, with this.pos at its first octet.
  stringLength (buf, i, end) {
    if (i >= end) throw compressionError('the header block ends before a string')
    let length = buf[i] & 0x7f
    if (length === 0x7f) length = this.integer(buf, i, end, 0x7f)
    else this.pos = i + 1
    if (length > end - this.pos) throw compressionError('a string runs past the end of the header block')
    return length
  }

  // Where the entry of (dynamic) index `index` is.
  slot (index) {
    const d = index - STATIC_COUNT
    if (d > this.count) throw compressionError(`index ${index} is beyond the ${STATIC_COUNT} static and ${this.count} dynamic table entries`)
    return (this.newest - d + 1) & this.mask
  }

  insert (name, value, status) {
    const size = name.length + value.length + ENTRY_OVERHEAD
    // An entry larger than the table empties it and is not kept (§4.4).
    this.evict(Math.max(this.maxSize - size, 0))
    if (size > this.maxSize) return
    const slot = (this.newest + 1) & this.mask
    this.newest = slot
    this.names[slot] = name
    this.values[slot] = value
    this.statuses[slot] = status
    this.count++
    this.size += size
  }

  // Drops the oldest entries until the table takes at most `room` octets.
  evict (room) {
    while (this.size > room) {
      const slot = (this.newest - this.count + 1) & this.mask
      this.size -= this.names[slot].length + this.values[slot].length + ENTRY_OVERHEAD
      this.names[slot] = ''
      this.values[slot] = ''
      this.statuses[slot] = 0
      this.count--
    }
  }

  // The dynamic table, newest first, as [name, value] pairs.
  entries () {
    const out = []
    for (let d = 1; d <= this.count; d++) {
      const slot = (this.newest - d + 1) & this.mask
      out.push([this.names[slot], this.values[slot]])
    }
    return out
  }
}

// --- Encoding ---------------------------------------------------------------

// An integer with an N-bit prefix (§5.1) whose first byte also carries
// `flags` in its high bits.
function encodeInteger (value, prefixBits, flags = 0) {
  const max = (1 << prefixBits) - 1
  if (value < max) return [flags | value]
  const out = [flags | max]
  value -= max
  while (value >= 128) {
    out.push((value % 128) | 0x80)
    value = Math.floor(value / 128)
  }
  out.push(value)
  return out
}

// A string literal (§5.2), Huffman-coded when that is shorter.
function encodeString (bytes) {
  const h = huffmanLength(bytes)
  if (h < bytes.length) return Buffer.concat([Buffer.from(encodeInteger(h, 7, 0x80)), huffmanEncode(bytes)])
  return Buffer.concat([Buffer.from(encodeInteger(bytes.length, 7, 0)), bytes])
}

// The dynamic table size update instruction (§6.3). The encoder keeps no
// entries, so sending one (with 0) is always right; a server that lowers
// SETTINGS_HEADER_TABLE_SIZE below 4096 may insist on it (nghttp2 does)
// at the start of the next block after our SETTINGS ACK.
function encodeTableSizeUpdate (size) {
  return Buffer.from(encodeInteger(size, 5, 0x20))
}

const STATIC_NAME_INDEX = new Map()
const STATIC_EXACT_INDEX = new Map()
for (let i = STATIC_COUNT; i >= 1; i--) {
  STATIC_NAME_INDEX.set(STATIC_NAMES[i], i)
  STATIC_EXACT_INDEX.set(STATIC_NAMES[i] + '\n' + STATIC_VALUES[i], i)
}

// Values that proxies and the server must never put in a table (§7.1.3).
const SENSITIVE = new Set(['authorization', 'proxy-authorization'])

// One field, never added to the table: indexed when the static table has
// it exactly, else a literal without indexing (never indexed when
// sensitive), with the static name's index when there is one.
function encodeField (name, value) {
  const exact = STATIC_EXACT_INDEX.get(name + '\n' + value)
  if (exact !== undefined) return Buffer.from(encodeInteger(exact, 7, 0x80))
  const flags = SENSITIVE.has(name) ? 0x10 : 0x00
  const nameIndex = STATIC_NAME_INDEX.get(name)
  const valueBytes = encodeString(Buffer.from(value, 'utf8'))
  if (nameIndex !== undefined) return Buffer.concat([Buffer.from(encodeInteger(nameIndex, 4, flags)), valueBytes])
  return Buffer.concat([Buffer.from([flags]), encodeString(Buffer.from(name, 'latin1')), valueBytes])
}

// Connection-specific fields, which HTTP/2 does not carry (RFC 9113
// §8.2.2): Connection, and what RFC 9110 §7.6.1 makes connection-specific.
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade'])

// A field value must not begin or end with whitespace (RFC 9113 §8.2.1);
// in HTTP/1.1 that is optional whitespace around it, not part of it.
function trimOws (str) {
  let s = 0
  let e = str.length
  while (s < e && (str.charCodeAt(s) === 32 || str.charCodeAt(s) === 9)) s++
  while (e > s && (str.charCodeAt(e - 1) === 32 || str.charCodeAt(e - 1) === 9)) e--
  return s === 0 && e === str.length ? str : str.slice(s, e)
}

function checkPath (path) {
  if (typeof path !== 'string' || path.length === 0) throw new InvalidOptionError('path', path, 'must be a non-empty string')
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i)
    if (c <= 32 || c === 127) throw new InvalidOptionError('path', path, 'must not contain spaces or control characters')
  }
}

// The header block of a request, built once per request shape. `headers`
// as the HTTP/1.1 encoder takes them (names in any case; an array value is
// one field per element); a Host header stands for `authority`, as
// clients must send it (RFC 9113 §8.3.1). The user's Content-Length is
// replaced by `contentLength` (the body's, when there is one; the caller
// knows it), so it cannot disagree with the DATA frames.
function encodeRequestHeaders (request) {
  const fields = requestFields(request)
  const parts = []
  for (let k = 0; k < fields.length; k += 2) parts.push(encodeField(fields[k], fields[k + 1]))
  return Buffer.concat(parts)
}

// The fields of a request's header block, checked, in the order they are
// sent: [name, value, name, value…].
function requestFields ({ method = 'GET', scheme = 'http', authority, path = '/', headers, contentLength }) {
  if (typeof method !== 'string' || !isToken(method)) throw new InvalidOptionError('method', method, 'must be an HTTP token such as GET or POST')
  checkPath(path)
  const fields = []
  let host
  if (headers) {
    const names = Object.keys(headers)
    // Fields the Connection header names are connection-specific too.
    const listed = new Set()
    for (const name of names) {
      if (name.toLowerCase() !== 'connection' || headers[name] === undefined || headers[name] === null) continue
      for (const v of [].concat(headers[name])) for (const token of String(v).split(',')) listed.add(token.trim().toLowerCase())
    }
    for (const name of names) {
      const value = headers[name]
      if (value === undefined || value === null) continue
      if (!isToken(name)) throw new InvalidOptionError('headers', name, 'header name is not a valid HTTP token')
      const lower = name.toLowerCase()
      for (const v of Array.isArray(value) ? value : [value]) {
        const str = String(v)
        if (!isValidHeaderValue(str)) throw new InvalidOptionError('headers', name, 'header value must not contain CR, LF or other control characters')
        const trimmed = trimOws(str)
        if (CONNECTION_SPECIFIC.has(lower) || listed.has(lower) || lower === 'content-length') continue
        if (lower === 'host') {
          if (host === undefined) host = trimmed
          continue
        }
        // TE may only say that trailers are welcome (§8.2.2).
        if (lower === 'te' && trimmed.toLowerCase() !== 'trailers') continue
        fields.push(lower, trimmed)
      }
    }
  }
  if (host !== undefined) authority = host
  if (authority !== undefined && authority !== null && (typeof authority !== 'string' || !isValidHeaderValue(authority))) {
    throw new InvalidOptionError('host', authority, 'must be a string without CR, LF or other control characters')
  }
  const out = [':method', method, ':scheme', scheme]
  if (authority) out.push(':authority', authority)
  out.push(':path', path, ...fields)
  if (typeof contentLength === 'number') out.push('content-length', String(contentLength))
  return out
}

// What a literal field without indexing (never indexed when sensitive)
// starts with, up to its value's string (§6.2.2, §6.2.3): for a value
// written per request after it.
function literalPrefix (name) {
  const flags = SENSITIVE.has(name) ? 0x10 : 0x00
  const nameIndex = STATIC_NAME_INDEX.get(name)
  if (nameIndex !== undefined) return Buffer.from(encodeInteger(nameIndex, 4, flags))
  return Buffer.concat([Buffer.from([flags]), encodeString(Buffer.from(name, 'latin1'))])
}

module.exports = {
  Decoder,
  encodeRequestHeaders,
  requestFields,
  literalPrefix,
  encodeTableSizeUpdate,
  encodeInteger,
  encodeString,
  encodeField,
  STATIC_TABLE,
  DEFAULT_TABLE_SIZE
}
