'use strict'

// A run's connections (lib/engine/connections.js) on their own, with a
// run handle that notes what the clients ask of it: clients built and opened a
// batch per turn, one route per target (its transport, protocol and
// encoding shared by its connections), --targets' order shared per
// origin, when the last client is done (plain and along a ramp), the
// open and in-flight counts, the sweep, and stop().

const t = require('tap')
const net = require('net')
const { performance } = require('perf_hooks')
const { EventEmitter } = require('events')
const { Connections } = require('../../lib/engine/connections')
const { Client } = require('../../lib/client/client')
const { Run } = require('../../lib/engine/run')
const { buildConfig } = require('../../lib/config/config')
const { listen } = require('../helpers/listen')

const h1 = require('../../lib/http1/client-h1')
const h2 = require('../../lib/http2/client-h2')

const turn = () => new Promise((resolve) => setImmediate(resolve))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// A run handle that grants what grant(client, n) says (nothing by default) and
// notes every call.
function fakeRunHandle ({ grant = () => 0, exhausted = () => false } = {}) {
  const calls = []
  const note = (name, value) => (...args) => { calls.push([name, ...args]); return value }
  return {
    calls,
    emitResponses: false,
    take: (client, n) => grant(client, n),
    takeAttempt: note('takeAttempt', false),
    giveBack: note('giveBack'),
    exhausted,
    checkAmount: note('checkAmount'),
    onClientDone: note('onClientDone'),
    onClientError: note('onClientError'),
    onMismatch: note('onMismatch'),
    onHookError: note('onHookError'),
    onResponseHookError: note('onResponseHookError'),
    emitResponse: note('emitResponse')
  }
}

// What every client of a run of `config` shares, as the run makes it.
function setupOf (config) {
  return new Run(config, new EventEmitter(), {}).clientSetup
}

function connectionsFor (config, run = fakeRunHandle(), prepared = {}) {
  return new Connections(config, setupOf(config), run, prepared)
}

// Replaces a method of every Client for the test, noting each call's
// client; → the notes.
function stubClients (t, method, note = (client) => client.index) {
  const real = Client.prototype[method]
  const seen = []
  Client.prototype[method] = function (...args) { seen.push(note(this, ...args)) }
  t.teardown(() => { Client.prototype[method] = real })
  return seen
}

t.test('clients are built and opened a batch of 256 per turn of the event loop', async (t) => {
  const config = buildConfig({ url: 'http://127.0.0.1:9', connections: 600 })
  const connections = connectionsFor(config)
  // Each start() notes how many clients were built by then.
  const starts = stubClients(t, 'start', (client) => [client.index, connections.clients.length])
  t.equal(connections.clients.length, 0, 'none before build()')
  connections.build()
  t.equal(connections.clients.length, 256, 'build(): the first batch, before the run begins')
  t.equal(starts.length, 0, 'and none opened')
  connections.begin(0, (err) => t.fail(err))
  t.equal(starts.length, 256, 'begin(): the first batch opened at once')
  await turn()
  t.equal(starts.length, 512, 'the next batch on the next turn')
  t.equal(connections.clients.length, 512)
  await turn()
  t.equal(starts.length, 600, 'the rest on the third')
  t.equal(connections.clients.length, 600, 'no more than asked for')
  await turn()
  t.equal(starts.length, 600, 'and nothing after')
  t.same(starts.map(([index]) => index), Array.from({ length: 600 }, (_, i) => i), 'each client opened once, in order')
  const perTurn = {}
  for (const [, built] of starts) perTurn[built] = (perTurn[built] || 0) + 1
  t.same(perTurn, { 256: 256, 512: 256, 600: 88 }, 'each batch opened as it was built')
  t.equal(connections.started, 600)
  t.equal(connections.openTimer, null)
  connections.stop()
})

t.test('stop() while batches are still to come: nothing more is built or opened', async (t) => {
  const config = buildConfig({ url: 'http://127.0.0.1:9', connections: 600 })
  const connections = connectionsFor(config)
  const starts = stubClients(t, 'start')
  stubClients(t, 'stop')
  connections.build()
  connections.begin(0, (err) => t.fail(err))
  t.equal(connections.stop(), 0, 'nothing was in flight')
  await turn()
  await turn()
  t.equal(starts.length, 256)
  t.equal(connections.clients.length, 256)
})

t.test('a setupClient that throws for a later batch goes to begin()\'s onError', async (t) => {
  const config = buildConfig({ url: 'http://127.0.0.1:9', connections: 300 })
  const boom = new Error('setupClient failed')
  const connections = connectionsFor(config, fakeRunHandle(), { setupClient: (client) => { if (client.index === 260) throw boom } })
  const starts = stubClients(t, 'start')
  connections.build()
  const errors = []
  connections.begin(0, (err) => errors.push(err))
  await turn()
  await turn()
  t.same(errors, [boom])
  t.equal(starts.length, 256, 'the failing batch opened nothing')
})

