'use strict'

// The engine when things go wrong, end to end against real servers on
// 127.0.0.1: servers that never answer, refused connections, resets,
// garbage, responses cut short, hang-ups; bailout and reqError. Every
// run is bounded (an amount, or at most 2.5 s) and ends with a result.

const t = require('tap')
const autocannon = require('../..')
const { rawServer, closedPort, bench } = require('../helpers/raw-server')

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'

// Runs opts, collecting the reqError events with the time they came at.
async function withErrors (t, opts) {
  const instance = autocannon(opts)
  const errors = []
  let startedAt = 0
  instance.on('start', () => { startedAt = Date.now() })
  instance.on('reqError', (err) => errors.push({ err, at: Date.now() - startedAt }))
  const guard = setTimeout(() => {
    t.fail('the run did not end in time')
    instance.stop()
  }, 15000)
  const result = await instance
  clearTimeout(guard)
  return { result, errors }
}

t.test('timeouts: counted as errors, the connection recovers, the run ends', async (t) => {
  // One server never answers; the other answers the first 3 requests on
  // each connection and then goes silent. Both runs at once.
  const silent = await rawServer(t, () => undefined)
  const stalling = await rawServer(t, (head, socket) => (++socket.served || (socket.served = 1)) <= 3 ? OK : undefined)
  const opts = { connections: 2, timeout: 1, duration: 2.5 }
  const [s, p] = await Promise.all([withErrors(t, { url: silent.url, ...opts }), withErrors(t, { url: stalling.url, ...opts })])

  const r = s.result
  t.ok(r.timeouts >= 2, `a server that never answers: timeouts counted (${r.timeouts})`)
  t.ok(r.timeouts <= 6, `at most one per connection per timeout period (${r.timeouts})`)
  t.equal(r.errors, r.timeouts, 'timeouts are errors, and there were no others')
  t.equal(r.requests.total, 0)
  t.ok(r.duration >= 2.4 && r.duration < 4, `the run ended at its duration (${r.duration}s)`)
  t.ok(s.errors.length === r.errors, 'a reqError event for each')
  t.ok(s.errors.every(({ err }) => err instanceof Error && err.code === 'AC_TIMEOUT'), 'AC_TIMEOUT errors')
  t.ok(s.errors[0].at >= 950, `no timeout before the timeout (${s.errors[0].at} ms)`)
  t.ok(s.errors[0].at < 2000, `nor long after it (${s.errors[0].at} ms)`)

  const q = p.result
  t.ok(q.timeouts >= 2 && q.timeouts <= 6, `a server that stalls: timeouts (${q.timeouts})`)
  t.equal(q.errors, q.timeouts)
  t.ok(q['2xx'] > 6, `after a timeout the new connection is answered again (${q['2xx']} responses)`)
  t.ok(stalling.stats.connections > 2, `reconnected after the timeouts (${stalling.stats.connections} connections)`)
})

t.test('refused connections: counted, backed off, the run ends', async (t) => {
  const port = await closedPort()
  const cpu = process.cpuUsage()
  const { result: r, errors } = await withErrors(t, { url: `http://127.0.0.1:${port}`, connections: 10, duration: 1.5 })
  const used = process.cpuUsage(cpu)
  // Back-off from 5 ms doubling to 1 s: about 10 attempts per connection
  // in 1.5 s. Without it there would be thousands.
  t.ok(r.errors >= 20, `each connection's failures counted, retried (${r.errors})`)
  t.ok(r.errors <= 400, `not spun on (${r.errors} attempts)`)
  t.equal(errors.length, r.errors, 'a reqError event for each')
  t.ok(errors.every(({ err }) => err.code === 'ECONNREFUSED'), 'ECONNREFUSED')
  t.equal(r.timeouts, 0)
  t.equal(r.requests.total, 0)
  t.equal(r.requests.sent, r.errors, 'each attempt counts as one request that ended in an error, as in autocannon')
  t.same(r.errorCodes, { ECONNREFUSED: r.errors }, 'by code')
  t.equal(r.errorsByCause.connect, r.errors, 'by cause')
  t.ok(r.duration >= 1.4 && r.duration < 3, `ended at its duration (${r.duration}s)`)
  t.ok((used.user + used.system) / 1e6 < 0.75, `the generator was mostly idle (${(used.user + used.system) / 1000} ms CPU)`)
})

