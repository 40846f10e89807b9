'use strict'

// The engine end to end against real servers on 127.0.0.1: raw `net`
// servers writing hand-made bytes (framing, pipelining, bytes cut
// anywhere) and node:http servers (latency, the result object, limits,
// events). Counts are exact: every run has an `amount` or a limit, or a
// short duration. Failure modes are in test/e2e/engine-errors.test.js,
// option validation in test/e2e/invalid-options.test.js.

const t = require('tap')
const autocannon = require('../..')
const upstream = require('autocannon-upstream')
const { httpServer } = require('../helpers/servers')
const { rawServer, trickle, bench } = require('../helpers/raw-server')

const BODY = 'hello world'
const OK = `HTTP/1.1 200 OK\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`

// Chunk sizes in both cases of hex, extensions (one with a quoted value
// holding a ';'), a last chunk with an extension, and two trailer fields.
const CHUNKED_BODY = '0123456789abcdefghijk!'
const CHUNKED = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n' +
  'A;ext=1\r\n0123456789\r\n' +
  'b;name="quoted;value"\r\nabcdefghijk\r\n' +
  '1\r\n!\r\n' +
  '0;last\r\nX-Trailer: t\r\nX-Other: u\r\n\r\n'

const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n'
const INTERIMS = 'HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\nLink: </app.js>; rel=preload\r\n\r\n' +
  'HTTP/1.1 102 Processing\r\n\r\n'

// Exact counts of a clean run: all `amount` responses, all 2xx, no errors.
function clean (t, r, amount, label) {
  t.equal(r.requests.total, amount, `${label}: requests.total`)
  t.equal(r['2xx'], amount, `${label}: 2xx`)
  t.equal(r.errors, 0, `${label}: no errors`)
  t.equal(r.timeouts, 0, `${label}: no timeouts`)
  t.equal(r.requests.inFlight, 0, `${label}: nothing left in flight`)
}

t.test('chunked responses: extensions, trailers, hex sizes in either case', async (t) => {
  const { url, stats } = await rawServer(t, () => CHUNKED)
  for (const pipelining of [1, 10]) {
    const r = await bench(t, { url, connections: 3, pipelining, amount: 300, expectBody: CHUNKED_BODY })
    clean(t, r, 300, `-p ${pipelining}`)
    t.equal(r.mismatches, 0, 'chunks reassembled into the body, extensions and trailers left out')
    t.equal(r.throughput.total, 300 * CHUNKED.length, 'throughput counts the bytes on the wire')
  }
  t.ok(stats.maxBatch > 1, `pipelined chunked responses arrived several to a write (${stats.maxBatch})`)
})

