'use strict'

// The engine end to end: real servers on 127.0.0.1 (node:http, and raw
// `net` servers writing hand-made bytes), the real library, exact counts.

const t = require('tap')
const net = require('net')
const autocannon = require('..')
const { httpServer, listen } = require('./helpers/servers')

// A raw server: `respond(request head, socket)` is called once per request
// head received (requests here have no body); returns the URL and stats.
async function rawServer (t, respond) {
  const stats = { requests: 0, connections: 0 }
  const server = net.createServer((socket) => {
    stats.connections++
    let pending = ''
    socket.on('data', (buf) => {
      pending += buf.toString('latin1')
      let end
      while ((end = pending.indexOf('\r\n\r\n')) !== -1) {
        const head = pending.slice(0, end)
        pending = pending.slice(end + 4)
        stats.requests++
        respond(head, socket, stats)
      }
    })
    socket.on('error', () => {})
  })
  const url = await listen(t, server)
  return { url, stats, server }
}

const BODY = 'hello world'
const OK = `HTTP/1.1 200 OK\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`

t.test('chunked responses with extensions and trailers', async (t) => {
  const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n'
  const { url } = await rawServer(t, (head, socket) => socket.write(chunked))
  const r = await autocannon({ url, connections: 3, amount: 300, expectBody: 'hello world' })
  t.equal(r.requests.total, 300)
  t.equal(r['2xx'], 300)
  t.equal(r.errors, 0)
  t.equal(r.mismatches, 0, 'chunks reassembled into the expected body')
  t.equal(r.throughput.total, 300 * chunked.length, 'bytes are the wire bytes')
})

t.test('close-delimited responses: each counted, the client reconnects', async (t) => {
  const { url, stats } = await rawServer(t, (head, socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil close'))
  const r = await autocannon({ url, connections: 2, amount: 50, expectBody: 'until close' })
  t.equal(r.requests.total, 50)
  t.equal(r['2xx'], 50)
  t.equal(r.errors, 0, 'a close that ends a response is not an error')
  t.equal(r.mismatches, 0)
  t.ok(stats.connections >= 50, `one connection per response (${stats.connections})`)
})

t.test('HEAD, 204 and 304 carry no body whatever Content-Length says', async (t) => {
  const { url } = await rawServer(t, (head, socket) => {
    if (head.startsWith('HEAD')) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n')
    else if (head.includes('/204')) socket.write('HTTP/1.1 204 No Content\r\nContent-Length: 1000\r\n\r\n')
    else socket.write('HTTP/1.1 304 Not Modified\r\nContent-Length: 1000\r\n\r\n')
  })
  for (const [opts, code] of [[{ method: 'HEAD' }, 200], [{ url: url + '/204' }, 204], [{ url: url + '/304' }, 304]]) {
    const r = await autocannon({ url, connections: 2, pipelining: 4, amount: 100, ...opts })
    t.equal(r.requests.total, 100, `${code}: all complete`)
    t.same(r.statusCodeStats, { [code]: { count: 100 } })
    t.equal(r.errors, 0, `${code}: no errors`)
  }
})

t.test('100 Continue before the response is skipped, not counted', async (t) => {
  const { url } = await rawServer(t, (head, socket) => socket.write('HTTP/1.1 100 Continue\r\n\r\n' + OK))
  const r = await autocannon({ url, method: 'POST', body: 'x', connections: 2, amount: 100 })
  t.equal(r.requests.total, 100)
  t.same(r.statusCodeStats, { 200: { count: 100 } })
  t.equal(r['1xx'], 0)
  t.equal(r.errors, 0)
})

t.test('pipelined responses written several at a time', async (t) => {
  let batch = []
  const { url } = await rawServer(t, (head, socket) => {
    // Hold answers back and write them in groups of 3 (or on the next tick).
    batch.push(socket)
    if (batch.length === 3) flush()
    else setImmediate(flush)
  })
  function flush () {
    const groups = new Map()
    for (const s of batch) groups.set(s, (groups.get(s) || 0) + 1)
    batch = []
    for (const [s, n] of groups) if (!s.destroyed) s.write(OK.repeat(n))
  }
  const r = await autocannon({ url, connections: 4, pipelining: 10, amount: 2000 })
  t.equal(r.requests.total, 2000)
  t.equal(r['2xx'], 2000)
  t.equal(r.errors, 0)
  t.equal(r.pipelining, 10)
})

t.test('a response written one byte at a time', async (t) => {
  const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Pad: abc\r\n\r\n3\r\nabc\r\n0\r\n\r\n'
  const { url } = await rawServer(t, async (head, socket) => {
    const bytes = head.includes('/chunked') ? chunked : OK
    for (const c of bytes) {
      if (socket.destroyed) return
      socket.write(c)
      await new Promise((resolve) => setImmediate(resolve))
    }
  })
  const r = await autocannon({ url, connections: 2, amount: 20, expectBody: BODY })
  t.equal(r.requests.total, 20)
  t.equal(r.mismatches, 0, 'body reassembled from single bytes')
  t.equal(r.errors, 0)
  const c = await autocannon({ url: url + '/chunked', connections: 2, amount: 10, expectBody: 'abc' })
  t.equal(c.requests.total, 10)
  t.equal(c.mismatches, 0)
})

t.test('amount is exact, with and without pipelining', async (t) => {
  const url = await httpServer(t)
  for (const [connections, pipelining, amount] of [[1, 1, 1], [1, 1, 7], [10, 1, 333], [7, 10, 1001], [50, 3, 49]]) {
    const r = await autocannon({ url, connections, pipelining, amount })
    t.equal(r.requests.total, amount, `-c ${connections} -p ${pipelining} -a ${amount}: total`)
    t.equal(r.requests.sent, amount, 'sent: no request written past the amount')
    t.equal(r.requests.inFlight, 0, 'nothing left in flight')
    t.equal(r['2xx'], amount)
    t.equal(r.latency.totalCount, amount, 'one latency sample per response')
  }
})

t.test('a server that never answers: timeouts counted, run ends with a result', async (t) => {
  const { url } = await rawServer(t, () => {})
  const r = await autocannon({ url, connections: 2, timeout: 1, duration: 2.5 })
  t.ok(r.timeouts >= 2, `timeouts counted (${r.timeouts})`)
  t.ok(r.timeouts <= 8, `one per connection per second at most (${r.timeouts})`)
  t.ok(r.errors >= r.timeouts, 'timeouts are errors too')
  t.equal(r.requests.total, 0)
  t.ok(r.duration >= 2 && r.duration < 4, `duration ${r.duration}s`)
})

t.test('refused connections: counted, backed off, the run ends', async (t) => {
  const server = net.createServer()
  const port = await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)))
  await new Promise((resolve) => server.close(resolve))
  const cpu = process.cpuUsage()
  const r = await autocannon({ url: `http://127.0.0.1:${port}`, connections: 10, duration: 1.5 })
  const used = process.cpuUsage(cpu)
  t.ok(r.errors >= 10, `each connection's failures counted (${r.errors})`)
  // Back-off from 5 ms doubling to 1 s: ~8 attempts per connection in 1.5 s.
  t.ok(r.errors < 500, `not spun on (${r.errors} attempts)`)
  t.equal(r.requests.total, 0)
  t.ok((used.user + used.system) / 1e6 < 1.2, 'the generator was mostly idle')
})

