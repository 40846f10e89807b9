'use strict'

// Unit tests of lib/client/request-sequence.js: one connection's sequence on
// its own, with each protocol's encoding (HTTP/1.1's bytes, HTTP/2's
// frames). What a run makes of it (hooks across real requests, resets
// counted, ids over 10,000 requests, templates on the wire) is in
// test/hooks.test.js, test/requests.test.js and test/templates.test.js;
// here, the sequence's own contract, value by value.

const t = require('tap')
const { RequestSequence, PENDING, sequenceFor } = require('../../lib/client/request-sequence')
const { http1Encoding } = require('../../lib/http1/request-encoder')
const { h2Encoding } = require('../../lib/http2/request-frames')
const { Decoder } = require('../../lib/http2/hpack')
const { createState } = require('../../lib/client/templates')
const { sharedOrder } = require('../../lib/client/order')
const { HookError, InvalidOptionError } = require('../../lib/core/errors')

const BASE = Object.freeze({ method: 'GET', path: '/p', headers: { 'x-run': '1' }, body: undefined, host: 'h.test' })

// The bytes HTTP/1.1's encoder makes for a request of BASE's (written out
// here, not asked of the encoder).
function h1 (method, path, { headers = 'x-run: 1\r\n', body = null } = {}) {
  const length = body !== null ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : (method === 'POST' ? 'Content-Length: 0\r\n' : '')
  return `${method} ${path} HTTP/1.1\r\nHost: h.test\r\nConnection: keep-alive\r\n${headers}${length}\r\n${body === null ? '' : body}`
}

const text = (buf) => buf.toString('latin1')

function h1Sequence (entries, opts = {}) {
  return new RequestSequence(opts.base || BASE, entries, { encoding: http1Encoding, ...opts })
}

// An HTTP/2 request's header block as its fields, by name.
function fieldsOf (encoded) {
  const decoder = new Decoder()
  decoder.decode(encoded.block, 0, encoded.block.length, true)
  const out = {}
  for (let i = 0; i < decoder.headers.length; i += 2) out[decoder.headers[i]] = decoder.headers[i + 1]
  return out
}

function throwsHook (t, fn, message, what) {
  let err = null
  try {
    fn()
  } catch (e) {
    err = e
  }
  t.type(err, HookError, what)
  t.equal(err && err.code, 'AC_HOOK_ERROR', what)
  t.equal(err && err.message, message, what)
  return err
}

t.test('static entries: encoded once, the same Buffer each round, in order', async (t) => {
  const seq = h1Sequence([{ path: '/a' }, { method: 'HEAD', path: '/b' }, { method: 'POST', path: '/c', body: 'hi' }])
  const first = [seq.next(), seq.next(), seq.next()]
  t.same(first.map(text), [h1('GET', '/a'), h1('HEAD', '/b'), h1('POST', '/c', { body: 'hi' })])
  t.equal(seq.allStatic, true)
  t.equal(seq.staticBytes, null, 'three entries: not one request to batch')
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < 3; i++) {
      t.equal(seq.next(), first[i], `round ${round + 2}, entry ${i}: the same Buffer`)
      t.equal(seq.lastEntry, i)
      t.equal(seq.lastIsHead, i === 1, 'lastIsHead follows the entry')
    }
  }
  const one = h1Sequence(undefined)
  t.equal(text(one.staticBytes), h1('GET', '/p'), 'no entries: the run\'s request, as one entry')
  t.equal(one.next(), one.staticBytes)
  t.equal(one.named, false)
  t.equal(one.entries[0].name, 'request')
  t.equal(h1Sequence([{ onResponse: () => {} }]).staticBytes, null, 'one entry with a hook: no batch (its context has rounds)')
  t.equal(h1Sequence([{ method: 'head' }]).entries[0].isHead, true, 'HEAD in any case')
})

t.test('the run\'s headers beneath the entry\'s, and its credentials unless the entry has its own', async (t) => {
  const base = { ...BASE, auth: 'Basic dTpw' }
  const seq = h1Sequence([{ headers: { 'x-run': '2', a: 'b' } }, { headers: { authorization: 'Bearer x' } }], { base })
  t.equal(text(seq.next()), h1('GET', '/p', { headers: 'x-run: 2\r\na: b\r\nAuthorization: Basic dTpw\r\n' }))
  t.equal(text(seq.next()), h1('GET', '/p', { headers: 'x-run: 1\r\nauthorization: Bearer x\r\n' }))
})

