'use strict'

// The registry of protocols: one descriptor per protocol, in this folder
// (http1.js, http2.js, grpc.js), and the one place that holds them all. A
// descriptor says the protocol's name, its ALPN id, its schemes, whether
// it chooses a run (chooses(opts)), its check before the run, how results
// and tables label it, how a failed connection's error is read, and where
// its framing and its error codes are in its own folder (lib/http2…),
// loaded only when a target speaks it: results and outputs read a
// descriptor without loading any protocol.
//
// The config resolves each target's protocol here once (chooseProtocol)
// and records its name on the target (target.protocolName, plain data that
// crosses to worker threads); everything after asks the descriptor
// (protocolOf) and never compares a protocol's name (test/layout.test.js
// fails on one outside this folder and the protocols' own). A descriptor
// is looked up once per target or result, never per request.

const http1 = require('./http1')
const http2 = require('./http2')
const grpc = require('./grpc')

// In the order a run's options are put to them: the first that chooses
// the run speaks it. HTTP/1.1 chooses every run, so it is last.
const PROTOCOLS = Object.freeze([grpc, http2, http1])
const DEFAULT = http1
const BY_NAME = new Map(PROTOCOLS.map((protocol) => [protocol.name, protocol]))
const BY_RESULT = new Map(PROTOCOLS.map((protocol) => [protocol.resultName, protocol]))

// The URL schemes a target may have: those of every protocol.
const SCHEMES = Object.freeze([...new Set(PROTOCOLS.flatMap((protocol) => protocol.schemes))])

// The protocol a run's (checked) options choose.
function chooseProtocol (opts) {
  return PROTOCOLS.find((protocol) => protocol.chooses(opts))
}

function protocolNamed (name) {
  const protocol = BY_NAME.get(name)
  if (protocol === undefined) throw new Error(`no protocol named ${name}`)
  return protocol
}

// A target's, as the config chose it.
function protocolOf (target) {
  return protocolNamed(target.protocolName)
}

// A run's: a config's, as it chose it; or, for options that are not a
// config (aggregateResult's, merge's), the one they choose.
function protocolOfRun (opts) {
  return BY_NAME.get(opts.protocolName) || chooseProtocol(opts)
}

// The protocol a result records (its `protocol` field); one that records
// none of them (none: HTTP/1.1, as autocannon's; 'mixed', a forced merge
// of both) is shown as the default's.
function protocolOfResult (result) {
  return BY_RESULT.get(result.protocol) || DEFAULT
}

// The name a result's protocol is compared by (merge): its field as it
// is, the default's name when it has none.
function protocolNameOfResult (result) {
  return result.protocol || DEFAULT.name
}

// Before anything is sent, each protocol the targets speak checks its own
// targets (an https origin's ALPN, say), once. A check may also complete
// the config from what the server says (gRPC's reflection: the message
// its .proto would have defined): it resolves to the config it completed,
// which this resolves to in turn (the config given, when none did).
async function preflight (config) {
  for (const protocol of PROTOCOLS) {
    if (protocol.preflight === null) continue
    const targets = config.urls.filter((target) => target.protocolName === protocol.name)
    if (targets.length === 0) continue
    const completed = await protocol.preflight(config, targets)
    if (completed !== undefined && completed !== null) config = completed
  }
  return config
}

// Every protocol's error codes, registered (lib/core/errors.js's tables
// whole): for what lists them all (the docs' checks). A run registers a
// protocol's as its framing loads.
function registerAllCodes () {
  for (const protocol of PROTOCOLS) protocol.codes()
}

module.exports = { registerAllCodes, PROTOCOLS, SCHEMES, chooseProtocol, protocolNamed, protocolOf, protocolOfRun, protocolOfResult, protocolNameOfResult, preflight }
