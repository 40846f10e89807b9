'use strict'

// The HTTP/2 client against servers that misbehave (raw ones, speaking
// just enough HTTP/2 through the codec's encoders): every request still
// ends once, as a response, an error by its cause and code, or sent again
// after a GOAWAY, and every run ends on time.

const t = require('tap')
const autocannon = require('../..')
const { encodeHeaders, encodeGoaway, encodeRstStream, encodeFrame, encodeData } = require('../../lib/http2/frames')
const { ERROR_CODES } = require('../../lib/http2/errors')
const { rawH2Server, response, RESPONSE_BLOCK } = require('../helpers/h2-servers')

// Every request started ended once: answered, in error, or in flight.
function endedOnce (t, r) {
  t.equal(r.requests.sent, r.requests.total + r.errors + r.requests.inFlight, `sent ${r.requests.sent} = ${r.requests.total} answered + ${r.errors} errors + ${r.requests.inFlight} in flight`)
}

t.test('GOAWAY mid-run: the streams above its last are sent again, each request counted once', async (t) => {
  let processed = 0
  // Each connection takes 25 streams, says GOAWAY with the 25th as its
  // last, answers what it took (none of what came after) and closes.
  const server = await rawH2Server(t, (conn) => {
    let taken = 0
    let last = 0
    let answered = 0
    return {
      onHeaders (id) {
        if (last !== 0) return
        taken++
        processed++
        setImmediate(() => {
          conn.send(response(id))
          if (++answered === 25) conn.socket.end()
        })
        if (taken === 25) {
          last = id
          conn.send(encodeGoaway(id, ERROR_CODES.NO_ERROR))
        }
      }
    }
  })
  const r = await autocannon({ url: server.url, http2: true, connections: 2, pipelining: 10, amount: 300 })
  t.equal(r.errors, 0, JSON.stringify(r.errorCodes))
  t.equal(r.requests.total, 300)
  t.equal(processed, 300, 'the server processed each request once')
  t.ok(r.resent > 0, `${r.resent} sent again`)
  t.ok(server.connections >= 12, `${server.connections} connections, a new one after each GOAWAY`)
  endedOnce(t, r)
})

t.test('a GOAWAY with an error, then a close: the requests it had taken end in AC_H2_GOAWAY', async (t) => {
  const server = await rawH2Server(t, (conn) => ({
    onHeaders (id) {
      if (id === 3) {
        conn.send(encodeGoaway(3, ERROR_CODES.INTERNAL_ERROR, 'overloaded'))
        setTimeout(() => conn.socket.destroy(), 20)
      }
      if (id > 3) return
      if (id === 1) conn.send(response(id))
    }
  }))
  const r = await autocannon({ url: server.url, http2: true, connections: 1, pipelining: 4, amount: 40 })
  t.ok(r.errorCodes.AC_H2_GOAWAY > 0, JSON.stringify(r.errorCodes))
  t.equal(r.errorsByCause.parse, r.errorCodes.AC_H2_GOAWAY)
  t.equal(r.requests.total + r.errors, 40)
  endedOnce(t, r)
})

t.test('a server that resets every stream: errors by the reset\'s code, and the run ends on time', async (t) => {
  const server = await rawH2Server(t, (conn) => ({
    onHeaders (id) { conn.send(encodeRstStream(id, ERROR_CODES.REFUSED_STREAM)) }
  }))
  const started = Date.now()
  const r = await autocannon({ url: server.url, http2: true, connections: 2, pipelining: 5, duration: 1 })
  t.ok(Date.now() - started < 2500, `ended after ${Date.now() - started} ms`)
  t.equal(r.requests.total, 0)
  t.ok(r.errors > 100, `${r.errors} errors`)
  t.same(r.errorCodes, { AC_H2_RST_REFUSED_STREAM: r.errors })
  t.equal(r.errorsByCause.parse, r.errors)
  endedOnce(t, r)
})

t.test('a header block that never ends: the requests time out, the run ends on time', async (t) => {
  const server = await rawH2Server(t, (conn) => ({
    // HEADERS without END_HEADERS on the first stream, and no
    // CONTINUATION ever (nor any other frame, which would be an error).
    onHeaders (id) { if (id === 1) conn.send(encodeFrame(0x1, 0, id, RESPONSE_BLOCK)) }
  }))
  const started = Date.now()
  const r = await autocannon({ url: server.url, http2: true, connections: 2, pipelining: 3, duration: 1.5, timeout: 0.5 })
  t.ok(Date.now() - started < 3000, `ended after ${Date.now() - started} ms`)
  t.equal(r.requests.total, 0)
  t.ok(r.timeouts >= 6, `${r.timeouts} timeouts`)
  t.equal(r.errorCodes.AC_TIMEOUT, r.timeouts)
  endedOnce(t, r)
})

t.test('a window that never opens for a POST body: the requests time out', async (t) => {
  let heard = 0
  let bodies = 0
  const server = await rawH2Server(t, () => ({
    onHeaders () { heard++ },
    onData () { bodies++ }
  }), { initialWindowSize: 0 })
  const r = await autocannon({ url: server.url, http2: true, method: 'POST', body: 'waits for a window', connections: 1, pipelining: 2, duration: 1.5, timeout: 0.5 })
  t.ok(heard >= 2, `${heard} HEADERS reached the server`)
  t.equal(bodies, 0, 'no DATA beyond the window')
  t.equal(r.requests.total, 0)
  t.ok(r.errorCodes.AC_TIMEOUT >= 2, JSON.stringify(r.errorCodes))
  endedOnce(t, r)
})