t.test('advance(n): n static entries in a row, as n next() calls, the context made again as a round starts', async (t) => {
  const seq = h1Sequence([{ path: '/a' }, { path: '/b' }, { path: '/c' }])
  t.equal(seq.advance(2), 0, 'returns where the run of entries starts')
  t.equal(seq.lastEntry, 1)
  t.equal(seq.index, 2)
  t.equal(seq.advance(2), 2)
  t.equal(seq.lastEntry, 0, 'wrapped: the last of them is the first entry')
  t.equal(seq.index, 1)
  t.equal(seq.advance(6), 1, 'more than a round')
  t.equal(seq.lastEntry, 0)
  t.equal(seq.index, 1)

  // With hooks the context has rounds: a fresh one when a run of entries
  // wraps around, or starts at the first entry after a round was used.
  const initialContext = { n: 1, list: [1] }
  const hooked = h1Sequence([{ path: '/a', onResponse: () => {} }, { path: '/b' }, { path: '/c' }], { initialContext })
  const ctx0 = hooked.context
  t.not(ctx0, initialContext, 'a copy of initialContext')
  t.same(ctx0, { n: 1, list: [1] })
  t.not(ctx0.list, initialContext.list, 'a deep one')
  hooked.advance(1)
  t.equal(hooked.context, ctx0, 'the first round uses the context made with the sequence')
  ctx0.n = 5
  hooked.advance(2)
  t.equal(hooked.context, ctx0, 'up to the end of the round: the same context')
  hooked.advance(1)
  const ctx1 = hooked.context
  t.not(ctx1, ctx0, 'starting at the first entry again: a new round, a new context')
  t.same(ctx1, { n: 1, list: [1] })
  hooked.advance(1)
  ctx1.n = 7
  hooked.advance(3)
  t.not(hooked.context, ctx1, 'wrapping around within a run of entries: a new context')
  t.same(hooked.context, { n: 1, list: [1] })
  t.same(initialContext, { n: 1, list: [1] }, 'initialContext itself is never changed')
})

t.test('next(): the context is made again each time the first entry comes round', async (t) => {
  const seen = []
  const seq = h1Sequence([
    { setupRequest: (req, ctx) => { seen.push(ctx); ctx.n++; return req } },
    { path: '/b' }
  ], { initialContext: { n: 0 } })
  seq.next()
  seq.next()
  seq.next()
  t.equal(seen.length, 2)
  t.not(seen[0], seen[1], 'a new context for the second round')
  t.same(seen.map((c) => c.n), [1, 1], 'each round starts from initialContext')
})

t.test('next() with setupRequest: the request it returns, made per request from a copy', async (t) => {
  const got = []
  const seq = h1Sequence([{
    method: 'POST',
    path: '/login',
    body: 'b',
    setupRequest (req, ctx) {
      got.push({ ...req, headers: { ...req.headers } })
      req.headers.token = String(++ctx.k)
      return req
    }
  }], { initialContext: { k: 0 } })
  t.equal(seq.entries[0].bytes, null, 'not encoded once')
  t.equal(text(seq.next()), h1('POST', '/login', { headers: 'x-run: 1\r\ntoken: 1\r\n', body: 'b' }))
  t.same(got[0], { method: 'POST', path: '/login', headers: { 'x-run': '1' }, body: 'b', host: 'h.test' }, 'the hook gets the entry as a request, with its host')
  t.equal(text(seq.next()), h1('POST', '/login', { headers: 'x-run: 1\r\ntoken: 1\r\n', body: 'b' }), 'a new round: a new context')
  t.same(seq.entries[0].template.headers, { 'x-run': '1' }, 'what the hook changed is its own copy')
  t.equal(seq.idempotent, false, 'a hook may make any request: never sent twice')
  t.equal(seq.usesContext, true)
})

