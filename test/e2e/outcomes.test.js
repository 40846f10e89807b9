'use strict'

// Every request started ends once: requests.sent = requests.total + errors
// + requests.inFlight, exactly, for every kind of run, against a server
// that answers most requests, resets some connections, garbles some and
// leaves some unanswered.

const t = require('tap')
const autocannon = require('../..')
const { rawServer, bench } = require('../helpers/raw-server')

const OK = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'

function flaky (t) {
  return rawServer(t, (head, socket, stats) => {
    if (socket.broken) return
    const n = stats.requests
    if (n % 17 === 0) {
      socket.broken = true
      setImmediate(() => socket.resetAndDestroy())
      return
    }
    if (n % 29 === 0) {
      socket.broken = true
      return 'NOT HTTP\r\n\r\n'
    }
    // Unanswered: the connection times out (timeout: 1 below).
    if (n % 97 === 0) {
      socket.broken = true
      return
    }
    return OK
  })
}

function invariant (t, r, label) {
  t.equal(r.requests.sent, r.requests.total + r.errors + r.requests.inFlight,
    `${label}: sent ${r.requests.sent} = total ${r.requests.total} + errors ${r.errors} + inFlight ${r.requests.inFlight}`)
  const byCause = Object.values(r.errorsByCause).reduce((a, b) => a + b, 0)
  const byCode = Object.values(r.errorCodes).reduce((a, b) => a + b, 0)
  t.equal(byCause, r.errors, `${label}: errorsByCause adds up`)
  t.equal(byCode, r.errors, `${label}: errorCodes add up`)
  t.equal(r.timeouts, r.errorsByCause.timeout, `${label}: timeouts are the timeout cause`)
  t.equal(r.requests.total, r['1xx'] + r['2xx'] + r['3xx'] + r['4xx'] + r['5xx'], `${label}: every response has a status class`)
}

const SHAPES = {
  'plain amount': { connections: 4, amount: 400 },
  'pipelined amount': { connections: 4, pipelining: 10, amount: 600 },
  'workers amount': { connections: 4, workers: 2, amount: 401 },
  'workers pipelined duration': { connections: 4, workers: 2, pipelining: 5, duration: 1.5 },
  'rate duration': { connections: 4, overallRate: 400, duration: 1.5 },
  'rate amount': { connections: 4, connectionRate: 100, pipelining: 3, amount: 300 },
  'duration, stopped mid-flight': { connections: 4, pipelining: 10, duration: 1.5 }
}

t.test('sent = total + errors + inFlight, whatever the run', async (t) => {
  const server = await flaky(t)
  for (const [label, shape] of Object.entries(SHAPES)) {
    const r = await bench(t, { url: server.url, timeout: 1, ...shape }, 20000)
    invariant(t, r, label)
    t.ok(r.errors > 0, `${label}: the server did misbehave (${JSON.stringify(r.errorCodes)})`)
    if (shape.amount) {
      t.equal(r.requests.sent, shape.amount, `${label}: exactly the amount started`)
      t.equal(r.requests.inFlight, 0, `${label}: and all of them ended`)
    }
  }
})

t.test('hooks: a setupRequest that fails (sync or async) is a started request that ended in an error', async (t) => {
  const server = await flaky(t)
  let n = 0
  const r = await bench(t, {
    url: server.url,
    timeout: 1,
    connections: 3,
    pipelining: 4,
    amount: 300,
    requests: [
      { path: '/a' },
      {
        path: '/b',
        setupRequest: (req) => {
          n++
          if (n % 11 === 0) throw new Error('sync failure')
          if (n % 13 === 0) return Promise.reject(new Error('async failure'))
          if (n % 2 === 0) return Promise.resolve(req)
          return req
        }
      }
    ]
  }, 20000)
  invariant(t, r, 'hooks')
  t.equal(r.requests.sent, 300)
  t.ok(r.errorsByCause.hook > 0, `hook errors counted (${r.errorsByCause.hook})`)
  t.equal(r.errorCodes.AC_HOOK_ERROR, r.errorsByCause.hook)
})

t.test('stopped while requests are in flight: they are counted as such', async (t) => {
  const { url } = await rawServer(t, () => undefined) // never answers
  const instance = autocannon({ url, connections: 3, pipelining: 4, duration: 10 })
  setTimeout(() => instance.stop(), 300)
  const r = await instance
  invariant(t, r, 'stopped')
  t.equal(r.requests.inFlight, 12, 'all 12 in flight')
  t.equal(r.requests.sent, 12)
  t.equal(r.errors, 0)
})

t.test('a server that never answers: timeouts, each request in flight counted', async (t) => {
  const { url } = await rawServer(t, () => undefined)
  const r = await bench(t, { url, connections: 2, pipelining: 5, timeout: 0.5, amount: 30 })
  invariant(t, r, 'silent')
  t.equal(r.requests.sent, 30)
  t.equal(r.errors, 30)
  t.equal(r.timeouts, 30, 'all timed out')
  t.same(r.errorCodes, { AC_TIMEOUT: 30 })
})