t.test('malformed frames are protocol errors, counted by their code', async (t) => {
  const cases = [
    ['DATA on stream 0', () => encodeData(0, Buffer.from('x'), true), 'AC_H2_PROTOCOL_ERROR'],
    ['a frame above our SETTINGS_MAX_FRAME_SIZE', (id) => encodeData(id, Buffer.alloc(70000), true, 70000), 'AC_H2_FRAME_SIZE_ERROR'],
    ['a header block HPACK cannot decode', (id) => encodeHeaders(id, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0x0f]), true), 'AC_H2_COMPRESSION_ERROR'],
    ['a PUSH_PROMISE', (id) => encodeFrame(0x5, 0x4, id, Buffer.from([0, 0, 0, 2])), 'AC_H2_PROTOCOL_ERROR']
  ]
  for (const [what, frame, code] of cases) {
    let goaways = 0
    const server = await rawH2Server(t, (conn) => ({
      onHeaders (id) { conn.send(frame(id)) },
      onGoaway (last, errorCode) { if (errorCode !== 0) goaways++ }
    }))
    const r = await autocannon({ url: server.url, http2: true, connections: 1, pipelining: 2, amount: 10 })
    t.equal(r.requests.total, 0, `${what}: no response`)
    t.same(r.errorCodes, { [code]: 10 }, `${what}: ${code}`)
    t.equal(r.errorsByCause.parse, 10)
    t.ok(goaways > 0, `${what}: we said GOAWAY with the error`)
    endedOnce(t, r)
  }
})

t.test('a server that never sends its SETTINGS: connection timeouts, nothing sent', async (t) => {
  let heard = 0
  const net = require('net')
  const server = net.createServer((socket) => {
    socket.on('data', () => { heard++ })
    socket.on('error', () => {})
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  const sockets = new Set()
  server.on('connection', (s) => sockets.add(s))
  t.teardown(() => {
    for (const s of sockets) s.destroy()
    server.close()
  })
  const r = await autocannon({ url: `http://127.0.0.1:${server.address().port}`, http2: true, connections: 1, duration: 1.2, timeout: 0.3 })
  t.ok(heard > 0, 'our preface arrived')
  t.equal(r.requests.total, 0)
  t.ok(r.errorCodes.AC_CONNECT_TIMEOUT >= 2, JSON.stringify(r.errorCodes))
  t.equal(r.errorsByCause.timeout, r.errors)
})

t.test('stream ids run out: a new connection takes over, nothing is lost', async (t) => {
  let streams = 0
  const server = await rawH2Server(t, (conn) => ({
    onHeaders (id) {
      streams++
      conn.send(response(id))
    }
  }))
  const r = await autocannon({
    url: server.url,
    http2: true,
    connections: 1,
    pipelining: 4,
    amount: 100,
    // Ids up to 21: eleven streams a connection.
    setupClient: (client) => { client.framing.maxStreamId = 21 }
  })
  t.equal(r.errors, 0)
  t.equal(r.requests.total, 100)
  t.equal(streams, 100)
  t.ok(server.connections >= 10, `${server.connections} connections`)
})

t.test('fuzz: responses mangled at random (seeded), every request still ends once', async (t) => {
  const { Rng } = require('../../fuzz/rng')
  const rng = new Rng(20261125)
  const pick = (n) => rng.u32() % n
  // A valid response to the stream, then one mangling of it: octets
  // flipped, cut short, doubled, a frame of a random type spliced in, or a
  // frame length that lies.
  const mangle = (id) => {
    const valid = response(id, 'x'.repeat(pick(40)))
    const bytes = Buffer.from(valid)
    switch (pick(6)) {
      case 0: for (let k = 0; k < 1 + pick(3); k++) bytes[pick(bytes.length)] ^= 1 << pick(8); return bytes
      case 1: return bytes.subarray(0, pick(bytes.length))
      case 2: return Buffer.concat([bytes, bytes])
      case 3: return Buffer.concat([encodeFrame(pick(12), pick(256), pick(3) === 0 ? 0 : id, Buffer.alloc(pick(20), pick(256))), bytes])
      case 4: bytes[2] = pick(256); return bytes
      default: return bytes
    }
  }
  const server = await rawH2Server(t, (conn) => ({
    onHeaders (id) { conn.send(mangle(id)) }
  }))
  const started = Date.now()
  const r = await autocannon({ url: server.url, http2: true, connections: 4, pipelining: 4, amount: 800, timeout: 0.3 })
  t.ok(Date.now() - started < 20000, `ended after ${Date.now() - started} ms`)
  t.equal(r.requests.total + r.errors, 800, `${r.requests.total} answered, ${r.errors} errors: ${JSON.stringify(r.errorCodes)}`)
  t.equal(r.requests.inFlight, 0)
  t.ok(r.requests.total > 0 && r.errors > 0, 'some of each')
  endedOnce(t, r)
})