t.test('next() with setupRequest returning nothing: a reset, and the first entry is sent instead', async (t) => {
  let resets = 0
  let skip = true
  const seq = h1Sequence([
    { path: '/first', setupRequest: (req, ctx) => { ctx.used = true; return req } },
    { path: '/second', setupRequest: (req, ctx) => skip ? null : req }
  ], { initialContext: { used: false } })
  seq.onReset = () => { resets++ }
  t.equal(text(seq.next()), h1('GET', '/first'))
  const used = seq.context
  t.equal(used.used, true)
  t.equal(text(seq.next()), h1('GET', '/first'), 'the second said nothing: the first goes instead')
  t.equal(resets, 1, 'onReset called once')
  t.equal(seq.lastEntry, 0)
  t.not(seq.context, used, 'the sequence started over with a fresh context')
  t.equal(seq.index, 1)
  skip = false
  t.equal(text(seq.next()), h1('GET', '/second'))
  t.equal(resets, 1)
})

t.test('next() with setupRequest returning nothing for the first entry: a HookError, and the sequence starts over', async (t) => {
  let resets = 0
  const seq = h1Sequence([{ setupRequest: () => undefined }, { path: '/b' }])
  seq.onReset = () => { resets++ }
  throwsHook(t, () => seq.next(), 'requests[0].setupRequest returned no request for the first entry of the sequence, so the sequence cannot start')
  t.equal(seq.index, 0)
  t.equal(resets, 0, 'not a reset: nothing was sent')
})

t.test('next() with a setupRequest that throws, or returns what cannot be sent: a HookError naming it, and a restart', async (t) => {
  const cause = new Error('boom')
  let mode = 'ok'
  const seq = h1Sequence([
    { path: '/a' },
    {
      path: '/b',
      setupRequest (req, ctx) {
        ctx.touched = true
        if (mode === 'throw') throw cause
        if (mode === 'string') return 'GET /'
        if (mode === 'bad') return { ...req, method: 'BAD METHOD' }
        return req
      }
    },
    { path: '/c' }
  ], { initialContext: { touched: false } })
  let resets = 0
  seq.onReset = () => { resets++ }
  for (const [m, message] of [
    ['throw', 'requests[1].setupRequest threw: boom'],
    ['string', 'requests[1].setupRequest must return a request object: got string'],
    ['bad', 'requests[1].setupRequest returned a request that cannot be sent: BAD METHOD HTTP method is not supported']
  ]) {
    mode = 'ok'
    while (seq.index !== 1) seq.next()
    const ctx = seq.context
    mode = m
    const err = throwsHook(t, () => seq.next(), message, m)
    if (m === 'throw') t.equal(err.cause, cause, 'the hook\'s error is the cause')
    t.equal(err.hook, 'requests[1].setupRequest')
    t.equal(seq.index, 0, `${m}: the sequence starts over`)
    t.not(seq.context, ctx, `${m}: with a fresh context`)
    t.same(seq.context, { touched: false })
  }
  t.equal(resets, 0, 'a failure is not a reset')
  mode = 'ok'
  t.equal(text(seq.next()), h1('GET', '/a'), 'and goes on from the first entry')
  const named = h1Sequence([{ setupRequest: () => { throw new Error('x') }, setupRequestFile: 'hooks/a.js' }])
  throwsHook(t, () => named.next(), 'requests[0].setupRequest (hooks/a.js) threw: x', 'a hook from a file is named by it')
})

