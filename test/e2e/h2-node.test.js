'use strict'

// The HTTP/2 codec against a real server, node:http2 (nghttp2 inside), in
// clear text (h2c) and over TLS with ALPN: the connection preface and the
// SETTINGS exchange acknowledged both ways, requests whose header blocks
// our encoder built (a GET with a custom header, a POST with a body),
// responses whose fields the server's encoder put in its dynamic table,
// a header block large enough for CONTINUATION frames, and the GOAWAY the
// server sends when it closes the session.

const t = require('tap')
const http2 = require('http2')
const { makePki } = require('../helpers/pki')
const { tempDir } = require('../helpers/recording')
const { RawH2Client, field } = require('../helpers/h2-raw-client')
const { seededRandom } = require('../../lib/core/random')

// 30 fields repeated in every /many response: nghttp2 indexes them, so
// from the second response on they are one octet each.
const MANY = Array.from({ length: 30 }, (_, k) => [`x-repeat-${k}`, `the value of field number ${k}, the same each time`])

// ~40 KiB of fields that Huffman coding hardly shrinks: more than one
// 16 KiB frame's worth, so the block comes as HEADERS and CONTINUATION.
const random = seededRandom(40)
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const BIG = Array.from({ length: 40 }, (_, k) => [`x-big-${k}`, Array.from({ length: 1024 }, () => ALPHABET[Math.floor(random() * 64)]).join('')])

const SERVER_OPTIONS = { maxSendHeaderBlockLength: 1 << 20, settings: { maxConcurrentStreams: 50, initialWindowSize: 100000 } }

function serve (stream, headers) {
  const path = headers[':path']
  if (path === '/x') {
    stream.respond({
      ':status': 200,
      'content-type': 'text/plain',
      'x-custom': 'custom response value',
      'x-echo': headers['x-test'] || '',
      'x-method': headers[':method'],
      'x-authority': headers[':authority'] || ''
    })
    stream.end('hello over h2')
    return
  }
  if (path === '/post') {
    const chunks = []
    stream.on('data', (c) => chunks.push(c))
    stream.on('end', () => {
      const body = Buffer.concat(chunks)
      stream.respond({ ':status': 201, 'x-received': String(body.length), 'x-content-length': headers['content-length'] || '' })
      stream.end(Buffer.concat([Buffer.from('got:'), body]))
    })
    return
  }
  if (path === '/many') {
    stream.respond({ ':status': 200, ...Object.fromEntries(MANY) })
    stream.end('many')
    return
  }
  if (path === '/big') {
    stream.respond({ ':status': 200, ...Object.fromEntries(BIG) })
    stream.end('big')
    return
  }
  stream.respond({ ':status': 404 })
  stream.end()
}

