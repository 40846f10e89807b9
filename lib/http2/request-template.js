'use strict'

// {{…}} templates (lib/http1/template.js) filled into HTTP/2 requests. The
// holes are those HTTP/1.1 finds, drawing from the same run state ({{seq}}
// numbered as over HTTP/1.1, unique across workers and shards; the random
// ones from the same seed, in the same order: path, headers, body).
//
// A request is compiled once: each field of its header block without a
// hole is HPACK-encoded as request-frames.js encodes it; a field with
// holes is a literal without indexing whose name part is encoded once and
// whose value (a plain string, no Huffman coding) is written per request,
// its length in front. A body with holes is written per request too, and
// its content-length field after it. Each request's frames go into a
// shared slab, as HTTP/1.1's template-writer.js does, never written again
// (a body that waits for a window is sent from there later).

const { markTemplate } = require('../client/templates')
const { writeNumber, writeUuid, UUID_LENGTH } = require('../client/write-bytes')
const { STATIC, addOp } = require('../client/template-ops')
const { requestFields, literalPrefix, encodeField, encodeInteger } = require('./hpack')
const { encodeHeaders, encodeData, DEFAULT_MAX_FRAME_SIZE } = require('./frames')
const { checkBody } = require('../core/http-syntax')

// Op codes of a compiled request (STATIC, 0, copies bytes).
const FIELD = 1 // a field's value starts: its length goes in front
const END_FIELD = 2
const SEQ = 3
const UUID = 4
const INT = 5
const PICK = 6
const NOW = 7
const LINE = 8

// The most bytes a number's text takes (-1.7976931348623157e+308).
const NUMBER_MAX = 24
const FRAME_HEADER = 9
const HEADERS = 0x1
const DATA = 0x0
const END_STREAM = 0x1
const END_HEADERS = 0x4
// Methods that state a length even without a body (request-frames.js).
const STATES_LENGTH = new Set(['POST', 'PUT', 'PATCH'])
const CONTENT_LENGTH = literalPrefix('content-length')

// Frames of requests cut from a shared slab, never written again.
const POOL_SIZE = 64 * 1024
let pool = null
let poolAt = 0

function take (size) {
  if (pool === null || pool.length - poolAt < size) {
    pool = Buffer.allocUnsafeSlow(Math.max(POOL_SIZE, size))
    poolAt = 0
  }
  const start = poolAt
  poolAt = (start + size + 7) & ~7
  return pool.subarray(start, start + size)
}

class H2TemplateWriter {
  // ops/args: the header block's; body: null (no body), a Buffer (the
  // same every time) or { ops, args } (with holes); statesLength: false
  // when a body with holes goes without its content-length.
  constructor (head, body, statesLength = true) {
    this.head = head
    this.body = body
    this.statesLength = statesLength
    this.scratch = Buffer.allocUnsafeSlow(1024)
    this.view = new DataView(this.scratch.buffer, this.scratch.byteOffset, this.scratch.length)
    this.seq = -1
    this.now = -1
  }

  room (pos, need) {
    if (this.scratch.length - pos >= need) return
    const old = this.scratch
    this.scratch = Buffer.allocUnsafeSlow(Math.max(old.length * 2, pos + need))
    old.copy(this.scratch, 0, 0, pos)
    this.view = new DataView(this.scratch.buffer, this.scratch.byteOffset, this.scratch.length)
  }

