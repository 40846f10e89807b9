'use strict'

// HTTP/2 as HTTP/1.1 does it, against node:http2's server: {{…}}
// templates filled per request (/item/{{seq}} reaches the server as
// distinct paths, with workers too); a server that refuses streams
// (REFUSED_STREAM, RFC 9113 §8.7) gets them again, counted in `resent`,
// not as errors (and one that refuses all cannot loop the run); ALPN asked on every connection, so a server
// that stops offering h2 mid-run is counted (AC_H2_NOT_OFFERED), not
// waited on; an HTTP/1.1-only server given --http2 in clear text refused
// before the run, and counted by its own code mid-run; throughput counted in bytes on the wire, as over HTTP/1.1.
// (nghttpd's side of templates: h2-nghttpd.test.js.)

const t = require('tap')
const net = require('net')
const tls = require('tls')
const http2 = require('http2')
const autocannon = require('../..')
const { makePki } = require('../helpers/pki')
const { tempDir } = require('../helpers/recording')
const http = require('http')
const { nodeH2Server, rawH2Server, response } = require('../helpers/h2-servers')

t.test('/item/{{seq}} × 400 with 2 workers: 400 distinct paths, headers and bodies filled too', async (t) => {
  const paths = new Map()
  const server = await nodeH2Server(t, (stream, headers) => {
    paths.set(headers[':path'], (paths.get(headers[':path']) || 0) + 1)
    stream.respond({ ':status': 200 })
    stream.end('ok')
  })
  const r = await autocannon({ url: `${server.url}/item/{{seq}}`, http2: true, workers: 2, connections: 4, pipelining: 5, amount: 400 })
  t.equal(r.errors, 0)
  t.equal(r.requests.total, 400)
  t.equal(paths.size, 400, `${paths.size} distinct paths`)
  t.same([...paths.keys()].map((p) => Number(p.slice('/item/'.length))).sort((a, b) => a - b), Array.from({ length: 400 }, (_, i) => i), '/item/0 to /item/399, each once')

  // 2 shards of 2 workers: still every {{seq}} once.
  paths.clear()
  const shards = await Promise.all([0, 1].map((index) => autocannon({ url: `${server.url}/item/{{seq}}`, http2: true, shard: { index, count: 2 }, workers: 2, connections: 4, amount: 400 })))
  t.same(shards.map((s) => s.requests.total), [200, 200])
  t.equal(paths.size, 400, `2 shards × 2 workers: ${paths.size} distinct paths`)
  t.same([...paths.values()].filter((n) => n !== 1), [], 'each once')

  const seen = []
  const posts = await nodeH2Server(t, (stream, headers) => {
    const chunks = []
    stream.on('data', (c) => chunks.push(c))
    stream.on('end', () => {
      seen.push({ path: headers[':path'], id: headers['x-id'], length: headers['content-length'], body: Buffer.concat(chunks).toString() })
      stream.respond({ ':status': 200 })
      stream.end()
    })
  })
  const p = await autocannon({ url: `${posts.url}/u/{{seq}}`, http2: true, method: 'POST', headers: { 'x-id': '{{conn}}-{{seq}}' }, body: '{"seq":{{seq}},"c":"{{pick a|bb}}"}', connections: 2, amount: 20 })
  t.equal(p.errors, 0)
  t.equal(seen.length, 20)
  for (const s of seen) {
    const n = s.path.slice(3)
    t.match(s.id, new RegExp(`^[01]-${n}$`), 'the header has the connection and the same seq')
    t.match(s.body, new RegExp(`^\\{"seq":${n},"c":"(a|bb)"\\}$`), 'the body the same seq')
    t.equal(Number(s.length), Buffer.byteLength(s.body), 'content-length is the filled body\'s')
  }
})

