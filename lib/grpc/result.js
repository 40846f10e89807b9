'use strict'

// What a gRPC run's result adds: grpcStatus, its calls by gRPC status
// name. An OK call is a response (every response of a gRPC run is one:
// client-grpc.js counts any other status as an error); each other status
// is its error code's count (AC_GRPC_<STATUS>). Read from the counts a
// result already sums, so workers, shards and merges sum it too.

const { NAMES } = require('./status')

// (The codes' common prefix, as errors.js names them.)
const PREFIX = ['AC', 'GRPC', ''].join('_')
// Only a status's code: a call that was never sent (AC_GRPC_DATA_FILL)
// has none.
const STATUSES = new Set(NAMES)

function resultFields (result) {
  const grpcStatus = {}
  const ok = result['2xx'] || 0
  if (ok > 0) grpcStatus.OK = ok
  for (const [code, count] of Object.entries(result.errorCodes || {})) {
    if (code.startsWith(PREFIX) && count > 0 && STATUSES.has(code.slice(PREFIX.length))) grpcStatus[code.slice(PREFIX.length)] = count
  }
  return { grpcStatus }
}

module.exports = { resultFields }
