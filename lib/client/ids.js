'use strict'

// --idReplacement: every [<id>] in a request's path (also percent-encoded),
// header values and body becomes a fresh id, once per request, as
// autocannon's hyperid ids do.

// For the prefix, which every run that loads this file makes.
const { threadId } = require('worker_threads')

const ID_TAG = '[<id>]'
// The tag as it looks once a URL has been percent-encoded.
const ID_TAG_ENCODED = '[%3Cid%3E]'

// Ids have a fixed length (as autocannon's hyperids do), so a request
// with ids in its body keeps one Content-Length: a prefix unique to this
// process and thread (time, randomness, thread id), then a counter.
const ID_LENGTH = 27
let idPrefix = null
let idCounter = 0

// Made by the first sequence that replaces ids, before anything is sent.
function makeIdPrefix () {
  if (idPrefix !== null) return
  idPrefix = Date.now().toString(36).slice(-8).padStart(8, '0') +
    Math.random().toString(36).slice(2).padEnd(7, '0').slice(0, 7) +
    (threadId % 1296).toString(36).padStart(2, '0') + '-'
}

function freshId () {
  return idPrefix + (idCounter++).toString(36).padStart(ID_LENGTH - idPrefix.length, '0')
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

module.exports = { ID_MARKER, makeIdPrefix, freshId, hasIds, replaceIds }
