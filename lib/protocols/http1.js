'use strict'

// HTTP/1.1's descriptor in the registry (registry.js): what the rest of
// the tool asks of a protocol, as data, and where its parts are
// (lib/http1), loaded only once a target speaks it. It is the protocol of
// every run no other protocol chooses, as autocannon's is.

const { lazy } = require('../core/lazy')
// Lazy: the framing only for a run whose targets speak it, taken as their
// routes are made, before anything is sent.
const framing = lazy(() => require('../http1/client-h1'))

module.exports = Object.freeze({
  // The registry's key: a target's protocolName, and how a saved result
  // without a `protocol` field is read.
  name: 'http/1.1',
  // Its ALPN id, and the ids its TLS connections offer: none, as
  // autocannon offers none (a server then speaks HTTP/1.1 unasked).
  alpn: 'http/1.1',
  tlsAlpn: undefined,
  schemes: Object.freeze(['http:', 'https:']),
  // Any run: the registry asks it last.
  chooses: () => true,
  // The result's `protocol` field: absent, so that HTTP/1.1's results keep
  // autocannon's shape.
  resultName: undefined,
  // How tables and the run's header name it; its `pipelining` is
  // requests in a row on a connection, not streams.
  label: 'HTTP/1.1',
  streams: false,
  // An http:// target through an HTTP proxy: its requests go to the proxy
  // in absolute form.
  clearProxy: true,
  // Nothing to ask a server before the run; a failed connection's error is
  // counted as it comes; no codes of its own (its parser's are HPE_*).
  preflight: null,
  connectError: (err) => err,
  // Its requests are the run's own (no options of its own to turn into
  // them), and its result adds nothing.
  prepare: null,
  resultFields: null,
  codes: () => {},
  // The framing's module: create(client, setup), encodingFor(target).
  framing
})