t.test('next() with a setupRequest returning a promise: PENDING, then settle() or fail()', async (t) => {
  const promises = []
  let resets = 0
  const seq = h1Sequence([
    { path: '/a' },
    { path: '/b', setupRequest: (req) => { const p = Promise.resolve(req); promises.push(p); return p } },
    { path: '/c' }
  ])
  seq.onReset = () => { resets++ }
  seq.next()
  t.equal(seq.next(), PENDING)
  t.equal(PENDING.pending, true)
  t.ok(Object.isFrozen(PENDING))
  t.equal(seq.pending, promises[0], 'the promise waits in `pending`')
  t.equal(seq.lastEntry, 1)
  t.equal(seq.index, 2, 'the sequence has moved on past it')

  t.equal(text(seq.settle(1, { method: 'PUT', path: '/settled', headers: {} })), 'PUT /settled HTTP/1.1\r\nHost: h.test\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n',
    'settled: its request, with the run\'s host')
  t.equal(seq.pending, null)
  t.equal(seq.lastEntry, 1)

  // Settled with nothing: a reset (not for the first entry: an error).
  while (seq.index !== 1) seq.next()
  t.equal(seq.next(), PENDING)
  const ctx = seq.context
  t.equal(seq.settle(1, null), null, 'nothing to send: null')
  t.equal(resets, 1, 'onReset called')
  t.equal(seq.index, 0)
  t.not(seq.context, ctx)
  throwsHook(t, () => seq.settle(0, undefined), 'requests[0].setupRequest returned no request for the first entry of the sequence, so the sequence cannot start')
  t.equal(resets, 1)

  // Rejected: a HookError returned (not thrown), and a restart.
  seq.next()
  t.equal(seq.next(), PENDING)
  const ctx2 = seq.context
  const cause = new Error('later')
  const err = seq.fail(1, cause)
  t.type(err, HookError)
  t.equal(err.message, 'requests[1].setupRequest rejected: later')
  t.equal(err.cause, cause)
  t.equal(seq.pending, null)
  t.equal(seq.index, 0)
  t.not(seq.context, ctx2)
  t.equal(seq.fail(9, 'gone').message, 'setupRequest rejected: gone', 'an entry since replaced: named generically')
})

t.test('ids, HTTP/1.1: spliced into bytes encoded once, a fresh id each request, the same length each time', async (t) => {
  let encoded = 0
  const encoding = { ...http1Encoding, encode: (req, form) => { encoded++; return http1Encoding.encode(req, form) } }
  const seq = h1Sequence([{ method: 'POST', path: '/u/[<id>]', headers: { 'x-id': '[<id>]' }, body: '{"id":"[<id>]"}' }], { idReplacement: true, encoding })
  const entry = seq.entries[0]
  t.equal(entry.bytes, null)
  t.equal(typeof entry.withId, 'function', 'made by the encoding\'s withIds')
  const requests = [seq.next(), seq.next(), seq.next()].map(text)
  const pattern = /^POST \/u\/([A-Za-z0-9_-]{22}-\d{10}) HTTP\/1\.1\r\nHost: h\.test\r\nConnection: keep-alive\r\nx-run: 1\r\nx-id: ([A-Za-z0-9_-]{22}-\d{10})\r\nContent-Length: 42\r\n\r\n\{"id":"([A-Za-z0-9_-]{22}-\d{10})"\}$/
  const ids = requests.map((r) => {
    const m = pattern.exec(r)
    t.ok(m, r)
    t.equal(m[1], m[2], 'one id per request, wherever the tag is')
    t.equal(m[1], m[3])
    return m[1]
  })
  t.equal(new Set(ids).size, 3, 'a fresh id each request')
  t.equal(encoded, 0, 'nothing encoded per request: the ids are spliced in')
  t.equal(new Set(requests.map((r) => r.length)).size, 1, 'every request as long: Content-Length holds')
  t.equal(seq.staticBytes, null)

  const off = h1Sequence([{ path: '/u/[<id>]' }])
  t.equal(text(off.next()), h1('GET', '/u/[<id>]'), 'without idReplacement the tag is sent as it is, encoded once')
  t.equal(off.next(), off.next())

  const hooked = h1Sequence([{ setupRequest: (req) => ({ ...req, path: '/h/[<id>]' }) }], { idReplacement: true })
  t.match(text(hooked.next()), /^GET \/h\/[A-Za-z0-9_-]{22}-\d{10} HTTP\/1\.1\r\n/, 'tags a setupRequest returns are replaced too')
})

