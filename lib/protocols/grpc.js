'use strict'

// gRPC's descriptor in the registry (registry.js): unary calls over
// HTTP/2 (lib/grpc, built on lib/http2), chosen by a call (--call, or the
// library's grpc.call). Its parts load only for a gRPC run: the call made
// from the options (prepare), its framing, its check before the run and
// its error codes (lib/grpc/errors.js registers them as it loads).

const { lazy } = require('../core/lazy')
const framing = lazy(() => require('../grpc/client-grpc'))
const prepare = lazy(() => require('../grpc/prepare'))
const preflight = lazy(() => require('../grpc/preflight'))
const codes = lazy(() => require('../grpc/errors'))
const h2Codes = lazy(() => require('../http2/errors'))
const results = lazy(() => require('../grpc/result'))

function given (value) {
  return value !== undefined && value !== null
}

module.exports = Object.freeze({
  name: 'grpc',
  alpn: 'h2',
  tlsAlpn: Object.freeze(['h2']),
  // https:// over TLS (ALPN h2), http:// in clear text (h2c).
  schemes: Object.freeze(['http:', 'https:']),
  // A call chooses gRPC: the flag's or the library's.
  chooses: (opts) => given(opts.call) || (given(opts.grpc) && typeof opts.grpc === 'object' && given(opts.grpc.call)),
  resultName: 'grpc',
  label: 'gRPC',
  streams: true,
  clearProxy: false,
  // The options → the call, as an HTTP/2 request (lib/grpc/prepare.js):
  // before the targets are parsed, once.
  prepare: (opts) => prepare().prepareCall(opts),
  // HTTP/2's check (ALPN h2, or h2c's preface), then one call: the server
  // must answer it in gRPC.
  preflight: (config, targets) => preflight().checkGrpc(config, targets),
  connectError: (err) => h2Codes().notOffered(err),
  // What a result adds: its calls by gRPC status.
  resultFields: (result) => results().resultFields(result),
  codes: () => {
    h2Codes()
    codes()
  },
  framing
})
