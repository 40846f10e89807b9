'use strict'

// The run's handle: the one object a run hands its clients. Its shape is
// the list below; real clients, on real runs against servers on loopback,
// use nothing else of it (and every member of the list is used); and what
// each member does with the budget and the counts.

const t = require('tap')
const { EventEmitter } = require('events')
const { RunHandle } = require('../../lib/engine/run-handle')
const { Recorder } = require('../../lib/engine/recorder')
const { spy } = require('../helpers/spy')
const { rawServer, closedPort } = require('../helpers/raw-server')

const METHODS = ['take', 'takeAttempt', 'giveBack', 'exhausted', 'checkAmount', 'onClientDone', 'onClientError',
  'onMismatch', 'onHookError', 'onResponseHookError', 'emitResponse']
const HANDLE = [...METHODS, 'emitResponses']

function handle (config = {}, { scheduler = null, clientDone = () => false } = {}) {
  const events = new EventEmitter()
  const recorder = new Recorder()
  const ends = { finished: 0 }
  const h = new RunHandle({ amount: 0, maxConnectionRequests: 0, maxOverallRequests: 0, bailout: 0, debug: false, ...config }, {
    recorder, scheduler, events, finish: () => { ends.finished++ }, clientDone
  })
  return { handle: h, events, recorder, ends }
}

t.test('its shape: the declared methods and the emitResponses flag, nothing else', async (t) => {
  const methods = Object.getOwnPropertyNames(RunHandle.prototype).filter((name) => name !== 'constructor').sort()
  t.same(methods, [...METHODS].sort())
  t.equal(handle().handle.emitResponses, false, 'emitResponses: off until the run has a response listener')
})

t.test('real clients use nothing of the run but its handle, and all of it', async (t) => {
  const used = new Set()
  let n = 0
  const server = await rawServer(t, (head, socket) => {
    if (head.includes('/drop')) { setImmediate(() => socket.destroy()); return undefined }
    return 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello'
  })
  const url = server.url
  const watch = (client) => { client.run = spy(client.run, used) }
  const runs = [
    { url, connections: 2, amount: 20, expectBody: 'nope' },
    { url, connections: 1, amount: 8, verifyBody: () => { throw new Error('no') } },
    { url, connections: 1, amount: 8, requests: [{ setupRequest: (req) => { if (n++ % 2) throw new Error('no'); return req } }] },
    // A promise stops a pipelined batch: what it was granted beyond goes back.
    { url, connections: 1, pipelining: 3, amount: 9, requests: [{ setupRequest: (req) => Promise.resolve(req) }] },
    { url, connections: 2, maxConnectionRequests: 2, duration: 5 },
    { url: url + '/drop', connections: 1, amount: 2 },
    { url: `http://127.0.0.1:${await closedPort()}`, connections: 1, amount: 2 }
  ]
  for (const opts of runs) {
    const instance = require('../..')({ ...opts, setupClient: watch })
    instance.on('reqError', () => {})
    if (opts.expectBody) instance.on('response', () => {})
    const guard = setTimeout(() => instance.stop(), 10000)
    const result = await instance
    clearTimeout(guard)
    t.ok(result.requests.sent > 0, `ran ${JSON.stringify(Object.keys(opts))}`)
  }
  const stray = [...used].filter((name) => !HANDLE.includes(name))
  t.same(stray, [], `only the handle's members (${[...used].sort().join(', ')})`)
  t.same(HANDLE.filter((name) => !used.has(name)), [], 'and each of them')
})

t.test('the budget: an amount, given back, and attempts', async (t) => {
  const { handle: h, recorder } = handle({ amount: 3 })
  t.equal(h.take(null, 2), 2)
  t.equal(h.take(null, 2), 1, 'capped by what is left')
  t.equal(h.take(null, 2), 0)
  t.equal(h.exhausted(), true)
  h.giveBack(1)
  t.equal(h.exhausted(), false, 'a request given back can go again')
  t.equal(h.takeAttempt(), true, 'an attempt to connect takes from it too')
  t.equal(recorder.sent, 1, 'and counts as sent')
  t.equal(h.takeAttempt(), false, 'none once it is spent')
  h.giveBack(2)
  h.closed = true
  t.equal(h.take(null, 2), 0, 'nothing once the run is over')
  t.equal(h.takeAttempt(), false)
})

