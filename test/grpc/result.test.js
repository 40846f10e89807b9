'use strict'

const t = require('tap')
const { resultFields } = require('../../lib/grpc/result')

t.test('grpcStatus: OK from the 2xx responses, the rest from their codes', async (t) => {
  t.same(resultFields({ '2xx': 7, errorCodes: { AC_GRPC_UNAVAILABLE: 2, AC_GRPC_DEADLINE_EXCEEDED: 1, ECONNRESET: 4 } }).grpcStatus, { OK: 7, UNAVAILABLE: 2, DEADLINE_EXCEEDED: 1 })
  t.same(resultFields({ '2xx': 0, errorCodes: {} }).grpcStatus, {})
  t.same(resultFields({ '2xx': 3, errorCodes: { AC_GRPC_DATA_FILL: 2, AC_GRPC_INTERNAL: 1 } }).grpcStatus, { OK: 3, INTERNAL: 1 }, 'a call never sent has no status')
})
