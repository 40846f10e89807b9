'use strict'

const t = require('tap')
const grpc = require('../../lib/protocols/grpc')
const { chooseProtocol } = require('../../lib/protocols/registry')

t.test('a call chooses gRPC, the flag\'s or the library\'s', async (t) => {
  t.equal(chooseProtocol({ call: 'a.B/C' }).name, 'grpc')
  t.equal(chooseProtocol({ grpc: { call: 'a.B/C' } }).name, 'grpc')
  t.equal(chooseProtocol({ grpc: { proto: 'x' }, http2: true }).name, 'h2', 'no call: not gRPC')
  t.equal(chooseProtocol({}).name, 'http/1.1')
  t.same(grpc.tlsAlpn, ['h2'])
  t.equal(grpc.resultName, 'grpc')
  t.same(grpc.resultFields({ '2xx': 3, errorCodes: { AC_GRPC_INTERNAL: 1 } }), { grpcStatus: { OK: 3, INTERNAL: 1 } })
})