t.test('ids, HTTP/2: no withIds, so each such request is encoded again with its id', async (t) => {
  let encoded = 0
  const base = h2Encoding({ secure: true })
  const encoding = { encode: (req, form) => { encoded++; return base.encode(req, form) } }
  const seq = new RequestSequence(BASE, [{ method: 'POST', path: '/u/[<id>]', body: 'id=[<id>]' }, { path: '/static' }], { encoding, idReplacement: true })
  t.equal(encoded, 1, 'the static entry is encoded once, when the sequence is made')
  const a = seq.next()
  const b = seq.next()
  const c = seq.next()
  t.equal(encoded, 3, 'the entry with ids once per request')
  t.equal(seq.next(), b, 'the static entry: the same frames every time')
  const fa = fieldsOf(a)
  const fc = fieldsOf(c)
  t.match(fa, { ':method': 'POST', ':scheme': 'https', ':authority': 'h.test', 'x-run': '1', 'content-length': '36' })
  const ida = /^\/u\/([A-Za-z0-9_-]{22}-\d{10})$/.exec(fa[':path'])[1]
  const idc = /^\/u\/([A-Za-z0-9_-]{22}-\d{10})$/.exec(fc[':path'])[1]
  t.not(ida, idc)
  t.equal(a.body.toString(), `id=${ida}`, 'the body has the same id as the path')
  t.equal(fieldsOf(b)[':path'], '/static')
  t.equal(b.body, null)
})

t.test('templates: through the encoding\'s template(), one request or a batch', async (t) => {
  const templates = createState({ random: () => 0.5 })
  const seq = h1Sequence([{ path: '/s/{{seq}}', headers: { c: '{{conn}}' } }], { templates, conn: 7 })
  const entry = seq.entries[0]
  t.equal(entry.bytes, null)
  t.not(entry.writer, null)
  t.equal(seq.templateOnly, true, 'one entry, holes only: the protocol may write a batch')
  t.equal(text(seq.next()), h1('GET', '/s/0', { headers: 'x-run: 1\r\nc: 7\r\n' }))
  const kept = seq.next()
  t.equal(text(kept), h1('GET', '/s/1', { headers: 'x-run: 1\r\nc: 7\r\n' }))
  t.equal(text(seq.next()), h1('GET', '/s/2', { headers: 'x-run: 1\r\nc: 7\r\n' }), 'next() gives a request of its own: the last one is untouched')
  t.equal(text(kept), h1('GET', '/s/1', { headers: 'x-run: 1\r\nc: 7\r\n' }))

  const one = (n) => h1('GET', `/s/${n}`, { headers: 'x-run: 1\r\nc: 7\r\n' })
  seq.lastEntry = 5
  const batch = seq.templateBatch(2)
  t.equal(seq.lastEntry, 0)
  t.equal(text(batch), one(3) + one(4), 'two requests in one buffer')
  const copy = Buffer.from(batch)
  seq.templateKept()
  const next = seq.templateBatch(2)
  t.equal(text(next), one(5) + one(6))
  t.same(batch, copy, 'kept: the next batch went elsewhere')
  const again = seq.templateBatch(2)
  t.equal(text(next), one(7) + one(8), 'not kept: the next batch is written over it')
  t.equal(again.buffer, next.buffer)

  t.equal(h1Sequence([{ path: '/{{seq}}' }, { path: '/b' }], { templates }).templateOnly, false, 'two entries: one by one')
  t.equal(h1Sequence([{ path: '/{{seq}}', onResponse: () => {} }], { templates }).templateOnly, false, 'with hooks: one by one')
  t.equal(h1Sequence([{ path: '/{{seq}}' }], { templates, order: sharedOrder('sequential', 1) }).templateOnly, false, 'a shared order: one by one')
  t.equal(h1Sequence([{ path: '/a' }], { templates }).templateOnly, false, 'no holes: static')
  t.equal(text(h1Sequence([{ path: '/{{seq}}' }]).next()), h1('GET', '/{{seq}}'), 'no template state: the text as it is')

  const bare = new RequestSequence(BASE, [{ path: '/{{seq}}' }], { encoding: { encode: h2Encoding({ secure: false }).encode }, templates })
  t.equal(bare.entries[0].writer, null, 'an encoding without template(): no writer')
  t.equal(fieldsOf(bare.next())[':path'], '/{{seq}}', 'the holes sent as they are')
  t.equal(bare.templateOnly, false)
  const h2 = new RequestSequence(BASE, [{ path: '/{{seq}}' }], { encoding: h2Encoding({ secure: false }), templates })
  t.not(h2.entries[0].writer, null, 'HTTP/2\'s encoding: a writer')
  t.same([fieldsOf(h2.next())[':path'], fieldsOf(h2.next())[':path']], ['/9', '/10'], 'filled per request, from the same state')
  t.equal(h2.templateOnly, false, 'no batches: HTTP/2 frames requests one by one')
})

