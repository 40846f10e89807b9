'use strict'

// The requests one connection sends, in order, round and round. Entries
// without hooks are encoded once and reused as they are; only entries with
// a setupRequest hook, or with [<id>] to replace, are encoded per request.
//
// `context` starts as a deep copy of initialContext and is reset whenever
// the sequence starts over: when it wraps around from its last entry to
// its first, and when a setupRequest hook returns nothing (a reset).
//
// What a request is encoded into is the protocol's (`encoding`): HTTP/1.1's
// bytes by default, which {{…}} templates and [<id>] tags are spliced
// into; HTTP/2's frames (lib/http2/request-frames.js) are encoded again
// for each request that has ids, and take no templates.

const { encodeRequest } = require('./request-encoder')
const { hasTemplate, compile } = require('./template')
const { InvalidOptionError, HookError } = require('../core/errors')
const { checkBody } = require('../core/http-syntax')

const ID_TAG = '[<id>]'
// The tag as it looks once a URL has been percent-encoded.
const ID_TAG_ENCODED = '[%3Cid%3E]'

// next() returns this when the request is a promise still settling; the
// promise is then in `sequence.pending`.
const PENDING = Object.freeze({ pending: true })

const HTTP1 = Object.freeze({ encode: encodeRequest, splices: true })

const { loadFunction } = require('../core/load-function')

// A deep copy as lodash.clonedeep makes it (which autocannon uses): plain
// data is copied, prototypes are kept, functions are shared.
function cloneDeep (value, seen) {
  if (value === null || typeof value !== 'object') return value
  if (seen === undefined) seen = new Map()
  else if (seen.has(value)) return seen.get(value)
  let out
  if (Array.isArray(value)) {
    out = new Array(value.length)
    seen.set(value, out)
    for (let i = 0; i < value.length; i++) out[i] = cloneDeep(value[i], seen)
    return out
  }
  if (Buffer.isBuffer(value)) out = Buffer.from(value)
  else if (ArrayBuffer.isView(value)) out = value.slice()
  else if (value instanceof Date) out = new Date(value.getTime())
  else if (value instanceof RegExp) out = value
  else if (value instanceof Map) {
    out = new Map()
    seen.set(value, out)
    for (const [k, v] of value) out.set(k, cloneDeep(v, seen))
    return out
  } else if (value instanceof Set) {
    out = new Set()
    seen.set(value, out)
    for (const v of value) out.add(cloneDeep(v, seen))
    return out
  } else {
    out = Object.create(Object.getPrototypeOf(value))
    seen.set(value, out)
    for (const key of Object.keys(value)) out[key] = cloneDeep(value[key], seen)
    return out
  }
  seen.set(value, out)
  return out
}

function cloneContext (initial) {
  return initial === undefined || initial === null ? {} : cloneDeep(initial)
}

// Ids have a fixed length (as autocannon's hyperids do), so a request
// with ids in its body keeps one Content-Length: a prefix unique to this
// process and thread (time, randomness, thread id), then a counter.
const ID_LENGTH = 27
let idPrefix = null
let idCounter = 0
// Made by the first sequence that replaces ids, before anything is sent:
// worker_threads (for the thread id) is ~0.5 ms to load, for runs that
// have no ids.
function makeIdPrefix () {
  if (idPrefix !== null) return
  idPrefix = Date.now().toString(36).slice(-8).padStart(8, '0') +
    Math.random().toString(36).slice(2).padEnd(7, '0').slice(0, 7) +
    (require('worker_threads').threadId % 1296).toString(36).padStart(2, '0') + '-'
}
function freshId () {
  return idPrefix + (idCounter++).toString(36).padStart(ID_LENGTH - idPrefix.length, '0')
}
// Stands for the id in a pre-encoded request; printable, so the encoder
// accepts it anywhere, and too random to occur by chance.
const ID_MARKER = ('~' + Array.from({ length: 4 }, () => Math.random().toString(36).slice(2, 9)).join('') + '~'.repeat(ID_LENGTH)).slice(0, ID_LENGTH - 1) + '~'

