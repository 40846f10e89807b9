'use strict'

const t = require('tap')
const fs = require('fs')
const path = require('path')
const os = require('os')
const { prepareCall } = require('../../lib/grpc/prepare')

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'grpc')
const PROTO = path.join(FIXTURES, 'echo.proto')
const base = (grpc) => ({ url: 'http://127.0.0.1:1/ignored', grpc: { proto: PROTO, protoPath: [FIXTURES], call: 'bench.Echo/Say', ...grpc } })

t.test('the call as an HTTP/2 request, made once', async (t) => {
  const out = prepareCall({ ...base({ data: '{"name":"ann","count":2}', metadata: ['X-A: 1'], timeout: 0.25, compression: 'off' }), headers: { h: 'v' } })
  t.equal(out.url, 'http://127.0.0.1:1/bench.Echo/Say')
  t.equal(out.method, 'POST')
  t.same(out.headers, { h: 'v', 'x-a': '1', 'content-type': 'application/grpc', te: 'trailers', 'grpc-timeout': '250m', 'grpc-accept-encoding': 'identity' })
  // name=1 "ann" (0a 03 61 6e 6e), count=2 (10 02): 7 bytes, framed.
  t.same([...out.body], [0, 0, 0, 0, 7, 0x0a, 3, 0x61, 0x6e, 0x6e, 0x10, 2])
})

t.test('the flags as well as the object; -b as the JSON', async (t) => {
  const out = prepareCall({ url: 'http://h:1', proto: PROTO, protoPath: [FIXTURES], call: 'bench.Echo.Say', body: '{"name":"b"}', grpcCompression: 'gzip' })
  t.equal(out.url, 'http://h:1/bench.Echo/Say')
  t.equal(out.headers['grpc-encoding'], 'gzip')
  t.equal(out.body[0], 1, 'compressed flag')
  const zlib = require('zlib')
  t.same([...zlib.gunzipSync(out.body.subarray(5))], [0x0a, 1, 0x62])
})

t.test('bad input: one line, a registered code, naming what', async (t) => {
  t.throws(() => prepareCall(base({ call: 'bench.Echo/Nope' })), { code: 'AC_GRPC_METHOD', message: /no method Nope; it has bench\.Echo\/\{Say,Fail,Stall,Watch\}/ })
  t.throws(() => prepareCall(base({ call: 'bench.Other/Say' })), { code: 'AC_GRPC_METHOD', message: /no service bench\.Other/ })
  t.throws(() => prepareCall(base({ call: 'bench.Echo/Watch' })), { code: 'AC_GRPC_METHOD', message: /streaming/ })
  t.throws(() => prepareCall(base({ data: '{"nam":"x"}' })), { code: 'AC_GRPC_DATA', message: /field "nam", which message bench\.SayRequest does not have/ })
  t.throws(() => prepareCall(base({ data: '{"meta":{"tags":"x"}}' })), { code: 'AC_GRPC_DATA', message: /"meta\.tags"/ })
  t.throws(() => prepareCall(base({ data: '{"count":"many"}' })), { code: 'AC_GRPC_DATA', message: /count: integer expected/ })
  t.throws(() => prepareCall(base({ data: '{nope' })), { code: 'AC_GRPC_DATA', message: /is not JSON/ })
  t.throws(() => prepareCall(base({ proto: '/nonexistent/x.proto' })), { code: 'AC_GRPC_PROTO', message: /x\.proto does not exist/ })
  t.throws(() => prepareCall(base({ metadata: ['nope'] })), { code: 'AC_GRPC_OPTION' })
  t.throws(() => prepareCall(base({ timeout: 'soon' })), { code: 'AC_GRPC_OPTION', message: /--grpcTimeout "soon"/ })
  t.throws(() => prepareCall(base({ compression: 'br' })), { code: 'AC_GRPC_OPTION', message: /"br" is not off or gzip/ })
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'proto-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const bad = path.join(dir, 'bad.proto')
  fs.writeFileSync(bad, 'syntax = "proto3";\n\nmessage A {\n  string x = ;\n}\n')
  t.throws(() => prepareCall(base({ proto: bad, protoPath: [] })), { code: 'AC_GRPC_PROTO', message: /bad\.proto.*line 4/ })
})

