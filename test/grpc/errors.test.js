'use strict'

const t = require('tap')
const { callError, COUNTED } = require('../../lib/grpc/errors')
const { COUNTED: REGISTERED } = require('../../lib/core/errors')

t.test('one error per status, registered', async (t) => {
  t.equal(callError(14).code, 'AC_GRPC_UNAVAILABLE')
  t.equal(callError(4).code, 'AC_GRPC_DEADLINE_EXCEEDED')
  t.equal(callError(14), callError(14), 'made once, shared')
  t.equal(callError(99).code, 'AC_GRPC_UNKNOWN')
  t.equal(Object.keys(COUNTED).length, 16)
  for (const code of Object.keys(COUNTED)) t.ok(code in REGISTERED, `${code} registered`)
})
