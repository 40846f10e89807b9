'use strict'

// A real @grpc/grpc-js server of test/fixtures/grpc/echo.proto on
// 127.0.0.1, port 0: Say echoes (and records each call's name, count
// and metadata), Fail ends with the status its request asks for, Stall
// answers after its request's ms. tls: { key, cert } for TLS;
// reflection: the reflection services (@grpc/reflection) too.

const path = require('path')
const grpc = require('@grpc/grpc-js')
const loader = require('@grpc/proto-loader')

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'grpc')
const PROTO = path.join(FIXTURES, 'echo.proto')

async function startGrpcServer ({ tls = null, stallMs = 0, reflection = false, token = null } = {}) {
  // reflection: true (v1 and v1alpha), or 'v1alpha' (that one only).
  const def = loader.loadSync(PROTO, { includeDirs: [FIXTURES], keepCase: true })
  const Echo = grpc.loadPackageDefinition(def).bench.Echo
  const seen = { names: [], counts: [], metadata: [], calls: 0 }
  const server = new grpc.Server()
  server.addService(Echo.service, {
    Say (call, cb) {
      seen.calls++
      seen.names.push(call.request.name)
      seen.counts.push(call.request.count)
      seen.metadata.push(call.metadata.getMap())
      cb(null, { message: `hello ${call.request.name}` })
    },
    Fail (call, cb) {
      seen.calls++
      const err = Object.assign(new Error('asked to fail'), { code: call.request.code, details: 'asked to fail' })
      cb(err)
    },
    Stall (call, cb) {
      seen.calls++
      setTimeout(() => cb(null, { message: 'late' }), call.request.ms || stallMs)
    },
    Watch (call) { call.end() }
  })
  if (reflection) {
    const { ReflectionService } = require('@grpc/reflection')
    const service = new ReflectionService(def)
    // token: the reflection calls must carry authorization: Bearer token.
    const to = token === null ? server : guarded(server, token, seen)
    if (reflection === 'v1alpha') service.v1Alpha.addToServer(to)
    else service.addToServer(to)
  }
  const creds = tls ? grpc.ServerCredentials.createSsl(null, [{ private_key: tls.key, cert_chain: tls.cert }], false) : grpc.ServerCredentials.createInsecure()
  const port = await new Promise((resolve, reject) => server.bindAsync('127.0.0.1:0', creds, (err, p) => err ? reject(err) : resolve(p)))
  const close = () => new Promise((resolve) => server.tryShutdown(() => resolve()))
  return { server, port, seen, close, url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}` }
}

// The server, its services' handlers refusing (UNAUTHENTICATED) a call
// without the token; each reflection call's metadata recorded.
function guarded (server, token, seen) {
  seen.reflection = []
  return {
    addService (service, handlers) {
      const wrapped = {}
      for (const [name, handler] of Object.entries(handlers)) {
        wrapped[name] = (stream) => {
          const m = stream.metadata.getMap()
          seen.reflection.push(m)
          if (m.authorization !== `Bearer ${token}`) return stream.emit('error', Object.assign(new Error('no token'), { code: grpc.status.UNAUTHENTICATED }))
          handler(stream)
        }
      }
      server.addService(service, wrapped)
    }
  }
}

module.exports = { startGrpcServer, PROTO, FIXTURES }
