'use strict'

// HTTP/2's descriptor (lib/protocols/http2.js): chosen by http2, ALPN h2
// offered, no h2c through a proxy, a TLS alert that says the server
// offers no h2 counted as AC_H2_NOT_OFFERED, its framing and codes in
// lib/http2.

const t = require('tap')
const http2 = require('../../lib/protocols/http2')
const { COUNTED, causeOf } = require('../../lib/core/errors')

t.test('HTTP/2, chosen by http2', async (t) => {
  t.equal(http2.chooses({ http2: true }), true)
  t.equal(http2.chooses({}), false)
  t.same(http2.tlsAlpn, ['h2'])
  t.equal(http2.streams, true)
  t.equal(http2.clearProxy, false)
  t.equal(typeof http2.preflight, 'function')
  t.equal(http2.framing(), require('../../lib/http2/client-h2'))
})

t.test('a TLS alert of no common protocol is a server that offers no h2', async (t) => {
  const alert = Object.assign(new Error('tlsv1 alert no application protocol'), { code: 'ERR_SSL_TLSV1_ALERT_NO_APPLICATION_PROTOCOL' })
  const read = http2.connectError(alert)
  t.equal(read.code, 'AC_H2_NOT_OFFERED')
  t.match(read.message, /did not offer HTTP\/2 on a new connection \(ALPN h2\): tlsv1 alert/)
  t.ok('AC_H2_NOT_OFFERED' in COUNTED, 'registered from lib/http2')
  t.equal(causeOf(read, false), 'connect')
  const other = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })
  t.equal(http2.connectError(other).code, 'ECONNREFUSED', 'other errors as they come')
})