t.test('setHeaders, setBody, setRequest: on the entry last sent, or the first before any', async (t) => {
  const base = { ...BASE, auth: 'Basic dTpw' }
  const seq = h1Sequence([{ path: '/a', headers: { own: '1' } }, { path: '/b' }], { base })
  const before = seq.entries[0].bytes
  seq.setHeaders({ h: 'x' })
  t.equal(text(seq.entries[0].bytes), h1('GET', '/a', { headers: 'x-run: 1\r\nh: x\r\nAuthorization: Basic dTpw\r\n' }),
    'before anything was sent: the first entry; its own headers replaced, the run\'s and its credentials kept')
  t.not(seq.entries[0].bytes, before, 'encoded again')
  seq.setHeaders({ Authorization: 'Bearer t' })
  t.equal(text(seq.entries[0].bytes), h1('GET', '/a', { headers: 'x-run: 1\r\nAuthorization: Bearer t\r\n' }), 'credentials of its own win')
  seq.setHeaders(undefined)
  t.equal(text(seq.entries[0].bytes), h1('GET', '/a', { headers: 'x-run: 1\r\nAuthorization: Basic dTpw\r\n' }), 'undefined: the entry\'s own headers gone')

  seq.next()
  seq.next()
  t.equal(seq.lastEntry, 1)
  seq.setBody('body')
  t.equal(text(seq.entries[1].bytes), h1('GET', '/b', { headers: 'x-run: 1\r\nAuthorization: Basic dTpw\r\n', body: 'body' }), 'after a send: the entry last sent')
  t.equal(text(seq.next()), h1('GET', '/a', { headers: 'x-run: 1\r\nAuthorization: Basic dTpw\r\n' }), 'the other entry is untouched')
  seq.next()
  seq.setBody(undefined)
  t.equal(text(seq.entries[1].bytes), h1('GET', '/b', { headers: 'x-run: 1\r\nAuthorization: Basic dTpw\r\n' }), 'undefined: no body')
  t.throws(() => seq.setBody(42), InvalidOptionError, 'a body that is not a string or Buffer is refused')

  seq.setRequest({ method: 'DELETE' })
  t.equal(text(seq.entries[1].bytes), h1('DELETE', '/p', { headers: 'x-run: 1\r\nAuthorization: Basic dTpw\r\n' }), 'replaced: what it does not say comes from the run')
  t.equal(seq.entries[1].name, 'requests[1]')
  t.equal(seq.idempotent, true)
  seq.setRequest({ method: 'POST', onResponse: () => {} })
  t.equal(seq.idempotent, false, 'what the sequence is like is computed again')
  t.equal(seq.usesContext, true)
  t.equal(seq.hasOnResponse, true)
  seq.setRequest(null)
  t.equal(seq.usesContext, false, 'null: the run\'s request')
  t.equal(text(seq.entries[1].bytes), h1('GET', '/p', { headers: 'x-run: 1\r\nAuthorization: Basic dTpw\r\n' }))

  const single = h1Sequence(undefined)
  const old = single.staticBytes
  single.setHeaders({ z: '1' })
  t.equal(text(single.staticBytes), h1('GET', '/p', { headers: 'x-run: 1\r\nz: 1\r\n' }), 'the one request to batch follows')
  t.not(single.staticBytes, old)

  const h2 = new RequestSequence(BASE, undefined, { encoding: h2Encoding({ secure: false }) })
  h2.setBody('abc')
  t.equal(h2.staticBytes.body.toString(), 'abc', 'HTTP/2: its frames made again')
  t.equal(fieldsOf(h2.staticBytes)['content-length'], '3')
})

