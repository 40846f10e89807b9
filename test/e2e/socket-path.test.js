'use strict'

// socketPath: requests go over a Unix domain socket; the URL still gives
// the Host header and the path.

const t = require('tap')
const path = require('path')
const autocannon = require('../..')
const { recordingServer, tempDir, jsonResult } = require('../helpers/recording')
const { run: runCli } = require('../helpers/cli')

const skip = process.platform === 'win32' ? 'no Unix domain sockets here' : false

t.test('library: socketPath', { skip }, async (t) => {
  const socketPath = path.join(tempDir(t, 'ac-sock-'), 'server.sock')
  const { seen } = await recordingServer(t, undefined, { listen: { path: socketPath } })
  const result = await autocannon({
    url: 'http://api.example.test:8080/over/the/socket?x=1',
    socketPath,
    connections: 2,
    pipelining: 2,
    amount: 40,
    requests: [{ method: 'POST', body: 'one' }, { path: '/second' }]
  })
  t.equal(result.errors, 0)
  t.equal(result.requests.total, 40)
  t.equal(result.socketPath, socketPath, 'the result names the socket')
  t.equal(seen.length, 40)
  t.ok(seen.every((r) => r.headers.host === 'api.example.test:8080'), 'Host comes from the URL')
  t.same(new Set(seen.map((r) => r.url)), new Set(['/over/the/socket?x=1', '/second']), 'so does the path')
})

t.test('library: a socket that is not there is a connection error', { skip }, async (t) => {
  const socketPath = path.join(tempDir(t, 'ac-sock-'), 'nobody.sock')
  const result = await autocannon({ url: 'http://localhost/', socketPath, connections: 1, duration: 0.2 })
  t.ok(result.errors > 0)
  t.equal(result.requests.total, 0)
})

t.test('CLI: -S', { skip }, async (t) => {
  const socketPath = path.join(tempDir(t, 'ac-sock-'), 'cli.sock')
  const { seen } = await recordingServer(t, undefined, { listen: { path: socketPath } })
  const run = await runCli(['http://socket.test/cli-path', '-S', socketPath, '-a', '10', '-c', '2', '-j'])
  t.equal(run.code, 0, run.stderr)
  t.equal(jsonResult(run.stdout).requests.total, 10)
  t.equal(seen.length, 10)
  t.ok(seen.every((r) => r.headers.host === 'socket.test' && r.url === '/cli-path'))
})
