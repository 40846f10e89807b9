'use strict'

// Requests replayed from a HAR (HTTP Archive): for each target origin, the
// entries whose URL has that origin, in the HAR's order, as `requests`
// entries. Entries for other origins are skipped with one warning line
// naming them.

const fs = require('fs')
const { InvalidOptionError, UnreadableFileError } = require('../core/errors')
const { upstream } = require('../core/upstream-messages')
const { byOrigin, defaultWarn } = require('./by-origin')
const { isToken, headerProblem } = require('../core/http-syntax')

// JSON.parse messages may quote the input, newlines and all.
function oneLine (message) {
  return message.replace(/\s+/g, ' ').trim()
}

// The message is autocannon's: the reading's own error after its "Failed
// to load HAR file content: ", or its "Could not parse HAR content: " and
// what is wrong; ours is the detail.
function fail (value, expected, message) {
  throw new InvalidOptionError('har', value, expected, message)
}

// The same, for a HAR file that cannot be read or is not JSON.
function failFile (value, expected, message) {
  throw new UnreadableFileError('har', value, expected, message)
}

// The HAR as an object: the parsed content, a JSON string, or a file path.
function readHar (har) {
  if (Buffer.isBuffer(har)) har = har.toString()
  if (typeof har !== 'string') return har
  const text = har.trim()
  if (text.startsWith('{')) {
    try {
      return JSON.parse(text)
    } catch (err) {
      return fail('(HAR content)', 'is not valid JSON', upstream('harFile', { error: oneLine(err.message) }))
    }
  }
  let content
  try {
    content = fs.readFileSync(text, 'utf8')
  } catch (err) {
    return failFile(har, `cannot be read: ${err.code === 'ENOENT' ? 'the file does not exist' : err.message}`, upstream('harFile', { error: err.message }))
  }
  try {
    return JSON.parse(content)
  } catch (err) {
    return failFile(har, 'is not valid JSON', upstream('harFile', { error: oneLine(err.message) }))
  }
}

function headersOf (list, entry) {
  const headers = {}
  if (list === undefined) return headers
  if (!Array.isArray(list)) throw new Error(upstream('harHeaders', { i: entry }))
  list.forEach((h, j) => {
    if (!h || typeof h !== 'object' || typeof h.name !== 'string' || typeof h.value !== 'string') {
      throw new Error(upstream('harHeader', { i: entry, j: j + 1 }))
    }
    // HTTP/2 pseudo-headers (:authority, :path...) have no HTTP/1.1 form;
    // the framing headers are ours to write.
    if (h.name.startsWith(':')) return
    // Found here, before the run, rather than when the request is first
    // encoded; named, not shown (a value may be a credential).
    const problem = headerProblem(h.name, h.value)
    if (problem !== null) throw new Error(`header #${j + 1} of entry #${entry}: ${JSON.stringify(h.name)} ${problem}`)
    const lower = h.name.toLowerCase()
    if (lower === 'content-length' || lower === 'transfer-encoding' || lower === 'connection') return
    headers[h.name] = headers[h.name] === undefined ? h.value : [].concat(headers[h.name], h.value)
  })
  return headers
}

function bodyOf (postData) {
  if (!postData || typeof postData !== 'object') return null
  if (typeof postData.text === 'string') return postData.text
  if (Array.isArray(postData.params) && postData.params.length) {
    // Only url-encoded forms can be rebuilt from params.
    return postData.params
      .map((p) => encodeURIComponent(p.name) + '=' + encodeURIComponent(p.value === undefined ? '' : p.value))
      .join('&')
  }
  return null
}

// The HAR's entries as { origin, request } with the request in our
// `requests` form; throws an Error saying what is wrong when it is not a
// HAR. (Also the CLI's check of --har, before anything runs.)
function harEntries (har) {
  // autocannon's reasons, where it has one (parseHAR.js).
  if (!har || typeof har !== 'object' || !har.log || typeof har.log !== 'object' || !Array.isArray(har.log.entries) ||
    har.log.entries.length === 0) {
    throw new Error(upstream('harNoEntries'))
  }
  return har.log.entries.map((entry, i) => {
    const where = `entry #${i + 1}`
    if (!entry || typeof entry !== 'object' || !entry.request || typeof entry.request !== 'object') {
      throw new Error(upstream('harRequest', { i: i + 1 }))
    }
    const { method, url, headers, postData } = entry.request
    if (typeof method !== 'string' || method === '') throw new Error(`${where} has no "method"`)
    if (!isToken(method)) throw new Error(`${where} has an invalid "method": ${JSON.stringify(method)} is not an HTTP method such as GET or POST`)
    let parsed
    try {
      parsed = new URL(url)
    } catch {
      throw new Error(`${where} has an invalid "url": ${JSON.stringify(url)}`)
    }
    return {
      origin: parsed.origin,
      request: {
        method: method.toUpperCase(),
        path: (parsed.pathname || '/') + parsed.search,
        headers: headersOf(headers, i + 1),
        // null, not undefined: a HAR request without a body has none,
        // whatever the run's own body option says.
        body: bodyOf(postData)
      }
    }
  })
}

// har: parsed HAR (or JSON string / file path); targets: config.urls.
// Returns Map(origin -> requests[]) for the targets' origins that the HAR
// has entries for.
function requestsByOrigin (har, targets, { warn = defaultWarn } = {}) {
  har = readHar(har)
  let entries
  try {
    entries = harEntries(har)
  } catch (err) {
    fail(typeof har === 'object' ? '(HAR content)' : har, `is not a HAR: ${err.message}`, upstream('har', { reason: err.message }))
  }
  return byOrigin(entries, targets, warn, { other: 'AC_HAR_OTHER_ORIGIN', none: 'AC_HAR_NO_ENTRY', noun: 'HAR' })
}

module.exports = { requestsByOrigin, harEntries }
