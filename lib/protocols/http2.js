'use strict'

// HTTP/2's descriptor in the registry (registry.js): what the rest of the
// tool asks of a protocol, as data, and where its parts are (lib/http2),
// loaded only once a target speaks it: its framing, its check before the
// run, and its error codes (lib/http2/errors.js registers them as it
// loads; the framing loads it).

const { lazy } = require('../core/lazy')
// Lazy: each only for a run whose targets speak HTTP/2: the framing taken
// as their routes are made, before anything is sent (it builds HPACK's
// Huffman table at load); the check as the run starts; the codes with the
// framing, or when the whole table is asked for (registry.js).
const framing = lazy(() => require('../http2/client-h2'))
const alpnCheck = lazy(() => require('../http2/alpn-check'))
const codes = lazy(() => require('../http2/errors'))

module.exports = Object.freeze({
  // The registry's key: a target's protocolName, and the result's
  // `protocol` field.
  name: 'h2',
  // Its ALPN id, and the ids its TLS connections offer.
  alpn: 'h2',
  tlsAlpn: Object.freeze(['h2']),
  // https:// over TLS (ALPN h2), http:// in clear text with prior
  // knowledge (h2c).
  schemes: Object.freeze(['http:', 'https:']),
  chooses: (opts) => !!opts.http2,
  resultName: 'h2',
  // How tables and the run's header name it; its `pipelining` is its
  // streams in flight per connection.
  label: 'HTTP/2',
  streams: true,
  // h2c cannot go through an HTTP proxy (an https:// target tunnels, with
  // CONNECT): the table of options refuses it (lib/core/options.js).
  clearProxy: false,
  // Each origin asked once whether it speaks h2: ALPN over TLS, the
  // connection preface in clear text (h2c).
  preflight: (config, targets) => alpnCheck().checkH2(config, targets),
  // A TLS alert that says the server offers no h2.
  connectError: (err) => codes().notOffered(err),
  // Its requests are the run's own (no options of its own to turn into
  // them), and its result adds nothing.
  prepare: null,
  resultFields: null,
  codes,
  framing
})
