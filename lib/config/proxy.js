'use strict'

// --proxy: which proxy each target goes through, and the CONNECT tunnel for
// https targets. Loaded only when the option is given: a run without a
// proxy never requires this file, and nothing on its request path changes.
//
// An http target goes to the proxy in absolute form (the request bytes are
// built that way once, see request-encoder.js); an https target gets a
// tunnel: CONNECT host:port, then TLS inside it, as undici's ProxyAgent
// does. Only the connect step differs from a direct run.

const net = require('net')
const { InvalidOptionError, AutocannonError } = require('../core/errors')
const { maskSecrets } = require('../core/redact')
// config.js requires this file only from buildConfig, once it is loaded.
const { hasNoHost } = require('./config')

const SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//

// A proxy value as it may be shown: the user information before the last
// '@' masked even when the value is not a URL we could parse (no scheme, a
// '/' in the password), since an invalid value is echoed in its error.
function maskProxyValue (text) {
  if (typeof text !== 'string') return text
  const at = text.lastIndexOf('@')
  if (at === -1) return text
  const scheme = SCHEME.exec(text)
  const start = scheme ? scheme[0].length : 0
  if (at < start) return text
  const userinfo = text.slice(start, at)
  const colon = userinfo.indexOf(':')
  return text.slice(0, start) + (colon === -1 ? '***' : `${userinfo.slice(0, colon)}:***`) + text.slice(at)
}

// `where` names the value in messages: the option, or the environment
// variable --proxy env took it from.
function invalid (where, raw, expected) {
  const value = maskProxyValue(raw)
  if (where === 'proxy') return new InvalidOptionError('proxy', value, expected)
  return new InvalidOptionError('proxy', 'env', `takes ${where}, and its value ${JSON.stringify(value)} ${expected}`)
}

// (Messages are masked: an example with user:pass@ in a URL would show ***.)
const EXAMPLE = '(e.g. http://127.0.0.1:3128; put user:pass@ before the host for basic auth)'

// http://[user:pass@]host[:port] → { href, hostname, port, auth }; href is
// what output shows, credentials masked. `credentials`: the
// Proxy-Authorization of a value whose password was masked (a worker
// rebuilding its config from the main thread's).
function parseProxy (raw, where = 'proxy', credentials) {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw invalid(where, raw, `must be an http:// proxy URL ${EXAMPLE}, or "env"`)
  }
  let href = raw.trim()
  // As curl and the target URL: no scheme means http://.
  if (!SCHEME.test(href)) href = 'http://' + href
  if (!/^http:\/\//i.test(href)) {
    throw invalid(where, raw, `is not an http:// proxy URL ${EXAMPLE}: only HTTP proxies are supported (they tunnel https targets with CONNECT)`)
  }
  if (hasNoHost(href)) throw invalid(where, raw, `has no host ${EXAMPLE}`)
  let url
  try {
    url = new URL(href)
  } catch {
    throw invalid(where, raw, `is not a valid URL ${EXAMPLE}`)
  }
  if (!url.hostname) throw invalid(where, raw, `has no host ${EXAMPLE}`)
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw invalid(where, raw, `must be a scheme, host and port only, without a path or query ${EXAMPLE}`)
  }
  const auth = credentials || (url.username || url.password
    ? 'Basic ' + Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')
    : undefined)
  const userinfo = url.password ? `${url.username}:${url.password}@` : url.username ? `${url.username}@` : ''
  return Object.freeze({
    href: maskSecrets(`http://${userinfo}${url.host}`),
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: Number(url.port) || 80,
    auth
  })
}

// NO_PROXY as curl and undici read it: names separated by commas or
// spaces, each matching the host and its subdomains (a leading '.' or '*.'
// changes nothing), an optional :port, '*' for every host.
function bypassed (noProxy, hostname, port) {
  if (!noProxy) return false
  const host = hostname.toLowerCase()
  for (let entry of noProxy.split(/[\s,]+/)) {
    entry = entry.trim().toLowerCase()
    if (entry === '') continue
    if (entry === '*') return true
    let entryPort = 0
    const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry)
    if (m) {
      entry = m[1]
      entryPort = Number(m[2])
    }
    entry = entry.replace(/^\*/, '').replace(/^\./, '').replace(/^\[|\]$/g, '')
    if (entryPort !== 0 && entryPort !== port) continue
    if (host === entry || host.endsWith('.' + entry)) return true
  }
  return false
}

function envValue (env, name) {
  const value = env[name] !== undefined ? env[name] : env[name.toLowerCase()]
  return typeof value === 'string' && value.trim() !== '' ? value : undefined
}

