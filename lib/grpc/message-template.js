'use strict'

// {{…}} templates in a call's message (--data): its JSON text filled per
// call by the template engine HTTP bodies use (lib/client/templates.js,
// lib/http2/request-template.js: {{seq}} unique across the run's
// connections, workers and shards, the random ones drawn from its seed),
// then made the message with protobufjs (fromObject, encode) and framed.
// A template stands in the JSON text for its value's characters, as it
// does in a body: inside quotes it is a string ("{{uuid}}"), bare a
// number ({{int 1 9}}, {{seq}}).
//
// A config is plain data (it is posted to worker threads as such), so
// the run's body is an envelope of the message: a marker, the message
// type's definition (protobufjs's JSON of its root) and name, whether it
// is gzipped, and the JSON text. Each thread reads an envelope once.

const zlib = require('zlib')
const { markTemplate, createState } = require('../client/templates')
const { H2TemplateWriter, textOps } = require('../http2/request-template')
const { frameMessage } = require('./wire')
const { CountedError } = require('../core/errors')
// Registers AC_GRPC_DATA_FILL, which a call's fill may count.
require('./errors')

const MARK = '\u0000grpc-message-template\n'
// A message whose type the server's reflection is to define, before the
// run (reflection.js): the call, the JSON as given, where it was given
// and whether it is gzipped, until then.
const PENDING = '\u0000grpc-message-by-reflection\n'

function pendingEnvelope ({ call, where, text, gzip }) {
  return PENDING + JSON.stringify({ call, where, text, gzip })
}

function isPending (body) {
  return typeof body === 'string' && body.startsWith(PENDING)
}

function openPending (body) {
  return JSON.parse(body.slice(PENDING.length))
}

function envelope ({ root, type, gzip, text }) {
  return MARK + JSON.stringify({ root, type, gzip }) + '\n' + text
}

function isEnvelope (body) {
  return typeof body === 'string' && body.startsWith(MARK)
}

// An envelope → { type (protobufjs's), gzip, text }, once per thread.
const opened = new Map()
function openEnvelope (body) {
  let found = opened.get(body)
  if (found !== undefined) return found
  const protobuf = require('protobufjs')
  const cut = body.indexOf('\n', MARK.length)
  const head = JSON.parse(body.slice(MARK.length, cut))
  const type = protobuf.Root.fromJSON(head.root).lookupType(head.type)
  found = { type, gzip: head.gzip, text: body.slice(cut + 1) }
  opened.set(body, found)
  return found
}

// A text with holes → what fills it: the ops HTTP/2's writer writes and
// a writer of its own to write them with (conn: the connection's index,
// for {{conn}}).
function compileText (text, conn, name = 'data') {
  const marked = markTemplate({ path: '/', headers: {}, body: text }, { name })
  const ops = []
  const args = []
  textOps(marked === null ? { parts: [text], holes: [] } : marked.cut(marked.req.body), conn, 'utf8', ops, args)
  return { ops: Uint8Array.from(ops), args, writer: new H2TemplateWriter(null, null), holes: marked === null ? [] : marked.holes }
}

// The text filled once from state.
function fillText (compiled, state) {
  const writer = compiled.writer
  writer.seq = -1
  writer.now = -1
  const end = writer.write(compiled.ops, compiled.args, 0, state)
  return writer.scratch.utf8Slice(0, end)
}

// The framed message of a filled JSON text.
function encodeFilled (type, gzip, text) {
  const bytes = type.encode(type.fromObject(JSON.parse(text))).finish()
  return gzip ? frameMessage(zlib.gzipSync(bytes), true) : frameMessage(bytes)
}

// A call with a templated message, written per call: the message filled,
// encoded and framed, then the call's frames by HTTP/2's writer (head:
// an H2TemplateWriter of the call's header block, its holes too), its
// body the message. One {{seq}} per call, in the message and the
// metadata alike.
class CallWriter {
  constructor (head, message, type, gzip) {
    this.head = head
    this.message = message
    this.type = type
    this.gzip = gzip
    this.seq = -1
    this.state = null
    const self = this
    this.callState = {
      random: null,
      nextSeq () {
        if (self.seq === -1) self.seq = self.state.nextSeq()
        return self.seq
      },
      nextLine: (hole) => self.state.nextLine(hole)
    }
  }

  fresh (state) {
    this.state = state
    this.seq = -1
    this.callState.random = state.random
    const text = fillText(this.message, this.callState)
    try {
      this.head.body = encodeFilled(this.type, this.gzip, text)
    } catch (err) {
      throw new CountedError('AC_GRPC_DATA_FILL', `--data, filled from its templates, does not fit ${this.type.fullName.slice(1)}: ${err.message}`)
    }
    return this.head.fresh(this.callState)
  }
}

// The sample fills a check before the run makes: enough that every
// choice of a {{pick}} and every line of a {{line FILE}} (up to a
// thousand) is put in once, the random ones from the lowest value to the
// highest. → the filled texts.
const MOST_SAMPLES = 1001

function sampleFills (text) {
  const compiled = compileText(text, 0)
  let widest = 1
  for (const hole of compiled.holes) {
    if (hole.kind === 'pick') widest = Math.max(widest, hole.options.length)
    if (hole.kind === 'line') widest = Math.max(widest, hole.lines.length)
  }
  const count = Math.min(MOST_SAMPLES, widest + 1)
  let r = 0
  const state = createState({ random: () => r })
  const out = []
  for (let k = 0; k < count; k++) {
    r = Math.min(k / (count - 1), 0.999999)
    out.push(fillText(compiled, state))
  }
  return out
}

// One fill of a text, as the first call's would be (the pre-flight call).
function sampleFill (text) {
  return fillText(compileText(text, 0), createState({ random: () => 0 }))
}

module.exports = { pendingEnvelope, isPending, openPending, envelope, isEnvelope, openEnvelope, compileText, fillText, encodeFilled, CallWriter, sampleFills, sampleFill, MARK }
