'use strict'

// gRPC unary calls end to end: the real command (bin) and the library
// against a real @grpc/grpc-js server on 127.0.0.1, port 0, plaintext and
// TLS, each figure asserted.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const http2 = require('http2')
const autocannon = require('../..')
const { run } = require('../helpers/cli')
const { makePki } = require('../helpers/pki')
const { startGrpcServer, PROTO, FIXTURES } = require('../helpers/grpc-server')

const CALL = ['--proto', PROTO, '--protoPath', FIXTURES]
const lib = (url, method, data, more = {}) => ({ url, grpc: { proto: PROTO, protoPath: [FIXTURES], call: `bench.Echo/${method}`, data, ...more } })

t.test('the command, plaintext: -c, -p, -j, metadata with a template', async (t) => {
  const server = await startGrpcServer()
  t.teardown(server.close)
  const r = await run(['--call', 'bench.Echo/Say', ...CALL, '--data', '{"name":"ann"}', '--metadata', 'x-user: ann', '--metadata', 'x-n: {{seq}}', '-c', '3', '-p', '4', '-a', '60', '-j', server.url])
  t.equal(r.code, 0, r.stderr)
  const result = JSON.parse(r.stdout)
  t.equal(result.protocol, 'grpc')
  t.same(result.grpcStatus, { OK: 60 })
  t.equal(result.connections, 3)
  t.equal(result.pipelining, 4)
  t.equal(result.errors, 0)
  // The preflight's call, then the run's 60.
  t.equal(server.seen.calls, 61)
  t.ok(server.seen.names.every((name) => name === 'ann'), 'the server read the message of every call')
  const run60 = server.seen.metadata.slice(1)
  t.ok(run60.every((m) => m['x-user'] === 'ann'), 'every call carried x-user: ann')
  t.same(run60.map((m) => Number(m['x-n'])).sort((a, b) => a - b), Array.from({ length: 60 }, (_, i) => i), '{{seq}} filled per call: each value once')
  t.ok(server.seen.metadata.every((m) => !('content-length' in m)), 'no call carried content-length')
})

t.test('the command, over TLS (ALPN h2, --ca)', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grpc-pki-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const pki = makePki(dir)
  const server = await startGrpcServer({ tls: pki.server })
  t.teardown(server.close)
  const r = await run(['--call', 'bench.Echo/Say', ...CALL, '--data', '{"name":"tls"}', '--ca', path.join(dir, 'ca.crt'), '-c', '2', '-a', '20', '-j', `https://localhost:${server.port}`])
  t.equal(r.code, 0, r.stderr)
  const result = JSON.parse(r.stdout)
  t.same(result.grpcStatus, { OK: 20 })
  t.equal(server.seen.names.filter((n) => n === 'tls').length, 21)
  // The same bytes every call, and none states a content-length (grpc-js
  // hands one to the handler as metadata).
  t.equal(server.seen.metadata.length, 21)
  t.ok(server.seen.metadata.every((m) => !('content-length' in m)), 'no call carried content-length')
})

t.test('a non-OK status is counted by name, errors by code', async (t) => {
  const server = await startGrpcServer()
  t.teardown(server.close)
  const result = await autocannon({ ...lib(server.url, 'Fail', { code: 14 }), connections: 2, pipelining: 2, amount: 40 })
  t.same(result.grpcStatus, { UNAVAILABLE: 40 })
  t.same(result.errorCodes, { AC_GRPC_UNAVAILABLE: 40 })
  t.equal(result.errors, 40)
  t.equal(result['2xx'], 0)
  const r = await run(['--call', 'bench.Echo/Fail', ...CALL, '--data', '{"code":5}', '-c', '1', '-a', '10', '-j', server.url])
  t.same(JSON.parse(r.stdout).grpcStatus, { NOT_FOUND: 10 })
})

t.test('a deadline that expires: DEADLINE_EXCEEDED, and the server is told', async (t) => {
  const server = await startGrpcServer()
  t.teardown(server.close)
  const result = await autocannon({ ...lib(server.url, 'Stall', { ms: 400 }, { timeout: '50ms' }), connections: 1, pipelining: 3, amount: 9 })
  t.same(result.grpcStatus, { DEADLINE_EXCEEDED: 9 })
  t.same(result.errorCodes, { AC_GRPC_DEADLINE_EXCEEDED: 9 })
  // Three waves of three 50 ms deadlines, not of 400 ms stalls.
  t.ok(result.duration < 1.2, `ended on the deadlines (${result.duration} s)`)
})

t.test('a server that stops mid-run: counted, and the run ends on time', async (t) => {
  const server = await startGrpcServer()
  setTimeout(() => server.server.forceShutdown(), 600)
  const result = await autocannon({ ...lib(server.url, 'Say', { name: 'x' }), connections: 2, duration: 2 })
  t.ok(result.grpcStatus.OK > 0, `calls went before (${result.grpcStatus.OK})`)
  t.ok(result.errors > 0, `the stop is counted (${JSON.stringify(result.errorCodes)})`)
  t.ok(result.duration < 3, `ended on time (${result.duration} s)`)
})