t.test('close-delimited responses: each a 2xx, the client reconnects', async (t) => {
  // The body comes in two writes, then the close ends it. Only the first
  // request on a connection is answered: the others die with it.
  const { url, stats } = await rawServer(t, (head, socket) => {
    if (socket.answered) return
    socket.answered = true
    socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil ')
    setImmediate(() => socket.end('the close'))
  })
  const r = await bench(t, { url, connections: 2, amount: 50, expectBody: 'until the close' })
  clean(t, r, 50, '-p 1')
  t.equal(r.mismatches, 0, 'the body is everything up to the close')
  t.equal(r.throughput.total, 50 * 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the close'.length)
  t.ok(stats.connections >= 50, `one connection per response (${stats.connections})`)

  const p = await bench(t, { url, connections: 2, pipelining: 5, amount: 40, expectBody: 'until the close' })
  clean(t, p, 40, '-p 5')
  t.equal(p.mismatches, 0)
  // The requests pipelined behind a close the server announced were never
  // started there: they went again, and count once.
  t.equal(p.requests.sent, 40, 'requests behind the close were sent again, counted once')
  t.ok(stats.requests > 90, `the server saw them twice or more (${stats.requests})`)
})

t.test('Connection: close and HTTP/1.0: the client closes and reconnects itself', async (t) => {
  const responses = {
    close: 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok',
    http10: 'HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok'
  }
  for (const [name, response] of Object.entries(responses)) {
    // The server answers the first request and then leaves the socket
    // open: honouring the close is up to the client.
    const { url, stats } = await rawServer(t, (head, socket) => {
      if (socket.answered) return
      socket.answered = true
      return response
    })
    for (const pipelining of [1, 4]) {
      stats.connections = 0
      const r = await bench(t, { url, connections: 2, pipelining, amount: 30 })
      clean(t, r, 30, `${name} -p ${pipelining}`)
      t.ok(stats.connections >= 30, `${name}: a connection per response (${stats.connections})`)
    }
  }
  // HTTP/1.0 with keep-alive keeps the connection.
  const { url, stats } = await rawServer(t, () => 'HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok')
  const r = await bench(t, { url, connections: 2, pipelining: 3, amount: 60 })
  clean(t, r, 60, 'HTTP/1.0 keep-alive')
  t.equal(stats.connections, 2, 'kept alive')
})

t.test('HEAD, 204 and 304 carry no body whatever their headers say', async (t) => {
  const { url } = await rawServer(t, (head) => {
    const [method, path] = head.split(' ')
    if (method === 'HEAD') {
      return path === '/chunked'
        ? 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'
        : 'HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n'
    }
    if (path === '/204') return 'HTTP/1.1 204 No Content\r\nContent-Length: 1000\r\n\r\n'
    if (path === '/304') return 'HTTP/1.1 304 Not Modified\r\nContent-Length: 1000\r\n\r\n'
    if (path === '/304-chunked') return 'HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n'
    return OK
  })
  const cases = [
    [{ method: 'HEAD' }, 200],
    [{ method: 'HEAD', url: url + '/chunked' }, 200],
    [{ url: url + '/204' }, 204],
    [{ url: url + '/304' }, 304],
    [{ url: url + '/304-chunked' }, 304]
  ]
  for (const [opts, code] of cases) {
    for (const pipelining of [1, 4]) {
      const label = `${opts.method || 'GET'} ${opts.url || url} -p ${pipelining}`
      const r = await bench(t, { url, connections: 2, pipelining, amount: 100, ...opts })
      t.equal(r.requests.total, 100, `${label}: all complete`)
      t.same(r.statusCodeStats, { [code]: { count: 100 } }, `${label}: status`)
      t.equal(r.errors, 0, `${label}: no errors`)
    }
  }

  // HEAD and GET mixed in one pipeline: each response is read by the
  // request it answers (a HEAD read as a GET would swallow the next one).
  const requests = [{ method: 'HEAD' }, { method: 'GET' }, { method: 'GET', path: '/204' }]
  const r = await bench(t, { url, connections: 2, pipelining: 10, amount: 300, requests })
  t.equal(r.requests.total, 300)
  t.equal(r.errors, 0, 'HEAD, GET and 204 in one pipeline: no errors')
  t.equal(r.statusCodeStats[200].count + r.statusCodeStats[204].count, 300)
  t.ok(Math.abs(r.statusCodeStats[204].count - 100) <= 2, `one in three is a 204 (${r.statusCodeStats[204].count})`)
})

t.test('interim 1xx responses before the final one are skipped, not counted', async (t) => {
  // Same write as the response.
  const together = await rawServer(t, () => CONTINUE + OK)
  const r = await bench(t, { url: together.url, method: 'POST', body: 'x', connections: 2, amount: 100, expectBody: BODY })
  clean(t, r, 100, '100 Continue + response')
  t.same(r.statusCodeStats, { 200: { count: 100 } })
  t.equal(r['1xx'], 0)
  t.equal(r.mismatches, 0)

  // A separate write, the response a moment later.
  const apart = await rawServer(t, (head, socket) => {
    socket.write(CONTINUE)
    setTimeout(() => socket.write(OK), 2)
  })
  const a = await bench(t, { url: apart.url, method: 'POST', body: 'x', connections: 2, amount: 40, expectBody: BODY })
  clean(t, a, 40, '100 Continue, then the response')
  t.same(a.statusCodeStats, { 200: { count: 40 } })
  t.equal(a.mismatches, 0)

  // 103 with headers and 102, pipelined.
  const hints = await rawServer(t, () => INTERIMS + OK)
  const h = await bench(t, { url: hints.url, connections: 2, pipelining: 4, amount: 200, expectBody: BODY })
  clean(t, h, 200, '103 + 102 + response, -p 4')
  t.same(h.statusCodeStats, { 200: { count: 200 } })
  t.equal(h['1xx'], 0)
  t.equal(h.mismatches, 0)
})

t.test('pipelined responses written several at a time, or cut anywhere', async (t) => {
  const { url, stats } = await rawServer(t, () => OK)
  const r = await bench(t, { url, connections: 4, pipelining: 10, amount: 2000, expectBody: BODY })
  clean(t, r, 2000, '-p 10')
  t.equal(r.mismatches, 0)
  t.equal(r.pipelining, 10)
  t.equal(stats.requests, 2000, 'the server saw exactly the amount')
  t.ok(stats.maxBatch >= 5, `responses went out several to a write (${stats.maxBatch})`)
  t.ok(stats.writes < 2000, `fewer writes than responses (${stats.writes})`)

  // The same bytes in 7-byte pieces: responses split in the status line,
  // headers, between CR and LF, in bodies, and glued to the next one.
  const cut = await rawServer(t, () => OK, { slice: 7 })
  const c = await bench(t, { url: cut.url, connections: 2, pipelining: 10, amount: 200, expectBody: BODY })
  clean(t, c, 200, '7-byte pieces')
  t.equal(c.mismatches, 0)
})

t.test('responses written one byte at a time', async (t) => {
  const cases = {
    'Content-Length': [OK, BODY],
    chunked: [CHUNKED, CHUNKED_BODY],
    '100 Continue, 103, 102': [CONTINUE + INTERIMS + OK, BODY]
  }
  for (const [name, [response, body]] of Object.entries(cases)) {
    const { url } = await rawServer(t, () => response, { slice: 1 })
    for (const pipelining of [1, 3]) {
      const r = await bench(t, { url, connections: 2, pipelining, amount: 20, expectBody: body })
      clean(t, r, 20, `${name} -p ${pipelining}`)
      t.equal(r.mismatches, 0, `${name}: the body reassembled from single bytes`)
      t.equal(r.throughput.total, 20 * response.length, `${name}: the bytes on the wire, interim responses too`)
    }
  }
  const closing = await rawServer(t, (head, socket) => {
    if (socket.answered) return
    socket.answered = true
    trickle(socket, 'HTTP/1.1 200 OK\r\n\r\n' + BODY).then(() => socket.end())
  })
  const r = await bench(t, { url: closing.url, connections: 2, amount: 20, expectBody: BODY })
  clean(t, r, 20, 'close-delimited')
  t.equal(r.mismatches, 0)
})

t.test('large headers and bodies over many reads', async (t) => {
  const big = 'b'.repeat(1 << 20)
  const chunks = []
  for (let i = 0; i < big.length; i += 16384) chunks.push(`4000\r\n${big.slice(i, i + 16384)}\r\n`)
  const responses = {
    'a 15 KiB header': ['HTTP/1.1 200 OK\r\nX-Big: ' + 'h'.repeat(15 * 1024) + `\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`, BODY],
    'a 1 MiB body': [`HTTP/1.1 200 OK\r\nContent-Length: ${big.length}\r\n\r\n${big}`, big],
    'a 1 MiB chunked body': ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n' + chunks.join('') + '0\r\n\r\n', big]
  }
  for (const [name, [response, body]] of Object.entries(responses)) {
    const { url } = await rawServer(t, () => response)
    const r = await bench(t, { url, connections: 2, pipelining: 2, amount: 10, expectBody: body })
    clean(t, r, 10, name)
    t.equal(r.mismatches, 0, `${name}: the body intact`)
    t.equal(r.throughput.total, 10 * response.length, `${name}: every byte counted`)
  }
})

t.test('a header section over 16 KiB is an error, and the run goes on', async (t) => {
  const huge = 'HTTP/1.1 200 OK\r\nX-Big: ' + 'h'.repeat(17 * 1024) + `\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`
  const ok = `HTTP/1.1 200 OK\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`
  const { url, stats } = await rawServer(t, () => stats.requests % 2 === 0 ? huge : ok)
  for (const expectBody of [undefined, BODY]) {
    stats.requests = 0
    const r = await bench(t, { url, connections: 1, amount: 20, expectBody })
    t.equal(r.requests.total, 10, 'every other request answered')
    t.equal(r.errors, 10, 'the others are errors')
    t.same(r.errorCodes, { HPE_HEADER_OVERFLOW: 10 }, 'HPE_HEADER_OVERFLOW, as Node names it')
    t.equal(r.errorsByCause.parse, 10)
  }
})

t.test('amount gives exactly that many responses, and sends no more', async (t) => {
  const { url, stats } = await rawServer(t, () => OK)
  const runs = [[1, 1, 1], [1, 1, 7], [10, 1, 333], [7, 10, 1001], [49, 3, 49], [3, 10, 5], [4, 7, 10]]
  for (const [connections, pipelining, amount] of runs) {
    const label = `-c ${connections} -p ${pipelining} -a ${amount}`
    stats.requests = 0
    const r = await bench(t, { url, connections, pipelining, amount })
    clean(t, r, amount, label)
    t.equal(r.requests.sent, amount, `${label}: requests.sent`)
    t.equal(stats.requests, amount, `${label}: requests the server received`)
    t.equal(r.latency.totalCount, amount, `${label}: one latency sample per response`)
    t.equal(r.throughput.total, amount * OK.length, `${label}: bytes`)
  }
  // And against node:http.
  const node = await httpServer(t)
  const r = await bench(t, { url: node, connections: 10, pipelining: 2, amount: 500 })
  clean(t, r, 500, 'node:http')
  t.equal(r.requests.sent, 500)
})

t.test('a 20 ms server reads as 20 ms', async (t) => {
  const url = await httpServer(t, (req, res) => setTimeout(() => res.end('slow'), 20))
  const r = await bench(t, { url, connections: 2, amount: 100 })
  t.ok(r.latency.p50 >= 20 && r.latency.p50 <= 23, `p50 ${r.latency.p50} ms`)
  // A timer may fire up to a millisecond early by the loop's cached clock.
  t.ok(r.latency.min >= 19, `min ${r.latency.min} ms`)
  t.ok(r.latency.average >= 20 && r.latency.average < 30, `average ${r.latency.average} ms`)
})

t.test('sub-millisecond latency is measured, not rounded to zero', async (t) => {
  const url = await httpServer(t)
  const r = await bench(t, { url, connections: 1, amount: 500 })
  t.ok(r.latency.min > 0, `min ${r.latency.min} ms`)
  t.ok(r.latency.p50 > 0 && r.latency.p50 < 5, `p50 ${r.latency.p50} ms`)
  t.not(r.latency.average, Math.round(r.latency.average), `average ${r.latency.average} has decimals`)
})

// The Results section of autocannon's README.
const HISTOGRAM_FIELDS = ['min', 'max', 'average', 'mean', 'stddev',
  'p0_001', 'p0_01', 'p0_1', 'p1', 'p2_5', 'p10', 'p25', 'p50', 'p75', 'p90', 'p97_5', 'p99', 'p99_9', 'p99_99', 'p99_999']

function shape (value) {
  if (value === null) return 'null'
  if (value instanceof Date) return 'Date'
  return typeof value
}

t.test('the result has every field of autocannon\'s, with the right types', async (t) => {
  const url = await httpServer(t)
  const r = await bench(t, { url, title: 'shape', connections: 3, amount: 200 })
  const types = {
    title: 'string',
    url: 'string',
    socketPath: 'undefined',
    requests: 'object',
    latency: 'object',
    throughput: 'object',
    duration: 'number',
    errors: 'number',
    timeouts: 'number',
    mismatches: 'number',
    start: 'Date',
    finish: 'Date',
    connections: 'number',
    pipelining: 'number',
    non2xx: 'number',
    resets: 'number',
    statusCodeStats: 'object',
    '1xx': 'number',
    '2xx': 'number',
    '3xx': 'number',
    '4xx': 'number',
    '5xx': 'number',
    samples: 'number',
    sampleInt: 'number'
  }
  for (const [k, type] of Object.entries(types)) {
    t.ok(k in r, `has ${k}`)
    t.equal(shape(r[k]), type, `${k} is a ${type}`)
  }
  t.equal(r.title, 'shape')
  t.equal(r.url, url)
  t.equal(r.connections, 3)
  t.equal(r.pipelining, 1)
  t.equal(r.sampleInt, 1000)
  t.equal(r.samples, 1, 'a short run still has its one sample')
  t.same(r.statusCodeStats, { 200: { count: 200 } })
  t.equal(r.non2xx, 0)
  t.equal(r.resets, 0)
  for (const name of ['latency', 'requests', 'throughput']) {
    for (const k of HISTOGRAM_FIELDS) t.type(r[name][k], 'number', `${name}.${k}`)
    t.equal(r[name].average, r[name].mean, `${name}: average is mean`)
    // Percentiles are the top of their histogram bucket (as in autocannon),
    // min and max exact: p50 may pass max by the bucket's width.
    t.ok(r[name].min <= r[name].p50 && r[name].p50 <= r[name].max * 1.001 + 1, `${name}: min ≤ p50 ≤ max`)
  }
  t.equal(r.requests.total, 200, 'requests.total')
  t.equal(r.requests.sent, 200, 'requests.sent')
  t.equal(r.requests.inFlight, 0, 'requests.inFlight')
  t.equal(r.requests.min, 200, 'the one sample holds all 200')
  t.type(r.throughput.total, 'number', 'throughput.total')
  t.equal(r.latency.totalCount, 200, 'latency.totalCount')

  // Measured wall time: an amount run over in milliseconds is not a second.
  t.ok(r.duration > 0 && r.duration < 1, `duration ${r.duration}s is measured, not rounded up`)
  t.ok(r.finish >= r.start, 'finish after start')
  t.ok(Math.abs((r.finish - r.start) / 1000 - r.duration) < 0.01, 'duration is finish - start')
})

t.test('the result has the same fields and types as autocannon 9\'s', async (t) => {
  const url = await httpServer(t)
  const opts = { url, title: 't', connections: 2, amount: 20 }
  const [ours, theirs] = [await bench(t, opts), await upstream(opts)]
  for (const k of Object.keys(theirs)) {
    t.equal(shape(ours[k]), shape(theirs[k]), `${k}: ${shape(theirs[k])}`)
    if (shape(theirs[k]) === 'object' && k !== 'statusCodeStats') {
      for (const f of Object.keys(theirs[k])) t.equal(shape(ours[k][f]), shape(theirs[k][f]), `${k}.${f}`)
    }
  }
  t.same(ours.statusCodeStats, theirs.statusCodeStats)
})

t.test('a duration run: duration is its length, samples its whole seconds', async (t) => {
  const url = await httpServer(t)
  const r = await bench(t, { url, connections: 2, duration: 1.3, overallRate: 200 })
  t.ok(r.duration >= 1.25 && r.duration < 2, `duration ${r.duration}s`)
  t.not(r.duration, Math.round(r.duration), 'not rounded to whole seconds')
  t.equal(r.samples, 1, 'the partial last 0.3 s is not a sample')
  t.ok(r.requests.total > 0 && r.requests.total >= r.requests.min, 'the partial interval still counts in the total')
})

t.test('status classes, non2xx and statusCodeStats', async (t) => {
  const statuses = [200, 301, 404, 503, 201]
  let n = 0
  const url = await httpServer(t, (req, res) => {
    res.statusCode = statuses[n++ % statuses.length]
    res.end('x')
  })
  const r = await bench(t, { url, connections: 1, amount: 100 })
  t.same(r.statusCodeStats, { 200: { count: 20 }, 201: { count: 20 }, 301: { count: 20 }, 404: { count: 20 }, 503: { count: 20 } })
  t.equal(r['1xx'], 0)
  t.equal(r['2xx'], 40)
  t.equal(r['3xx'], 20)
  t.equal(r['4xx'], 20)
  t.equal(r['5xx'], 20)
  t.equal(r.non2xx, 60)
  t.equal(r.errors, 0, 'a non-2xx status is not an error')
  t.equal(r.requests.total, 100)
})

t.test('maxConnectionRequests: each connection stops after that many', async (t) => {
  const { url, stats } = await rawServer(t, () => OK)
  for (const pipelining of [1, 4]) {
    Object.assign(stats, { requests: 0, connections: 0, maxPerConnection: 0 })
    const r = await bench(t, { url, connections: 3, pipelining, maxConnectionRequests: 10, duration: 2 })
    clean(t, r, 30, `-p ${pipelining}`)
    t.equal(stats.requests, 30, 'the server saw 10 per connection')
    t.equal(stats.maxPerConnection, 10, 'none more than 10')
    t.equal(stats.connections, 3, 'on the same connections (a connection is done, not reopened)')
    t.ok(r.duration < 1, `the run ends when every connection is done (${r.duration}s)`)
  }
  // autocannon's README: amount takes precedence over maxConnectionRequests,
  // and maxConnectionRequests over maxOverallRequests.
  const a = await bench(t, { url, connections: 2, amount: 100, maxConnectionRequests: 10 })
  clean(t, a, 100, 'amount 100 with -M 10')
  const o = await bench(t, { url, connections: 2, maxConnectionRequests: 10, maxOverallRequests: 5, duration: 2 })
  clean(t, o, 20, '-M 10 with -O 5')
})

t.test('maxOverallRequests: that many in all', async (t) => {
  const { url, stats } = await rawServer(t, () => OK)
  const r = await bench(t, { url, connections: 4, pipelining: 3, maxOverallRequests: 37, duration: 2 })
  clean(t, r, 37, '-O 37')
  t.equal(r.requests.sent, 37)
  t.equal(stats.requests, 37)
  t.ok(r.duration < 1, `ends when they are done (${r.duration}s)`)
})

t.test('reconnectRate: the server sees new connections', async (t) => {
  const { url, stats } = await rawServer(t, () => OK)
  const r = await bench(t, { url, connections: 2, reconnectRate: 10, amount: 100 })
  clean(t, r, 100, 'reconnectRate 10')
  t.ok(stats.connections >= 10, `a connection per 10 requests (${stats.connections})`)
  t.equal(stats.maxPerConnection, 10, 'none served more than 10')
})

t.test('expectBody, verifyBody, reqMismatch, excludeErrorStats', async (t) => {
  let n = 0
  const url = await httpServer(t, (req, res) => {
    if (++n % 4 === 0) {
      res.statusCode = 500
      res.end('broken')
    } else {
      res.end('fine')
    }
  })
  const sizes = {}
  let mismatchEvents = 0
  const instance = autocannon({ url, connections: 1, amount: 100, expectBody: 'fine' })
  instance.on('response', (client, status, bytes) => { sizes[status] = bytes })
  instance.on('reqMismatch', (body) => {
    mismatchEvents++
    if (body !== 'broken') t.fail(`reqMismatch with the body: ${body}`)
  })
  const r = await instance
  t.equal(r.mismatches, 25)
  t.equal(mismatchEvents, 25, 'a reqMismatch event for each')
  t.equal(r.errors, 0, 'a mismatch is not an error')
  t.equal(r.non2xx, 25)
  t.equal(r['5xx'], 25)
  t.same(r.statusCodeStats, { 200: { count: 75 }, 500: { count: 25 } })
  t.equal(r.throughput.total, 75 * sizes[200] + 25 * sizes[500], 'throughput counts every response')

  n = 0
  const v = await bench(t, { url, connections: 1, amount: 40, verifyBody: (body) => body === 'fine' })
  t.equal(v.mismatches, 10)

  n = 0
  const both = await bench(t, { url, connections: 1, amount: 40, expectBody: 'nothing like it', verifyBody: () => true })
  t.equal(both.mismatches, 0, 'verifyBody takes precedence over expectBody')

  n = 0
  const x = await bench(t, { url, connections: 1, amount: 100, excludeErrorStats: true })
  t.equal(x.requests.total, 100, 'all responses still count as requests')
  t.equal(x.non2xx, 25)
  t.equal(x.latency.totalCount, 75, 'latency only of the 2xx')
  t.equal(x.throughput.total, 75 * sizes[200], 'bytes only of the 2xx')
})

t.test('events: start, tick, response, done', async (t) => {
  const { url } = await rawServer(t, () => OK)
  const instance = autocannon({ url, connections: 2, duration: 1.3, overallRate: 300 })
  const order = []
  const ticks = []
  const responses = []
  let done = null
  instance.on('start', () => order.push('start'))
  instance.on('tick', (tick) => { order.push('tick'); ticks.push(tick) })
  instance.on('response', (client, status, bytes, ms) => {
    if (order[order.length - 1] !== 'response') order.push('response')
    responses.push({ client, status, bytes, ms })
  })
  instance.on('done', (result) => { order.push('done'); done = result })
  const result = await instance
  t.equal(order[0], 'start', 'start first')
  t.equal(order[order.length - 1], 'done', 'done last')
  t.equal(order.filter((e) => e === 'start').length, 1, 'one start')
  t.equal(done, result, 'done carries the result')

  t.ok(ticks.length >= 2, `a tick each second and one at the end (${ticks.length})`)
  t.equal(ticks.reduce((sum, tick) => sum + tick.counter, 0), result.requests.total, 'ticks count every response')
  t.equal(ticks.reduce((sum, tick) => sum + tick.bytes, 0), result.throughput.total, 'and every byte')

  t.equal(responses.length, result.requests.total, 'a response event per response')
  t.equal(responses.length, result['2xx'])
  const clients = new Set(responses.map((r) => r.client))
  t.equal(clients.size, 2, 'from each of the two connections')
  const client = responses[0].client
  for (const method of ['setHeaders', 'setBody', 'setHeadersAndBody', 'setRequest', 'setRequests', 'on']) {
    t.type(client[method], 'function', `the client has ${method}()`)
  }
  t.ok(responses.every((r) => r.status === 200), 'statusCode')
  t.ok(responses.every((r) => r.bytes === OK.length), 'resBytes')
  t.ok(responses.every((r) => r.ms > 0 && r.ms < 1000), 'responseTime in ms')
  const max = Math.max(...responses.map((r) => r.ms))
  t.ok(Math.abs(max - result.latency.max) <= 0.01 + max * 0.01, `the slowest response event (${max}) is latency.max (${result.latency.max})`)
})