function hasIdTag (value) {
  if (typeof value === 'string') return value.includes(ID_TAG)
  if (Buffer.isBuffer(value)) return value.includes(ID_TAG)
  return false
}

function replaceAll (str, tag, id) {
  return str.includes(tag) ? str.split(tag).join(id) : str
}

function replaceBody (body, id) {
  if (typeof body === 'string') return replaceAll(body, ID_TAG, id)
  if (Buffer.isBuffer(body) && body.includes(ID_TAG)) return Buffer.from(replaceAll(body.latin1Slice(0, body.length), ID_TAG, id), 'latin1')
  return body
}

// The request with every [<id>] in its path (also percent-encoded),
// header values and body replaced by one id; the same object when it has
// none.
function replaceIds (req, id) {
  let out = req
  const path = req.path
  if (typeof path === 'string' && (path.includes(ID_TAG) || path.includes(ID_TAG_ENCODED))) {
    out = { ...req, path: replaceAll(replaceAll(path, ID_TAG, id), ID_TAG_ENCODED, id) }
  }
  const body = replaceBody(req.body, id)
  if (body !== req.body) {
    if (out === req) out = { ...req }
    out.body = body
  }
  const headers = req.headers
  if (headers) {
    let copied = null
    for (const k of Object.keys(headers)) {
      const v = headers[k]
      if (typeof v === 'string' && v.includes(ID_TAG)) {
        if (copied === null) copied = { ...headers }
        copied[k] = replaceAll(v, ID_TAG, id)
      }
    }
    if (copied !== null) {
      if (out === req) out = { ...req }
      out.headers = copied
    }
  }
  return out
}

function hasHeader (headers, lower) {
  for (const k of Object.keys(headers)) if (k.toLowerCase() === lower) return true
  return false
}

