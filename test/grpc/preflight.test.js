'use strict'

const t = require('tap')
const http2 = require('http2')
const autocannon = require('../..')
const { speaksGrpc } = require('../../lib/grpc/preflight')
const { PROTO, FIXTURES } = require('../helpers/grpc-server')

t.test('what speaks gRPC', async (t) => {
  t.ok(speaksGrpc({ status: 200, contentType: 'application/grpc+proto', grpcStatus: null }))
  t.ok(speaksGrpc({ status: 404, contentType: '', grpcStatus: '12' }))
  t.notOk(speaksGrpc({ status: 200, contentType: 'text/html', grpcStatus: null }))
})

t.test('an HTTP/2 server that is not gRPC: refused before the run', async (t) => {
  let streams = 0
  const server = http2.createServer((req, res) => {
    streams++
    res.setHeader('content-type', 'text/plain')
    res.end('hello')
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const url = `http://127.0.0.1:${server.address().port}`
  await t.rejects(autocannon({ url, connections: 1, amount: 5, grpc: { proto: PROTO, protoPath: [FIXTURES], call: 'bench.Echo/Say' } }),
    { code: 'AC_GRPC_NOT_SPOKEN', message: /answered a gRPC call to \/bench\.Echo\/Say with HTTP 200 \(text\/plain\), no grpc-status/ })
  t.equal(streams, 1, 'one call, before the run; the run did not start')
})

t.test('a server that does not speak HTTP/2: told what a gRPC run needs, not to drop --http2', async (t) => {
  const http = require('http')
  const server = http.createServer((req, res) => res.end('ok'))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const url = `http://127.0.0.1:${server.address().port}`
  const err = await autocannon({ url, connections: 1, amount: 5, grpc: { proto: PROTO, protoPath: [FIXTURES], call: 'bench.Echo/Say' } }).then(() => null, (e) => e)
  t.equal(err && err.code, 'AC_H2C_NOT_SPOKEN')
  t.match(err.message, /does not speak HTTP\/2 in clear text \(h2c\); a gRPC server in clear text speaks h2c/)
  t.notMatch(err.message, /--http2/, 'no flag the run was not given')
})