t.test('-R with a stalled handler: corrected latency shows the backlog', async (t) => {
  const server = await startGrpcServer()
  t.teardown(server.close)
  // One call at a time at 50/s, each answered after 60 ms: calls queue.
  const result = await autocannon({ ...lib(server.url, 'Stall', { ms: 60 }), connections: 1, overallRate: 50, duration: 2 })
  t.same(Object.keys(result.grpcStatus), ['OK'])
  t.ok(result.latencyUncorrected.p50 >= 55 && result.latencyUncorrected.p50 < 200, `uncorrected ~ the stall (${result.latencyUncorrected.p50} ms)`)
  t.ok(result.latency.p99 > 2 * result.latencyUncorrected.p99, `corrected p99 ${result.latency.p99} ms > 2× uncorrected ${result.latencyUncorrected.p99} ms`)
})

t.test('workers and shards sum grpcStatus; a merge too', async (t) => {
  const server = await startGrpcServer()
  t.teardown(server.close)
  const workers = await autocannon({ ...lib(server.url, 'Say', { name: 'w' }), workers: 2, connections: 2, amount: 40 })
  t.equal(workers.protocol, 'grpc')
  t.same(workers.grpcStatus, { OK: 40 })
  const args = (i) => ['--call', 'bench.Echo/Fail', ...CALL, '--data', '{"code":14}', '-c', '2', '-a', '40', '--shard', `${i}/2`, '-j', server.url]
  const shards = await Promise.all([run(args(0)), run(args(1))])
  for (const shard of shards) t.same(JSON.parse(shard.stdout).grpcStatus, { UNAVAILABLE: 20 }, 'each shard its half')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grpc-merge-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'shards.ndjson')
  fs.writeFileSync(file, shards.map((s) => s.stdout).join(''))
  const merged = await run(['merge', file, '-j'])
  t.equal(merged.code, 0, merged.stderr)
  const result = JSON.parse(merged.stdout)
  t.equal(result.protocol, 'grpc')
  t.same(result.grpcStatus, { UNAVAILABLE: 40 })
})

t.test('the tables name the calls by status', async (t) => {
  const server = await startGrpcServer()
  t.teardown(server.close)
  const r = await run(['--call', 'bench.Echo/Say', ...CALL, '--data', '{"name":"x"}', '-c', '1', '-a', '12', server.url])
  t.equal(r.code, 0, r.stderr)
  t.match(r.stderr, /1 connections over gRPC/)
  t.match(r.stderr, /\ngRPC status: OK 12\n/)
})

t.test('bad input: one line before the run, exit 1', async (t) => {
  const server = await startGrpcServer()
  t.teardown(server.close)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grpc-bad-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const bad = path.join(dir, 'bad.proto')
  fs.writeFileSync(bad, 'syntax = "proto3";\n\nmessage A {\n  string x = ;\n}\n')
  const cases = [
    [['--call', 'bench.Echo/Nope', ...CALL], /no method Nope; it has bench\.Echo\/\{Say,Fail,Stall,Watch\}/],
    [['--call', 'bench.Echo/Say', ...CALL, '--data', '{"nam":"x"}'], /--data has field "nam", which message bench\.SayRequest does not have/],
    [['--call', 'bench.Echo/Say', '--proto', path.join(FIXTURES, 'missing.proto')], /missing\.proto does not exist/],
    [['--call', 'bench.Echo/Say', '--proto', bad], /cannot parse .*bad\.proto: illegal .*line 4/]
  ]
  for (const [args, message] of cases) {
    const r = await run([...args, '-c', '1', '-a', '5', server.url])
    t.equal(r.code, 1, args.join(' '))
    t.match(r.stderr, message)
    t.equal(r.stderr.trim().split('\n').length, 1, 'one line')
    t.notMatch(r.stderr, /\n\s+at /, 'no stack')
  }
  t.equal(server.seen.calls, 0, 'no call was made')
  const plain = http2.createServer((req, res) => res.end('not grpc'))
  await new Promise((resolve) => plain.listen(0, '127.0.0.1', resolve))
  t.teardown(() => plain.close())
  const r = await run(['--call', 'bench.Echo/Say', ...CALL, '-c', '1', '-a', '5', `http://127.0.0.1:${plain.address().port}`])
  t.equal(r.code, 1)
  t.match(r.stderr, /speaks HTTP\/2 but not gRPC/)
})

