'use strict'

// The requests one connection sends, in order, round and round, whatever
// the protocol: each entry is encoded once and reused as it is; only
// entries with a setupRequest hook, with [<id>] to replace (ids.js) or
// with {{…}} holes are made per request.
//
// `context` (context.js) starts as a deep copy of initialContext and is
// reset whenever the sequence starts over: when it wraps around from its
// last entry to its first, and when a setupRequest hook returns nothing
// (a reset).
//
// What a request is encoded into is the protocol's (`encoding`, from its
// module's encodingFor(target)):
//   encode(req, absoluteForm) → what the protocol writes for req
//   withIds(template, base) → (id) → the request with every tag replaced
//     by id; without it, each such request is encoded again
//   template(template, base, name, conn) → a writer of the request's {{…}}
//     holes (HTTP/1.1's template-writer.js, HTTP/2's request-template.js:
//     fresh(state, 1) → one request, and for HTTP/1.1 batch(state, n)), or
//     null when it has none; without it, the holes are sent as they are

const { InvalidOptionError, HookError } = require('../core/errors')
const { checkBody } = require('../core/http-syntax')
const { loadFunction } = require('../core/load-function')
const { lazy } = require('../core/lazy')
// Lazy: only an initialContext needs it.
const context = lazy(() => require('./context'))
// Lazy: only --idReplacement needs it.
const idsModule = lazy(() => require('./ids'))

// Taken by the first sequence that needs them, as it is made, and used
// per request from here.
let cloneDeep = null
let ids = null

function cloneContext (initial) {
  if (initial === undefined || initial === null) return {}
  if (cloneDeep === null) cloneDeep = context().cloneDeep
  return cloneDeep(initial)
}

// next() returns this when the request is a promise still settling; the
// promise is then in `sequence.pending`.
const PENDING = Object.freeze({ pending: true })

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
  // lib/http1/request-encoder.js).
  // order: { pick() → entry index } shared by a run's connections
  // (--targets, order.js), instead of each going round on its own.
  // templates: the run's state for {{…}} holes; conn: this connection's
  // index, for {{conn}}. encoding: the protocol's (see above).
  constructor (base, entries, { encoding, idReplacement = false, initialContext, order = null, templates = null, conn = 0 }) {
    this.base = base
    this.encoding = encoding
    this.order = order
    this.templates = templates
    this.conn = conn
    this.idReplacement = idReplacement
    // This connection's ids, as autocannon gives each connection its own.
    this.ids = null
    if (idReplacement) {
      if (ids === null) ids = idsModule()
      this.ids = new ids.IdSource()
    }
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
      // What the protocol writes, when the same for every request.
      bytes: null,
      // Made per request: with a fresh id, or with its {{…}} holes filled.
      withId: null,
      writer: null,
      isHead: false,
      hasIds: false
    }
    this.prepare(entry)
    return entry
  }

  prepare (entry) {
    const t = entry.template
    const base = this.base
    const encoding = this.encoding
    entry.isHead = isHeadMethod(t.method)
    entry.hasIds = this.idReplacement && ids.hasIds(t)
    entry.bytes = null
    entry.withId = null
    entry.writer = null
    if (entry.setupRequest) return
    try {
      if (entry.hasIds) {
        entry.withId = encoding.withIds ? encoding.withIds(t, base) : (id) => encoding.encode({ ...ids.replaceIds(t, id), host: base.host }, base.absoluteForm)
        return
      }
      if (this.templates !== null && encoding.template) {
        entry.writer = encoding.template(t, base, entry.name, this.conn)
        if (entry.writer !== null) return
      }
      entry.bytes = encoding.encode({ ...t, host: base.host }, base.absoluteForm)
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
    if (entry.writer !== null) return entry.writer.fresh(this.templates, 1)
    if (entry.withId !== null) return entry.withId(this.ids.next())
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
    if (this.idReplacement) req = ids.replaceIds(req, this.ids.next())
    try {
      return this.encoding.encode(req.host ? req : { ...req, host: this.base.host }, this.base.absoluteForm)
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

  // The one entry when it has {{…}} holes and nothing else varies (no
  // hooks, no shared order): the protocol may then write n at once.
  get templateOnly () {
    const entries = this.entries
    return entries.length === 1 && entries[0].writer !== null && entries[0].writer.batch !== undefined && !this.usesContext && this.order === null
  }

  // n requests of the templateOnly entry, as the writer makes them at once
  // (the same memory each time: sent before the next call, or templateKept()).
  templateBatch (n) {
    this.lastEntry = 0
    return this.entries[0].writer.batch(this.templates, n)
  }

  // The last templateBatch is still queued to be sent: the next goes
  // elsewhere.
  templateKept () {
    this.entries[0].writer.kept()
  }

  // Moves on by n static entries in a row (allStatic, no shared order), as
  // if next() had been called n times: → the index of the first.
  advance (n) {
    const len = this.entries.length
    const start = this.index
    const end = start + n
    if (this.usesContext) {
      // A run that starts at, or wraps around to, the first entry starts
      // a new round.
      if ((start === 0 && !this.fresh) || end > len) this.context = cloneContext(this.initialContext)
      this.fresh = false
    }
    this.lastEntry = (end - 1) % len
    this.index = end % len
    return start
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
// Run#clientSetup) at the route's target, then the route's requests, in
// its order (or its own), encoded as its protocol encodes them.
function sequenceFor (setup, route, index) {
  const target = route.target
  return new RequestSequence({
    method: setup.method,
    path: target.path,
    headers: setup.headers,
    body: setup.body,
    host: target.host,
    auth: target.auth,
    absoluteForm: target.absoluteForm
  }, route.requests, {
    encoding: route.encoding,
    idReplacement: setup.idReplacement,
    initialContext: setup.initialContext,
    order: route.order,
    templates: setup.templates,
    conn: index
  })
}

module.exports = { RequestSequence, PENDING, sequenceFor }