t.test('one route per target, shared by its connections', async (t) => {
  const config = buildConfig({ url: ['http://127.0.0.1:9/a', 'http://127.0.0.1:10/b'], connections: 5 })
  const connections = connectionsFor(config)
  connections.build()
  const [a, b] = config.urls
  t.equal(connections.routes.size, 2)
  const routeA = connections.routes.get(a)
  const routeB = connections.routes.get(b)
  t.ok(Object.isFrozen(routeA))
  t.equal(routeA.target, a)
  t.same(connections.clients.map((c) => c.target), [a, b, a, b, a], 'connections go round the targets')
  const clients = connections.clients
  for (const i of [0, 2, 4]) t.equal(clients[i].connection.connect, routeA.connect, `client ${i}: target a's transport`)
  for (const i of [1, 3]) t.equal(clients[i].connection.connect, routeB.connect, `client ${i}: target b's transport`)
  t.not(routeA.connect, routeB.connect, 'each target its own')
  for (const i of [0, 2, 4]) t.equal(clients[i].sequence.encoding, routeA.encoding)
  t.equal(routeA.requests, config.requests, 'without requests of their own, the run\'s')
})

t.test('the protocol is the target\'s, its encoding made once per target', async (t) => {
  const base = buildConfig({ url: ['http://127.0.0.1:9/a', 'http://127.0.0.1:10/b'], connections: 4 })
  for (const http2 of [false, true]) {
    const config = { ...base, protocolName: http2 ? 'h2' : 'http/1.1', urls: [{ ...base.urls[0], protocolName: 'h2' }, { ...base.urls[1], protocolName: 'http/1.1' }] }
    const connections = connectionsFor(config)
    connections.build()
    const [a, b] = config.urls
    t.equal(connections.routes.get(a).framing, h2, `http2: ${http2}: the h2 target speaks HTTP/2`)
    t.equal(connections.routes.get(b).framing, h1, `http2: ${http2}: the http/1.1 target speaks HTTP/1.1`)
    const clients = connections.clients
    t.ok(clients[0].framing instanceof h2.Http2, 'its clients hold an HTTP/2 framing object')
    t.notOk(clients[1].framing instanceof h2.Http2)
    t.equal(clients[0].sequence.encoding, clients[2].sequence.encoding, 'one HTTP/2 encoding for the target\'s connections')
    t.equal(clients[0].sequence.encoding, connections.routes.get(a).encoding)
  }
})

t.test('--targets: one order per origin, shared by all its connections', async (t) => {
  const base = buildConfig({ url: ['http://127.0.0.1:9/x', 'http://127.0.0.1:9/y', 'http://127.0.0.1:10/z', 'http://127.0.0.1:11/w'], connections: 4 })
  const [x, y, z, w] = base.urls
  const entries = (n, p) => Array.from({ length: n }, (_, i) => ({ method: 'GET', path: `/${p}${i}` }))
  const requestsByOrigin = new Map([[x.origin, entries(3, 'x')], [z.origin, entries(2, 'z')]])
  const sequential = connectionsFor({ ...base, targets: 'targets.json', order: 'sequential' }, fakeRunHandle(), { requestsByOrigin })
  const route = (c, target) => c.routes.get(target)
  t.equal(route(sequential, x).order, route(sequential, y).order, 'one order for the two targets of an origin')
  t.not(route(sequential, x).order, route(sequential, z).order, 'another for another origin')
  t.equal(route(sequential, w).order, null, 'none for an origin without entries')
  t.equal(route(sequential, x).requests, requestsByOrigin.get(x.origin), 'the origin\'s entries')
  t.equal(route(sequential, w).requests, base.requests, 'an origin without entries: the run\'s requests')
  const picks = [route(sequential, x).order.pick(), route(sequential, y).order.pick(), route(sequential, x).order.pick(), route(sequential, y).order.pick()]
  t.same(picks, [0, 1, 2, 0], 'sequential: one cursor across the origin\'s targets')
  t.same([route(sequential, z).order.pick(), route(sequential, z).order.pick(), route(sequential, z).order.pick()], [0, 1, 0])

  // Random: drawn from the run's seed, each origin from its own stream.
  const big = new Map([[x.origin, entries(1000, 'x')], [z.origin, entries(1000, 'z')]])
  const draws = (seed) => {
    const c = connectionsFor({ ...base, targets: 'targets.json', order: 'random', seed }, fakeRunHandle(), { requestsByOrigin: big })
    const take = (target) => Array.from({ length: 20 }, () => route(c, target).order.pick())
    return { x: take(x), z: take(z) }
  }
  const one = draws(7)
  t.same(draws(7), one, 'the same seed, the same draws')
  t.notSame(draws(8).x, one.x, 'another seed, other draws')
  t.notSame(one.x, one.z, 'two origins do not draw the same')
  t.ok(one.x.every((i) => Number.isInteger(i) && i >= 0 && i < 1000))

  // Without --targets (a HAR's requests by origin): no shared order.
  const har = connectionsFor({ ...base, order: 'sequential' }, fakeRunHandle(), { requestsByOrigin })
  t.equal(route(har, x).order, null)
})

t.test('clientDone: the last of the connections', async (t) => {
  const config = buildConfig({ url: 'http://127.0.0.1:9', connections: 3 })
  const connections = connectionsFor(config)
  t.same([connections.clientDone(), connections.clientDone(), connections.clientDone()], [false, false, true])
})

