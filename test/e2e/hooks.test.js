'use strict'

// setupClient and the Client API, client events, and hooks that fail.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const autocannon = require('../..')
const { recordingServer, tempDir } = require('../helpers/recording')

// Captures what the process writes to stderr while fn runs.
async function captureStderr (fn) {
  const write = process.stderr.write
  let out = ''
  process.stderr.write = (chunk, ...rest) => {
    out += chunk
    return true
  }
  try {
    const value = await fn()
    return { value, stderr: out }
  } finally {
    process.stderr.write = write
  }
}

t.test('setupClient: per-connection headers and body', async (t) => {
  const { url, seen } = await recordingServer(t)
  let n = 0
  const result = await autocannon({
    url,
    connections: 4,
    amount: 80,
    method: 'POST',
    headers: { 'x-run': 'yes' },
    setupClient: (client) => {
      const id = n++
      client.setHeaders({ 'x-connection': String(id) })
      client.setBody(`connection ${id}`)
    }
  })
  t.equal(result.requests.total, 80)
  t.equal(n, 4, 'called once per connection')
  const byConn = new Map()
  for (const r of seen) {
    const id = r.headers['x-connection']
    if (!byConn.has(r.socket)) byConn.set(r.socket, new Set())
    byConn.get(r.socket).add(id)
    if (r.body.toString() !== `connection ${id}`) t.fail(`body follows the connection's headers: ${id} ${r.body}`)
    if (r.headers['x-run'] !== 'yes') t.fail('the run\'s headers still apply')
  }
  t.equal(byConn.size, 4)
  t.same([...byConn.values()].map((s) => s.size), [1, 1, 1, 1], 'each connection kept its own headers')
  t.same(new Set(seen.map((r) => r.headers['x-connection'])), new Set(['0', '1', '2', '3']))
})

t.test('Client API: setHeadersAndBody, setRequest, setRequests, changed while running', async (t) => {
  const { url, seen } = await recordingServer(t)
  let responses = 0
  await autocannon({
    url,
    connections: 1,
    amount: 12,
    setupClient: (client) => {
      client.setHeadersAndBody({ 'x-step': 'a' }, 'body a')
      client.on('response', () => {
        responses++
        if (responses === 3) client.setRequest({ method: 'PUT', path: '/put', body: 'put body' })
        if (responses === 6) {
          client.setRequests([{ path: '/r1' }, { path: '/r2', method: 'DELETE', headers: { 'x-step': 'r2' } }])
        }
        // /r2 was just answered: change it for its next turns.
        if (responses === 8) client.setHeaders({ 'x-step': 'changed' })
      })
    }
  })
  const got = seen.map((r) => [r.method, r.url, r.headers['x-step'] || null, r.body.toString()])
  t.same(got.slice(0, 3), [['GET', '/', 'a', 'body a'], ['GET', '/', 'a', 'body a'], ['GET', '/', 'a', 'body a']])
  t.same(got.slice(3, 6), [['PUT', '/put', null, 'put body'], ['PUT', '/put', null, 'put body'], ['PUT', '/put', null, 'put body']],
    'setRequest replaces the request: what it leaves out comes from the run options')
  t.same(got.slice(6, 8), [['GET', '/r1', null, ''], ['DELETE', '/r2', 'r2', '']], 'setRequests replaced the sequence')
  t.same(got.slice(8, 12), [['GET', '/r1', null, ''], ['DELETE', '/r2', 'changed', ''], ['GET', '/r1', null, ''], ['DELETE', '/r2', 'changed', '']],
    'setHeaders changed the request the client was on (the last one sent)')
  t.equal(seen.length, 12)
})

t.test('client events: headers, body, response, reset', async (t) => {
  const { url } = await recordingServer(t, (r, res) => {
    res.setHeader('X-Echo', r.url)
    res.end('body of ' + r.url)
  })
  const events = { headers: [], body: [], response: [], reset: 0 }
  let calls = 0
  const instanceResponses = []
  const instance = autocannon({
    url,
    connections: 1,
    amount: 6,
    requests: [{ path: '/one' }, { path: '/two', setupRequest: (req) => (++calls === 2 ? null : req) }],
    setupClient: (client) => {
      client.on('headers', (h) => events.headers.push(h['X-Echo']))
      client.on('body', (b) => events.body.push(b.toString()))
      client.on('response', (status, bytes, time) => events.response.push([status, typeof bytes, typeof time]))
      client.on('reset', () => events.reset++)
    }
  })
  instance.on('response', (client, status, bytes, time) => instanceResponses.push([typeof client.setHeaders, status, bytes > 0, time >= 0]))
  const result = await instance
  t.same(events.headers, ['/one', '/two', '/one', '/one', '/two', '/one'])
  t.same(events.body, events.headers.map((p) => 'body of ' + p))
  t.equal(events.response.length, 6)
  t.same(events.response[0], [200, 'number', 'number'])
  t.equal(events.reset, 1)
  t.equal(result.resets, 1)
  t.same(instanceResponses[0], ['function', 200, true, true], "the instance's 'response' event passes the client")
})

