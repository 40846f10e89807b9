'use strict'

// A proxy's refusal, as the error a connection fails with: its CONNECT
// answered with anything but a 2xx (tunnel.js), or an http target's
// requests answered 407 (lib/http1/client-h1.js). Apart from tunnel.js,
// which loads tls: an http target through a proxy needs only this.

const { AutocannonError } = require('../core/errors')

// What a 407 says the user can do about it.
function credentialsHint (proxy) {
  return proxy.auth ? ' (the credentials were not accepted)' : ' (it wants credentials: put user:pass@ before the proxy\'s host)'
}

// The tunnel to `to` refused. Counted as a connect error under this code.
function refused (proxy, to, why) {
  return new AutocannonError('AC_PROXY_REFUSED', `proxy ${proxy.href} refused the tunnel to ${to}: ${why}`)
}

// An http target's request answered 407 by the proxy: its connection
// fails with this (Http1#onMessageComplete).
function refusedRequest (target) {
  const proxy = target.proxy
  return new AutocannonError('AC_PROXY_REFUSED', `proxy ${proxy.href} refused the requests to ${target.origin}: 407 Proxy Authentication Required` + credentialsHint(proxy))
}

module.exports = { credentialsHint, refused, refusedRequest }
