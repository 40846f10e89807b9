'use strict'

// The gRPC bench's server: @grpc/grpc-js serving test/fixtures/grpc's
// bench.Echo/Say on 127.0.0.1, one process (pinned to one core by the
// bench). Prints its port on stdout once it listens.
//
//   node bench/grpc-server.js

const path = require('path')
const grpc = require('@grpc/grpc-js')
const loader = require('@grpc/proto-loader')

const FIXTURES = path.join(__dirname, '..', 'test', 'fixtures', 'grpc')
const def = loader.loadSync(path.join(FIXTURES, 'echo.proto'), { includeDirs: [FIXTURES], keepCase: true })
const Echo = grpc.loadPackageDefinition(def).bench.Echo
const server = new grpc.Server()
server.addService(Echo.service, {
  Say: (call, cb) => cb(null, { message: 'hello' }),
  Fail: (call, cb) => cb(Object.assign(new Error('no'), { code: call.request.code })),
  Stall: (call, cb) => setTimeout(() => cb(null, { message: 'late' }), call.request.ms),
  Watch: (call) => call.end()
})
server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => {
  if (err) throw err
  process.stdout.write(`${port}\n`)
})
process.on('SIGTERM', () => server.forceShutdown())
