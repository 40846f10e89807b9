'use strict'

// The requests one connection sends, in order, round and round. Entries
// without hooks are encoded once and reused as they are; only entries with
// a setupRequest hook, or with [<id>] to replace, are encoded per request.

const { encodeRequest } = require('./request-encoder')
const { InvalidOptionError } = require('./errors')

const ID_TAG = '[<id>]'

function loadHook (hook, name) {
  if (typeof hook !== 'string') return hook
  try {
    const mod = require(hook)
    const fn = typeof mod === 'function' ? mod : mod && mod.default
    if (typeof fn !== 'function') throw new Error('it does not export a function')
    return fn
  } catch (err) {
    throw new InvalidOptionError(name, hook, `could not be loaded as a function: ${err.message}`)
  }
}

function cloneContext (initial) {
  return initial === undefined ? {} : structuredClone(initial)
}

let idCounter = 0
// Unique per process and per worker thread: a time-and-random prefix, then
// a counter, so ids never repeat within a run.
const ID_PREFIX = Date.now().toString(36) + Math.random().toString(36).slice(2, 8)
function freshId () {
  return ID_PREFIX + (idCounter++).toString(36)
}

function replaceIds (value) {
  if (typeof value === 'string') return value.includes(ID_TAG) ? value.split(ID_TAG).join(freshId()) : value
  if (Buffer.isBuffer(value)) {
    const s = value.toString()
    return s.includes(ID_TAG) ? s.split(ID_TAG).join(freshId()) : value
  }
  return value
}

function hasIdTag (value) {
  if (typeof value === 'string') return value.includes(ID_TAG)
  if (Buffer.isBuffer(value)) return value.includes(ID_TAG)
  return false
}

class RequestSequence {
  // base: {method, path, headers, body, host, auth}; entries: requests[]
  constructor (base, entries, { idReplacement = false, initialContext } = {}) {
    this.base = base
    this.idReplacement = idReplacement
    this.initialContext = initialContext
    this.context = cloneContext(initialContext)
    this.index = 0
    this.resets = 0
    // Set by next(): the entry the returned bytes belong to.
    this.lastEntry = 0
    this.lastIsHead = false
    this.onReset = null
    this.setEntries(entries)
  }

  setEntries (entries) {
    this.entries = (entries && entries.length ? entries : [{}]).map((e) => this.makeEntry(e))
    this.index = 0
    this.hasOnResponse = this.entries.some((e) => e.onResponse)
  }

  makeEntry (e) {
    const template = {
      method: e.method || this.base.method,
      path: e.path || this.base.path,
      headers: { ...this.base.headers, ...(e.headers || {}) },
      body: e.body !== undefined ? e.body : this.base.body
    }
    if (this.base.auth && !hasHeader(template.headers, 'authorization')) {
      template.headers.Authorization = this.base.auth
    }
    const entry = {
      template,
      setupRequest: loadHook(e.setupRequest, 'setupRequest'),
      onResponse: loadHook(e.onResponse, 'onResponse'),
      bytes: null,
      isHead: false
    }
    this.prepare(entry)
    return entry
  }

  prepare (entry) {
    const t = entry.template
    entry.isHead = String(t.method).toUpperCase() === 'HEAD'
    const dynamic = entry.setupRequest || (this.idReplacement && (hasIdTag(t.body) || hasIdTag(t.path)))
    entry.bytes = dynamic ? null : this.encode(t)
  }

  encode (req) {
    return encodeRequest({ ...req, host: this.base.host })
  }

  // True when every request is the same bytes: the client can then batch
  // pipelined writes from one buffer.
  get staticBytes () {
    return this.entries.length === 1 && this.entries[0].bytes ? this.entries[0].bytes : null
  }

  restart () {
    this.index = 0
    this.context = cloneContext(this.initialContext)
  }

  // The bytes of the next request, or null when a setupRequest hook said
  // to start over from the first entry (then call next() again) or returned
  // a promise (then `pending` holds it).
  next () {
    const entry = this.entries[this.index]
    this.lastEntry = this.index
    this.lastIsHead = entry.isHead
    this.index = (this.index + 1) % this.entries.length
    if (entry.bytes !== null) return entry.bytes
    let req = { ...entry.template, headers: { ...entry.template.headers } }
    if (this.idReplacement) {
      req.body = replaceIds(req.body)
      req.path = replaceIds(req.path)
    }
    if (entry.setupRequest) {
      req = entry.setupRequest(req, this.context)
      if (req && typeof req.then === 'function') return req
      if (!req) return this.reset()
    }
    this.lastIsHead = String(req.method || 'GET').toUpperCase() === 'HEAD'
    return this.encode(req)
  }

  // Finishes a setupRequest that returned a promise.
  settle (req) {
    if (!req) return this.reset()
    this.lastIsHead = String(req.method || 'GET').toUpperCase() === 'HEAD'
    return this.encode(req)
  }

  reset () {
    this.resets++
    this.restart()
    if (this.onReset) this.onReset()
    return null
  }

  onResponse (entryIndex, status, body, headers) {
    const entry = this.entries[entryIndex]
    if (entry && entry.onResponse) entry.onResponse(status, body, this.context, headers)
  }

  // Client API: change the entry the sequence is currently on.
  current () {
    return this.entries[this.index]
  }

  update (changes) {
    const entry = this.current()
    Object.assign(entry.template, changes)
    if (entry.template.headers === undefined) entry.template.headers = {}
    this.prepare(entry)
  }
}

function hasHeader (headers, lower) {
  return Object.keys(headers).some((k) => k.toLowerCase() === lower)
}

module.exports = { RequestSequence, ID_TAG, freshId }
