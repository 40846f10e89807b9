'use strict'

// HTTP/1.1's descriptor (lib/protocols/http1.js): the default, chosen by
// every run; no ALPN offered, as autocannon offers none; requests through
// a proxy in clear text; nothing asked before the run; its framing the
// one of lib/http1.

const t = require('tap')
const http1 = require('../../lib/protocols/http1')

t.test('HTTP/1.1, as autocannon speaks it', async (t) => {
  t.equal(http1.chooses({}), true, 'any run')
  t.equal(http1.tlsAlpn, undefined, 'no ALPN offered')
  t.equal(http1.resultName, undefined, 'results keep autocannon\'s shape')
  t.equal(http1.streams, false)
  t.equal(http1.clearProxy, true)
  t.equal(http1.preflight, null)
  const err = new Error('x')
  t.equal(http1.connectError(err), err, 'a connection\'s error counted as it comes')
  t.equal(http1.framing(), require('../../lib/http1/client-h1'))
})