t.test('misbehaving servers: resets, garbage, half responses are errors; the run goes on', async (t) => {
  const behaviours = {
    reset: (socket) => socket.resetAndDestroy(),
    garbage: (socket) => socket.write('NOT HTTP AT ALL\r\n\r\n'),
    half: (socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part'),
    badLength: (socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: nope\r\n\r\n')
  }
  for (const [name, misbehave] of Object.entries(behaviours)) {
    let n = 0
    // Every third request misbehaves; the others are answered.
    const { url } = await rawServer(t, (head, socket) => (++n % 3 === 0 ? misbehave(socket) : socket.write(OK)))
    const r = await autocannon({ url, connections: 2, duration: 1 })
    t.ok(r.errors > 0, `${name}: errors counted (${r.errors})`)
    t.ok(r['2xx'] > r.errors, `${name}: the run went on (${r['2xx']} answered)`)
    t.ok(r.latency && r.requests, `${name}: a result`)
  }
})

t.test('a 20 ms server reads as 20 ms', async (t) => {
  const url = await httpServer(t, (req, res) => setTimeout(() => res.end('slow'), 20))
  const r = await autocannon({ url, connections: 2, amount: 100 })
  t.ok(r.latency.p50 >= 20 && r.latency.p50 <= 23, `p50 ${r.latency.p50} ms`)
  // Timers may fire up to a millisecond early by the loop's cached clock.
  t.ok(r.latency.min >= 19, `min ${r.latency.min} ms`)
})

t.test('sub-millisecond latency is not rounded to zero', async (t) => {
  const url = await httpServer(t)
  const r = await autocannon({ url, connections: 1, amount: 500 })
  t.ok(r.latency.min > 0, `min ${r.latency.min} ms`)
  t.ok(r.latency.p50 > 0 && r.latency.p50 < 5, `p50 ${r.latency.p50} ms`)
  t.not(r.latency.average, Math.round(r.latency.average), `average ${r.latency.average} has decimals`)
})

t.test('the result object has every field of autocannon\'s', async (t) => {
  const url = await httpServer(t)
  const r = await autocannon({ url, title: 'shape', connections: 3, amount: 200 })
  for (const k of ['title', 'url', 'socketPath', 'requests', 'latency', 'throughput', 'duration', 'errors', 'timeouts',
    'mismatches', 'start', 'finish', 'connections', 'pipelining', 'non2xx', 'resets', 'statusCodeStats',
    '1xx', '2xx', '3xx', '4xx', '5xx', 'samples', 'sampleInt']) {
    t.ok(k in r, `has ${k}`)
  }
  t.equal(r.title, 'shape')
  t.equal(r.url, url)
  t.equal(r.connections, 3)
  t.equal(r.pipelining, 1)
  t.equal(r.sampleInt, 1000)
  t.ok(r.start instanceof Date && r.finish instanceof Date && r.finish >= r.start)
  for (const name of ['latency', 'requests', 'throughput']) {
    for (const k of ['min', 'max', 'average', 'mean', 'stddev', 'p0_001', 'p1', 'p2_5', 'p50', 'p97_5', 'p99', 'p99_999']) {
      t.type(r[name][k], 'number', `${name}.${k}`)
    }
  }
  t.type(r.requests.total, 'number', 'requests.total')
  t.type(r.throughput.total, 'number', 'throughput.total')
  t.equal(r.latency.totalCount, 200, 'latency.totalCount')
  t.ok(r.duration > 0 && r.duration < 1, `duration ${r.duration}s is measured, not rounded up to a second`)
})

t.test('maxConnectionRequests and maxOverallRequests', async (t) => {
  const { url, stats } = await rawServer(t, (head, socket) => socket.write(OK))
  const r = await autocannon({ url, connections: 2, maxConnectionRequests: 10, duration: 5 })
  t.equal(r.requests.total, 20, 'each connection stops after 10')
  t.equal(stats.requests, 20)

  const o = await autocannon({ url, connections: 4, maxOverallRequests: 37, duration: 5 })
  t.equal(o.requests.total, 37)
})

t.test('expectBody, verifyBody, non-2xx, excludeErrorStats', async (t) => {
  let n = 0
  const url = await httpServer(t, (req, res) => {
    if (++n % 4 === 0) {
      res.statusCode = 500
      res.end('broken')
    } else {
      res.end('fine')
    }
  })
  const r = await autocannon({ url, connections: 1, amount: 100, expectBody: 'fine' })
  t.equal(r.mismatches, 25)
  t.equal(r.non2xx, 25)
  t.equal(r['5xx'], 25)
  t.same(r.statusCodeStats, { 200: { count: 75 }, 500: { count: 25 } })

  n = 0
  const v = await autocannon({ url, connections: 1, amount: 40, verifyBody: (body) => body.length === 4 })
  t.equal(v.mismatches, 10)

  n = 0
  const x = await autocannon({ url, connections: 1, amount: 100, excludeErrorStats: true })
  t.equal(x.requests.total, 100)
  t.equal(x.latency.totalCount, 75, 'latency only for 2xx')
  t.equal(x.throughput.total < r.throughput.total, true, 'bytes only for 2xx')
})

t.test('bailout stops the run after that many errors', async (t) => {
  const { url } = await rawServer(t, (head, socket) => socket.write('GARBAGE\r\n\r\n'))
  const started = Date.now()
  const r = await autocannon({ url, connections: 1, bailout: 5, duration: 10 })
  t.ok(r.errors >= 5 && r.errors <= 7, `stopped at ${r.errors} errors`)
  t.ok(Date.now() - started < 5000, 'long before the duration')
})

t.test('events: start, tick, response, reqError, done', async (t) => {
  let n = 0
  const { url } = await rawServer(t, (head, socket) => (++n === 5 ? socket.resetAndDestroy() : socket.write(OK)))
  const instance = autocannon({ url, connections: 1, duration: 1.2 })
  const seen = { start: 0, tick: [], response: [], reqError: 0, done: null }
  instance.on('start', () => seen.start++)
  instance.on('tick', (tick) => seen.tick.push(tick))
  instance.on('response', (client, status, bytes, ms) => seen.response.push({ client, status, bytes, ms }))
  instance.on('reqError', () => seen.reqError++)
  instance.on('done', (result) => { seen.done = result })
  const result = await instance
  t.equal(seen.start, 1)
  t.ok(seen.tick.length >= 1, 'a tick each second')
  t.type(seen.tick[0].counter, 'number')
  t.type(seen.tick[0].bytes, 'number')
  t.equal(seen.response.length, result.requests.total, 'one response event per response')
  const first = seen.response[0]
  t.equal(first.status, 200)
  t.equal(first.bytes, OK.length)
  t.ok(first.ms > 0 && first.ms < 1000, 'response time in ms')
  t.equal(typeof first.client.setHeaders, 'function', 'the Client')
  t.equal(seen.reqError, 1, 'one reqError for the reset connection')
  t.equal(seen.done, result)
})

t.test('invalid options reject with the option and the value named', async (t) => {
  const url = 'http://127.0.0.1:1'
  const cases = [
    [{ url, connections: -1 }, /connections.*-1/],
    [{ url, connections: 1.5 }, /connections.*1\.5/],
    [{ url, connections: 'x' }, /connections.*"x"/],
    [{ url, duration: 'soon' }, /duration.*"soon"/],
    [{ url, pipelining: 0 }, /pipelining.*0/],
    [{ url: 'http://' }, /url/],
    [{ url: 'ftp://127.0.0.1/' }, /url.*ftp/],
    [{ url, amount: -3 }, /amount.*-3/],
    [{ url, timeout: 0 }, /timeout/]
  ]
  for (const [opts, message] of cases) {
    await t.rejects(autocannon(opts), { code: 'AC_INVALID_OPTION', message }, JSON.stringify(opts))
  }
  await t.rejects(autocannon({}), { message: /url/ }, 'a missing url')
})
