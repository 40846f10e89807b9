'use strict'

// Templates in a request's path and query, header values and body: {{seq}} (a
// counter unique across the run's connections, workers and shards),
// {{conn}} (the connection's index), {{uuid}}, {{int A B}}, {{pick a|b|c}},
// {{now}} (epoch ms) and {{line FILE}} (the file's next line, in order,
// round and round). The random ones draw from the run's seed.
//
// What both protocols share: finding and checking the holes, marking them
// in a request (markTemplate), and what their values draw from
// (createState). Each protocol compiles a marked request into its own
// bytes: HTTP/1.1's lib/http1/template.js, HTTP/2's
// lib/http2/request-template.js.

const fs = require('fs')
const path = require('path')
const { InvalidOptionError } = require('../core/errors')
const { AUTHORITY } = require('../core/url')

const TEMPLATE = /\{\{([^{}]*)\}\}/g
// A template in a URL's path once the URL parser has percent-encoded it.
const ENCODED = /%7B%7B(.*?)%7D%7D/gi
const USAGE = 'use {{seq}}, {{conn}}, {{uuid}}, {{int A B}}, {{pick a|b|c}}, {{now}} or {{line FILE}}'
const KINDS = new Set(['seq', 'conn', 'uuid', 'int', 'pick', 'now', 'line'])

function hasTemplate (value) {
  if (typeof value === 'string') return value.includes('{{') || /%7B%7B/i.test(value)
  if (Buffer.isBuffer(value)) return value.includes('{{')
  return false
}

// One {{…}} → { kind, …args }; throws naming the option and the position.
function parseHole (text, option, at, dir) {
  const words = text.trim().split(/\s+/)
  const kind = words[0]
  const bad = (why) => { throw new InvalidOptionError(option, `{{${text}}}`, `at character ${at + 1}: ${why} (${USAGE})`) }
  switch (kind) {
    case 'seq': case 'conn': case 'uuid': case 'now':
      if (words.length !== 1) bad(`{{${kind}}} takes nothing`)
      return { kind }
    case 'int': {
      const [a, b] = words.slice(1).map(Number)
      if (words.length !== 3 || !Number.isInteger(a) || !Number.isInteger(b) || a > b) bad('{{int A B}} needs two integers, A <= B')
      return { kind, low: a, span: b - a + 1 }
    }
    case 'pick': {
      const options = text.trim().slice(4).trim().split('|')
      if (options.some((o) => o === '')) bad('{{pick a|b|c}} needs choices separated by |')
      return { kind, options }
    }
    default: {
      // line (scan() passes only our kinds)
      const file = text.trim().slice(4).trim()
      if (file === '') bad('{{line FILE}} needs a file')
      const resolved = path.resolve(dir || '.', file)
      let lines
      try {
        lines = fs.readFileSync(resolved, 'utf8').split(/\r?\n/)
      } catch (err) {
        bad(`the file ${resolved} cannot be read: ${err.code === 'ENOENT' ? 'it does not exist' : err.message}`)
      }
      while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
      if (lines.length === 0) bad(`the file ${resolved} has no line`)
      return { kind, file: resolved, lines }
    }
  }
}

// The holes of a string: [{ start, end, hole }], in order. Only {{…}}
// that start with one of ours are holes: other text in double braces (a
// Mustache template being posted) is sent as it is, as autocannon sends
// it. One of ours left open is an error.
function scan (text, option, dir) {
  const found = []
  TEMPLATE.lastIndex = 0
  let m
  while ((m = TEMPLATE.exec(text)) !== null) {
    if (!KINDS.has(m[1].trim().split(/\s+/)[0])) continue
    found.push({ start: m.index, end: m.index + m[0].length, hole: parseHole(m[1], option, m.index, dir) })
  }
  const open = /\{\{\s*(seq|conn|uuid|int|pick|now|line)\b(?![^{}]*\}\})/.exec(text)
  if (open !== null) {
    throw new InvalidOptionError(option, text.length > 60 ? text.slice(0, 60) + '…' : text, `at character ${open.index + 1}: "{{${open[1]}" without its "}}" (${USAGE})`)
  }
  return found
}

// Replaces each template of text by a marker; pushes its hole on holes.
// In a path (option 'url'), a hole after the first "?" outside any hole
// is in the query, whose values are encoded by the query's set.
function mark (text, option, holes, marker, dir) {
  const found = scan(text, option, dir)
  if (found.length === 0) return text
  const inPath = option === 'url'
  const query = inPath ? queryStart(text, found) : -1
  let out = ''
  let at = 0
  for (const f of found) {
    out += text.slice(at, f.start) + marker(holes.length)
    const hole = { ...f.hole, inPath }
    if (query !== -1 && f.start > query) hole.inQuery = true
    holes.push(prepare(hole))
    at = f.end
  }
  return out + text.slice(at)
}

// Where a path's query starts: its first "?" outside the holes, or -1.
function queryStart (text, found) {
  let from = 0
  for (const f of found) {
    const q = text.indexOf('?', from)
    if (q !== -1 && q < f.start) return q
    from = f.end
  }
  return text.indexOf('?', from)
}

