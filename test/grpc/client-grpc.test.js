'use strict'

// gRPC's framing on real runs against a real @grpc/grpc-js server: a
// call's status from its trailers (or a trailers-only answer), an HTTP
// status mapped, the deadline's timer.

const t = require('tap')
const http2 = require('http2')
const autocannon = require('../..')
const { statusIn, deadlineOf } = require('../../lib/grpc/client-grpc')
const { startGrpcServer, PROTO, FIXTURES } = require('../helpers/grpc-server')

t.test('the status in a block, the deadline in the headers', async (t) => {
  t.equal(statusIn(['grpc-message', 'x', 'grpc-status', '5']), 5)
  t.equal(statusIn([':status', '200']), -1)
  t.equal(statusIn(null), -1)
  t.equal(deadlineOf({ 'Grpc-Timeout': '250m' }), 250)
  t.equal(deadlineOf({}), 0)
})

t.test('calls against grpc-js: OK, a status by name, a deadline', async (t) => {
  const server = await startGrpcServer()
  t.teardown(server.close)
  const call = (method, data, more = {}) => ({ url: server.url, connections: 1, grpc: { proto: PROTO, protoPath: [FIXTURES], call: `bench.Echo/${method}`, data, ...more } })
  const ok = await autocannon({ ...call('Say', { name: 'z' }), pipelining: 3, amount: 30 })
  t.equal(ok.protocol, 'grpc')
  t.same(ok.grpcStatus, { OK: 30 })
  t.equal(ok.errors, 0)
  const failed = await autocannon({ ...call('Fail', { code: 7 }), amount: 5 })
  t.same(failed.grpcStatus, { PERMISSION_DENIED: 5 }, 'grpc-js answers trailers-only')
  t.same(failed.errorCodes, { AC_GRPC_PERMISSION_DENIED: 5 })
  const late = await autocannon({ ...call('Stall', { ms: 500 }, { timeout: 0.05 }), pipelining: 2, amount: 6 })
  t.same(late.grpcStatus, { DEADLINE_EXCEEDED: 6 })
  t.ok(late.duration < 2, `six calls of 50 ms deadlines end fast (${late.duration} s)`)
})

t.test('an HTTP status other than 200 is the status the spec maps it to', async (t) => {
  const server = http2.createServer()
  server.on('stream', (stream, headers) => {
    // The preflight call gets a gRPC answer; the run's get 503.
    if (headers['x-first'] === undefined && !server.first) {
      server.first = true
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '0' }, { endStream: true })
      return
    }
    stream.respond({ ':status': 503 }, { endStream: true })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const r = await autocannon({ url: `http://127.0.0.1:${server.address().port}`, connections: 1, amount: 4, grpc: { proto: PROTO, protoPath: [FIXTURES], call: 'bench.Echo/Say' } })
  t.same(r.grpcStatus, { UNAVAILABLE: 4 })
})