t.test('one message, one definition', async (t) => {
  t.throws(() => prepareCall({ ...base({ data: '{}' }), body: '{}' }), { code: 'AC_GRPC_OPTION', message: /--data and -b\/--body/ })
  t.throws(() => prepareCall(base({ protoset: 'x.pb' })), { code: 'AC_GRPC_OPTION', message: /--proto and --protoset/ })
})

t.test('a FileDescriptorSet instead of a .proto', async (t) => {
  const protobuf = require('protobufjs')
  const descriptor = require('protobufjs/ext/descriptor')
  const root = new protobuf.Root()
  root.resolvePath = (origin, target) => path.resolve(FIXTURES, path.basename(target))
  root.loadSync(PROTO, { keepCase: true })
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'protoset-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'echo.pb')
  fs.writeFileSync(file, descriptor.FileDescriptorSet.encode(root.toDescriptor('proto3')).finish())
  const out = prepareCall({ url: 'http://h:1', grpc: { protoset: file, call: 'bench.Echo/Say', data: { name: 'ann' } } })
  t.same([...out.body], [0, 0, 0, 0, 5, 0x0a, 3, 0x61, 0x6e, 0x6e])
  fs.writeFileSync(path.join(dir, 'junk.pb'), 'not a descriptor')
  t.throws(() => prepareCall({ url: 'http://h:1', grpc: { protoset: path.join(dir, 'junk.pb'), call: 'bench.Echo/Say' } }), { code: 'AC_GRPC_PROTO', message: /junk\.pb is not a FileDescriptorSet/ })
})

t.test('a templated message: checked with sample values before the run', async (t) => {
  const { openEnvelope, isEnvelope } = require('../../lib/grpc/message-template')
  const out = prepareCall(base({ data: '{"name":"{{pick a|b}}","count":{{int 1 9}}}' }))
  t.ok(isEnvelope(out.body), 'the body carries the message to fill per call')
  const opened = openEnvelope(out.body)
  t.equal(opened.type.fullName, '.bench.SayRequest')
  t.equal(opened.text, '{"name":"{{pick a|b}}","count":{{int 1 9}}}')
  t.equal(opened.gzip, false)
  // The library's object: its strings' templates too.
  t.equal(openEnvelope(prepareCall(base({ data: { name: '{{seq}}' } })).body).text, '{"name":"{{seq}}"}')
  // Text in double braces that is no template of ours is sent as written.
  t.ok(Buffer.isBuffer(prepareCall(base({ data: '{"name":"{{who}}"}' })).body))
  const cases = [
    ['{"name":{{uuid}}}', /^--data, its templates filled with sample values \(\{"name":[0-9a-f-]{36}\}\), is not JSON: .*inside quotes/],
    ['{"count":"{{pick 1|x}}"}', /^--data \(its templates filled with sample values\) does not fit message bench\.SayRequest: count: integer expected/],
    // The first choice fits; the third does not: every choice is tried.
    ['{"name":"{{pick a|b|c"d}}"}', /sample values \(\{"name":"c"d"\}\), is not JSON/],
    ['{"nam":"{{seq}}"}', /^--data \(its templates filled with sample values\) has field "nam", which message bench\.SayRequest does not have/]
  ]
  for (const [data, message] of cases) t.throws(() => prepareCall(base({ data })), { code: 'AC_GRPC_DATA', message }, data)
  t.throws(() => prepareCall(base({ data: '{"count":{{int 5 1}}}' })), { code: 'AC_INVALID_OPTION', message: /\{\{int A B\}\} needs two integers/ })
})