// A request's templates replaced by markers: { req (the template with a
// marker for each hole), holes, headHoles (how many of them are in the
// path and headers), bodyHoles (whether the body has any), marker(i),
// cut(text) → { parts, holes } of a marked text } or null when it has
// none. Both protocols start here: HTTP/1.1 encodes req and cuts its
// bytes (compile), HTTP/2 cuts each field (lib/http2/request-template.js).
function markTemplate (template, { name = 'request', dir } = {}) {
  const salt = Math.random().toString(36).slice(2, 10)
  const marker = (i) => `~~${salt}${i}~~`
  const holes = []
  const path = typeof template.path === 'string'
    ? template.path.replace(ENCODED, (whole, inner) => `{{${decodeURIComponent(inner)}}}`)
    : template.path
  const req = { ...template, path: typeof path === 'string' ? mark(path, 'url', holes, marker, dir) : path, headers: { ...template.headers } }
  for (const key of Object.keys(req.headers)) {
    const v = req.headers[key]
    if (typeof v === 'string') req.headers[key] = mark(v, 'headers', holes, marker, dir)
  }
  const headHoles = holes.length
  // What goes in the head must not break its lines.
  // eslint-disable-next-line no-control-regex
  const unsafe = (v) => /[\x00-\x08\x0a-\x1f\x7f]/.test(v)
  for (const h of holes) {
    if ((h.kind === 'pick' && h.options.some(unsafe)) || (h.kind === 'line' && h.lines.some(unsafe))) {
      throw new InvalidOptionError(name, template, `a {{${h.kind}}} in the path or a header has a value with control characters`)
    }
  }
  const body = req.body
  if (typeof body === 'string') req.body = mark(body, 'body', holes, marker, dir)
  else if (Buffer.isBuffer(body) && body.includes('{{')) req.body = Buffer.from(mark(body.latin1Slice(0, body.length), 'body', holes, marker, dir), 'latin1')
  if (holes.length === 0) return null
  const cut = (t) => {
    const split = new RegExp(`~~${salt}(\\d+)~~`, 'g')
    const parts = []
    const found = []
    let at = 0
    let m
    while ((m = split.exec(t)) !== null) {
      parts.push(t.slice(at, m.index))
      found.push(holes[Number(m[1])])
      at = m.index + m[0].length
    }
    parts.push(t.slice(at))
    return { parts, holes: found, clAt: found.findIndex((h) => h.kind === 'contentLength') }
  }
  return { req, holes, headHoles, bodyHoles: holes.length > headHoles, marker, cut }
}

// What the holes draw from, shared by a run's connections (one per thread):
// the seq counter, the lines' cursors, the seeded random numbers.
// seq values are k * stride + offset: unique across workers and shards.
function createState ({ random, stride = 1, offset = 0 }) {
  let seq = 0
  const cursors = new Map()
  return {
    random,
    nextSeq () { return (seq++) * stride + offset },
    // One cursor per file, however many holes read it.
    nextLine (hole) {
      const i = cursors.get(hole.file) || 0
      cursors.set(hole.file, i + 1 === hole.lines.length ? 0 : i + 1)
      return hole.lines[i]
    }
  }
}

// A value's bytes in latin1 text (UTF-8 encoded first).
function latin1 (text) {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(text) ? text : Buffer.from(text, 'utf8').latin1Slice()
}

// pick's choices and line's lines in the form they are sent in: UTF-8
// bytes as latin1 text, in a path or a query percent-encoded as a
// browser encodes what is typed there. Done once per hole.
function prepare (hole) {
  const form = hole.inPath ? (v) => percentEncode(v, hole.inQuery ? QUERY_SET : PATH_SET) : latin1
  if (hole.kind === 'pick') return { ...hole, options: hole.options.map(form) }
  if (hole.kind === 'line') return { ...hole, lines: hole.lines.map(form) }
  return hole
}

// WHATWG URL's percent-encode sets for an http(s) URL: the path's and the
// (special) query's. Both hold the C0 controls, the space, DEL and all
// that is not ASCII; "%" is in neither: a browser sends it as it is.
// eslint-disable-next-line no-control-regex
const PATH_SET = /[\x00-\x20"#<>?^`{}\x7f-\u{10ffff}]/gu
// eslint-disable-next-line no-control-regex
const QUERY_SET = /[\x00-\x20"#'<>\x7f-\u{10ffff}]/gu

// A value with each character of the set as its UTF-8 bytes, %XX each.
function percentEncode (value, set) {
  return value.replace(set, (c) => {
    let out = ''
    for (const b of Buffer.from(c, 'utf8')) out += (b < 16 ? '%0' : '%') + b.toString(16).toUpperCase()
    return out
  })
}

// A URL's path and query with its templates as they were written. The
// URL parser would percent-encode what is inside them (a space, a "#"
// that would end the path), and in a query read "{{int 1 5}}" as
// "{{int%201%205}}": each of ours is taken out before parsing, behind a
// marker the parser leaves as it is, and put back after. Other text in
// double braces is left to the parser, sent as a browser sends it.
// href: a URL with its scheme and no template before its path.
function urlPath (href) {
  const salt = Math.random().toString(36).slice(2, 10)
  const at = AUTHORITY.exec(href)[0].length
  const lifted = []
  const rest = href.slice(at).replace(TEMPLATE, (whole, inner) => {
    if (!KINDS.has(inner.trim().split(/\s+/)[0])) return whole
    lifted.push(whole)
    return `zz${salt}${lifted.length - 1}zz`
  })
  const url = new URL(href.slice(0, at) + rest)
  return ((url.pathname || '/') + url.search).replace(new RegExp(`zz${salt}(\\d+)zz`, 'g'), (m, i) => lifted[Number(i)])
}

// Checks the templates of a value before the run (config/prepare.js), so
// that a malformed one is bad input, not a failure once connections open.
// → whether it has any (text in double braces that is not one of ours is
// no template).
function check (value, option, dir) {
  if (!hasTemplate(value)) return false
  const text = Buffer.isBuffer(value)
    ? value.latin1Slice(0, value.length)
    : value.replace(ENCODED, (whole, inner) => `{{${decodeURIComponent(inner)}}}`)
  return scan(text, option, dir).length > 0
}

module.exports = { hasTemplate, check, markTemplate, createState, urlPath }
