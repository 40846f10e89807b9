'use strict'

// Turns {method, path, headers, body} into the exact bytes of an HTTP/1.1
// request. Called once per request template (or per request only when a hook
// changes it), never per plain request: the client writes the returned Buffer
// as it is.

const { InvalidOptionError } = require('../core/errors')
const { upstream } = require('../core/upstream-messages')
const { isToken, isValidHeaderValue } = require('../core/http-syntax')
const { hasTemplate } = require('../client/templates')
const { lazy } = require('../core/lazy')
// Lazy: only --idReplacement needs it.
const ids = lazy(() => require('../client/ids'))
// Lazy: only a request with {{…}} holes needs them.
const templateCompiler = lazy(() => require('./template'))
const templateWriter = lazy(() => require('./template-writer'))

function checkPath (path) {
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i)
    if (c <= 32 || c === 127) {
      throw new InvalidOptionError('path', path, 'must not contain spaces or control characters')
    }
  }
}

// The head goes out as UTF-8, as autocannon sends it: a path or header
// value beyond ASCII arrives as its UTF-8 bytes (obs-text on the wire),
// where node:http would send latin1 or refuse.
function headBytes (head) {
  return Buffer.from(head, 'utf8')
}

// `host` is the Host header value (with the port when it is not the
// default one); `headers` are the user's, in their own case.
// `absoluteForm` ({ origin, proxyAuthorization }): the request goes to an
// HTTP proxy, so its target is the absolute URI (RFC 9112 §3.2.2) and it
// carries the proxy's credentials. Decided when the bytes are built, so a
// request through a proxy costs nothing more per request.
function encodeRequest ({ method = 'GET', path = '/', host, headers, body }, absoluteForm) {
  if (typeof method !== 'string' || !isToken(method)) {
    throw new InvalidOptionError('method', method, 'must be an HTTP token such as GET or POST', upstream('method', { method }))
  }
  if (typeof path !== 'string' || path.length === 0) {
    throw new InvalidOptionError('path', path, 'must be a non-empty string')
  }
  checkPath(path)
  if (host !== undefined && host !== null && (typeof host !== 'string' || !isValidHeaderValue(host))) {
    throw new InvalidOptionError('host', host, 'must be a string without CR, LF or other control characters')
  }

  let bodyBuf = null
  if (body !== undefined && body !== null) {
    if (typeof body === 'string') bodyBuf = Buffer.from(body)
    else if (Buffer.isBuffer(body)) bodyBuf = body
    else if (body instanceof Uint8Array) bodyBuf = Buffer.from(body.buffer, body.byteOffset, body.byteLength)
    else throw new InvalidOptionError('body', body, 'must be a string or a Buffer', upstream('body'))
  }

  // Only an origin-form path ('/…') gets the origin: '*' and a path that
  // is already absolute are sent as they are.
  const target = absoluteForm !== undefined && path.charCodeAt(0) === 47 ? absoluteForm.origin + path : path
  // In autocannon's order: the request line, Host, Connection, the
  // user's headers as given, then Content-Length (where the user put
  // theirs, or last).
  let fields = ''
  let hasHost = false
  let hasConnection = false
  let hasProxyAuthorization = false
  let chunked = false
  // Where in `fields` the user's Content-Length was: ours goes there.
  let lengthAt = -1
  if (headers) {
    for (const name of Object.keys(headers)) {
      const value = headers[name]
      if (value === undefined || value === null) continue
      if (!isToken(name)) {
        throw new InvalidOptionError('headers', name, 'header name is not a valid HTTP token')
      }
      const lower = name.toLowerCase()
      // We compute Content-Length from the body ourselves: a stale one
      // from the user would desynchronise the connection.
      if (lower === 'content-length') {
        if (lengthAt === -1) lengthAt = fields.length
        continue
      }
      if (lower === 'transfer-encoding') {
        if (String(value).toLowerCase().includes('chunked')) chunked = true
        continue
      }
      if (lower === 'host') hasHost = true
      if (lower === 'connection') hasConnection = true
      if (lower === 'proxy-authorization') hasProxyAuthorization = true
      const values = Array.isArray(value) ? value : [value]
      for (const v of values) {
        const str = String(v)
        if (!isValidHeaderValue(str)) {
          throw new InvalidOptionError('headers', name, 'header value must not contain CR, LF or other control characters')
        }
        fields += `${name}: ${str}\r\n`
      }
    }
  }
  let head = `${method} ${target} HTTP/1.1\r\n`
  if (!hasHost && host) head += `Host: ${host}\r\n`
  if (!hasConnection) head += 'Connection: keep-alive\r\n'
  if (absoluteForm !== undefined && absoluteForm.proxyAuthorization && !hasProxyAuthorization) {
    fields += `Proxy-Authorization: ${absoluteForm.proxyAuthorization}\r\n`
  }

  if (chunked) {
    // The user asked for chunked framing: send the body as one chunk.
    head += fields + 'Transfer-Encoding: chunked\r\n\r\n'
    const size = bodyBuf ? bodyBuf.length : 0
    const parts = [headBytes(head)]
    if (size > 0) parts.push(Buffer.from(size.toString(16) + '\r\n'), bodyBuf, Buffer.from('\r\n'))
    parts.push(Buffer.from('0\r\n\r\n'))
    return Buffer.concat(parts)
  }

  // A body-less POST/PUT/PATCH still states its length, as curl and
  // undici do; some servers otherwise wait for a body.
  const length = bodyBuf !== null ? bodyBuf.length : method === 'POST' || method === 'PUT' || method === 'PATCH' ? 0 : -1
  if (length !== -1) {
    const line = `Content-Length: ${length}\r\n`
    fields = lengthAt === -1 ? fields + line : fields.slice(0, lengthAt) + line + fields.slice(lengthAt)
  }
  head += fields + '\r\n'
  return bodyBuf !== null ? Buffer.concat([headBytes(head), bodyBuf]) : headBytes(head)
}

// How a request sequence (lib/client/request-sequence.js) encodes for
// HTTP/1.1: bytes, with ids and {{…}} holes spliced into them.
const http1Encoding = Object.freeze({
  encode: encodeRequest,
  // Encoded once with a marker where the ids go: each request is then the
  // parts joined by a fresh id (ids have a fixed length, so Content-Length
  // holds). latin1 keeps the bytes as they are.
  withIds (template, base) {
    const { ID_MARKER, replaceIds } = ids()
    const marked = encodeRequest({ ...replaceIds(template, ID_MARKER), host: base.host }, base.absoluteForm)
    const parts = marked.latin1Slice(0, marked.length).split(ID_MARKER)
    return (id) => Buffer.from(parts.join(id), 'latin1')
  },
  // {{…}}: compiled once into chunks and holes (template.js), written by
  // a writer of this connection's (template-writer.js); null without any.
  template (template, base, name, conn) {
    const headers = template.headers
    if (!hasTemplate(template.path) && !hasTemplate(template.body) && !Object.keys(headers).some((k) => hasTemplate(headers[k]))) return null
    const compiled = templateCompiler().compile(template, (req) => encodeRequest({ ...req, host: base.host }, base.absoluteForm), { name })
    if (compiled === null) return null
    const { TemplateWriter } = templateWriter()
    return new TemplateWriter(compiled, conn)
  }
})

module.exports = { encodeRequest, http1Encoding }