t.test('maxOverallRequests is the budget unless maxConnectionRequests is set; neither, no limit', async (t) => {
  t.equal(handle({ maxOverallRequests: 5 }).handle.take(null, 9), 5)
  t.equal(handle({ maxOverallRequests: 5, maxConnectionRequests: 2 }).handle.take(null, 9), 9)
  const unlimited = handle().handle
  for (let i = 0; i < 3; i++) t.equal(unlimited.take(null, 1000), 1000)
  unlimited.giveBack(7)
  t.equal(unlimited.exhausted(), false)
})

t.test('under a rate, the plan grants what the budget allows', async (t) => {
  const asked = []
  const scheduler = { take: (client, n) => { asked.push(n); return n - 1 } }
  const { handle: h } = handle({ amount: 4 }, { scheduler })
  t.equal(h.take('c', 3), 2)
  t.equal(h.take('c', 5), 1, 'the plan is asked for at most what is left (2), and grants 1')
  t.same(asked, [3, 2])
})

t.test('an amount run ends when every request has ended', async (t) => {
  const { handle: h, recorder, ends } = handle({ amount: 2 })
  h.take(null, 2)
  recorder.response(200, 5, 100)
  h.checkAmount()
  t.equal(ends.finished, 0, 'one still to end')
  recorder.requestErrors(1, 'read', 'ECONNRESET')
  h.checkAmount()
  t.equal(ends.finished, 1, 'the second ended as an error: done')
})

t.test('errors are counted per request and reported once per connection', async (t) => {
  const { handle: h, events, recorder } = handle()
  const heard = []
  events.on('reqError', (err) => heard.push(err.code))
  const err = Object.assign(new Error('reset'), { code: 'ECONNRESET' })
  h.onClientError({ index: 0 }, err, 3, 'read', true)
  t.equal(recorder.errors, 3)
  t.same({ ...recorder.errorCodes }, { ECONNRESET: 3 })
  t.equal(recorder.errorsByCause.read, 3)
  h.onClientError({ index: 0 }, err, 0, 'connect', false)
  t.equal(recorder.errors, 3, 'an attempt that ended nothing counts nothing')
  h.onClientError({ index: 0 }, err, 0, 'parse', true)
  t.same(heard, ['ECONNRESET', 'ECONNRESET'], 'reported when requests were lost, or the connection was up')
})

t.test('a hook error counts its request, and is reported once per run', async (t) => {
  const { handle: h, events, recorder } = handle()
  const heard = []
  events.on('reqError', (err) => heard.push(err.message))
  h.onHookError({}, new Error('first'))
  h.onHookError({}, new Error('second'))
  t.equal(recorder.errors, 2)
  t.same({ ...recorder.errorCodes }, { AC_HOOK_ERROR: 2 })
  t.same(heard, ['first'])
  t.equal(h.firstHookError.message, 'first', 'kept for the result')
  h.onResponseHookError({}, new Error('third'), true)
  h.onResponseHookError({}, new Error('fourth'), false)
  t.equal(recorder.mismatches, 1, 'a response whose hook threw is a mismatch, once')
})

t.test('bailout: the run finishes once errors or mismatches reach it', async (t) => {
  const { handle: h, ends, events } = handle({ bailout: 2 })
  const bodies = []
  events.on('reqMismatch', (body) => bodies.push(body))
  h.onMismatch({}, 'a')
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(ends.finished, 0)
  h.onMismatch({}, 'b')
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(ends.finished, 1)
  t.same(bodies, ['a', 'b'])
})

t.test('a client done finishes the run when the run says all are', async (t) => {
  let all = false
  const { handle: h, ends } = handle({}, { clientDone: () => all })
  h.onClientDone({})
  t.equal(ends.finished, 0)
  all = true
  h.onClientDone({})
  t.equal(ends.finished, 1)
})

t.test('emitResponse: the run\'s response event, with the client', async (t) => {
  const { handle: h, events } = handle()
  const heard = []
  events.on('response', (...args) => heard.push(args))
  h.emitResponse('c', 200, 12, 1.5)
  t.same(heard, [['c', 200, 12, 1.5]])
})
