'use strict'

// Writes compiled templates (template.js) as bytes, straight into a
// buffer: the static chunks are copied as they are, the holes' values
// written in place (digits, hex, pre-made bytes), with no string made
// per request. A connection's batches go into one reused slab: where a
// request lands where it did last time and its holes keep their widths,
// its static chunks are there already and only the holes are written.

const { writeDigits, writeNumber, writeUuid, UUID_LENGTH } = require('../client/write-bytes')
const { STATIC, addOp } = require('../client/template-ops')

// Op codes: what each step of a request writes (STATIC, 0, copies bytes).
const SEQ = 1
const UUID = 2
const INT = 3
const PICK = 4
const NOW = 5
const LINE = 6
// Content-Length, once the body is written; BODY marks where it starts.
const LENGTH = 7
const BODY = 8

// The most bytes a number's text can take (-1.7976931348623157e+308).
const NUMBER_MAX = 24

// Bytes for requests the caller keeps (fresh()): cut from a shared slab,
// as Buffer.allocUnsafe cuts from its pool, and never written again.
const POOL_SIZE = 64 * 1024
let pool = null
let poolAt = 0

class TemplateWriter {
  // compiled: compile()'s { head, body }; conn: the connection's index,
  // constant for this writer, so {{conn}} is part of the static bytes.
  constructor (compiled, conn) {
    const ops = []
    const args = []
    const add = (op, arg) => addOp(ops, args, op, arg)
    // The most bytes of the holes with a bounded width, and the mean bytes
    // of those with a value from a list (pick, line): a slab is sized for
    // the mean and grows when a long value comes.
    let fixed = 0
    let mean = 0
    const addHole = (hole) => {
      switch (hole.kind) {
        case 'conn': return add(STATIC, Buffer.from(String(conn), 'latin1'))
        case 'seq': fixed += NUMBER_MAX; return add(SEQ, null)
        case 'now': fixed += NUMBER_MAX; return add(NOW, null)
        case 'uuid': fixed += UUID_LENGTH; return add(UUID, null)
        case 'int': fixed += NUMBER_MAX; return add(INT, hole)
        case 'pick': {
          const values = hole.options.map((v) => Buffer.from(v, 'latin1'))
          mean += values.reduce((sum, v) => sum + v.length, 0) / values.length
          return add(PICK, values)
        }
        case 'line': {
          const lines = hole.lines.map((v) => Buffer.from(v, 'latin1'))
          mean += lines.reduce((sum, v) => sum + v.length, 0) / lines.length
          // state.nextLine keeps one cursor per file.
          return add(LINE, { file: hole.file, lines })
        }
        case 'contentLength': fixed += NUMBER_MAX; return add(LENGTH, null)
      }
    }
    const addPart = ({ parts, holes }) => {
      for (let i = 0; i < holes.length; i++) {
        add(STATIC, Buffer.from(parts[i], 'latin1'))
        addHole(holes[i])
      }
      add(STATIC, Buffer.from(parts[holes.length], 'latin1'))
    }
    addPart(compiled.head)
    if (compiled.body !== null) {
      add(BODY, null)
      addPart(compiled.body)
    }
    for (let i = 0; i < ops.length; i++) if (ops[i] === STATIC) fixed += args[i].length
    this.ops = Uint8Array.from(ops)
    this.args = args
    // Room enough for a request but its pick and line values.
    this.fixed = fixed
    this.typical = Math.ceil(fixed + mean)
    // Content-Length's digits take the room of the most a body can have
    // until the body is written, then what is left over closes up: the
    // bytes after it move, so nothing stays in place.
    this.reusable = compiled.body === null
    this.slab = null
    this.slabView = null
    // Per request slot of the slab: where it started and each op's width,
    // as last written.
    this.starts = new Int32Array(0)
    this.widths = new Int32Array(0)
    // The slab's views of the last batches, by their number of requests:
    // the next batch of as many is most often as long.
    this.views = []
  }

  // n requests as one buffer, its memory written over by the next call
  // unless kept(): what a connection writes at once.
  batch (state, n) {
    if (this.slab === null) this.newSlab(Math.max(1024, this.typical * n))
    if (this.starts.length < n) this.addSlots(n)
    const starts = this.starts
    let pos = 0
    for (let k = 0; k < n; k++) pos = this.write(pos, k, state)
    // The slots this batch did not reach may have been written over.
    for (let k = n; k < starts.length; k++) if (starts[k] < pos) starts[k] = -1
    const view = this.views[n]
    if (view !== undefined && view.length === pos) return view
    return (this.views[n] = this.slab.subarray(0, pos))
  }

