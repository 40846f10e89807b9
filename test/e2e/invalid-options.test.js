'use strict'

// Option validation through the library: a bad option never starts a run;
// the promise rejects (the callback gets the same Error; a forever run,
// which has no promise, emits it as 'error') with code AC_INVALID_OPTION,
// err.option, and a message that names the option and the value as given.

const t = require('tap')
const autocannon = require('../..')

const url = 'http://127.0.0.1:1'

// [options, option named, the value as the message shows it]
const INVALID = [
  [{ url, connections: -1 }, 'connections', '-1'],
  [{ url, connections: 0 }, 'connections', '0'],
  [{ url, connections: 1.5 }, 'connections', '1.5'],
  [{ url, connections: 'x' }, 'connections', '"x"'],
  [{ url, connections: '' }, 'connections', '""'],
  [{ url, connections: NaN }, 'connections', 'NaN'],
  [{ url, duration: 'soon' }, 'duration', '"soon"'],
  [{ url, duration: '10 parsecs' }, 'duration', '"10 parsecs"'],
  [{ url, duration: -1 }, 'duration', '-1'],
  [{ url, duration: Infinity }, 'duration', 'Infinity'],
  [{ url, duration: {} }, 'duration', '{}'],
  [{ url: 'http://' }, 'url', '"http://"'],
  [{ url: 'http://exa mple.com/' }, 'url', '"http://exa mple.com/"'],
  [{ url: 'ftp://127.0.0.1/' }, 'url', '"ftp://127.0.0.1/"', /unsupported protocol "ftp:"/],
  [{ url: 'ws://127.0.0.1/' }, 'url', '"ws://127.0.0.1/"', /unsupported protocol "ws:"/],
  [{ url: '' }, 'url', '""'],
  [{ url: 5 }, 'url', '5'],
  [{ url: [url, 'ftp://x/'] }, 'url', '"ftp://x/"'],
  [{}, 'url', 'undefined', /required/],
  [{ url, pipelining: 0 }, 'pipelining', '0'],
  [{ url, pipelining: 2.5 }, 'pipelining', '2.5'],
  [{ url, amount: -3 }, 'amount', '-3'],
  [{ url, amount: 2.5 }, 'amount', '2.5'],
  [{ url, timeout: 0 }, 'timeout', '0'],
  [{ url, timeout: 'x' }, 'timeout', '"x"'],
  [{ url, sampleInt: 0 }, 'sampleInt', '0'],
  [{ url, bailout: -1 }, 'bailout', '-1'],
  [{ url, maxConnectionRequests: 1.5 }, 'maxConnectionRequests', '1.5'],
  [{ url, maxOverallRequests: -1 }, 'maxOverallRequests', '-1'],
  [{ url, reconnectRate: -1 }, 'reconnectRate', '-1'],
  [{ url, connectionRate: -5 }, 'connectionRate', '-5'],
  [{ url, overallRate: 'fast' }, 'overallRate', '"fast"'],
  [{ url, workers: -1 }, 'workers', '-1'],
  [{ url, method: 'GE T' }, 'method', '"GE T"'],
  [{ url, headers: 'x' }, 'headers', '"x"'],
  // Before the run, not at the first request; the value never shown.
  [{ url, headers: { 'x-a': 'b\r\nx-b: c' } }, 'headers', '"x-a"', /header value must not contain CR, LF/],
  [{ url, headers: { x: { a: 1 } } }, 'headers', '"x"', /not an object, which would be sent as \[object Object\]/],
  [{ url, headers: { 'bad name': 'v' } }, 'headers', '"bad name"', /not a valid header name/],
  [{ url, requests: [{ headers: { x: ['ok', {}] } }] }, 'requests[0].headers', '"x"', /\[object Object\]/],
  [{ url, requests: [{ method: 'GE T' }] }, 'requests[0].method', '"GE T"', /an HTTP method/],
  [{ url, body: 5 }, 'body', '5'],
  [{ url, socketPath: '' }, 'socketPath', '""'],
  [{ url, expectBody: 5 }, 'expectBody', '5'],
  [{ url, setupClient: 5 }, 'setupClient', '5'],
  [{ url, verifyBody: 1 }, 'verifyBody', '1'],
  [{ url, requests: [] }, 'requests', '[]'],
  [{ url, requests: [{ method: 'GET' }, 5] }, 'requests[1]', '5'],
  [{ url, requests: [{ method: 5 }] }, 'requests[0].method', '5'],
  [{ url, initialContext: 5 }, 'initialContext', '5'],
  [{ url, servername: 5 }, 'servername', '5'],
  [{ url, tlsOptions: 5 }, 'tlsOptions', '5'],
  [{ url, ignoreCoordinatedOmission: true }, 'ignoreCoordinatedOmission', 'true', /overallRate \(-R\), connectionRate \(-r\) or stages/],
  [{ url, forever: true, workers: 2 }, 'forever', 'true', /workers/],
  [{ url, workers: 2, setupClient: () => {} }, 'setupClient', 'a function', /file path/]
]