  // The ops from pos on → the end. A field's value is written one byte
  // after its start (room for a length below 127) and moved up when its
  // length takes more.
  write (ops, args, pos, state) {
    let fieldAt = -1
    for (let i = 0; i < ops.length; i++) {
      switch (ops[i]) {
        case STATIC: {
          const bytes = args[i]
          this.room(pos, bytes.length)
          this.scratch.set(bytes, pos)
          pos += bytes.length
          break
        }
        case FIELD:
          this.room(pos, 1)
          fieldAt = pos
          pos += 1
          break
        case END_FIELD:
          pos = this.closeField(fieldAt, pos)
          break
        case SEQ:
          if (this.seq === -1) this.seq = state.nextSeq()
          this.room(pos, NUMBER_MAX)
          pos = writeNumber(this.scratch, pos, this.seq)
          break
        case NOW:
          if (this.now === -1) this.now = Date.now()
          this.room(pos, NUMBER_MAX)
          pos = writeNumber(this.scratch, pos, this.now)
          break
        case UUID:
          this.room(pos, UUID_LENGTH)
          pos = writeUuid(this.view, pos, state.random)
          break
        case INT: {
          const hole = args[i]
          this.room(pos, NUMBER_MAX)
          pos = writeNumber(this.scratch, pos, hole.low + Math.floor(state.random() * hole.span))
          break
        }
        default: {
          // PICK, LINE
          const arg = args[i]
          const v = ops[i] === PICK ? arg[Math.floor(state.random() * arg.length)] : state.nextLine(arg)
          this.room(pos, v.length)
          this.scratch.set(v, pos)
          pos += v.length
        }
      }
    }
    return pos
  }

  // The value from at + 1 to end: its length in front (§5.2, H = 0).
  closeField (at, end) {
    const length = end - at - 1
    if (length < 127) {
      this.scratch[at] = length
      return end
    }
    const prefix = encodeInteger(length, 7, 0)
    const extra = prefix.length - 1
    this.room(end, extra)
    this.scratch.copyWithin(at + prefix.length, at + 1, end)
    for (let k = 0; k < prefix.length; k++) this.scratch[at + k] = prefix[k]
    return end + extra
  }

  // One request: { frames, head, block, body } as request-frames.js makes
  // them. {{seq}} and {{now}} are drawn once per request.
  fresh (state) {
    this.seq = -1
    this.now = -1
    let end = this.write(this.head.ops, this.head.args, 0, state)
    const blockEnd = end
    let body = this.body
    if (body !== null && !Buffer.isBuffer(body)) {
      end = this.write(body.ops, body.args, end, state)
      if (!this.statesLength) return this.frame(this.scratch.subarray(0, blockEnd), null, this.scratch.subarray(blockEnd, end))
      // content-length, from the body just written, after the block: it
      // goes into the frames between the block and the body.
      const length = end - blockEnd
      this.room(end, CONTENT_LENGTH.length + 1 + NUMBER_MAX)
      this.scratch.set(CONTENT_LENGTH, end)
      const fieldEnd = this.closeField(end + CONTENT_LENGTH.length, writeNumber(this.scratch, end + CONTENT_LENGTH.length + 1, length))
      return this.frame(this.scratch.subarray(0, blockEnd), this.scratch.subarray(end, fieldEnd), this.scratch.subarray(blockEnd, end))
    }
    if (body !== null && body.length === 0) body = null
    return this.frame(this.scratch.subarray(0, blockEnd), null, body)
  }

  // The frames of a block (in one or two pieces) and a body, copied from
  // where they are.
  frame (block, more, body) {
    const blockLength = block.length + (more === null ? 0 : more.length)
    if (blockLength > DEFAULT_MAX_FRAME_SIZE || (body !== null && body.length > DEFAULT_MAX_FRAME_SIZE)) {
      // Rare: CONTINUATION or several DATA frames, as request-frames.js cuts them.
      const ownBlock = more === null ? Buffer.from(block) : Buffer.concat([block, more])
      const headers = encodeHeaders(0, ownBlock, body === null, DEFAULT_MAX_FRAME_SIZE)
      if (body === null) return { frames: headers, head: null, block: ownBlock, body: null }
      const ownBody = Buffer.from(body)
      return { frames: Buffer.concat([headers, encodeData(0, ownBody, true, DEFAULT_MAX_FRAME_SIZE)]), head: headers, block: ownBlock, body: ownBody }
    }
    const headSize = FRAME_HEADER + blockLength
    const size = headSize + (body === null ? 0 : FRAME_HEADER + body.length)
    const out = take(size)
    writeFrameHeader(out, 0, blockLength, HEADERS, END_HEADERS | (body === null ? END_STREAM : 0))
    block.copy(out, FRAME_HEADER)
    if (more !== null) more.copy(out, FRAME_HEADER + block.length)
    if (body === null) return { frames: out, head: null, block: out.subarray(FRAME_HEADER, headSize), body: null }
    writeFrameHeader(out, headSize, body.length, DATA, END_STREAM)
    body.copy(out, headSize + FRAME_HEADER)
    return { frames: out, head: out.subarray(0, headSize), block: out.subarray(FRAME_HEADER, headSize), body: out.subarray(headSize + FRAME_HEADER) }
  }
}

