'use strict'

const t = require('tap')
const { callError, COUNTED } = require('../../lib/grpc/errors')
const { COUNTED: REGISTERED } = require('../../lib/core/errors')

t.test('one error per status, registered', async (t) => {
  t.equal(callError(14).code, 'AC_GRPC_UNAVAILABLE')
  t.equal(callError(4).code, 'AC_GRPC_DEADLINE_EXCEEDED')
  t.equal(callError(14), callError(14), 'made once, shared')
  t.equal(callError(99).code, 'AC_GRPC_UNKNOWN')
  t.equal(Object.keys(COUNTED).length, 17, 'one per non-OK status, and AC_GRPC_DATA_FILL')
  t.equal(COUNTED.AC_GRPC_DATA_FILL[0], 'hook')
  for (const code of Object.keys(COUNTED)) t.ok(code in REGISTERED, `${code} registered`)
})