function escape (s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

t.test('invalid options reject with the option and the value named', async (t) => {
  for (const [opts, option, shown, extra] of INVALID) {
    const label = `${option}: ${shown}`
    let instance
    t.doesNotThrow(() => { instance = autocannon(opts) }, `${label}: not thrown at the call`)
    const err = typeof instance.then === 'function'
      ? await instance.then(() => null, (e) => e)
      : await new Promise((resolve) => instance.once('error', resolve))
    if (!t.ok(err instanceof Error, `${label}: rejects with an Error`)) continue
    t.equal(err.code, 'AC_INVALID_OPTION', `${label}: code`)
    t.equal(err.option, option, `${label}: err.option`)
    // autocannon's message where it has one (test/e2e/upstream-messages.test.js),
    // ours in err.detail; else ours is the message.
    const ours = err.upstream ? `invalid option "${option}": ${err.detail}` : err.message
    t.match(ours, new RegExp(`"${escape(option)}": ${escape(shown)} `), `${label}: message ${JSON.stringify(err.message)}, detail ${JSON.stringify(err.detail)}`)
    if (extra) t.match(ours, extra, `${label}: says why`)
  }
})

t.test('the callback gets the error before autocannon() returns, as autocannon\'s; no error event, no run', async (t) => {
  let viaCallback = null
  let returned = false
  const instance = autocannon({ url, connections: -1 }, (err, result) => {
    t.ok(err instanceof Error, 'callback(err)')
    t.equal(result, undefined, 'no result')
    t.equal(err.code, 'AC_INVALID_OPTION')
    t.equal(returned, false, 'called before autocannon() returned')
    viaCallback = err
  })
  returned = true
  t.ok(viaCallback, 'the callback had it')
  let viaEvent = null
  let started = false
  instance.on('error', (err) => { viaEvent = err })
  instance.on('start', () => { started = true })
  t.equal(typeof instance.then, 'undefined', 'with a callback, not awaitable')
  await new Promise((resolve) => setTimeout(resolve, 20))
  t.equal(viaEvent, null, 'no error event')
  t.equal(started, false, 'no start event')

  // Without a callback: the promise rejects, and no error event either.
  const awaited = autocannon({ url, connections: -1 })
  let heard = null
  awaited.on('error', (err) => { heard = err })
  const rejected = await awaited.catch((e) => e)
  t.equal(rejected.code, 'AC_INVALID_OPTION', 'the promise rejects')
  await new Promise((resolve) => setTimeout(resolve, 20))
  t.equal(heard, null, 'no error event')

  // forever without a callback has neither: the error event, a turn later.
  const forever = autocannon({ url, connections: -1, forever: true })
  t.equal(typeof forever.then, 'undefined', 'forever: not awaitable')
  const emitted = await new Promise((resolve) => forever.on('error', resolve))
  t.equal(emitted.code, 'AC_INVALID_OPTION', 'forever: the error event')
})

t.test('numbers as strings, timestrings and a URL without a scheme are accepted', async (t) => {
  const cases = [
    [{ url, connections: '5' }, (o) => o.connections === 5],
    [{ url, pipelining: ' 3 ' }, (o) => o.pipelining === 3],
    [{ url, duration: '2m' }, (o) => o.duration === 120],
    [{ url, duration: '1.5' }, (o) => o.duration === 1.5],
    [{ url, duration: '1m30s' }, (o) => o.duration === 90],
    [{ url, duration: 0, amount: 5, connections: 5 }, (o) => o.duration === 0 && o.amount === 5],
    [{ url, timeout: 0.5 }, (o) => o.timeout === 0.5],
    [{ url, amount: 0 }, (o) => o.amount === 0],
    [{ url: '127.0.0.1:1/path' }, (o) => o.url === 'http://127.0.0.1:1/path']
  ]
  for (const [opts, check] of cases) {
    const instance = autocannon(opts)
    instance.stop()
    t.ok(instance.opts && check(instance.opts), `${JSON.stringify(opts)} → ${JSON.stringify(instance.opts && { ...instance.opts, urls: undefined })}`)
    const result = await instance
    t.type(result, 'object', 'a result, stopped before it began')
  }
})

t.test('header values autocannon sends as text are accepted and sent so: numbers, booleans, URLs, lists', async (t) => {
  const http = require('http')
  const seen = []
  const server = http.createServer((req, res) => {
    seen.push(req.headers)
    res.end('ok')
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const result = await autocannon({
    url: `http://127.0.0.1:${server.address().port}/`,
    connections: 1,
    amount: 2,
    headers: { 'x-n': 5, 'x-b': false, 'x-u': new URL('http://a.test/p'), 'x-l': ['a', 2], 'x-none': null }
  })
  t.equal(result['2xx'], 2)
  t.same(seen.map((h) => [h['x-n'], h['x-b'], h['x-u'], h['x-l'], h['x-none']]), [0, 1].map(() => ['5', 'false', 'http://a.test/p', 'a, 2', undefined]))
})