// A frame's header on stream 0 (the client sets the stream as it writes).
function writeFrameHeader (buf, o, length, type, flags) {
  buf[o] = length >>> 16
  buf[o + 1] = (length >>> 8) & 0xff
  buf[o + 2] = length & 0xff
  buf[o + 3] = type
  buf[o + 4] = flags
  buf.writeUInt32BE(0, o + 5)
}

// The ops of a text with holes (cut()'s parts and holes), encoded as
// `encoding` says ('utf8' for strings, 'latin1' for a Buffer's text).
function textOps ({ parts, holes }, conn, encoding, ops, args) {
  const add = (op, arg) => addOp(ops, args, op, arg)
  for (let i = 0; i <= holes.length; i++) {
    if (parts[i].length > 0) add(STATIC, Buffer.from(parts[i], encoding))
    if (i === holes.length) break
    const hole = holes[i]
    switch (hole.kind) {
      case 'conn': add(STATIC, Buffer.from(String(conn), 'latin1')); break
      case 'seq': add(SEQ, null); break
      case 'now': add(NOW, null); break
      case 'uuid': add(UUID, null); break
      case 'int': add(INT, hole); break
      case 'pick': add(PICK, hole.options.map((v) => Buffer.from(v, 'latin1'))); break
      default: add(LINE, { file: hole.file, lines: hole.lines.map((v) => Buffer.from(v, 'latin1')) })
    }
  }
}

// template: the sequence entry's { method, path, headers, body }; base:
// the sequence's (host); scheme: 'http' or 'https'; conn: the
// connection's index; statesLength: as encodeH2Request takes it (false:
// no content-length). → a writer, or null when it has no hole.
function compileH2 (template, base, scheme, name, conn, { statesLength = true } = {}) {
  const marked = markTemplate(template, { name })
  if (marked === null) return null
  const { req, bodyHoles, cut } = marked
  const method = req.method || 'GET'
  let body = null
  if (bodyHoles) {
    const ops = []
    const args = []
    textOps(cut(Buffer.isBuffer(req.body) ? req.body.latin1Slice() : req.body), conn, Buffer.isBuffer(req.body) ? 'latin1' : 'utf8', ops, args)
    body = { ops: Uint8Array.from(ops), args }
  } else {
    let data = checkBody('body', req.body)
    if (typeof data === 'string') data = Buffer.from(data)
    if (data !== undefined && data.length > 0) body = data
  }
  const contentLength = bodyHoles || !statesLength ? undefined : (body !== null ? body.length : (STATES_LENGTH.has(method) ? 0 : undefined))
  const fields = requestFields({ method, scheme, authority: base.host, path: req.path, headers: req.headers, contentLength })
  const ops = []
  const args = []
  for (let k = 0; k < fields.length; k += 2) {
    const value = fields[k + 1]
    const pieces = cut(value)
    if (pieces.holes.length === 0) {
      addOp(ops, args, STATIC, encodeField(fields[k], value))
      continue
    }
    addOp(ops, args, STATIC, literalPrefix(fields[k]))
    ops.push(FIELD)
    args.push(null)
    textOps(pieces, conn, 'utf8', ops, args)
    ops.push(END_FIELD)
    args.push(null)
  }
  return new H2TemplateWriter({ ops: Uint8Array.from(ops), args }, body, statesLength)
}

module.exports = { compileH2, H2TemplateWriter, textOps }