t.test("client 'response' listeners added and removed while running: each gets what came while it listened", async (t) => {
  const { url } = await recordingServer(t, (r, res) => res.end('ok'))
  const seen = { first: 0, once: 0, later: 0 }
  const instance = autocannon({
    url,
    connections: 1,
    amount: 10,
    setupClient: (client) => {
      const first = () => {
        // Off after three responses; another joins at the fifth.
        if (++seen.first === 3) client.off('response', first)
      }
      client.on('response', first)
      client.once('response', () => seen.once++)
      client.on('reset', () => {})
      let count = 0
      const counter = () => {
        if (++count === 5) client.on('response', () => seen.later++)
      }
      client.on('response', counter)
      // removeAllListeners('response') after the eighth: none after it.
      client.on('response', () => {
        if (count === 8) client.removeAllListeners('response')
      })
    }
  })
  await instance
  t.same(seen, { first: 3, once: 1, later: 3 }, 'later: the sixth, seventh and eighth responses')
})

t.test('a setupRequest that throws during the run: counted, reported once, the run finishes', async (t) => {
  const { url, seen } = await recordingServer(t)
  let calls = 0
  const errors = []
  const instance = autocannon({
    url,
    connections: 2,
    amount: 40,
    requests: [
      { path: '/ok' },
      {
        path: '/flaky',
        setupRequest: (req) => {
          if (++calls % 2 === 0) throw new Error('cannot build it')
          return req
        }
      }
    ]
  })
  instance.on('reqError', (err) => errors.push(err))
  const result = await instance
  t.ok(result.errors > 0, `errors counted (${result.errors})`)
  t.equal(errors.length, 1, 'reported once')
  t.match(errors[0].message, /requests\[1\]\.setupRequest threw: cannot build it/)
  t.equal(errors[0].code, 'AC_HOOK_ERROR')
  t.equal(result.requests.total + result.errors, 40, 'the run finished its amount')
  t.equal(result.requests.sent, 40, 'a request whose hook threw was started, and ended in an error')
  t.same(result.errorCodes, { AC_HOOK_ERROR: result.errors }, 'by code')
  t.equal(result.errorsByCause.hook, result.errors, 'by cause')
  t.equal(seen.length, result.requests.total)
})

t.test('a hook that always throws still lets a run finish, and says so once on stderr', async (t) => {
  const { url } = await recordingServer(t)
  const { value: result, stderr } = await captureStderr(() => autocannon({
    url,
    connections: 2,
    duration: 0.3,
    requests: [{ setupRequest: () => { throw new Error('always') } }]
  }))
  t.ok(result.errors > 0)
  t.equal(result.requests.total, 0)
  const lines = stderr.split('\n').filter((l) => l.includes('always'))
  t.equal(lines.length, 1, 'one line on stderr when nobody listens for reqError')
  t.match(lines[0], /requests\[0\]\.setupRequest threw: always/)
})

t.test('onResponse and verifyBody that throw are named, counted as mismatches, reported once', async (t) => {
  const { url } = await recordingServer(t)
  const errors = []
  const instance = autocannon({
    url,
    connections: 1,
    amount: 5,
    requests: [{ onResponse: () => { throw new Error('bad parse') } }]
  })
  instance.on('reqError', (err) => errors.push(err))
  const result = await instance
  t.equal(result.requests.total, 5, 'the responses still count')
  // The request ended in a response; its check failed.
  t.equal(result.errors, 0, 'not request errors')
  t.equal(result.mismatches, 5, 'a mismatch each')
  t.equal(result.requests.sent, result.requests.total + result.errors + result.requests.inFlight, 'every request ended once')
  t.equal(errors.length, 1)
  t.match(errors[0].message, /requests\[0\]\.onResponse threw: bad parse/)

  const errors2 = []
  const instance2 = autocannon({ url, connections: 1, amount: 3, verifyBody: () => { throw new Error('oops') } })
  instance2.on('reqError', (err) => errors2.push(err))
  const result2 = await instance2
  t.equal(result2.errors, 0)
  t.equal(result2.mismatches, 3)
  t.equal(errors2.length, 1, 'reported once')
  t.match(errors2[0].message, /verifyBody threw: oops/)

  // A response that fails verifyBody and whose onResponse throws is one mismatch.
  const result3 = await autocannon({
    url,
    connections: 1,
    amount: 4,
    verifyBody: () => false,
    requests: [{ onResponse: () => { throw new Error('also bad') } }]
  }).on('reqError', () => {})
  t.equal(result3.mismatches, 4, 'one mismatch per response')
})

