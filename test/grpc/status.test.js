'use strict'

const t = require('tap')
const { CODE, fromHttpStatus, parseStatus, statusName } = require('../../lib/grpc/status')

t.test('HTTP statuses map as PROTOCOL-HTTP2.md says', async (t) => {
  const table = { 400: 'INTERNAL', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'UNIMPLEMENTED', 429: 'UNAVAILABLE', 502: 'UNAVAILABLE', 503: 'UNAVAILABLE', 504: 'UNAVAILABLE', 500: 'UNKNOWN', 302: 'UNKNOWN', 201: 'UNKNOWN' }
  for (const [http, name] of Object.entries(table)) t.equal(statusName(fromHttpStatus(Number(http))), name, `${http} → ${name}`)
})

t.test('grpc-status values', async (t) => {
  t.equal(parseStatus('0'), 0)
  t.equal(parseStatus('14'), 14)
  t.equal(parseStatus('16'), 16)
  t.equal(parseStatus('17'), CODE.UNKNOWN, 'out of range: UNKNOWN')
  t.equal(parseStatus('x'), CODE.UNKNOWN)
  t.equal(parseStatus(''), CODE.UNKNOWN)
  t.equal(CODE.DEADLINE_EXCEEDED, 4)
  t.equal(statusName(14), 'UNAVAILABLE')
})
