'use strict'

// HTTP's syntax for methods, header names and header values (RFC 9110),
// and what a body may be, which the option checks, the Client API and
// every protocol's encoder hold requests to.

const { InvalidOptionError } = require('./errors')
const { upstream } = require('./upstream-messages')

// RFC 9110 token characters, for methods and header names.
const TOKEN = new Uint8Array(128)
for (const c of "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
  TOKEN[c.charCodeAt(0)] = 1
}

function isToken (str) {
  if (str.length === 0) return false
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i)
    if (c > 127 || TOKEN[c] !== 1) return false
  }
  return true
}

// Header values may hold visible characters, spaces and tabs, and anything
// beyond ASCII, but never CR, LF or NUL: those would let a value inject its
// own headers.
function isValidHeaderValue (str) {
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i)
    if ((c < 32 && c !== 9) || c === 127) return false
  }
  return true
}

// What is wrong with a header as an option gives it (null: nothing), so
// that it is refused before the run rather than when its request is first
// encoded. A value is sent as its text, as autocannon sends it: a string,
// a number, a boolean, an object with a text of its own (a URL, a Date),
// or an array of them (one field each); null and undefined send nothing.
// An object without one would go as "[object Object]".
function headerProblem (name, value) {
  if (value === undefined || value === null) return null
  if (!isToken(name)) return 'is not a valid header name (an HTTP token: letters, digits and !#$%&\'*+-.^_`|~)'
  for (const v of Array.isArray(value) ? value : [value]) {
    if (typeof v === 'function' || typeof v === 'symbol') return `header value must be a string (or a number), not a ${typeof v}`
    let text
    try {
      text = String(v)
    } catch {
      // An object without a prototype has no text at all.
      return 'header value must be a string (or a number), not an object without a text'
    }
    if (typeof v === 'object' && v !== null && /^\[object \w+\]$/.test(text)) return `header value must be a string (or a number), not an object, which would be sent as ${text}`
    if (!isValidHeaderValue(text)) return 'header value must not contain CR, LF or other control characters'
  }
  return null
}

// A request body: a string or bytes (a Uint8Array becomes a Buffer);
// undefined when there is none.
function checkBody (option, body) {
  if (body === undefined || body === null) return undefined
  if (typeof body === 'string' || Buffer.isBuffer(body)) return body
  if (body instanceof Uint8Array) return Buffer.from(body)
  throw new InvalidOptionError(option, body, 'must be a string or a Buffer', upstream('body'))
}

module.exports = { isToken, isValidHeaderValue, headerProblem, checkBody }
