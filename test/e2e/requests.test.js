'use strict'

// requests: sequences with context, setupRequest (sync and async), resets,
// static entries, idReplacement, several URLs.

const t = require('tap')
const autocannon = require('../..')
const { recordingServer, jsonResult } = require('../helpers/recording')
const { run: runCli } = require('../helpers/cli')

// Groups what a server saw by connection, in arrival order.
function byConnection (seen) {
  const map = new Map()
  for (const r of seen) {
    if (!map.has(r.socket)) map.set(r.socket, [])
    map.get(r.socket).push(r)
  }
  return [...map.values()]
}

t.test('login -> token -> authorised GET: context carried between steps, reset each round', async (t) => {
  let logins = 0
  const { url, seen } = await recordingServer(t, (r, res) => {
    if (r.url === '/login') return res.end(JSON.stringify({ token: `t${++logins}` }))
    if (r.headers.authorization && r.headers.authorization.startsWith('Bearer t')) return res.end('{"items":[1,2,3]}')
    res.statusCode = 401
    res.end()
  })
  const contextsAtLogin = []
  const initialContext = { user: { name: 'jane' }, visits: [] }
  const result = await autocannon({
    url,
    connections: 2,
    amount: 60,
    initialContext,
    requests: [
      {
        method: 'POST',
        path: '/login',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: 'jane', password: 'secret' }),
        setupRequest: (req, context) => {
          contextsAtLogin.push(JSON.parse(JSON.stringify(context)))
          context.visits.push('login')
          return req
        },
        onResponse: (status, body, context) => {
          context.token = JSON.parse(body).token
        }
      },
      {
        path: '/me',
        setupRequest: (req, context) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${context.token}` } })
      },
      {
        path: '/items',
        setupRequest: (req, context) => {
          context.visits.push('items')
          return { ...req, headers: { ...req.headers, authorization: `Bearer ${context.token}` } }
        },
        onResponse: (status, body, context) => {
          context.itemCount = JSON.parse(body).items.length
        }
      }
    ]
  })
  t.equal(result.requests.total, 60)
  t.equal(result.errors, 0)
  t.equal(result['2xx'], 60, 'every authorised GET was accepted')
  t.equal(result.resets, 0)
  t.equal(logins, 20, 'one login per round')

  const rounds = []
  for (const conn of byConnection(seen)) {
    t.equal(conn.length % 3, 0, 'whole rounds on each connection')
    for (let i = 0; i + 2 < conn.length; i += 3) {
      const [login, me, items] = conn.slice(i, i + 3)
      rounds.push([login.method, login.url, login.body.toString(), login.headers['content-type'],
        me.url, items.url, /^Bearer t\d+$/.test(me.headers.authorization), items.headers.authorization === me.headers.authorization])
    }
  }
  t.equal(rounds.length, 20)
  t.same(new Set(rounds.map((r) => JSON.stringify(r))), new Set([JSON.stringify(['POST', '/login', '{"user":"jane","password":"secret"}', 'application/json', '/me', '/items', true, true])]),
    'every round: login with its body, then /me and /items with the token that login returned')
  // Every round starts from a fresh copy of initialContext.
  t.equal(contextsAtLogin.length, 20)
  for (const ctx of contextsAtLogin) t.same(ctx, { user: { name: 'jane' }, visits: [] })
  t.same(initialContext, { user: { name: 'jane' }, visits: [] }, 'initialContext itself is never touched')
  const tokens = new Set(seen.filter((r) => r.url === '/me').map((r) => r.headers.authorization))
  t.equal(tokens.size, 20, 'each round used the token of its own login')
})

t.test('a falsy setupRequest restarts the sequence and counts a reset', async (t) => {
  const { url, seen } = await recordingServer(t)
  let calls = 0
  let refused = 0
  let resetEvents = 0
  const result = await autocannon({
    url,
    connections: 1,
    amount: 40,
    setupClient: (client) => client.on('reset', () => resetEvents++),
    requests: [
      { path: '/first' },
      {
        path: '/second',
        setupRequest: (req) => {
          // Every other time: start over.
          if (++calls % 2 === 0) {
            refused++
            return null
          }
          return req
        }
      },
      { path: '/third' }
    ]
  })
  t.equal(result.requests.total, 40)
  t.equal(result.errors, 0)
  t.ok(refused > 0)
  t.equal(result.resets, refused, 'each refusal is one reset')
  t.equal(resetEvents, refused, "and one 'reset' event on the client")
  // After a refusal the next request is the first entry again.
  const paths = seen.map((r) => r.url)
  for (let i = 0; i < paths.length; i++) {
    if (paths[i] === '/first' && i > 0) t.ok(paths[i - 1] === '/third' || paths[i - 1] === '/first', `order ${paths[i - 1]} -> /first`)
    if (paths[i] === '/third') t.equal(paths[i - 1], '/second')
  }
  t.ok(paths.filter((p) => p === '/first').length > paths.filter((p) => p === '/third').length, 'rounds were cut short')
})

t.test('a falsy setupRequest on the first entry is a hook error, reported once, and the run ends', async (t) => {
  const { url, seen } = await recordingServer(t)
  const errors = []
  const instance = autocannon({
    url,
    connections: 2,
    amount: 10,
    requests: [{ setupRequest: () => null }]
  })
  instance.on('reqError', (err) => errors.push(err))
  const result = await instance
  t.equal(seen.length, 0, 'nothing could be sent')
  t.equal(result.errors, 10, 'each attempt counted')
  t.equal(errors.length, 1, 'reported once')
  t.match(errors[0].message, /requests\[0\]\.setupRequest returned no request/)
})

t.test('setupRequest may return a promise', async (t) => {
  const { url, seen } = await recordingServer(t)
  let n = 0
  const result = await autocannon({
    url,
    connections: 3,
    pipelining: 2,
    amount: 60,
    requests: [
      { method: 'POST', path: '/sync', body: 'static' },
      {
        method: 'PUT',
        setupRequest: async (req, context) => {
          await new Promise((resolve) => setTimeout(resolve, 1))
          return { ...req, path: `/async/${++n}`, body: JSON.stringify({ n }) }
        }
      }
    ]
  })
  t.equal(result.requests.total, 60)
  t.equal(result.errors, 0)
  t.equal(seen.length, 60)
  const asyncOnes = seen.filter((r) => r.url.startsWith('/async/'))
  t.ok(asyncOnes.length >= 28, `about half of them built by the promise (${asyncOnes.length})`)
  t.ok(asyncOnes.every((r) => r.method === 'PUT' && r.url === `/async/${JSON.parse(r.body).n}`), 'the body built by the promise went with its path')
  for (const conn of byConnection(seen)) {
    t.ok(conn.every((r, i) => r.url.startsWith('/async/') === (i % 2 === 1)), 'the order of the sequence is kept on each connection')
  }
})

t.test('async setupRequest: null resets, a rejection is a hook error', async (t) => {
  const { url, seen } = await recordingServer(t)
  let k = 0
  const errors = []
  const instance = autocannon({
    url,
    connections: 1,
    amount: 30,
    requests: [
      { path: '/a' },
      {
        path: '/b',
        setupRequest: async (req) => {
          k++
          if (k % 3 === 1) return null
          if (k % 3 === 2) throw new Error('no data for you')
          return req
        }
      }
    ]
  })
  instance.on('reqError', (err) => errors.push(err))
  const result = await instance
  t.ok(result.resets > 0, `resets counted (${result.resets})`)
  t.ok(result.errors > 0, `rejections counted as errors (${result.errors})`)
  t.equal(errors.length, 1, 'reported once')
  t.match(errors[0].message, /requests\[1\]\.setupRequest rejected: no data for you/)
  t.ok(seen.some((r) => r.url === '/b'))
  t.equal(result.requests.total + result.errors, 30, 'every request of the amount was sent or failed')
})

t.test('static entries: per-entry method, path, headers and body, pre-encoded, in order even pipelined', async (t) => {
  const { url, seen } = await recordingServer(t)
  let client
  const result = await autocannon({
    url: url + '/base',
    connections: 2,
    pipelining: 3,
    amount: 90,
    headers: { 'x-run': 'r', 'x-over': 'run' },
    body: 'run body',
    method: 'PATCH',
    setupClient: (c) => { client = c },
    requests: [
      { method: 'POST', path: '/one', body: 'first', headers: { 'x-over': 'entry' } },
      { path: '/two', method: 'GET', body: null },
      { method: 'HEAD', path: '/three' },
      {}
    ]
  })
  t.equal(result.requests.total, 90)
  t.equal(result.errors, 0)
  t.ok(client.sequence.allStatic, 'no hook: every entry keeps its encoded bytes')
  t.ok(client.sequence.entries.every((e) => Buffer.isBuffer(e.bytes)))
  const expected = [
    ['POST', '/one', 'first', 'entry', 'r'],
    ['GET', '/two', '', 'run', 'r'],
    ['HEAD', '/three', 'run body', 'run', 'r'],
    ['PATCH', '/base', 'run body', 'run', 'r']
  ]
  for (const conn of byConnection(seen)) {
    const got = conn.map((r) => [r.method, r.url, r.body.toString(), r.headers['x-over'], r.headers['x-run']])
    t.same(got, got.map((_, i) => expected[i % 4]), 'each entry as given, run headers and body beneath, in order')
  }
})

t.test('response bodies are decoded only when something asks for them', async (t) => {
  const { url } = await recordingServer(t, (r, res) => res.end('body!'))
  const clients = {}
  await autocannon({ url, connections: 1, amount: 5, setupClient: (c) => { clients.plain = c } })
  t.equal(clients.plain.wantBody, false, 'a plain run does not buffer bodies')
  t.equal(clients.plain.framing.parser.wantHeaders, false, 'nor decode headers')

  const bodies = []
  await autocannon({ url, connections: 1, amount: 5, setupClient: (c) => { clients.listener = c; c.on('body', (b) => bodies.push(b)) } })
  t.equal(clients.listener.wantBody, true, "a 'body' listener asks for them")
  t.equal(bodies.length, 5)
  t.ok(bodies.every((b) => Buffer.isBuffer(b) && b.toString() === 'body!'))

  const got = []
  await autocannon({ url, connections: 1, amount: 5, setupClient: (c) => { clients.hook = c }, requests: [{ onResponse: (s, b, ctx, h) => got.push([s, b, h['content-length']]) }] })
  t.equal(clients.hook.wantBody, true, 'onResponse asks for them')
  t.same(got[0], [200, 'body!', '5'], 'onResponse gets status, body as a string, context and headers')

  await autocannon({ url, connections: 1, amount: 5, expectBody: 'body!', setupClient: (c) => { clients.expect = c } })
  t.equal(clients.expect.wantBody, true, 'expectBody asks for them')
})

t.test('onResponse headers: keys as sent, repeated headers as arrays, lower case too', async (t) => {
  const { url } = await recordingServer(t, (r, res) => {
    res.setHeader('X-Token', 'abc')
    res.setHeader('Set-Cookie', ['a=1', 'b=2'])
    res.end('ok')
  })
  let headers
  await autocannon({ url, connections: 1, amount: 1, requests: [{ onResponse: (s, b, c, h) => { headers = h } }] })
  t.equal(headers['X-Token'], 'abc')
  t.equal(headers['x-token'], 'abc')
  t.same(headers['Set-Cookie'], ['a=1', 'b=2'])
  t.same(headers['set-cookie'], ['a=1', 'b=2'])
  t.notOk(Object.keys(headers).includes('x-token'), 'lower-case aliases are not enumerated')
})

t.test('idReplacement: [<id>] in body and path becomes a fresh id, unique over 10,000 requests', async (t) => {
  const { url, seen } = await recordingServer(t)
  const result = await autocannon({
    url,
    connections: 10,
    pipelining: 10,
    amount: 10000,
    idReplacement: true,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [
      { path: '/items/[<id>]', body: JSON.stringify({ name: 'user', email: 'new-[<id>]@user.com' }) },
      { path: '/static', body: 'no tag here' }
    ]
  })
  t.equal(result.requests.total, 10000)
  t.equal(result.errors, 0)
  const ids = new Set()
  const tagged = seen.filter((r) => r.url !== '/static')
  t.ok(seen.filter((r) => r.url === '/static').every((r) => r.body.toString() === 'no tag here'), 'untagged entries as they are')
  const mismatched = tagged.filter((r) => {
    const id = r.url.slice('/items/'.length)
    ids.add(id)
    return JSON.parse(r.body).email !== `new-${id}@user.com`
  })
  t.same(mismatched.map((r) => r.url), [], 'the path and the body of a request carry the same id')
  t.equal(tagged.length, 5000)
  t.equal(ids.size, 5000, 'every id is unique')

  // 10,000 requests with an id in the body alone.
  seen.length = 0
  await autocannon({ url, connections: 10, pipelining: 10, amount: 10000, idReplacement: true, method: 'POST', body: 'id=[<id>]' })
  const bodyIds = new Set(seen.map((r) => r.body.toString()))
  t.equal(seen.length, 10000)
  t.equal(bodyIds.size, 10000, 'unique across all 10,000')
})

t.test('idReplacement: non-ASCII bodies, Buffers, headers, encoded paths, and tags a setupRequest adds', async (t) => {
  const { url, seen } = await recordingServer(t)
  await autocannon({
    url,
    connections: 1,
    amount: 4,
    idReplacement: true,
    requests: [
      { method: 'POST', path: '/%5B%3Cid%3E%5D/[%3Cid%3E]', body: 'héllo wörld [<id>] ✓', headers: { 'x-request-id': 'req-[<id>]' } },
      { method: 'POST', body: Buffer.from('buffer [<id>] ✓') },
      { setupRequest: (req) => ({ ...req, path: '/hook/[<id>]' }) },
      { setupRequest: (req) => ({ ...req, method: 'PUT', body: '{"id":"[<id>]"}' }) }
    ]
  })
  const [a, b, c, d] = seen
  const id = a.headers['x-request-id'].slice(4)
  t.match(id, /^[A-Za-z0-9_-]{22}-\d{10}$/, 'ids have a fixed length')
  t.equal(a.body.toString(), `héllo wörld ${id} ✓`, 'UTF-8 bodies keep their bytes')
  t.equal(Number(a.headers['content-length']), a.body.length)
  t.equal(a.url, `/%5B%3Cid%3E%5D/${id}`, 'the percent-encoded tag too')
  t.match(b.body.toString(), /^buffer [A-Za-z0-9_-]{22}-\d{10} ✓$/)
  t.match(c.url, /^\/hook\/[A-Za-z0-9_-]{22}-\d{10}$/, 'tags returned by setupRequest are replaced')
  t.match(JSON.parse(d.body).id, /^[A-Za-z0-9_-]{22}-\d{10}$/)
  t.equal(new Set([id, b.body.toString().split(' ')[1], c.url.slice(6), JSON.parse(d.body).id]).size, 4)
})

t.test('without idReplacement the tag is sent as it is', async (t) => {
  const { url, seen } = await recordingServer(t)
  await autocannon({ url, connections: 1, amount: 2, method: 'POST', body: 'id=[<id>]' })
  t.same(seen.map((r) => r.body.toString()), ['id=[<id>]', 'id=[<id>]'])
})

t.test('several URLs: connections spread over them, each with its own Host', async (t) => {
  const a = await recordingServer(t)
  const b = await recordingServer(t)
  const result = await autocannon({ url: [a.url + '/a', b.url + '/b'], connections: 4, amount: 200 })
  t.equal(result.requests.total, 200)
  t.ok(a.seen.length > 0 && b.seen.length > 0, 'both servers got requests')
  t.equal(a.seen.length + b.seen.length, 200)
  t.ok(a.seen.every((r) => r.headers.host === `127.0.0.1:${a.port}` && r.url === '/a'))
  t.ok(b.seen.every((r) => r.headers.host === `127.0.0.1:${b.port}` && r.url === '/b'))
})

t.test('a request that cannot be encoded names its entry', async (t) => {
  await t.rejects(autocannon({ url: 'http://127.0.0.1:1', requests: [{}, { path: '/a b' }] }), /requests\[1\]/)
  await t.rejects(autocannon({ url: 'http://127.0.0.1:1', requests: [{ headers: { 'x-bad': 'a\r\nb' } }] }), /requests\[0\]/)
})

t.test('CLI: -I replaces [<id>] in -b with unique ids', async (t) => {
  const { url, seen } = await recordingServer(t)
  const { code, stdout, stderr } = await runCli([url + '/x/[<id>]', '-a', '500', '-c', '5', '-m', 'POST', '-b', '{"id":"[<id>]"}', '-I', '-j'])
  t.equal(code, 0, stderr)
  const result = jsonResult(stdout)
  t.equal(result.requests.total, 500)
  t.equal(seen.length, 500)
  const ids = new Set(seen.map((r) => JSON.parse(r.body).id))
  t.equal(ids.size, 500)
  t.ok(seen.every((r) => r.url === `/x/${JSON.parse(r.body).id}`), 'the id in the path is the one in the body')
})

t.test('a single entry with only onResponse still gets a fresh context for each request', async (t) => {
  const { url } = await recordingServer(t)
  const seenCounts = []
  await autocannon({
    url,
    connections: 1,
    amount: 6,
    initialContext: { count: 0 },
    requests: [{ onResponse: (status, body, context) => { seenCounts.push(++context.count) } }]
  })
  t.same(seenCounts, [1, 1, 1, 1, 1, 1])
})