  // The last batch is still held (the socket queued it): the next one
  // goes into a new slab.
  kept () {
    this.slab = null
    this.slabView = null
    this.views = []
    this.starts.fill(-1)
  }

  newSlab (size) {
    this.slab = Buffer.allocUnsafeSlow(size)
    this.slabView = new DataView(this.slab.buffer, this.slab.byteOffset, size)
    this.starts.fill(-1)
    this.views = []
  }

  // A larger slab with the same bytes where they were.
  grow (need) {
    const old = this.slab
    this.slab = Buffer.allocUnsafeSlow(Math.max(need, old.length * 2))
    this.slabView = new DataView(this.slab.buffer, this.slab.byteOffset, this.slab.length)
    old.copy(this.slab, 0, 0, old.length)
    this.views = []
  }

  addSlots (n) {
    const starts = new Int32Array(n).fill(-1)
    starts.set(this.starts)
    const widths = new Int32Array(n * this.ops.length)
    widths.set(this.widths)
    this.starts = starts
    this.widths = widths
  }

  // n requests as a buffer of their own: written in the slab, then copied.
  fresh (state, n) {
    const bytes = this.batch(state, n)
    if (pool === null || pool.length - poolAt < bytes.length) {
      pool = Buffer.allocUnsafeSlow(Math.max(POOL_SIZE, bytes.length))
      poolAt = 0
    }
    const start = poolAt
    bytes.copy(pool, start)
    // Aligned as Buffer's own pool aligns.
    poolAt = (start + bytes.length + 7) & ~7
    return pool.subarray(start, start + bytes.length)
  }

  // Request k of the batch, at pos; → its end. {{seq}} and {{now}} are
  // drawn once per request (a path and a body that both say {{seq}} say
  // the same number), at their first hole: the holes draw in the order
  // they are sent in.
  write (pos, k, state) {
    if (this.slab.length - pos < this.fixed) this.grow(pos + this.fixed)
    let buf = this.slab
    let dv = this.slabView
    const ops = this.ops
    const args = this.args
    const widths = this.widths
    const base = k * ops.length
    // Whether the bytes from pos on are this request's from last time,
    // static chunks included.
    const reusable = this.reusable
    let same = reusable && this.starts[k] === pos
    this.starts[k] = pos
    let seq = -1
    let now = -1
    let lengthAt = -1
    let bodyAt = -1
    for (let i = 0; i < ops.length; i++) {
      const start = pos
      switch (ops[i]) {
        case STATIC: {
          const bytes = args[i]
          if (!same) buf.set(bytes, pos)
          pos += bytes.length
          continue
        }
        case SEQ:
          if (seq === -1) seq = state.nextSeq()
          pos = writeNumber(buf, pos, seq)
          break
        case UUID:
          // Always as wide: nothing after it moves.
          pos = writeUuid(dv, pos, state.random)
          continue
        case INT: {
          const hole = args[i]
          pos = writeNumber(buf, pos, hole.low + Math.floor(state.random() * hole.span))
          break
        }
        case PICK:
        case LINE: {
          const arg = args[i]
          const v = ops[i] === PICK ? arg[Math.floor(state.random() * arg.length)] : state.nextLine(arg)
          if (buf.length - pos < v.length + this.fixed) {
            this.grow(pos + v.length + this.fixed)
            buf = this.slab
            dv = this.slabView
          }
          buf.set(v, pos)
          pos += v.length
          break
        }
        case NOW:
          if (now === -1) now = Date.now()
          pos = writeNumber(buf, pos, now)
          break
        case LENGTH:
          lengthAt = pos
          pos += NUMBER_MAX
          break
        case BODY:
          bodyAt = pos
          break
      }
      if (reusable) {
        if (same && widths[base + i] !== pos - start) same = false
        widths[base + i] = pos - start
      }
    }
    if (lengthAt !== -1) {
      const end = writeDigits(buf, lengthAt, pos - bodyAt)
      const spare = lengthAt + NUMBER_MAX - end
      buf.copyWithin(end, end + spare, pos)
      pos -= spare
    }
    return pos
  }
}

module.exports = { TemplateWriter }