t.test('idempotent: only when every entry is, by method, and none has a setupRequest', async (t) => {
  for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'get', 'delete']) {
    t.equal(h1Sequence([{ method }]).idempotent, true, method)
  }
  for (const method of ['POST', 'PATCH', 'CONNECT', 'PURGE']) {
    t.equal(h1Sequence([{ method, path: '/' }]).idempotent, false, method)
  }
  t.equal(h1Sequence([{ method: 'GET' }, { method: 'POST' }]).idempotent, false, 'one that is not: the sequence is not')
  t.equal(h1Sequence([{ method: 'GET', setupRequest: (r) => r }]).idempotent, false, 'a setupRequest: not')
  t.equal(h1Sequence([{ method: 'GET', onResponse: () => {} }]).idempotent, true, 'an onResponse changes nothing sent')
  t.equal(h1Sequence(undefined, { base: { ...BASE, method: 'POST' } }).idempotent, false, 'the run\'s method')
})

t.test('a shared order: the connections\' sequences take turns from one cursor', async (t) => {
  const order = sharedOrder('sequential', 3)
  const entries = [{ path: '/0' }, { path: '/1' }, { path: '/2', onResponse: () => {} }]
  const a = h1Sequence(entries, { order })
  const b = h1Sequence(entries, { order })
  const picks = []
  for (const seq of [a, b, a, a, b]) {
    picks.push(text(seq.next()).split(' ')[1])
    t.equal(seq.lastEntry, Number(picks[picks.length - 1].slice(1)))
  }
  t.same(picks, ['/0', '/1', '/2', '/0', '/1'], 'in the file\'s order across both')
  const ctx = a.context
  a.next()
  a.next()
  t.equal(a.lastEntry, 0, 'a got the first entry again')
  t.not(a.context, ctx, 'and with it a new round, a new context')
})

t.test('onResponse: the entry\'s hook with the context; a throw named', async (t) => {
  const calls = []
  const seq = h1Sequence([{ onResponse: (...args) => calls.push(args) }, { path: '/b', onResponse: () => { throw new Error('bad') } }, { path: '/c' }], { initialContext: { k: 1 } })
  seq.onResponse(0, 201, 'text', { a: 'b' })
  t.same(calls, [[201, 'text', { k: 1 }, { a: 'b' }]])
  t.equal(calls[0][2], seq.context, 'the sequence\'s context itself')
  const err = throwsHook(t, () => seq.onResponse(1, 200, '', {}), 'requests[1].onResponse threw: bad')
  t.equal(err.hook, 'requests[1].onResponse')
  seq.onResponse(2, 200, '', {})
  seq.onResponse(9, 200, '', {})
  t.equal(calls.length, 1, 'no hook, or an entry since gone: nothing')
})

t.test('entries that cannot be made: named before anything is sent', async (t) => {
  t.throws(() => h1Sequence({ path: '/' }), { code: 'AC_INVALID_OPTION', option: 'requests', message: /must be an array of request objects/ })
  t.throws(() => h1Sequence([{}, 'x']), { code: 'AC_INVALID_OPTION', option: 'requests[1]', message: /must be an object/ })
  t.throws(() => h1Sequence([{}, { method: 'A B' }]), { code: 'AC_INVALID_OPTION', option: 'requests[1]', message: 'invalid option "requests[1]": {"method":"A B","path":"/p","headers":{"x-run":"1"}} cannot be encoded: A B HTTP method is not supported' })
})

t.test('sequenceFor: the run\'s request at the route\'s target, its encoding, its order, the connection\'s index', async (t) => {
  const setup = { method: 'PUT', headers: { s: '1' }, body: 'x', idReplacement: false, initialContext: { i: 1 }, templates: createState({ random: () => 0 }) }
  const order = sharedOrder('sequential', 1)
  const route = {
    target: { path: '/t', host: 't.test:8080', auth: 'Basic YTpi', absoluteForm: { origin: 'http://t.test:8080' } },
    requests: [{ headers: { c: '{{conn}}' } }],
    encoding: http1Encoding,
    order
  }
  const seq = sequenceFor(setup, route, 3)
  t.equal(seq.order, order)
  t.same(seq.context, { i: 1 })
  t.equal(text(seq.next()),
    'PUT http://t.test:8080/t HTTP/1.1\r\nHost: t.test:8080\r\nConnection: keep-alive\r\ns: 1\r\nc: 3\r\nAuthorization: Basic YTpi\r\nContent-Length: 1\r\n\r\nx')
})