t.test('templates in --data: filled per call (and once for the pre-flight call), no content-length', async (t) => {
  const server = await startGrpcServer()
  t.teardown(server.close)
  const r = await run(['--call', 'bench.Echo/Say', ...CALL, '--data', '{"name":"n-{{seq}}","count":{{int 3 7}}}', '--metadata', 'x-n: {{seq}}', '-c', '2', '-p', '3', '-a', '50', '-j', server.url])
  t.equal(r.code, 0, r.stderr)
  t.same(JSON.parse(r.stdout).grpcStatus, { OK: 50 })
  t.equal(server.seen.calls, 51)
  // The pre-flight call: its templates filled once, not sent as written.
  t.equal(server.seen.names[0], 'n-0')
  t.equal(server.seen.metadata[0]['x-n'], '0', 'the pre-flight call\'s metadata filled')
  const names = server.seen.names.slice(1)
  t.same(names.map((n) => Number(n.slice(2))).sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i), '{{seq}} filled per call: each value once')
  const counts = server.seen.counts.slice(1)
  t.ok(counts.every((c) => Number.isInteger(c) && c >= 3 && c <= 7), `{{int 3 7}} a number in range each call (${[...new Set(counts)].sort()})`)
  t.ok(new Set(counts).size > 1, 'drawn per call')
  server.seen.metadata.slice(1).forEach((m, i) => t.equal(`n-${m['x-n']}`, names[i], `call ${i}: one {{seq}} in its message and metadata`))
  t.ok(server.seen.metadata.every((m) => !('content-length' in m)), 'no call carried content-length')
})

t.test('templates in --data with workers: {{seq}} unique across them', async (t) => {
  const server = await startGrpcServer()
  t.teardown(server.close)
  const result = await autocannon({ ...lib(server.url, 'Say', '{"name":"{{seq}}","count":{{int 1 2}}}'), workers: 2, connections: 2, amount: 40 })
  t.same(result.grpcStatus, { OK: 40 })
  const names = server.seen.names.slice(1).map(Number).sort((a, b) => a - b)
  t.same(names, Array.from({ length: 40 }, (_, i) => i), 'each value once, across both workers')
  t.ok(server.seen.counts.every((c) => c === 1 || c === 2))
})

t.test('a templated message that does not fit: one line before the run', async (t) => {
  const server = await startGrpcServer()
  t.teardown(server.close)
  const r = await run(['--call', 'bench.Echo/Say', ...CALL, '--data', '{"count":"{{pick 1|x}}"}', '-c', '1', '-a', '5', server.url])
  t.equal(r.code, 1)
  t.match(r.stderr, /--data \(its templates filled with sample values\) does not fit message bench\.SayRequest: count: integer expected/)
  t.equal(r.stderr.trim().split('\n').length, 1, 'one line')
  t.equal(server.seen.calls, 0, 'no call was made')
})

// The check before the run fills each {{line}} up to the thousandth: a
// later line that does not fit is found by its call, which is counted
// by its own code (not as a hook's failure) and not sent.
t.test('a line past the thousandth that does not fit: that call counted as AC_GRPC_DATA_FILL, unsent', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grpc-lines-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'names.txt')
  const lines = Array.from({ length: 1001 }, (_, i) => `"n${i}"`).concat(['broken', 'broken', 'broken'])
  fs.writeFileSync(file, lines.join('\n') + '\n')
  const server = await startGrpcServer()
  t.teardown(server.close)
  const r = await run(['--call', 'bench.Echo/Say', ...CALL, '--data', `{"name":{{line ${file}}}}`, '-c', '1', '-a', '1004', '-j', server.url])
  t.equal(r.code, 0, r.stderr)
  const result = JSON.parse(r.stdout)
  t.equal(result.errorCodes.AC_GRPC_DATA_FILL, 3, 'each call of a broken line counted by its code')
  t.notOk('AC_HOOK_ERROR' in result.errorCodes, 'not as a hook\'s failure')
  t.equal(result.errorsByCause.hook, 3, 'under the cause hook')
  t.same(result.grpcStatus, { OK: 1001 })
  t.notOk(server.seen.names.includes('broken'), 'no such call reached the server')
  const told = r.stderr.split('\n').filter((line) => line.startsWith('cannonade: a request could not be made'))
  t.equal(told.length, 1, 'said once')
  t.match(told[0], /--data, filled from its templates, does not fit bench\.SayRequest/)
})

t.test('no --proto: the server\'s reflection defines the call; the command, with workers', async (t) => {
  const server = await startGrpcServer({ reflection: true })
  t.teardown(server.close)
  const r = await run(['--call', 'bench.Echo/Say', '--data', '{"name":"{{seq}}","count":{{int 1 3}}}', '-w', '2', '-c', '2', '-a', '30', '-j', server.url])
  t.equal(r.code, 0, r.stderr)
  t.same(JSON.parse(r.stdout).grpcStatus, { OK: 30 })
  t.same(server.seen.names.slice(1).map(Number).sort((a, b) => a - b), Array.from({ length: 30 }, (_, i) => i), 'each worker filled the message the reflection defined')
  t.ok(server.seen.counts.every((c) => c >= 1 && c <= 3))
  const plain = await startGrpcServer()
  t.teardown(plain.close)
  const none = await run(['--call', 'bench.Echo/Say', '-c', '1', '-a', '5', plain.url])
  t.equal(none.code, 1)
  t.equal(none.stderr.trim(), `Error: the server at ${plain.url} offers no reflection service: give --proto FILE or --protoset FILE`, 'one line')
})
