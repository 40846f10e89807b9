'use strict'

// --proxy: which proxy each target goes through (the option, or "env" for
// HTTP_PROXY, HTTPS_PROXY and NO_PROXY). Loaded only when the option is
// given: a run without a proxy never requires this file. How a proxied
// connection is made is the transport's (lib/transport/tunnel.js).

const { InvalidOptionError } = require('../core/errors')
const { maskSecrets } = require('../core/redact')
const { SCHEME, withScheme, hasNoHost, basicAuth, unbracket } = require('../core/url')

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
// what output shows, credentials masked.
function parseProxy (raw, where = 'proxy') {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw invalid(where, raw, `must be an http:// proxy URL ${EXAMPLE}, or "env"`)
  }
  // As curl and the target URL: no scheme means http://.
  const href = withScheme(raw)
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
  const auth = basicAuth(url)
  const userinfo = url.password ? `${url.username}:${url.password}@` : url.username ? `${url.username}@` : ''
  return Object.freeze({
    href: maskSecrets(`http://${userinfo}${url.host}`),
    hostname: unbracket(url.hostname),
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

// The proxy option → { shown, forTarget(url) }: forTarget gives a target's
// proxy, or undefined to go direct. `shown` is what the config and the
// result keep (credentials masked, or "env").
function proxySetting (raw, env = process.env) {
  if (typeof raw === 'string' && raw.trim() === 'env') {
    // Read per target: HTTPS_PROXY for https, HTTP_PROXY for http, except
    // the hosts NO_PROXY lists.
    const cache = new Map()
    return {
      shown: 'env',
      forTarget (url) {
        const secure = url.protocol === 'https:'
        const name = secure ? 'HTTPS_PROXY' : 'HTTP_PROXY'
        const value = envValue(env, name)
        if (value === undefined) return undefined
        if (bypassed(envValue(env, 'NO_PROXY'), unbracket(url.hostname), Number(url.port) || (secure ? 443 : 80))) return undefined
        if (!cache.has(name)) cache.set(name, parseProxy(value, name))
        return cache.get(name)
      }
    }
  }
  const proxy = parseProxy(raw, 'proxy')
  return {
    shown: proxy.href,
    forTarget: () => proxy
  }
}

module.exports = { proxySetting, bypassed, maskProxyValue }
