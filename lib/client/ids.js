'use strict'

// --idReplacement: every [<id>] in a request's path (also percent-encoded),
// header values and body becomes a fresh id, once per request, as
// autocannon's hyperid ids do.

const { randomUUID } = require('crypto')

const ID_TAG = '[<id>]'
// The tag as it looks once a URL has been percent-encoded.
const ID_TAG_ENCODED = '[%3Cid%3E]'

// Ids are autocannon's (hyperid's, urlSafe and fixedLength): a random
// UUID in URL-safe base64 (22 characters) and '-', then a counter of 10
// digits, each connection with its own prefix and counter from 0. A
// fixed length keeps one Content-Length for a request with ids in its
// body, and a server that checks autocannon's ids sees the same shape.
const ID_LENGTH = 33
const COUNTER_DIGITS = 10
// Where hyperid takes a new prefix and starts its counter again.
const MAX_COUNT = 2 ** 31 - 1

function idPrefix () {
  return Buffer.from(randomUUID().replace(/-/g, ''), 'hex').toString('base64url') + '-'
}

// A connection's ids: next() gives the next one.
class IdSource {
  constructor () {
    this.prefix = idPrefix()
    this.count = 0
  }

  next () {
    if (this.count === MAX_COUNT) {
      this.prefix = idPrefix()
      this.count = 0
    }
    return this.prefix + String(this.count++).padStart(COUNTER_DIGITS, '0')
  }
}

// Stands for the id in a request encoded once (an encoding may split its
// bytes there and join them with each fresh id): printable, so an encoder
// accepts it anywhere, as long as an id, and too random to occur by chance.
const ID_MARKER = ('~' + Array.from({ length: 4 }, () => Math.random().toString(36).slice(2, 9)).join('') + '~'.repeat(ID_LENGTH)).slice(0, ID_LENGTH - 1) + '~'

function hasIdTag (value) {
  if (typeof value === 'string') return value.includes(ID_TAG)
  if (Buffer.isBuffer(value)) return value.includes(ID_TAG)
  return false
}

// Whether a request ({ path, headers, body }) has a tag to replace.
function hasIds (req) {
  return hasIdTag(req.body) || hasIdTag(req.path) ||
    (typeof req.path === 'string' && req.path.includes(ID_TAG_ENCODED)) ||
    Object.keys(req.headers).some((k) => hasIdTag(req.headers[k]))
}

function replaceAll (str, tag, id) {
  return str.includes(tag) ? str.split(tag).join(id) : str
}

function replaceBody (body, id) {
  if (typeof body === 'string') return replaceAll(body, ID_TAG, id)
  if (Buffer.isBuffer(body) && body.includes(ID_TAG)) return Buffer.from(replaceAll(body.latin1Slice(0, body.length), ID_TAG, id), 'latin1')
  return body
}

// The request with every tag replaced by one id; the same object when it
// has none.
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

module.exports = { ID_LENGTH, ID_MARKER, IdSource, hasIds, replaceIds }