t.test('clientDone along a ramp: every connection started is done and the budget is spent', async (t) => {
  let spent = false
  const config = buildConfig({ url: 'http://127.0.0.1:9', connections: 3, connectionStages: [{ duration: 0, connections: 2 }, { duration: 10, connections: 2 }] })
  const connections = connectionsFor(config, fakeRunHandle({ exhausted: () => spent }))
  const starts = stubClients(t, 'start')
  stubClients(t, 'stop')
  connections.build()
  connections.begin(0, (err) => t.fail(err))
  t.same(starts, [0, 1], 'the ramp wants two of the three')
  t.equal(connections.clientDone(), false, 'one of two')
  t.equal(connections.clientDone(), false, 'two of two, but the budget is not spent: the ramp may open more')
  const again = connectionsFor(config, fakeRunHandle({ exhausted: () => spent }))
  again.build()
  again.begin(0, (err) => t.fail(err))
  spent = true
  t.equal(again.clientDone(), false, 'one of two')
  t.equal(again.clientDone(), true, 'two of the two started, the budget spent')
  connections.stop()
  again.stop()
})

t.test('a ramp parks the connections above its count and unparks them as it climbs', async (t) => {
  const config = buildConfig({
    url: 'http://127.0.0.1:9',
    connections: 3,
    connectionStages: [{ duration: 0, connections: 3 }, { duration: 0.03, connections: 3 }, { duration: 0, connections: 1 },
      { duration: 0.03, connections: 1 }, { duration: 0, connections: 2 }, { duration: 10, connections: 2 }]
  })
  const connections = connectionsFor(config)
  // One log of the calls, with when they came (ms from the begin).
  const log = []
  let from = 0
  for (const method of ['start', 'park', 'unpark']) stubClients(t, method, (client) => log.push([method, client.index, performance.now() - from]))
  stubClients(t, 'stop')
  connections.build()
  from = performance.now()
  connections.begin(from, (err) => t.fail(err))
  t.same(log.map(([m, i]) => `${m} ${i}`), ['start 0', 'start 1', 'start 2'], 'three at first')
  for (let i = 0; i < 400 && log.length < 6; i++) await sleep(5)
  await sleep(20)
  t.same(log.map(([m, i]) => `${m} ${i}`), ['start 0', 'start 1', 'start 2', 'park 1', 'park 2', 'unpark 1'], 'down to one, then up to two')
  const at = (call) => log.find(([m, i]) => `${m} ${i}` === call)[2]
  t.ok(at('park 1') >= 29 && at('unpark 1') >= 59, `down at 30 ms (${at('park 1').toFixed(1)}), up at 60 (${at('unpark 1').toFixed(1)})`)
  connections.stop()
})

t.test('openCount, inFlight and stop() against a server that never answers', async (t) => {
  const server = { sockets: [], heads: 0, closed: 0 }
  const port = await listen(t, net.createServer((socket) => {
    server.sockets.push(socket)
    socket.on('data', (buf) => { server.heads += buf.toString('latin1').split('\r\n\r\n').length - 1 })
    socket.on('close', () => server.closed++)
  }))
  const config = buildConfig({ url: `http://127.0.0.1:${port}`, connections: 3 })
  // One request each for the first two clients, none for the third.
  const granted = new Set()
  const grant = (client, n) => {
    if (client.index > 1 || granted.has(client.index)) return 0
    granted.add(client.index)
    return 1
  }
  const connections = connectionsFor(config, fakeRunHandle({ grant }))
  connections.build()
  t.equal(connections.openCount(), 0, 'none open before they start')
  connections.begin(0, (err) => t.fail(err))
  for (let i = 0; i < 200 && (server.heads < 2 || connections.openCount() < 3); i++) await sleep(5)
  t.equal(connections.openCount(), 3, 'three open')
  t.equal(server.heads, 2)
  t.equal(connections.inFlight(), 2, 'two requests in flight')
  t.equal(connections.stop(), 2, 'stop(): the requests that were in flight')
  t.ok(connections.clients.every((c) => c.stopped), 'every client stopped')
  for (let i = 0; i < 200 && server.closed < 3; i++) await sleep(5)
  t.equal(server.closed, 3, 'their sockets closed')
  await sleep(30)
  t.equal(server.sockets.length, 3, 'and none opened again')
  t.equal(connections.openCount(), 0)
})

t.test('sweep: each client\'s timeouts checked after the next poll, not once stopped', async (t) => {
  const config = buildConfig({ url: 'http://127.0.0.1:9', connections: 2 })
  const connections = connectionsFor(config)
  const checked = stubClients(t, 'checkTimeout', (client, now) => [client.index, typeof now])
  stubClients(t, 'stop')
  connections.build()
  connections.sweep()
  t.same(checked, [], 'not at once')
  await turn()
  t.same(checked, [[0, 'number'], [1, 'number']])
  connections.sweep()
  connections.stop()
  await turn()
  t.equal(checked.length, 2, 'a sweep due after stop() checks nothing')
})