t.test('hooks as files: relative to the working directory, and named when they fail to load', async (t) => {
  const { url, seen } = await recordingServer(t)
  const dir = tempDir(t)
  fs.writeFileSync(path.join(dir, 'setup.js'), "module.exports = (req, context) => ({ ...req, path: '/from-file/' + (context.n = (context.n || 0) + 1) })\n")
  fs.writeFileSync(path.join(dir, 'on-response.js'), 'module.exports = (status, body, context) => { context.status = status }\n')
  fs.writeFileSync(path.join(dir, 'broken.js'), 'module.exports = 42\n')
  const cwd = process.cwd()
  process.chdir(dir)
  t.teardown(() => process.chdir(cwd))
  const result = await autocannon({ url, connections: 1, amount: 3, requests: [{ setupRequest: './setup.js', onResponse: './on-response.js' }] })
  t.equal(result.errors, 0)
  t.same(seen.map((r) => r.url), ['/from-file/1', '/from-file/1', '/from-file/1'], 'context is fresh each round')

  await t.rejects(autocannon({ url, requests: [{}, { setupRequest: './missing.js' }] }), /requests\[1\]\.setupRequest.*missing\.js/)
  await t.rejects(autocannon({ url, requests: [{ onResponse: './broken.js' }] }), /requests\[0\]\.onResponse.*broken\.js.*does not export a function/)
  await t.rejects(autocannon({ url, setupClient: './missing-client.js' }), /setupClient.*missing-client\.js/)
})

t.test('hook files fail with their file name when they throw', async (t) => {
  const { url } = await recordingServer(t)
  const dir = tempDir(t)
  const file = path.join(dir, 'throws.js')
  fs.writeFileSync(file, "module.exports = () => { throw new Error('from the file') }\n")
  const errors = []
  const instance = autocannon({ url, connections: 1, amount: 2, requests: [{ setupRequest: file }] })
  instance.on('reqError', (err) => errors.push(err))
  await instance
  t.equal(errors.length, 1)
  t.match(errors[0].message, `requests[0].setupRequest (${file}) threw: from the file`)
})

t.test('a setupRequest returning something that is not a request is a clear error', async (t) => {
  const { url } = await recordingServer(t)
  const errors = []
  const instance = autocannon({ url, connections: 1, amount: 2, requests: [{ setupRequest: () => ({ path: 'no spaces allowed' }) }] })
  instance.on('reqError', (err) => errors.push(err))
  const result = await instance
  t.equal(result.errors, 2)
  t.match(errors[0].message, /requests\[0\]\.setupRequest returned a request that cannot be sent/)
})

t.test('request hooks as files run inside workers, with their context', async (t) => {
  const { url, seen } = await recordingServer(t, (r, res) => res.end(r.url === '/login' ? 'token-' + seen.length : 'ok'))
  const dir = tempDir(t)
  const onResponse = path.join(dir, 'on-response.js')
  const setupRequest = path.join(dir, 'setup-request.js')
  fs.writeFileSync(onResponse, 'module.exports = (status, body, context) => { context.token = body }\n')
  fs.writeFileSync(setupRequest, 'module.exports = (req, context) => ({ ...req, headers: { ...req.headers, authorization: context.token } })\n')
  const result = await autocannon({
    url,
    workers: 2,
    connections: 2,
    amount: 20,
    requests: [{ path: '/login', onResponse }, { path: '/data', setupRequest }]
  })
  t.equal(result.errors, 0)
  t.equal(result.requests.total, 20)
  const data = seen.filter((r) => r.url === '/data')
  t.equal(data.length, 10)
  t.ok(data.every((r) => /^token-\d+$/.test(r.headers.authorization)), 'each /data carried the token its login returned')
})