// Each breaks the connection once, in its own way.
const MISBEHAVIOURS = {
  'reset before answering': (socket) => socket.resetAndDestroy(),
  'reset mid-response': (socket) => {
    socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part')
    setImmediate(() => socket.resetAndDestroy())
  },
  'close without answering': (socket) => socket.end(),
  'half the status line, then close': (socket) => socket.end('HTTP/1.1 20'),
  'half the headers, then close': (socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Le'),
  'half a body, then close': (socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part'),
  'half a chunked body, then close': (socket) => socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel'),
  'chunked without its last chunk, then close': (socket) => socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n'),
  garbage: (socket) => socket.write('NOT HTTP AT ALL\r\n\r\n'),
  'a bad status code': (socket) => socket.write('HTTP/1.1 2x0 OK\r\nContent-Length: 2\r\n\r\nok'),
  'a bad Content-Length': (socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: nope\r\n\r\n'),
  'a bad chunk size': (socket) => socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nok\r\n0\r\n\r\n')
}

// What each misbehaviour is counted as: [cause, code]. A reset that comes
// after part of a response reads as the end of the stream on Linux
// (a truncated response) when the bytes were read first, as a reset when not.
const COUNTED_AS = {
  'reset before answering': ['read', 'ECONNRESET'],
  'reset mid-response': ['read', ['HPE_INCOMPLETE', 'ECONNRESET']],
  'close without answering': ['read', 'AC_SOCKET_HANG_UP'],
  'half the status line, then close': ['read', 'HPE_INCOMPLETE'],
  'half the headers, then close': ['read', 'HPE_INCOMPLETE'],
  'half a body, then close': ['read', 'HPE_INCOMPLETE'],
  'half a chunked body, then close': ['read', 'HPE_INCOMPLETE'],
  'chunked without its last chunk, then close': ['read', 'HPE_INCOMPLETE'],
  garbage: ['parse', 'HPE_INVALID_CONSTANT'],
  'a bad status code': ['parse', 'HPE_INVALID_STATUS'],
  'a bad Content-Length': ['parse', 'HPE_INVALID_CONTENT_LENGTH'],
  'a bad chunk size': ['parse', 'HPE_INVALID_CHUNK_SIZE']
}

t.test('misbehaving servers: an error each, counted by cause and code, the amount exact', async (t) => {
  for (const [name, misbehave] of Object.entries(MISBEHAVIOURS)) {
    // Every third request misbehaves: of the 30 requests the amount
    // allows, 10 end in an error and 20 are answered.
    let misbehaved = 0
    const { url, stats } = await rawServer(t, (head, socket) => {
      if (stats.requests % 3 !== 0) return OK
      misbehaved++
      misbehave(socket)
    })
    // POST: a GET on a connection that had answered before is sent again
    // when closed without a byte of answer (next test), a POST is not.
    const { result: r, errors } = await withErrors(t, { url, connections: 2, amount: 30, method: 'POST' })
    const [causes, codes] = COUNTED_AS[name].map((x) => [].concat(x))
    t.equal(misbehaved, 10, `${name}: 10 misbehaved`)
    t.equal(r['2xx'], 20, `${name}: 20 good answers`)
    t.equal(r.requests.total, 20, `${name}: requests.total`)
    t.equal(r.errors, 10, `${name}: an error each`)
    t.equal(causes.reduce((sum, c) => sum + r.errorsByCause[c], 0), 10, `${name}: 10 ${causes.join(' or ')} errors`)
    t.equal(codes.reduce((sum, c) => sum + (r.errorCodes[c] || 0), 0), 10, `${name}: ${codes.join(' or ')}`)
    t.equal(Object.keys(r.errorCodes).length, Object.keys(r.errorCodes).filter((c) => codes.includes(c)).length, `${name}: no other code`)
    t.equal(errors.length, r.errors, `${name}: a reqError each`)
    t.equal(r.timeouts, 0, `${name}: no timeouts`)
    t.equal(r.requests.sent, 30, `${name}: exactly the amount sent`)
    t.equal(stats.requests, 30, `${name}: and received`)
    t.equal(r.requests.inFlight, 0, `${name}: nothing in flight`)
  }
})

t.test('misbehaving pipelined servers: every request in flight on a broken connection is an error', async (t) => {
  for (const name of ['reset mid-response', 'close without answering', 'garbage', 'half a body, then close']) {
    // Every 10th request breaks its connection and the up to 5 requests
    // in flight on it: an error each, reported once per connection.
    let misbehaved = 0
    const { url, stats } = await rawServer(t, (head, socket) => {
      if (socket.broken) return
      if (stats.requests % 10 !== 0) return OK
      misbehaved++
      // The answers to the requests before it in this read go first; the
      // requests after it are left unanswered.
      socket.broken = true
      setImmediate(() => MISBEHAVIOURS[name](socket))
    })
    const { result: r, errors } = await withErrors(t, { url, connections: 2, pipelining: 5, amount: 100, method: 'POST' })
    t.ok(misbehaved >= 1, `${name}: misbehaved ${misbehaved} times`)
    t.equal(errors.length, misbehaved, `${name}: one reqError per broken connection`)
    t.ok(r.errors >= misbehaved, `${name}: at least one error per broken connection (${r.errors})`)
    t.equal(r.requests.total + r.errors, 100, `${name}: every request of the amount ended once (${r.requests.total} + ${r.errors})`)
    t.equal(r.requests.sent, 100, `${name}: sent`)
    t.ok(stats.requests <= 100, `${name}: the server received ${stats.requests}`)
    t.equal(r.requests.inFlight, 0)
    const codes = [].concat(COUNTED_AS[name][1])
    t.equal(codes.reduce((sum, c) => sum + (r.errorCodes[c] || 0), 0), r.errors, `${name}: all ${codes.join(' or ')}`)
  }
})

t.test('a reused connection closed without a byte of answer: idempotent requests go again, counted once', async (t) => {
  for (const pipelining of [1, 5]) {
    // Every 10th request: the connection closes, unannounced.
    let closed = 0
    const { url } = await rawServer(t, (head, socket) => {
      if (socket.broken) return
      if (socket.answered === undefined) socket.answered = 0
      // Only on a connection that has answered (a fresh one is an error:
      // nothing would ever progress).
      if (socket.answered === 0 || Math.random() > 0.1) {
        socket.answered++
        return OK
      }
      closed++
      socket.broken = true
      setImmediate(() => socket.end())
    })
    const { result: r, errors } = await withErrors(t, { url, connections: 2, pipelining, amount: 200 })
    const label = `p${pipelining}`
    t.ok(closed >= 1, `${label}: closed ${closed} times`)
    t.equal(r.errors, 0, `${label}: no errors`)
    t.equal(errors.length, 0, `${label}: nothing reported`)
    t.equal(r.requests.total, 200, `${label}: every request of the amount answered once`)
    t.ok(r.resent >= closed, `${label}: resent ${r.resent} (at least one per close)`)
    t.equal(r.requests.sent, 200, `${label}: counted once`)
  }
})

t.test('a response to no request is reported, and the requests in flight are lost', async (t) => {
  const { url, stats } = await rawServer(t, () => stats.requests === 5 ? OK + OK : OK)
  const { result: r, errors } = await withErrors(t, { url, connections: 1, amount: 20 })
  t.equal(r['2xx'], 20)
  // Nothing was in flight when the second answer came: no request lost.
  t.equal(r.errors, 0, 'no request ended in an error')
  t.equal(errors.length, 1, 'reported once')
  t.equal(errors[0].err.code, 'AC_UNEXPECTED_RESPONSE')
  t.equal(r.requests.sent, stats.requests, 'nothing written to the connection it broke')
})

t.test('a server that answers every request twice: each extra response counted in unexpectedResponses, and warned about once after the run (this thread, workers, the CLI)', async (t) => {
  const { warningLine } = require('../../lib/core/warnings')
  const { run } = require('../helpers/cli')
  // Both answers in one write: the second comes when nothing is in flight.
  const { url, stats } = await rawServer(t, () => OK + OK)
  const warnings = []
  const listener = (w) => { if (w.code === 'AC_RESPONSES_TO_NO_REQUEST') warnings.push(w) }
  process.on('warning', listener)
  t.teardown(() => process.removeListener('warning', listener))
  for (const workers of [undefined, 2]) {
    warnings.length = 0
    const before = stats.connections
    const r = await autocannon({ url, connections: 2, amount: 40, workers })
    await new Promise((resolve) => setImmediate(resolve))
    const label = workers ? '2 workers' : 'this thread'
    t.equal(r['2xx'], 40, `${label}: every request answered`)
    // Each extra response closed its connection: one per connection
    // opened, but for those still open when the run ended (at most the two
    // connections), whose last extra response may come after the end.
    const opened = stats.connections - before
    t.ok(r.unexpectedResponses <= opened && r.unexpectedResponses >= opened - 2, `${label}: counted, one per connection it closed (${r.unexpectedResponses} of ${opened} connections)`)
    t.ok(r.unexpectedResponses >= 38, `${label}: one per request, but the last two at most (${r.unexpectedResponses})`)
    t.equal(r.errors, 0, `${label}: no request lost`)
    t.equal(warnings.length, 1, `${label}: warned once`)
    t.match(warnings[0].message, new RegExp(`^the server sent ${r.unexpectedResponses} responses to no request \\(does it answer some requests twice\\?\\)`), label)
  }

  const fine = await rawServer(t, () => OK)
  warnings.length = 0
  const clean = await autocannon({ url: fine.url, connections: 2, amount: 40 })
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(clean.unexpectedResponses, 0, 'a server that answers once: none')
  t.equal(warnings.length, 0, 'and no warning')

  const cli = await run(['-c', '1', '-a', '20', url])
  t.equal(cli.code, 0, cli.stderr)
  const lines = cli.stderr.trim().split('\n')
  t.match(lines[lines.length - 1], /^.*warning: the server sent \d+ responses? to no request/, 'the last line, after the tables')
  t.equal(lines.filter((l) => /responses? to no request/.test(l)).length, 1, 'once')
  t.equal(lines[lines.length - 1], warningLine({ code: 'AC_RESPONSES_TO_NO_REQUEST', message: lines[lines.length - 1].replace(/^.*?warning: /, '') }))
})

t.test('bailout stops the run after that many errors, or mismatches', async (t) => {
  const garbage = await rawServer(t, () => 'GARBAGE\r\n\r\n')
  const r = await bench(t, { url: garbage.url, connections: 1, bailout: 5, duration: 2 })
  t.ok(r.errors >= 5 && r.errors <= 6, `stopped at ${r.errors} errors`)
  t.ok(r.duration < 1, `long before the duration (${r.duration}s)`)

  const wrong = await rawServer(t, () => OK)
  const m = await bench(t, { url: wrong.url, connections: 1, bailout: 3, expectBody: 'something else', duration: 2 })
  t.ok(m.mismatches >= 3 && m.mismatches <= 10, `stopped at ${m.mismatches} mismatches`)
  t.equal(m.errors, 0)
  t.ok(m.duration < 1, `long before the duration (${m.duration}s)`)

  const fine = await rawServer(t, () => OK)
  const f = await bench(t, { url: fine.url, connections: 1, bailout: 1, amount: 50 })
  t.equal(f.requests.total, 50, 'no errors: no bailout')
})

t.test('a server that goes away mid-run: errors, backed off, the run ends', async (t) => {
  const { url, close } = await rawServer(t, () => OK)
  const instance = autocannon({ url, connections: 4, duration: 1.5, overallRate: 400 })
  setTimeout(close, 500)
  const r = await instance
  t.ok(r['2xx'] > 50, `answered while it was up (${r['2xx']})`)
  t.ok(r.errors >= 4, `then each connection failed (${r.errors} errors)`)
  t.ok(r.errors <= 200, `and backed off (${r.errors} errors)`)
  t.ok(r.duration >= 1.4 && r.duration < 3, `the run ended at its duration (${r.duration}s)`)
})
