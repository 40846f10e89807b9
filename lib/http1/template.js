'use strict'

// HTTP/1.1's templated requests (the templates themselves:
// lib/client/templates.js). A request is compiled once: encoded with a
// marker for each hole, then cut into static byte chunks around the holes;
// Content-Length is a hole of its own when the body has holes. Sending one
// writes the chunks and the holes' values into a buffer
// (template-writer.js): nothing else is encoded again.

const { InvalidOptionError } = require('../core/errors')
const { markTemplate } = require('../client/templates')
const { TemplateWriter } = require('./template-writer')

// template: { method, path, headers, body } (the entry's); encode(req) →
// the request's bytes. Returns null when it has no template, else
// { head, body }: each { parts, holes }, parts[i] the latin1 text before
// holes[i]; body is null when the body has no hole (else the head has a
// Content-Length hole).
function compile (template, encode, options) {
  const marked = markTemplate(template, options)
  if (marked === null) return null
  const { req, holes, bodyHoles, marker, cut } = marked
  const name = (options && options.name) || 'request'
  const bytes = encode(req)
  const text = bytes.latin1Slice(0, bytes.length)
  const bodyStart = text.indexOf('\r\n\r\n') + 4
  let headText = text.slice(0, bodyStart)
  const bodyText = text.slice(bodyStart)
  if (bodyHoles && /\r\nTransfer-Encoding:[^\r]*chunked/i.test(headText)) {
    // The chunk's size would be the template's, not the filled body's.
    throw new InvalidOptionError(name, template, 'has {{…}} in a chunked body: the chunk size would be wrong; drop the Transfer-Encoding header (the body is then sent with its Content-Length)')
  }
  if (bodyHoles) {
    // The body's length changes with its holes: Content-Length is filled
    // in per request.
    holes.push({ kind: 'contentLength' })
    headText = headText.replace(/\r\nContent-Length: \d+\r\n/i, `\r\nContent-Length: ${marker(holes.length - 1)}\r\n`)
  }
  return bodyHoles ? { head: cut(headText), body: cut(bodyText) } : { head: cut(text), body: null }
}

// One request's bytes, or n in a row, in a buffer of their own. A run's
// connections keep a writer each instead (made by request-encoder.js's
// encoding for their sequence).
function fill (compiled, state, conn, n = 1) {
  return new TemplateWriter(compiled, conn).fresh(state, n)
}

module.exports = { compile, fill }