t.test('a server that refuses every tenth stream: 0 errors, the refused ones in resent', async (t) => {
  let streams = 0
  let refused = 0
  const server = await nodeH2Server(t, (stream) => {
    if (++streams % 10 === 0) {
      refused++
      stream.close(http2.constants.NGHTTP2_REFUSED_STREAM)
      return
    }
    stream.respond({ ':status': 200 })
    stream.end('ok')
  })
  // One connection, several, and 2 workers whose connections keep in step
  // (where a retry sent at the same place of the next round is refused
  // again).
  for (const opts of [{ connections: 1, pipelining: 5 }, { connections: 2, pipelining: 4 }, { connections: 4, pipelining: 5, workers: 2 }]) {
    streams = 0
    refused = 0
    const r = await autocannon({ url: server.url, http2: true, amount: 400, ...opts })
    const label = JSON.stringify(opts)
    t.equal(r.errors, 0, `${label}: no error ${JSON.stringify(r.errorCodes)}`)
    t.equal(r.requests.total, 400, 'the amount, all answered')
    t.ok(refused >= 40, `${refused} refused`)
    t.equal(r.resent, refused, 'each refused stream sent again, counted in resent')
    t.equal(streams, 400 + refused)
  }

  // Refusing all: as many go again as are in flight, then each counts as
  // an error; the run ends on time.
  const all = await nodeH2Server(t, (stream) => stream.close(http2.constants.NGHTTP2_REFUSED_STREAM))
  const started = Date.now()
  const a = await autocannon({ url: all.url, http2: true, connections: 1, pipelining: 2, amount: 30 })
  t.ok(Date.now() - started < 5000, `ended after ${Date.now() - started} ms`)
  t.equal(a.requests.total, 0)
  t.same(a.errorCodes, { AC_H2_RST_REFUSED_STREAM: 30 }, 'each request an error')
  t.equal(a.resent, 2, 'after 2 (-p 2) sent again with no response between')
  t.equal(all.streams, 32)
})

t.test('a TLS server that stops offering h2 mid-run: AC_H2_NOT_OFFERED counted by cause, no wait for SETTINGS', async (t) => {
  const pki = makePki(tempDir(t, 'ac-h2-alpn-'))
  const h2 = await nodeH2Server(t, (stream) => {
    stream.respond({ ':status': 200 })
    stream.end('ok')
  }, pki.server)
  // A TLS server that knows no ALPN (the handshake ends with no protocol),
  // and leaves the connection open and silent.
  const silent = []
  const bare = tls.createServer(pki.server, (socket) => silent.push(socket))
  await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve))
  // One port for both, as a deploy behind it would switch: the first 3
  // connections (the check before the run, then 2) go to the h2 server,
  // the rest to the one without it.
  let accepted = 0
  const front = net.createServer((socket) => {
    const to = net.connect(++accepted <= 3 ? h2.port : bare.address().port, '127.0.0.1')
    socket.pipe(to).pipe(socket)
    socket.on('error', () => to.destroy())
    to.on('error', () => socket.destroy())
  })
  await new Promise((resolve) => front.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    for (const s of silent) s.destroy()
    bare.close()
    front.close()
  })
  const started = Date.now()
  // -D 20: each connection is replaced after 20 requests.
  const r = await autocannon({ url: `https://localhost:${front.address().port}/`, http2: true, connections: 2, pipelining: 2, reconnectRate: 20, duration: 1.5, timeout: 10, tlsOptions: { ca: pki.ca } })
  t.ok(Date.now() - started < 4000, `ended after ${Date.now() - started} ms`)
  t.equal(r.requests.total, 40, 'the first two connections\' requests answered')
  t.ok(r.errorCodes.AC_H2_NOT_OFFERED >= 2, `${r.errorCodes.AC_H2_NOT_OFFERED} connections not offered h2`)
  t.equal(r.errorsByCause.connect, r.errorCodes.AC_H2_NOT_OFFERED, 'counted as connect errors')
  t.equal(r.timeouts, 0, 'none left waiting for SETTINGS')
  t.equal(r.errors, r.errorCodes.AC_H2_NOT_OFFERED)

  // A server that answers a ClientHello without a protocol in common
  // with a no_application_protocol alert (node's, with http/1.1 only):
  // the same count.
  const h1only = tls.createServer({ ...pki.server, ALPNProtocols: ['http/1.1'] }, (socket) => silent.push(socket))
  await new Promise((resolve) => h1only.listen(0, '127.0.0.1', resolve))
  t.teardown(() => h1only.close())
  accepted = 0
  const front2 = net.createServer((socket) => {
    const to = net.connect(++accepted <= 3 ? h2.port : h1only.address().port, '127.0.0.1')
    socket.pipe(to).pipe(socket)
    socket.on('error', () => to.destroy())
    to.on('error', () => socket.destroy())
  })
  await new Promise((resolve) => front2.listen(0, '127.0.0.1', resolve))
  t.teardown(() => front2.close())
  const alert = await autocannon({ url: `https://localhost:${front2.address().port}/`, http2: true, connections: 2, pipelining: 2, reconnectRate: 20, duration: 1.5, timeout: 10, tlsOptions: { ca: pki.ca } })
  t.equal(alert.requests.total, 40)
  t.ok(alert.errorCodes.AC_H2_NOT_OFFERED >= 2, JSON.stringify(alert.errorCodes))
  t.equal(alert.errors, alert.errorCodes.AC_H2_NOT_OFFERED, 'nothing else')
  t.equal(alert.errorsByCause.connect, alert.errors)
})

