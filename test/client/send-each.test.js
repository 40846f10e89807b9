'use strict'

// Unit tests of lib/client/send-each.js: requests sent one by one as a
// real sequence makes them (HTTP/1.1's encoding), into a fake client whose
// protocol, run handle and connection note every call. What a run makes of
// it (hook errors counted and reported, async hooks on real sockets) is in
// test/hooks.test.js and test/requests.test.js.

const t = require('tap')
const { sendEach } = require('../../lib/client/send-each')
const { RequestSequence } = require('../../lib/client/request-sequence')
const { http1Encoding } = require('../../lib/http1/request-encoder')
const { HookError } = require('../../lib/core/errors')

const BASE = Object.freeze({ method: 'GET', path: '/', headers: {}, host: 'h.test' })
const request = (path) => `GET ${path} HTTP/1.1\r\nHost: h.test\r\nConnection: keep-alive\r\n\r\n`

// A client as sendEach uses it; every call lands in `calls`, in order.
function fakeClient (entries, { initialContext, backoff = () => 0 } = {}) {
  const calls = []
  const note = (name) => (...args) => { calls.push([name, ...args]) }
  const socket = { name: 'first' }
  const client = {
    calls,
    sequence: new RequestSequence(BASE, entries, { encoding: http1Encoding, initialContext }),
    stopped: false,
    completed: 0,
    hookFailures: 0,
    retryTimer: null,
    pendingRequest: null,
    connection: {
      socket,
      backoff (failures) {
        calls.push(['backoff', failures])
        return backoff(failures)
      }
    },
    framing: {
      accepting: true,
      queue: (encoded, now, planned, entry, k) => calls.push(['queue', encoded.toString('latin1'), now, planned, entry, k]),
      flush: note('flush')
    },
    // The Client's requests in flight (lib/client/in-flight.js).
    slots: {
      hold: () => { calls.push(['hold']); return 'held' },
      unhold: note('release')
    },
    sendHeld: (encoded, entry, planned) => calls.push(['sendHeld', encoded.toString('latin1'), entry, planned]),
    run: {
      giveBack: note('giveBack'),
      onHookError: note('onHookError')
    },
    unsend: note('unsend'),
    pump: note('pump')
  }
  return client
}

const names = (calls) => calls.map((c) => c[0])
const turn = () => new Promise((resolve) => setImmediate(resolve))

t.test('each request queued with its planned time, entry and place, then flushed at once', async (t) => {
  const client = fakeClient([{ path: '/a' }, { path: '/b', setupRequest: (req) => req }])
  sendEach(client, 3, 100, [90, 95, 99])
  t.same(client.calls, [
    ['queue', request('/a'), 100, 90, 0, 0],
    ['queue', request('/b'), 100, 95, 1, 1],
    ['queue', request('/a'), 100, 99, 0, 2],
    ['flush', 3, 100]
  ])
  client.calls.length = 0
  sendEach(client, 1, 200, null)
  t.same(client.calls, [['queue', request('/b'), 200, 200, 1, 0], ['flush', 1, 200]], 'no plan: planned now')
  t.equal(client.hookFailures, 0)
  t.equal(client.retryTimer, null)
  await turn()
  t.same(names(client.calls), ['queue', 'flush'], 'nothing to try again')
})

t.test('a hook that throws: that request ends unsent, as an error; the rest go; it is tried again soon', async (t) => {
  let n = 0
  const client = fakeClient([{ path: '/a', setupRequest: (req) => { if (n++ === 1) throw new Error('no'); return req } }])
  client.hookFailures = 3
  sendEach(client, 3, 10, null)
  t.equal(client.completed, 1, 'the failed request counts as ended')
  const hook = client.calls.find((c) => c[0] === 'onHookError')
  t.equal(hook[1], client, 'the run is told which client')
  t.type(hook[2], HookError)
  t.equal(hook[2].message, 'requests[0].setupRequest threw: no')
  t.same(client.calls.filter((c) => c[0] !== 'onHookError'), [
    ['queue', request('/a'), 10, 10, 0, 0],
    ['queue', request('/a'), 10, 10, 0, 1],
    ['flush', 2, 10],
    ['backoff', 3]
  ], 'others sent with it: the count of failures in a row is not raised, and nothing is given back')
  t.equal(client.hookFailures, 3)
  t.same(names(client.calls).filter((c) => c === 'pump'), [], 'not at once')
  await turn()
  t.equal(names(client.calls).filter((c) => c === 'pump').length, 1, 'pumped again on the next turn')
})

t.test('hooks that fail every time: later and later (connection.backoff), and not on a socket since replaced', async (t) => {
  const client = fakeClient([{ setupRequest: () => { throw new Error('always') } }], { backoff: (f) => f <= 1 ? 0 : 1 })
  sendEach(client, 2, 0, null)
  t.equal(client.completed, 2)
  t.equal(client.hookFailures, 1, 'nothing sent: one more failure in a row')
  t.same(client.calls.filter((c) => c[0] !== 'onHookError'), [['backoff', 1]], 'nothing queued, nothing flushed')
  t.equal(client.retryTimer, null, 'no delay the first time: the next turn')
  await turn()
  t.equal(client.calls.at(-1)[0], 'pump')

  client.calls.length = 0
  sendEach(client, 1, 0, null)
  t.equal(client.hookFailures, 2)
  t.same(client.calls.at(-1), ['backoff', 2])
  t.not(client.retryTimer, null, 'a delay: a timer, kept so that stop() can clear it')
  await new Promise((resolve) => { client.pump = resolve })
  t.equal(client.retryTimer, null, 'cleared once it fired')

  // The socket changed meanwhile: the new one pumps of its own accord.
  client.calls.length = 0
  let pumped = 0
  client.pump = () => { pumped++ }
  sendEach(client, 1, 0, null)
  t.same(client.calls.at(-1), ['backoff', 3])
  client.connection.socket = { name: 'second' }
  await new Promise((resolve) => setTimeout(resolve, 1))
  t.equal(client.retryTimer, null, 'the timer fired')
  t.equal(pumped, 0, 'not pumped for the old socket')

  // A request that goes through ends the run of failures.
  const ok = fakeClient([{ path: '/ok' }])
  ok.hookFailures = 4
  sendEach(ok, 1, 0, null)
  t.equal(ok.hookFailures, 0)
})