// The proxy option → { shown, credentials, forTarget(url) }: forTarget
// gives a target's proxy, or undefined to go direct. `shown` is what the
// config and the result keep (credentials masked, or "env");
// `credentials` what workers need to rebuild it.
function proxySetting (raw, credentials, env = process.env) {
  if (typeof raw === 'string' && raw.trim() === 'env') {
    // Read per target: HTTPS_PROXY for https, HTTP_PROXY for http, except
    // the hosts NO_PROXY lists.
    const cache = new Map()
    return {
      shown: 'env',
      credentials: undefined,
      forTarget (url) {
        const secure = url.protocol === 'https:'
        const name = secure ? 'HTTPS_PROXY' : 'HTTP_PROXY'
        const value = envValue(env, name)
        if (value === undefined) return undefined
        const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
        if (bypassed(envValue(env, 'NO_PROXY'), hostname, Number(url.port) || (secure ? 443 : 80))) return undefined
        if (!cache.has(name)) cache.set(name, parseProxy(value, name))
        return cache.get(name)
      }
    }
  }
  const proxy = parseProxy(raw, 'proxy', credentials)
  return {
    shown: proxy.href,
    credentials: proxy.auth,
    forTarget: () => proxy
  }
}

// --- the tunnel (https targets) ---

// Refusals are counted as connect errors under this code.
function refused (proxy, authority, why) {
  return new AutocannonError('AC_PROXY_REFUSED', `proxy ${proxy.href} refused the tunnel to ${authority}: ${why}`)
}

// An http target's request answered 407 by the proxy (the client fails
// its connection with this, see Client#onMessageComplete).
function refusedRequest (target) {
  const proxy = target.proxy
  return new AutocannonError('AC_PROXY_REFUSED', `proxy ${proxy.href} refused the requests to ${target.origin}: 407 Proxy Authentication Required` +
    (proxy.auth ? ' (the credentials were not accepted)' : ' (it wants credentials: put user:pass@ before the proxy\'s host)'))
}

// A proxy answering CONNECT with more header than this is not one.
const MAX_RESPONSE_HEAD = 16 * 1024

// Returns connect(connection) for an https target through `proxy`: TCP to the
// proxy, CONNECT, and on a 2xx TLS over that socket with the target's SNI
// and the user's TLS options. The connection sees the TLS socket from then
// on (connection.upgrade), and its 'connect' moment at the end of the handshake.
function tunnelTransport (target, proxy, tlsConfig) {
  const tls = require('tls')
  const authority = net.isIPv6(target.hostname) ? `[${target.hostname}]:${target.port}` : `${target.hostname}:${target.port}`
  // Built once per target.
  const request = Buffer.from(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n` +
    (proxy.auth ? `Proxy-Authorization: ${proxy.auth}\r\n` : '') + '\r\n', 'latin1')

  return (connection) => {
    const raw = net.connect({ host: proxy.hostname, port: proxy.port, noDelay: true })
    raw.once('connect', () => raw.write(request))
    let head = null
    const onReadable = () => {
      let chunk
      while ((chunk = raw.read()) !== null) {
        head = head === null ? chunk : Buffer.concat([head, chunk])
        const end = head.indexOf('\r\n\r\n')
        if (end === -1) {
          if (head.length > MAX_RESPONSE_HEAD) raw.destroy(refused(proxy, authority, 'its response to CONNECT has no end of header'))
          continue
        }
        raw.removeListener('readable', onReadable)
        raw.removeListener('end', onEnd)
        const status = /^HTTP\/1\.[01] (\d{3})([^\r\n]*)/.exec(head.latin1Slice(0, end))
        if (status === null) return raw.destroy(refused(proxy, authority, 'it answered CONNECT with something that is not HTTP'))
        const code = Number(status[1])
        if (code < 200 || code > 299) {
          const reason = status[2].trim()
          return raw.destroy(refused(proxy, authority, `${code}${reason ? ' ' + reason : ''}` +
            (code === 407 ? (proxy.auth ? ' (the credentials were not accepted)' : ' (it wants credentials: put user:pass@ before the proxy\'s host)') : '')))
        }
        // The server speaks only after our ClientHello, so nothing of the
        // tunnel can have come with the proxy's answer.
        return start()
      }
    }
    const onEnd = () => raw.destroy(refused(proxy, authority, 'it closed the connection before answering CONNECT'))
    const start = () => {
      const socket = tls.connect({
        // As for a direct https target (see transport.js).
        rejectUnauthorized: false,
        ...tlsConfig.options,
        servername: tlsConfig.servername,
        session: tlsConfig.session,
        socket: raw
      })
      socket.setNoDelay(true)
      socket.once('secureConnect', () => connection.onConnect())
      socket.on('session', (session) => { tlsConfig.session = session })
      socket.on('data', (buf) => connection.onData(buf, 0, buf.length))
      if (!connection.upgrade(raw, socket)) socket.destroy()
    }
    raw.on('readable', onReadable)
    raw.on('end', onEnd)
    return raw
  }
}

module.exports = { parseProxy, proxySetting, bypassed, maskProxyValue, tunnelTransport, refusedRequest }