// A server that speaks only HTTP/1.1 answers the h2c preface with a 400.
t.test('--http2 in clear text against an HTTP/1.1-only server: refused before the run in one line; mid-run, counted as AC_H2C_NOT_SPOKEN, not frame-size errors', async (t) => {
  const { run: runCli } = require('../helpers/cli')
  let hits = 0
  const h1 = http.createServer((req, res) => {
    hits++
    res.end('h1')
  })
  await new Promise((resolve) => h1.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { h1.closeAllConnections(); h1.close() })
  const origin = `http://127.0.0.1:${h1.address().port}`
  const line = `the server at ${origin} answered in HTTP/1.1: it does not speak HTTP/2 in clear text (h2c); drop --http2, or use https:// for ALPN`
  await t.rejects(autocannon({ url: origin + '/', http2: true, connections: 1, duration: 1 }), { code: 'AC_H2C_NOT_SPOKEN', message: line })
  const cli = await runCli([origin + '/', '--http2', '-d', '1', '-c', '2'])
  t.equal(cli.code, 1, 'the CLI exits 1')
  t.equal(cli.stderr, `Error: ${line}\n`, 'one line')
  t.equal(cli.stdout, '')
  t.equal(hits, 0, 'no request reached it')

  // One port for both: the check's connection goes to an h2c server, the
  // run's to the HTTP/1.1 one, as a deploy behind it would switch.
  const h2 = await nodeH2Server(t, (stream) => {
    stream.respond({ ':status': 200 })
    stream.end('ok')
  })
  let accepted = 0
  const front = net.createServer((socket) => {
    const to = net.connect(++accepted <= 1 ? h2.port : h1.address().port, '127.0.0.1')
    socket.pipe(to).pipe(socket)
    socket.on('error', () => to.destroy())
    to.on('error', () => socket.destroy())
  })
  await new Promise((resolve) => front.listen(0, '127.0.0.1', resolve))
  t.teardown(() => front.close())
  const r = await autocannon({ url: `http://127.0.0.1:${front.address().port}/`, http2: true, connections: 2, duration: 1 })
  t.ok(r.errorCodes.AC_H2C_NOT_SPOKEN >= 2, JSON.stringify(r.errorCodes))
  t.same(Object.keys(r.errorCodes), ['AC_H2C_NOT_SPOKEN'], 'no AC_H2_FRAME_SIZE_ERROR')
  t.equal(r.errorsByCause.connect, r.errors, 'counted as connections that could not be set up')
  t.equal(r.requests.total, 0)
})

t.test('throughput: bytes on the wire, frame headers and all, comparable with HTTP/1.1', async (t) => {
  // A raw server whose every response is known to the octet: HEADERS with
  // a literal block, then DATA.
  const exact = response(1, 'hello')
  const raw = await rawH2Server(t, (conn) => ({ onHeaders (id) { conn.send(response(id, 'hello')) } }))
  const r = await autocannon({ url: raw.url, http2: true, connections: 2, pipelining: 4, amount: 200 })
  t.equal(r.requests.total, 200)
  t.equal(r.throughput.total, 200 * exact.length, `${exact.length} octets per response: 2 × 9 of frame headers, the block and the body`)

  // The same answer over both protocols, from node's servers.
  const answer = (res) => {
    res.setHeader('content-type', 'text/plain')
    res.end('hello')
  }
  const h1 = http.createServer((req, res) => answer(res))
  await new Promise((resolve) => h1.listen(0, '127.0.0.1', resolve))
  t.teardown(() => h1.close())
  const h2 = await nodeH2Server(t, (stream) => {
    stream.respond({ ':status': 200, 'content-type': 'text/plain' })
    stream.end('hello')
  })
  const one = await autocannon({ url: `http://127.0.0.1:${h1.address().port}`, connections: 2, amount: 200 })
  const two = await autocannon({ url: h2.url, http2: true, connections: 2, amount: 200 })
  const perH1 = one.throughput.total / one.requests.total
  const perH2 = two.throughput.total / two.requests.total
  t.comment(`bytes per response for the same answer: HTTP/1.1 ${perH1}, HTTP/2 ${perH2}`)
  // HTTP/1.1: status line, date, content-type, keep-alive and length
  // headers: well over 100 octets. HTTP/2: two frame headers (18), the
  // 5-octet body and a block of at least :status, and far less than
  // HTTP/1.1's text, once the date is in the server's table.
  t.ok(perH1 > 100, `HTTP/1.1: ${perH1} octets per response`)
  t.ok(perH2 >= 18 + 5 + 1 && perH2 < perH1, `HTTP/2: ${perH2} octets per response, frame headers counted`)
})