t.test('a hook failure that ends the run (stopped): nothing more is done', async (t) => {
  const client = fakeClient([{ setupRequest: () => { throw new Error('x') } }])
  client.run.onHookError = () => { client.calls.push(['onHookError']); client.stopped = true }
  sendEach(client, 3, 0, null)
  t.same(client.calls, [['onHookError']], 'no more hooks, no flush, no give-back, no retry')
  t.equal(client.completed, 1)
  await turn()
  t.same(client.calls, [['onHookError']])
})

t.test('a promise: it holds a place, stops the batch, and the rest of the grant is given back', async (t) => {
  let resolve
  const client = fakeClient([{ path: '/a' }, { path: '/b', setupRequest: (req) => new Promise((_resolve) => { resolve = () => _resolve({ ...req, path: '/late' }) }) }, { path: '/c' }])
  sendEach(client, 4, 50, [40, 41, 42, 43])
  t.same(client.calls, [
    ['queue', request('/a'), 50, 40, 0, 0],
    ['hold'],
    ['flush', 1, 50],
    ['giveBack', 2],
    ['unsend', 2]
  ])
  t.equal(client.pendingRequest, client.sequence.pending)
  t.ok(client.pendingRequest instanceof Promise)
  client.calls.length = 0
  resolve()
  await turn()
  t.same(client.calls, [
    ['release', 'held'],
    ['sendHeld', request('/late'), 1, 41],
    ['pump']
  ], 'settled: its held place released, sent as planned, then the rest')
  t.equal(client.pendingRequest, null)
})

t.test('a promise that settles after the socket changed: the request ended with that socket', async (t) => {
  for (const outcome of ['resolve', 'reject']) {
    let settle
    const client = fakeClient([{ setupRequest: (req) => new Promise((resolve, reject) => { settle = () => outcome === 'resolve' ? resolve(req) : reject(new Error('late')) }) }])
    sendEach(client, 1, 0, null)
    client.connection.socket = null
    client.calls.length = 0
    settle()
    await turn()
    t.same(client.calls, [['pump']], `${outcome}: nothing released (the slot went with the socket), sent or counted`)
    t.equal(client.pendingRequest, null)
    t.equal(client.completed, 0)
  }
})

t.test('a promise that settles after another took its place, or after stop(): nothing sent', async (t) => {
  let settle
  const client = fakeClient([{ setupRequest: (req) => new Promise((resolve) => { settle = () => resolve(req) }) }])
  sendEach(client, 1, 0, null)
  client.pendingRequest = Promise.resolve()
  client.calls.length = 0
  settle()
  await turn()
  t.same(client.calls, [['pump']], 'no longer the one awaited')

  const stopped = fakeClient([{ setupRequest: (req) => new Promise((resolve, reject) => { settle = () => resolve(req) }) }])
  sendEach(stopped, 1, 0, null)
  stopped.stopped = true
  stopped.calls.length = 0
  settle()
  await turn()
  t.same(stopped.calls, [['release', 'held']], 'stopped: released, nothing sent, no pump')
})

t.test('a promise resolved with nothing (a reset), or when the socket takes no more: never started', async (t) => {
  let settle
  let resets = 0
  const client = fakeClient([{ path: '/a' }, { setupRequest: () => new Promise((resolve) => { settle = resolve }) }])
  client.sequence.onReset = () => { resets++ }
  sendEach(client, 2, 0, null)
  client.calls.length = 0
  settle(null)
  await turn()
  t.same(client.calls, [['release', 'held'], ['giveBack', 1], ['unsend', 1], ['pump']])
  t.equal(resets, 1)

  sendEach(client, 2, 0, null)
  client.framing.accepting = false
  client.calls.length = 0
  settle({ method: 'GET', path: '/x', headers: {} })
  await turn()
  t.same(client.calls, [['release', 'held'], ['giveBack', 1], ['unsend', 1], ['pump']], 'the socket takes nothing more (a close announced meanwhile)')
})

t.test('a promise rejected, or settled with what cannot be sent: a hook error, counted once', async (t) => {
  let settle
  const client = fakeClient([{ path: '/a' }, { setupRequest: () => new Promise((resolve, reject) => { settle = { resolve, reject } }) }])
  sendEach(client, 2, 0, null)
  client.calls.length = 0
  settle.reject(new Error('denied'))
  await turn()
  t.same(names(client.calls), ['release', 'onHookError', 'pump'])
  t.equal(client.calls[1][1], client)
  t.equal(client.calls[1][2].message, 'requests[1].setupRequest rejected: denied')
  t.equal(client.completed, 1)
  t.equal(client.pendingRequest, null)
  t.equal(client.sequence.index, 0, 'the sequence starts over')

  sendEach(client, 2, 0, null)
  client.calls.length = 0
  settle.resolve('not a request')
  await turn()
  t.same(names(client.calls), ['release', 'onHookError', 'pump'])
  t.equal(client.calls[1][2].message, 'requests[1].setupRequest must return a request object: got string')
  t.equal(client.completed, 2)
})