function hookName (name, hook) {
  return typeof hook === 'string' ? `${name} (${hook})` : name
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE'])

function isHeadMethod (method) {
  return method === 'HEAD' || (typeof method === 'string' && method.toUpperCase() === 'HEAD')
}

class RequestSequence {
  // base: {method, path, headers, body, host, auth, absoluteForm}; entries:
  // requests[]. absoluteForm: the requests go to an HTTP proxy (see
  // encodeRequest).
  // order: { pick() → entry index } shared by a run's connections
  // (--targets, targets.js), instead of each going round on its own.
  // templates: the run's state for {{…}} holes (template.js); conn: this
  // connection's index, for {{conn}}.
  // encoding: { encode(req, absoluteForm) → what the protocol writes,
  // splices } where splices says whether that is HTTP/1.1's bytes, which
  // templates and ids are spliced into.
  constructor (base, entries, { idReplacement = false, initialContext, order = null, templates = null, conn = 0, encoding = HTTP1 } = {}) {
    this.base = base
    // What next() returns for a request still settling (for the clients
    // that cannot require this file).
    this.PENDING = PENDING
    this.encodeRequest = encoding.encode
    this.splices = encoding.splices
    this.order = order
    this.templates = templates
    this.conn = conn
    this.idReplacement = idReplacement
    if (idReplacement) makeIdPrefix()
    this.initialContext = initialContext
    this.context = cloneContext(initialContext)
    // false once the context has been used since it was (re)made.
    this.fresh = true
    this.index = 0
    // Set by next(): the entry the returned bytes belong to.
    this.lastEntry = 0
    this.lastIsHead = false
    this.pending = null
    this.onReset = null
    this.setEntries(entries)
  }

  setEntries (entries) {
    if (entries !== undefined && entries !== null && !Array.isArray(entries)) {
      throw new InvalidOptionError('requests', entries, 'must be an array of request objects')
    }
    const list = entries && entries.length ? entries : [{}]
    this.named = !!(entries && entries.length)
    this.entries = list.map((e, i) => this.makeEntry(e, i))
    this.index = 0
    this.lastEntry = 0
    this.refresh()
  }

  // Recomputes what the whole sequence is like after entries changed.
  refresh () {
    const entries = this.entries
    this.hasOnResponse = entries.some((e) => e.onResponse)
    this.usesContext = entries.some((e) => e.onResponse || e.setupRequest)
    this.allStatic = entries.every((e) => e.bytes !== null)
    // Whether a request may be sent again when the server closed its
    // connection before answering (RFC 9110 §9.2.2's idempotent methods;
    // not when a setupRequest hook makes the request, which may be any).
    this.idempotent = entries.every((e) => !e.setupRequest && IDEMPOTENT.has(String(e.template.method).toUpperCase()))
    // Concatenated runs of static entries, by start index and length.
    this.runs = null
  }

  makeEntry (e, i) {
    if (e === null || typeof e !== 'object') {
      throw new InvalidOptionError(`requests[${i}]`, e, 'must be an object')
    }
    const name = this.named ? `requests[${i}]` : 'request'
    const headers = { ...this.base.headers, ...(e.headers || {}) }
    if (this.base.auth && !hasHeader(headers, 'authorization')) headers.Authorization = this.base.auth
    const template = {
      method: e.method || this.base.method,
      path: e.path || this.base.path,
      headers,
      body: e.body !== undefined ? e.body : this.base.body
    }
    const setupRequest = loadFunction(e.setupRequest, `${name}.setupRequest`)
    const onResponse = loadFunction(e.onResponse, `${name}.onResponse`)
    const entry = {
      name,
      template,
      setupRequest,
      onResponse,
      // For errors: the hook as the user gave it (a function or a file).
      setupRequestName: hookName(`${name}.setupRequest`, e.setupRequestFile || e.setupRequest),
      onResponseName: hookName(`${name}.onResponse`, e.onResponseFile || e.onResponse),
      bytes: null,
      idParts: null,
      compiled: null,
      // Writes the compiled template's requests (template-writer.js).
      writer: null,
      isHead: false,
      hasIds: false
    }
    this.prepare(entry)
    return entry
  }

  prepare (entry) {
    const t = entry.template
    entry.isHead = isHeadMethod(t.method)
    entry.hasIds = this.idReplacement && (hasIdTag(t.body) || hasIdTag(t.path) ||
      (typeof t.path === 'string' && t.path.includes(ID_TAG_ENCODED)) ||
      Object.keys(t.headers).some((k) => hasIdTag(t.headers[k])))
    entry.bytes = null
    entry.idParts = null
    entry.compiled = null
    entry.writer = null
    if (entry.setupRequest) return
    // Encoded per request, with fresh ids each time (build()).
    if (entry.hasIds && !this.splices) return
    try {
      if (!entry.hasIds && this.templates !== null && (hasTemplate(t.path) || hasTemplate(t.body) || Object.keys(t.headers).some((k) => hasTemplate(t.headers[k])))) {
        // {{…}}: compiled once into chunks and holes (template.js).
        const compiled = compile(t, (req) => encodeRequest({ ...req, host: this.base.host }, this.base.absoluteForm), { name: entry.name })
        if (compiled !== null && !this.splices) throw new InvalidOptionError(entry.name, '{{…}}', 'templates are filled into HTTP/1.1 requests only: not with http2')
        entry.compiled = compiled
        if (compiled !== null) {
          // Loaded here: a run without {{…}} never needs it.
          const { TemplateWriter } = require('./template-writer')
          entry.writer = new TemplateWriter(compiled, this.conn)
          return
        }
      }
      if (!entry.hasIds) {
        entry.bytes = this.encodeRequest({ ...t, host: this.base.host }, this.base.absoluteForm)
      } else {
        // Encoded once with a marker where the ids go: each request is
        // then the parts joined by a fresh id (ids have a fixed length, so
        // Content-Length holds). latin1 keeps the bytes as they are.
        const marked = encodeRequest({ ...replaceIds(t, ID_MARKER), host: this.base.host }, this.base.absoluteForm)
        entry.idParts = marked.latin1Slice(0, marked.length).split(ID_MARKER)
      }
    } catch (err) {
      // A malformed template names its option and position itself.
      if (err instanceof InvalidOptionError && (/at character \d+/.test(err.detail) || err.option === entry.name)) throw err
      throw new InvalidOptionError(entry.name, t, `cannot be encoded: ${err.message}`)
    }
  }

  // Set when every request is the same bytes and nothing needs to know
  // where a round starts (no context to reset): the client can then batch
  // pipelined writes from one buffer.
  get staticBytes () {
    return this.entries.length === 1 && !this.usesContext ? this.entries[0].bytes : null
  }

  restart () {
    this.index = 0
    this.context = cloneContext(this.initialContext)
    this.fresh = true
  }

  // The bytes of the next request, or PENDING when its setupRequest hook
  // returned a promise (in `pending`). A falsy setupRequest result starts
  // the sequence over (a reset) and the first entry is sent instead.
  // Throws a HookError when a hook throws or gives nothing to send; the
  // sequence then starts over too.
  next () {
    for (;;) {
      const index = this.order === null ? this.index : this.order.pick()
      const entry = this.entries[index]
      this.lastEntry = index
      this.lastIsHead = entry.isHead
      this.index = index + 1 === this.entries.length ? 0 : index + 1
      if (index === 0 && this.usesContext) {
        if (!this.fresh) this.context = cloneContext(this.initialContext)
        this.fresh = false
      }
      if (entry.bytes !== null) return entry.bytes
      const out = this.build(entry)
      if (out !== null) return out
      // setupRequest said to start over.
      if (index === 0) {
        this.restart()
        throw new HookError(entry.setupRequestName, 'returned no request for the first entry of the sequence, so the sequence cannot start')
      }
      this.reset()
    }
  }

  build (entry) {
    if (entry.compiled !== null) return entry.writer.fresh(this.templates, 1)
    if (entry.idParts !== null) return Buffer.from(entry.idParts.join(freshId()), 'latin1')
    const t = entry.template
    if (!entry.setupRequest) return this.encode(entry, { ...t, host: this.base.host })
    // setupRequest gets its own copy to change as it likes.
    let req = { method: t.method, path: t.path, headers: { ...t.headers }, body: t.body, host: this.base.host }
    try {
      req = entry.setupRequest(req, this.context)
    } catch (err) {
      this.restart()
      throw new HookError(entry.setupRequestName, 'threw', err)
    }
    if (req && typeof req.then === 'function') {
      this.pending = req
      return PENDING
    }
    if (!req) return null
    return this.encode(entry, req)
  }

  encode (entry, req) {
    if (typeof req !== 'object') {
      this.restart()
      throw new HookError(entry.setupRequestName, 'must return a request object', `got ${typeof req}`)
    }
    this.lastIsHead = isHeadMethod(req.method)
    // As autocannon does, ids replace the tags in what setupRequest returned.
    if (this.idReplacement) req = replaceIds(req, freshId())
    try {
      return this.encodeRequest(req.host ? req : { ...req, host: this.base.host }, this.base.absoluteForm)
    } catch (err) {
      this.restart()
      throw new HookError(entry.setupRequestName, 'returned a request that cannot be sent', err)
    }
  }

  // Finishes a setupRequest that returned a promise, with its value: the
  // bytes to send, or null when the sequence was reset (send the next).
  settle (entryIndex, req) {
    this.pending = null
    const entry = this.entries[entryIndex]
    if (!req) {
      if (entryIndex === 0) {
        this.restart()
        throw new HookError(entry.setupRequestName, 'returned no request for the first entry of the sequence, so the sequence cannot start')
      }
      this.reset()
      return null
    }
    this.lastEntry = entryIndex
    return this.encode(entry, req)
  }

  // The promise a setupRequest returned was rejected.
  fail (entryIndex, err) {
    this.pending = null
    this.restart()
    const entry = this.entries[entryIndex]
    return new HookError(entry ? entry.setupRequestName : 'setupRequest', 'rejected', err)
  }

  reset () {
    this.restart()
    if (this.onReset) this.onReset()
  }

  // The one entry when it is a template and nothing else varies (no
  // hooks, no shared order): the client then writes n of them at once.
  get compiledOnly () {
    const entries = this.entries
    return entries.length === 1 && entries[0].compiled !== null && !this.usesContext && this.order === null
  }

  // n requests of the compiledOnly entry, as one buffer: the same memory
  // each time, so it must be sent before the next call, or compiledKept().
  compiledRun (n) {
    this.lastEntry = 0
    return this.entries[0].writer.batch(this.templates, n)
  }

  // The last compiledRun is still queued to be sent: the next goes
  // elsewhere.
  compiledKept () {
    this.entries[0].writer.kept()
  }

  // n static requests in a row from the current entry, as one buffer.
  // Only when allStatic, and without a shared order.
  run (n) {
    const len = this.entries.length
    const start = this.index
    const key = start * 4096 + n
    if (this.runs === null) this.runs = new Map()
    let bytes = this.runs.get(key)
    if (bytes === undefined) {
      const parts = new Array(n)
      for (let k = 0; k < n; k++) parts[k] = this.entries[(start + k) % len].bytes
      bytes = Buffer.concat(parts)
      if (n < 4096) this.runs.set(key, bytes)
    }
    const end = start + n
    if (this.usesContext) {
      // A run that starts at, or wraps around to, the first entry starts
      // a new round.
      if ((start === 0 && !this.fresh) || end > len) this.context = cloneContext(this.initialContext)
      this.fresh = false
    }
    this.lastEntry = (end - 1) % len
    this.index = end % len
    return bytes
  }

  onResponse (entryIndex, status, body, headers) {
    const entry = this.entries[entryIndex]
    if (entry === undefined || !entry.onResponse) return
    try {
      entry.onResponse(status, body, this.context, headers)
    } catch (err) {
      throw new HookError(entry.onResponseName, 'threw', err)
    }
  }

  // --- Client API: changes to the entry the sequence is on (the last one
  // sent, or the first before anything was sent), as autocannon does.

  current () {
    return this.entries[this.lastEntry]
  }

  // headers replace the entry's own headers (the run's headers still
  // apply beneath them); undefined removes them.
  setHeaders (headers) {
    const entry = this.current()
    const merged = { ...this.base.headers, ...(headers || {}) }
    if (this.base.auth && !hasHeader(merged, 'authorization')) merged.Authorization = this.base.auth
    entry.template.headers = merged
    this.changed(entry)
  }

  // undefined removes the body.
  setBody (body) {
    const entry = this.current()
    entry.template.body = checkBody('body', body)
    this.changed(entry)
  }

  // Replaces the entry: fields not given come from the run's options.
  setRequest (request) {
    const i = this.lastEntry
    this.entries[i] = this.makeEntry(request || {}, i)
    this.refresh()
  }

  changed (entry) {
    try {
      this.prepare(entry)
    } finally {
      this.refresh()
    }
  }
}

// The sequence of one connection of a run: the run's request (setup, see
// Run#clientSetup) at the target, then `requests`, encoded by `encoding`.
function sequenceFor (setup, target, requests, order, index, encoding) {
  return new RequestSequence({
    method: setup.method,
    path: target.path,
    headers: setup.headers,
    body: setup.body,
    host: target.host,
    auth: target.auth,
    absoluteForm: target.absoluteForm
  }, requests, { idReplacement: setup.idReplacement, initialContext: setup.initialContext, order, templates: setup.templates, conn: index, encoding })
}

module.exports = { RequestSequence, PENDING, sequenceFor }
