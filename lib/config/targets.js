'use strict'

// --targets FILE: requests to replay, in vegeta's plain format:
//
//   GET http://127.0.0.1:3000/users/1
//   X-Account-ID: 8675309
//
//   POST http://127.0.0.1:3000/users
//   Content-Type: application/json
//   @body.json
//
// A `METHOD URL` line, header lines (`Name: value`), an optional `@file`
// line whose bytes are the body (relative to the targets file), blank
// lines between requests; `#` starts a comment line. Each target origin
// gets its entries in the file's order (by-origin.js, as for a HAR); the
// order of sends is --order (lib/client/order.js).

const fs = require('fs')
const path = require('path')
const { InvalidOptionError } = require('../core/errors')
const { SCHEMES } = require('../protocols/registry')
const { isToken, isValidHeaderValue } = require('../core/http-syntax')
const { byOrigin, defaultWarn } = require('./by-origin')

function bad (file, line, why) {
  throw new InvalidOptionError('targets', file, `line ${line}: ${why}`)
}

// The file's entries as { origin, request }; throws naming the line.
function parseTargets (text, file, dir) {
  const entries = []
  let current = null
  const lines = text.split(/\r?\n/)
  lines.forEach((raw, i) => {
    const n = i + 1
    const line = raw.trim()
    if (line === '' || line.startsWith('#')) {
      if (line === '') current = null
      return
    }
    if (current === null) {
      const m = /^(\S+)\s+(\S+)$/.exec(line)
      if (!m || !isToken(m[1])) bad(file, n, `${JSON.stringify(line.slice(0, 60))} is not a request line (METHOD URL)`)
      let url
      try {
        url = new URL(m[2])
      } catch {
        bad(file, n, `${JSON.stringify(m[2].slice(0, 60))} is not a URL`)
      }
      if (!SCHEMES.includes(url.protocol)) bad(file, n, `${JSON.stringify(m[2])}: only ${SCHEMES.map((scheme) => `${scheme}//`).join(' and ')} are supported`)
      current = { method: m[1].toUpperCase(), path: (url.pathname || '/') + url.search, headers: {}, body: null }
      entries.push({ origin: url.origin, request: current, line: n })
      return
    }
    if (line.startsWith('@')) {
      if (current.body !== null) bad(file, n, 'a second body file for one request')
      const bodyFile = path.resolve(dir, line.slice(1).trim())
      try {
        current.body = fs.readFileSync(bodyFile)
      } catch (err) {
        bad(file, n, `the body file ${bodyFile} cannot be read: ${err.code === 'ENOENT' ? 'it does not exist' : err.message}`)
      }
      return
    }
    const colon = line.indexOf(':')
    const name = colon > 0 ? line.slice(0, colon).trim() : ''
    const value = colon > 0 ? line.slice(colon + 1).trim() : ''
    if (name === '' || !isToken(name) || !isValidHeaderValue(value)) {
      bad(file, n, `${JSON.stringify(line.slice(0, 12))}${line.length > 12 ? '…' : ''} is not a header (Name: value) nor a body file (@path); requests are separated by a blank line`)
    }
    const lower = name.toLowerCase()
    // The framing headers are ours to write.
    if (lower === 'content-length' || lower === 'transfer-encoding' || lower === 'connection') return
    current.headers[name] = current.headers[name] === undefined ? value : [].concat(current.headers[name], value)
  })
  if (entries.length === 0) bad(file, lines.length, 'no request in the file (a METHOD URL line)')
  for (const { request } of entries) Object.freeze(request)
  return entries
}

// targets: a file path (the option); urls: config.urls.
function requestsByOrigin (targets, urls, { warn = defaultWarn } = {}) {
  let text
  try {
    text = fs.readFileSync(targets, 'utf8')
  } catch (err) {
    throw new InvalidOptionError('targets', targets, `cannot be read: ${err.code === 'ENOENT' ? 'the file does not exist' : err.message}`)
  }
  const entries = parseTargets(text, targets, path.dirname(path.resolve(targets)))
  return byOrigin(entries, urls, warn, { other: 'AC_TARGETS_OTHER_ORIGIN', none: 'AC_TARGETS_NO_ENTRY', noun: 'targets' })
}

module.exports = { parseTargets, requestsByOrigin }
