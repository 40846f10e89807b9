'use strict'

// A call without a .proto: the server's reflection asked before the run
// (lib/grpc/reflection.js), against a real grpc-js server with
// @grpc/reflection; v1, the fallback to v1alpha, the run's metadata on
// the reflection call, and the one line a server without it gets.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const autocannon = require('../..')
const { startGrpcServer } = require('../helpers/grpc-server')
const { makePki } = require('../helpers/pki')
const { rootOf } = require('../../lib/grpc/reflection')

const say = (url, more = {}) => ({ url, connections: 1, amount: 6, grpc: { call: 'bench.Echo/Say', data: '{"name":"r{{seq}}","count":{{int 4 6}},"meta":{"tag":"t"}}', ...more } })

t.test('h2c, v1: the message defined by the server, its templates filled per call', async (t) => {
  const server = await startGrpcServer({ reflection: true })
  t.teardown(server.close)
  const result = await autocannon(say(server.url))
  t.same(result.grpcStatus, { OK: 6 })
  // The pre-flight call, then the run's six.
  t.same(server.seen.names, ['r0', 'r0', 'r1', 'r2', 'r3', 'r4', 'r5'])
  t.ok(server.seen.counts.every((c) => c >= 4 && c <= 6), 'a number in range: the field\'s type came from the reflection')
})

t.test('TLS, only v1alpha: the fallback; a message without templates encoded once', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grpc-refl-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const pki = makePki(dir)
  const server = await startGrpcServer({ tls: pki.server, reflection: 'v1alpha' })
  t.teardown(server.close)
  const result = await autocannon({ url: `https://localhost:${server.port}`, tlsOptions: { ca: fs.readFileSync(path.join(dir, 'ca.crt')) }, connections: 1, amount: 4, grpc: { call: 'bench.Echo/Say', data: { name: 'alpha', meta: { tag: 'x' } } } })
  t.same(result.grpcStatus, { OK: 4 })
  t.same(server.seen.names, ['alpha', 'alpha', 'alpha', 'alpha', 'alpha'])
})

t.test('the run\'s metadata goes on the reflection call too (filled once)', async (t) => {
  const server = await startGrpcServer({ reflection: true, token: 's3cret' })
  t.teardown(server.close)
  const result = await autocannon(say(server.url, { metadata: ['authorization: Bearer s3cret', 'x-n: {{seq}}'] }))
  t.same(result.grpcStatus, { OK: 6 })
  t.ok(server.seen.reflection.length >= 1, 'the reflection was asked')
  t.equal(server.seen.reflection[0].authorization, 'Bearer s3cret')
  t.equal(server.seen.reflection[0]['x-n'], '0', 'its template filled')
  t.notOk('grpc-timeout' in server.seen.reflection[0])
  // Refused without it: one line, no token in it.
  const err = await autocannon(say(server.url, { metadata: ['authorization: Bearer wrong'] })).then(() => null, (e) => e)
  t.equal(err && err.code, 'AC_GRPC_NO_REFLECTION')
  t.match(err.message, /^the server at http:\/\/127\.0\.0\.1:\d+ refused its reflection call \(gRPC status UNAUTHENTICATED\): check the --metadata it needs/)
  t.notMatch(err.message, /wrong|s3cret|Bearer/, 'no credentials in the message')
})

t.test('a server without reflection, or without the service: one line before the run', async (t) => {
  const server = await startGrpcServer()
  t.teardown(server.close)
  const err = await autocannon(say(server.url)).then(() => null, (e) => e)
  t.equal(err && err.code, 'AC_GRPC_NO_REFLECTION')
  t.equal(err.message, `the server at ${server.url} offers no reflection service: give --proto FILE or --protoset FILE`)
  t.equal(server.seen.calls, 0, 'no call was made')
  const reflecting = await startGrpcServer({ reflection: true })
  t.teardown(reflecting.close)
  const other = await autocannon(say(reflecting.url, { call: 'bench.Other/Say' })).then(() => null, (e) => e)
  t.equal(other && other.code, 'AC_GRPC_METHOD')
  t.match(other.message, /^--call: the server at http:\/\/127\.0\.0\.1:\d+ has no service bench\.Other in its reflection: Symbol not found: bench\.Other/)
  const method = await autocannon(say(reflecting.url, { call: 'bench.Echo/Nope' })).then(() => null, (e) => e)
  t.equal(method && method.code, 'AC_GRPC_METHOD')
  t.match(method.message, /service bench\.Echo has no method Nope; it has bench\.Echo\/\{Say,Fail,Stall,Watch\}/)
  const unfit = await autocannon(say(reflecting.url, { data: '{"count":"{{pick 1|x}}"}' })).then(() => null, (e) => e)
  t.equal(unfit && unfit.code, 'AC_GRPC_DATA')
  t.equal(reflecting.seen.calls, 0, 'no call was made')
})

t.test('a reflection that ends without its answers, or a server that cannot be asked: one line', async (t) => {
  const http2 = require('http2')
  const paths = []
  const server = http2.createServer()
  server.on('stream', (stream, headers) => {
    paths.push(headers[':path'])
    stream.resume()
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true })
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }))
    stream.end()
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const url = `http://127.0.0.1:${server.address().port}`
  const err = await autocannon(say(url)).then(() => null, (e) => e)
  t.equal(err && err.code, 'AC_GRPC_NO_REFLECTION')
  t.equal(err.message, `cannot ask the server at ${url} for its reflection (its reflection gave no answer): give --proto FILE or --protoset FILE`)
  t.same(paths, ['/grpc.reflection.v1.ServerReflection/ServerReflectionInfo'], 'v1 asked; an answer that is not UNIMPLEMENTED is not fallen back from')
})

t.test('descriptors in any order make a root', async (t) => {
  const protobuf = require('protobufjs')
  const descriptor = require('protobufjs/ext/descriptor')
  const a = descriptor.FileDescriptorProto.encode({ name: 'a.proto', package: 'a', dependency: ['b.proto'], messageType: [{ name: 'A', field: [{ name: 'b', number: 1, label: 1, type: 11, typeName: '.b.B' }] }], syntax: 'proto3' }).finish()
  const b = descriptor.FileDescriptorProto.encode({ name: 'b.proto', package: 'b', messageType: [{ name: 'B', field: [{ name: 'x', number: 1, label: 1, type: 5 }] }], syntax: 'proto3' }).finish()
  for (const files of [[a, b], [b, a]]) {
    const root = rootOf(files)
    const A = root.lookupType('a.A')
    t.same(A.toObject(A.decode(A.encode(A.fromObject({ b: { x: 7 } })).finish())), { b: { x: 7 } })
  }
  t.ok(protobuf)
})
