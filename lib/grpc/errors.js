'use strict'

// gRPC's error codes, registered from here into lib/core/errors.js's
// tables as this file loads: those raised before the run (bad input, a
// server that does not speak gRPC) and one counted per call for each
// non-OK gRPC status, AC_GRPC_<STATUS>. A call's error is made once per
// status, here, and shared: nothing is allocated per failed call.

const { CountedError, registerCodes } = require('../core/errors')
const { NAMES } = require('./status')

const RAISED = {
  AC_GRPC_OPTION: 'A gRPC option (--call, --metadata, --grpcTimeout, --grpcCompression, --data or the library\'s grpc object) that is not of its form: the message names it and the form it takes.',
  AC_GRPC_PROTO: 'A .proto file (--proto, with imports found through --protoPath) or a FileDescriptorSet (--protoset) that is missing or cannot be parsed: the message names the file, and the line where protobufjs stopped.',
  AC_GRPC_METHOD: 'The --call method is not in the .proto files given: the message lists the services and methods they have.',
  AC_GRPC_DATA: 'The --data JSON is not JSON, or does not fit the request message of --call (with {{…}} templates: once filled with sample values): the message names the field.',
  AC_GRPC_NO_REFLECTION: 'A call given without --proto or --protoset, to a server that offers no reflection service (grpc.reflection.v1 or v1alpha), or that could not be asked before the run: give the .proto (--proto FILE) or a FileDescriptorSet (--protoset FILE).',
  AC_GRPC_NOT_SPOKEN: 'The server answered a first gRPC call, made before the run, without a grpc-status or a content-type of application/grpc: it speaks HTTP/2 but not gRPC at that path.'
}

// A gRPC status's description, for the docs' table of codes.
const WHAT = {
  CANCELLED: 'the call was cancelled (by the server)',
  UNKNOWN: 'an unknown error (also: an HTTP status the spec maps to none, or a grpc-status out of range)',
  INVALID_ARGUMENT: 'the server found the request message invalid',
  DEADLINE_EXCEEDED: 'the call\'s deadline (--grpcTimeout) passed before its trailers came: the client reset its stream with CANCEL, or the server said so',
  NOT_FOUND: 'the server found no such entity',
  ALREADY_EXISTS: 'the entity the call would create exists',
  PERMISSION_DENIED: 'the caller may not make this call (also: HTTP 403)',
  RESOURCE_EXHAUSTED: 'a quota or a resource of the server ran out',
  FAILED_PRECONDITION: 'the server is not in a state to make the call',
  ABORTED: 'the call was aborted (a concurrency conflict)',
  OUT_OF_RANGE: 'a value out of its valid range',
  UNIMPLEMENTED: 'the server does not implement the method (also: HTTP 404)',
  INTERNAL: 'an internal error of the server (also: HTTP 400)',
  UNAVAILABLE: 'the service is unavailable (also: HTTP 429, 502, 503, 504)',
  DATA_LOSS: 'unrecoverable data loss',
  UNAUTHENTICATED: 'the call has no valid credentials (also: HTTP 401)'
}

const COUNTED = {}
// A call whose message, filled from its templates during the run, is
// not JSON or does not fit its type: the generator's input, not the
// server's answer, so counted with what a hook fails to make.
COUNTED.AC_GRPC_DATA_FILL = ['hook', 'A call\'s message, filled from its {{…}} templates during the run (the check before the run fills each {{line}} up to the thousandth only), is not JSON or does not fit the request message of --call: that call is not sent; the first such call\'s message names the field.']
for (const name of NAMES.slice(1)) COUNTED[`AC_GRPC_${name}`] = ['parse', `A gRPC call that ended with status ${name}: ${WHAT[name]}. Counted by name in grpcStatus too.`]

registerCodes({ raised: RAISED, counted: COUNTED })

// One error per status number (index 0, OK, is none).
const CALL_ERRORS = Object.freeze(NAMES.map((name, i) => i === 0 ? null : new CountedError(`AC_GRPC_${name}`, `a gRPC call ended with status ${name}`)))

function callError (code) {
  return CALL_ERRORS[code] || CALL_ERRORS[2]
}

module.exports = { callError, RAISED, COUNTED }
