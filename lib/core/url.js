'use strict'

// URLs as this tool reads them, for targets (-u, the library's url), the
// CLI's arguments and proxies alike: a missing scheme means http://, a URL
// needs a host, user information becomes a Basic Authorization, and IPv6
// literals lose their brackets to be dialled and keep them in Host and in
// host:port authorities.

const { InvalidOptionError } = require('./errors')

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//
// A URL's scheme and authority: all before its path, query or fragment.
const AUTHORITY = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#\\]*/
const TEMPLATE_IN_HOST = 'has a template in its host or port: templates are filled in the path and the query only, as a connection dials one address for the whole run (to spread the connections over several addresses, give several URLs)'

// "127.0.0.1:3000/x" → "http://127.0.0.1:3000/x", trimmed; a value that is
// not a string is returned as it is, for the caller's check to name.
function withScheme (raw) {
  if (typeof raw !== 'string') return raw
  const text = raw.trim()
  return SCHEME.test(text) ? text : 'http://' + text
}

// WHATWG parsing would read http:///path as the host "path".
function hasNoHost (href) {
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([/?#\\]|$)/.test(href)
}

// The one check of a target URL, for the library and the CLI alike: a
// WHATWG URL with one of `schemes` (the protocols', 'http:' and 'https:'
// …: lib/protocols/registry.js's SCHEMES) and a host. Refused with `why`
// (no-host, invalid, protocol) for the CLI to word its own line.
function checkUrl (raw, schemes) {
  const refuse = (why, expected) => {
    const err = new InvalidOptionError('url', raw, expected)
    err.why = why
    throw err
  }
  if (typeof raw !== 'string' || raw.trim() === '') refuse('invalid', 'must be a non-empty string')
  const href = withScheme(raw)
  if (hasNoHost(href)) refuse('no-host', 'has no host (e.g. http://127.0.0.1:3000/path)')
  // A connection dials one address for the whole run: templates are
  // filled in the path and the query only.
  if (AUTHORITY.exec(href)[0].includes('{{')) refuse('template', TEMPLATE_IN_HOST)
  let url
  try {
    url = new URL(href)
  } catch {
    refuse('invalid', 'is not a valid URL')
  }
  if (!schemes.includes(url.protocol)) {
    refuse('protocol', `has an unsupported protocol "${url.protocol}" (use ${schemes.join(' or ')})`)
  }
  if (!url.hostname) refuse('no-host', 'has no host')
  return url
}

// user:password@ of a parsed URL as a Basic Authorization value, or
// undefined when it has none.
function basicAuth (url) {
  if (!url.username && !url.password) return undefined
  return 'Basic ' + Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')
}

// The address to dial: "[::1]" → "::1".
function unbracket (hostname) {
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname
}

// host:port, with an IPv6 address in brackets.
function authority (hostname, port) {
  return hostname.includes(':') ? `[${hostname}]:${port}` : `${hostname}:${port}`
}

// "host:port" for the Host header, leaving the port out when it is the
// scheme's default.
function hostHeader (url) {
  const defaultPort = url.protocol === 'https:' ? '443' : '80'
  const port = url.port && url.port !== defaultPort ? `:${url.port}` : ''
  return url.hostname + port
}

module.exports = { SCHEME, AUTHORITY, withScheme, hasNoHost, checkUrl, basicAuth, unbracket, authority, hostHeader }
