'use strict'

// The HTTP/2 codec against nghttpd (Debian's nghttp2-server), another
// implementation than node:http2's server: in clear text and over TLS,
// padded frames (-b), trailers (--trailer), a POST echoed back
// (--echo-upload), a server whose decoder table is 0 octets (-c 0, which
// needs our dynamic table size update), and the GOAWAY it sends on a
// protocol error of ours; then the client (--http2) against it: closed
// loops and exact amounts in clear text and over TLS, bodies checked
// through padding and trailers, a POST echoed, and a server table of 0.
// Skipped when nghttpd is not installed.

const t = require('tap')
const fs = require('fs')
const net = require('net')
const path = require('path')
const { spawn, execFileSync } = require('child_process')
const { makePki } = require('../helpers/pki')
const { tempDir } = require('../helpers/recording')
const { RawH2Client, field, encodeTableSizeUpdate } = require('../helpers/h2-raw-client')
const autocannon = require('../..')

function which (command) {
  try {
    return execFileSync('which', [command], { encoding: 'utf8' }).trim() || null
  } catch {
    return null
  }
}

// nghttpd takes a port, not 0: a free one, taken from the system.
function freePort () {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

// tlsFiles: [key, cert], which follow the port; none for --no-tls.
// onStdout: given what nghttpd prints (with -v, each frame it receives).
async function startNghttpd (t, args, tlsFiles = [], onStdout = null) {
  const port = await freePort()
  const child = spawn('nghttpd', ['-a', '127.0.0.1', ...args, String(port), ...tlsFiles], { stdio: ['ignore', onStdout ? 'pipe' : 'ignore', 'pipe'] })
  if (onStdout) child.stdout.on('data', onStdout)
  let stderr = ''
  child.stderr.on('data', (c) => { stderr += c })
  t.teardown(() => child.kill())
  // Listening once a connection gets through.
  for (let tries = 0; ; tries++) {
    const up = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy()
        resolve(true)
      })
      socket.on('error', () => resolve(false))
    })
    if (up) return port
    if (tries > 100 || child.exitCode !== null) throw new Error(`nghttpd did not start: ${stderr}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function settled (client) {
  await client.until(() => client.serverSettings !== null && client.log.some((e) => e.type === 'settings' && e.ack), 'SETTINGS both ways')
}

if (!which('nghttpd')) {
  t.comment('skip: nghttpd not installed')
} else {
  const docs = tempDir(t, 'ac-nghttpd-')
  const FILE = 'hello from nghttpd, '.repeat(50)
  fs.writeFileSync(path.join(docs, 'x'), FILE)

  const exercise = async (t, port, connectOptions) => {
    const client = await RawH2Client.connect({ port, ...connectOptions }, { maxHeaderListSize: 65536 })
    t.teardown(() => client.socket.destroy())
    if (connectOptions.secure) t.equal(client.socket.alpnProtocol, 'h2', 'ALPN chose h2')
    await settled(client)
    t.equal(client.serverSettings.maxConcurrentStreams, 100, 'nghttpd\'s SETTINGS read')

    const get = await client.request({ authority: 'localhost', path: '/x', headers: { 'x-test': 'abc' } })
    t.equal(get.status, 200, 'GET /x: 200')
    t.match(field(get.headers, 'server')[0], /^nghttpd nghttp2\//, 'its server field')
    t.same(field(get.headers, 'content-length'), [String(FILE.length)])
    t.equal(get.body.toString(), FILE, 'the file\'s bytes')
    t.same(get.trailers, [['x-trailer', 'yes']], 'the trailers, a second header block ending the stream')
    // -b 10: nghttpd pads its frames; padding counts towards flow control.
    const data = client.log.filter((e) => e.type === 'data' && e.streamId === get.streamId)
    t.equal(data.reduce((sum, e) => sum + e.length, 0), FILE.length)
    t.ok(data.some((e) => e.flow > e.length), 'padded DATA frames, their padding counted as flow-controlled')

    const post = await client.request({ method: 'POST', authority: 'localhost', path: '/x' }, { body: 'a body to echo' })
    t.equal(post.status, 200, 'POST: 200')
    t.same(field(post.headers, 'nghttpd-response'), ['echo'])
    t.equal(post.body.toString(), 'a body to echo', 'the body echoed back')

    // A date in a second not seen before is a new literal (~30 octets):
    // asked again within one second, every field is in the dynamic table.
    let previous = post
    let again = await client.request({ authority: 'localhost', path: '/x' })
    for (let i = 0; i < 3 && field(again.headers, 'date')[0] !== field(previous.headers, 'date')[0]; i++) {
      previous = again
      again = await client.request({ authority: 'localhost', path: '/x' })
    }
    t.ok(again.blocks[0] * 3 < get.blocks[0], `the same response again in ${again.blocks[0]} octets instead of ${get.blocks[0]}: from the dynamic table`)
    t.same(again.headers.filter(([n]) => n !== 'date'), get.headers.filter(([n]) => n !== 'date'), 'the same fields')
    const missing = await client.request({ authority: 'localhost', path: '/nothing' })
    t.equal(missing.status, 404, 'a missing file: 404')

    // DATA on stream 0 is our protocol error: nghttpd says so in a GOAWAY.
    client.socket.write(Buffer.from('000001000000000000' + '61', 'hex'))
    await client.until(() => client.goaway !== null, 'GOAWAY')
    t.same(client.goaway, { lastStreamId: missing.streamId, errorCode: 1, debug: 'DATA: stream_id == 0' }, 'GOAWAY PROTOCOL_ERROR with its last stream and debug text')
    t.equal(client.error, null, 'no error of ours on the way')
  }

  t.test('nghttpd in clear text, padded frames and trailers', async (t) => {
    const port = await startNghttpd(t, ['--no-tls', '-d', docs, '--echo-upload', '-b', '10', '--trailer', 'x-trailer: yes'])
    await exercise(t, port, {})
  })

  t.test('nghttpd over TLS', async (t) => {
    const pki = makePki(tempDir(t, 'ac-nghttpd-tls-'))
    const port = await startNghttpd(t, ['-d', docs, '--echo-upload', '-b', '10', '--trailer', 'x-trailer: yes'], [path.join(pki.dir, 'server.key'), path.join(pki.dir, 'server.crt')])
    await exercise(t, port, { secure: true, ca: pki.ca, servername: 'localhost' })
  })

  t.test('a decoder table of 0 (-c 0): our blocks need a size update first', async (t) => {
    const port = await startNghttpd(t, ['--no-tls', '-d', docs, '-c', '0'])
    const without = await RawH2Client.connect({ port })
    t.teardown(() => without.socket.destroy())
    await settled(without)
    t.equal(without.serverSettings.headerTableSize, 0, 'nghttpd advertises SETTINGS_HEADER_TABLE_SIZE 0')
    await t.rejects(without.request({ authority: 'localhost', path: '/x' }), 'without the update, the request fails')
    await without.until(() => without.goaway !== null, 'GOAWAY')
    t.equal(without.goaway.errorCode, 9, 'with COMPRESSION_ERROR')

    const withUpdate = await RawH2Client.connect({ port })
    t.teardown(() => withUpdate.socket.destroy())
    await settled(withUpdate)
    const first = await withUpdate.request({ authority: 'localhost', path: '/x' }, { prefix: encodeTableSizeUpdate(0) })
    t.equal(first.status, 200, 'the first block after our SETTINGS ACK begins with an update to 0: 200')
    const second = await withUpdate.request({ authority: 'localhost', path: '/x' })
    t.equal(second.status, 200, 'later blocks, unchanged, need none')
    t.equal(second.body.toString(), FILE)
  })

  t.test('the client against nghttpd in clear text: streams, padded DATA and trailers, bodies checked', async (t) => {
    const port = await startNghttpd(t, ['--no-tls', '-d', docs, '--echo-upload', '-b', '10', '--trailer', 'x-trailer: yes'])
    const url = `http://127.0.0.1:${port}/x`
    const loop = await autocannon({ url, http2: true, connections: 2, pipelining: 10, duration: 1 })
    t.equal(loop.protocol, 'h2')
    t.equal(loop.errors, 0, JSON.stringify(loop.errorCodes))
    t.ok(loop['2xx'] > 500, `${loop['2xx']} responses, all 2xx`)
    t.equal(loop.non2xx, 0)
    const exact = await autocannon({ url, http2: true, connections: 2, pipelining: 10, amount: 300, expectBody: FILE })
    t.equal(exact.requests.total, 300)
    t.equal(exact.mismatches, 0, 'every body whole, its padding and trailers read past')
    const echoed = await autocannon({ url, http2: true, method: 'POST', body: 'echo me', expectBody: 'echo me', connections: 1, pipelining: 4, amount: 50 })
    t.equal(echoed.requests.total, 50)
    t.equal(echoed.mismatches, 0, 'the POST bodies came back')
  })

  t.test('/item/{{seq}} × 400 with 2 workers: nghttpd sees 400 distinct paths (its -v log)', async (t) => {
    fs.mkdirSync(path.join(docs, 'item'), { recursive: true })
    for (let i = 0; i < 400; i++) fs.writeFileSync(path.join(docs, 'item', String(i)), `item ${i}`)
    let log = ''
    const port = await startNghttpd(t, ['--no-tls', '-v', '-d', docs], [], (chunk) => { log += chunk })
    const r = await autocannon({ url: `http://127.0.0.1:${port}/item/{{seq}}`, http2: true, workers: 2, connections: 4, pipelining: 5, amount: 400 })
    t.equal(r.errors, 0, JSON.stringify(r.errorCodes))
    t.equal(r['2xx'], 400, 'each path a file nghttpd served')
    await new Promise((resolve) => setTimeout(resolve, 200))
    const paths = [...log.matchAll(/recv \(stream_id=\d+\) :path: (\S+)/g)].map((m) => m[1])
    t.equal(paths.length, 400, 'nghttpd received 400 requests')
    t.equal(new Set(paths).size, 400, `${new Set(paths).size} distinct paths`)
    t.same(paths.map((p) => Number(p.slice('/item/'.length))).sort((a, b) => a - b), Array.from({ length: 400 }, (_, i) => i))

    // A server whose decoder table is 0: a filled block carries the size
    // update first, as a built one does.
    const zero = await startNghttpd(t, ['--no-tls', '-d', docs, '-c', '0'])
    const z = await autocannon({ url: `http://127.0.0.1:${zero}/item/{{seq}}`, http2: true, connections: 2, pipelining: 5, amount: 100 })
    t.equal(z.errors, 0, JSON.stringify(z.errorCodes))
    t.equal(z['2xx'], 100)
  })

  t.test('the client against nghttpd over TLS (ALPN h2)', async (t) => {
    const pki = makePki(tempDir(t, 'ac-nghttpd-client-tls-'))
    const port = await startNghttpd(t, ['-d', docs], [path.join(pki.dir, 'server.key'), path.join(pki.dir, 'server.crt')])
    const r = await autocannon({ url: `https://localhost:${port}/x`, http2: true, connections: 2, pipelining: 5, amount: 200, expectBody: FILE })
    t.equal(r.errors, 0, JSON.stringify(r.errorCodes))
    t.equal(r['2xx'], 200)
    t.equal(r.mismatches, 0)
  })

  t.test('the client against a server table of 0: its first block carries the size update', async (t) => {
    const port = await startNghttpd(t, ['--no-tls', '-d', docs, '-c', '0'])
    const r = await autocannon({ url: `http://127.0.0.1:${port}/x`, http2: true, connections: 2, pipelining: 5, amount: 100 })
    t.equal(r.errors, 0, JSON.stringify(r.errorCodes))
    t.equal(r['2xx'], 100)
  })
}
