'use strict'

// --on-port (lib/cli/on-port.js): the URL pointed at the port the command
// listens on, and the command started with detect-port.js preloaded,
// told apart from its process when it listens, stopped with its process
// group. A member of the group that outlives the grace:
// test/e2e/on-port-grace.test.js. Through the CLI: test/e2e/cli.test.js; a
// command that cannot start or exits first: test/e2e/api.test.js.

const t = require('tap')
const http = require('http')
const { pointAt, startCommand } = require('../../lib/cli/on-port')
const { Session } = require('../../lib/engine/session')
const { Interrupted } = require('../../lib/cli/exit-codes')

t.test('pointAt: a path or a URL, on the port and address the command listens on', async (t) => {
  t.equal(pointAt('/x?y=1', { port: 4321, address: '127.0.0.1' }), 'http://127.0.0.1:4321/x?y=1')
  t.equal(pointAt('/', { port: 4321, address: '::' }), 'http://localhost:4321/', 'every address: localhost')
  t.equal(pointAt('/', { port: 4321, address: '0.0.0.0' }), 'http://127.0.0.1:4321/')
  t.equal(pointAt('/', { port: 4321 }), 'http://localhost:4321/', 'no address said')
  t.equal(pointAt('/', { port: 4321, address: '::1' }), 'http://[::1]:4321/', 'IPv6 in brackets')
  t.equal(pointAt('https://example.com:9/a', { port: 4321, address: '127.0.0.1' }), 'https://example.com:4321/a', 'a full URL keeps its host')
  t.same(pointAt(['/a', '/b'], { port: 80, address: '127.0.0.1' }), ['http://127.0.0.1:80/a', 'http://127.0.0.1:80/b'])
})

t.test('startCommand: resolves once the command listens, with its port; stop() ends it', async (t) => {
  // The server answers with its pid, so the one reported is the one that answers.
  const server = 'require("http").createServer((q, s) => s.end(String(process.pid))).listen(0, "127.0.0.1")'
  const { listening, stop } = await startCommand({ spawn: [process.execPath, '-e', server] }, new Session())
  t.ok(Number.isInteger(listening.port) && listening.port > 0, `port ${listening.port}`)
  t.equal(listening.address, '127.0.0.1')
  const body = await new Promise((resolve, reject) => http.get(pointAt('/', listening), (res) => {
    let text = ''
    res.on('data', (c) => { text += c })
    res.on('end', () => resolve(text))
  }).on('error', reject))
  t.equal(Number(body), listening.pid, 'the process that reported the port answers on it')
  await stop()
  t.throws(() => process.kill(listening.pid, 0), { code: 'ESRCH' }, 'the command is gone')
})

t.test('startCommand: a session stopped before the command listens ends it', async (t) => {
  const session = new Session()
  const started = startCommand({ spawn: [process.execPath, '-e', 'setTimeout(() => {}, 30000)'] }, session)
  setTimeout(() => session.stop(), 200)
  t.type(await started.catch((err) => err), Interrupted, 'ends as Ctrl-C does, quietly')
})