async function exercise (t, server, connectOptions) {
  const sessions = []
  let acks = 0
  const acked = new Promise((resolve) => server.on('session', (session) => {
    sessions.push(session)
    // Fires when the client acknowledged the server's SETTINGS.
    session.on('localSettings', () => {
      acks++
      resolve()
    })
  }))
  server.on('stream', serve)
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const port = server.address().port

  const client = await RawH2Client.connect({ port, ...connectOptions }, { maxHeaderListSize: 1 << 20, initialWindowSize: 1 << 20 })
  t.teardown(() => client.socket.destroy())
  if (connectOptions.secure) t.equal(client.socket.alpnProtocol, 'h2', 'ALPN chose h2')

  // SETTINGS both ways, each acknowledged.
  await client.until(() => client.serverSettings !== null && client.log.some((e) => e.type === 'settings' && e.ack), 'the server\'s SETTINGS and its ACK of ours')
  t.same(client.log[0].type, 'settings', 'the server\'s preface is a SETTINGS frame')
  t.equal(client.log[0].ack, false)
  t.same(client.serverSettings, { maxConcurrentStreams: 50, initialWindowSize: 100000 }, 'the server\'s SETTINGS read')
  await acked
  t.equal(acks, 1, 'the server got our ACK of its SETTINGS')
  const remote = sessions[0].remoteSettings
  t.equal(remote.enablePush, false, 'the server read our SETTINGS_ENABLE_PUSH 0')
  t.equal(remote.maxHeaderListSize, 1 << 20, 'and our SETTINGS_MAX_HEADER_LIST_SIZE')
  t.equal(remote.initialWindowSize, 1 << 20, 'and our SETTINGS_INITIAL_WINDOW_SIZE')

  // A GET with a custom header, its response's fields and body.
  const get = await client.request({ method: 'GET', scheme: connectOptions.secure ? 'https' : 'http', authority: `localhost:${port}`, path: '/x', headers: { 'X-Test': 'abc 123', Connection: 'keep-alive' } })
  t.equal(get.status, 200, 'GET /x: 200')
  t.same(field(get.headers, ':status'), ['200'])
  t.same(field(get.headers, 'x-custom'), ['custom response value'], 'a custom response field')
  t.same(field(get.headers, 'x-echo'), ['abc 123'], 'the server read our custom request field')
  t.same(field(get.headers, 'x-method'), ['GET'])
  t.same(field(get.headers, 'x-authority'), [`localhost:${port}`], 'and our :authority')
  t.same(field(get.headers, 'content-type'), ['text/plain'])
  t.equal(get.body.toString(), 'hello over h2', 'the body')

  // A POST with a body in DATA frames.
  const body = Buffer.from('a request body, '.repeat(100))
  const post = await client.request({ method: 'POST', authority: 'localhost', path: '/post' }, { body })
  t.equal(post.status, 201, 'POST: 201')
  t.same(field(post.headers, 'x-received'), [String(body.length)], 'the server got the whole body')
  t.same(field(post.headers, 'x-content-length'), [String(body.length)], 'with our content-length')
  t.same(post.body, Buffer.concat([Buffer.from('got:'), body]), 'the body echoed back')

  // Fields the server's encoder indexes: the second block is a fraction of
  // the first, and decodes to the same fields.
  const many = []
  for (let k = 0; k < 3; k++) many.push(await client.request({ authority: 'localhost', path: '/many' }))
  for (const [k, res] of many.entries()) {
    t.equal(res.status, 200)
    t.same(res.headers.filter(([n]) => n.startsWith('x-repeat-')), MANY, `/many #${k + 1}: all 30 fields`)
  }
  t.ok(many[1].blocks[0] * 5 < many[0].blocks[0], `the second block (${many[1].blocks[0]} octets) refers to the table the first (${many[0].blocks[0]}) filled`)
  // (Give or take a new date, when a second ends between them.)
  t.ok(many[2].blocks[0] * 5 < many[0].blocks[0], `the third as small (${many[2].blocks[0]} octets)`)
  t.ok(client.decoder.count >= 30, `our table holds the fields (${client.decoder.count} entries, ${client.decoder.size} octets)`)

  // A header block above one frame: HEADERS then CONTINUATION.
  const big = await client.request({ authority: 'localhost', path: '/big' })
  t.equal(big.status, 200, '/big: 200')
  t.ok(big.blocks[0] > 16384, `a block of ${big.blocks[0]} octets, more than our 16384-octet frames: it came with CONTINUATION`)
  t.same(big.headers.filter(([n]) => n.startsWith('x-big-')), BIG, 'all 40 KiB of fields')
  t.equal(big.body.toString(), 'big')

  const missing = await client.request({ authority: 'localhost', path: '/nothing' })
  t.equal(missing.status, 404, 'a 404 with no body')
  t.equal(missing.body.length, 0)

  // The server closes the session: a GOAWAY naming our last stream.
  sessions[0].close()
  await client.until(() => client.goaway !== null, 'GOAWAY')
  t.same(client.goaway, { lastStreamId: 13, errorCode: 0, debug: '' }, 'GOAWAY NO_ERROR with the last stream, 13')
  t.equal(client.error, null, 'no error on the connection')
  t.notOk(client.log.some((e) => e.type === 'rst' || e.type === 'streamError'), 'no stream reset')
}

t.test('node:http2 in clear text (h2c)', async (t) => {
  await exercise(t, http2.createServer(SERVER_OPTIONS), {})
})

t.test('node:http2 over TLS, ALPN h2', async (t) => {
  const pki = makePki(tempDir(t, 'ac-h2-tls-'))
  const server = http2.createSecureServer({ ...pki.server, ...SERVER_OPTIONS })
  await exercise(t, server, { secure: true, ca: pki.ca, servername: 'localhost' })
})
