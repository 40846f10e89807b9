'use strict'

// gRPC's status codes (doc/statuscodes.md), by number and by name, and
// what an HTTP status other than 200 means as one (PROTOCOL-HTTP2.md's
// table for responses that are not gRPC's own).

const NAMES = Object.freeze([
  'OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND', 'ALREADY_EXISTS',
  'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE',
  'UNIMPLEMENTED', 'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS', 'UNAUTHENTICATED'
])

const CODE = Object.freeze(Object.fromEntries(NAMES.map((name, i) => [name, i])))

// An HTTP status → the gRPC status it stands for (the spec's mapping);
// anything not listed is UNKNOWN.
const FROM_HTTP = Object.freeze({
  400: CODE.INTERNAL,
  401: CODE.UNAUTHENTICATED,
  403: CODE.PERMISSION_DENIED,
  404: CODE.UNIMPLEMENTED,
  429: CODE.UNAVAILABLE,
  502: CODE.UNAVAILABLE,
  503: CODE.UNAVAILABLE,
  504: CODE.UNAVAILABLE
})

function fromHttpStatus (status) {
  const code = FROM_HTTP[status]
  return code === undefined ? CODE.UNKNOWN : code
}

// A grpc-status value (its text) → its number; one outside the table
// (or not a number) is UNKNOWN, as the spec asks clients to treat it.
function parseStatus (text) {
  if (text.length === 0 || text.length > 2) return CODE.UNKNOWN
  const n = Number(text)
  return Number.isInteger(n) && n >= 0 && n < NAMES.length ? n : CODE.UNKNOWN
}

// The name of a status as results count it.
function statusName (code) {
  return NAMES[code] || 'UNKNOWN'
}

module.exports = { NAMES, CODE, fromHttpStatus, parseStatus, statusName }
