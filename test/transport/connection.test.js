'use strict'

// One connection's socket (lib/transport/connection.js) on its own: a
// protocol that notes what it is told, and sockets the test drives
// ('error', 'end', 'close'). A failure counted once, the back-off, a
// recycle, park and unpark, stop, the three timeouts, and an upgrade that
// leaves the old socket unheard.

const t = require('tap')
const { EventEmitter } = require('events')
const { performance } = require('perf_hooks')
const { Connection } = require('../../lib/transport/connection')
const { RequestTimeoutError } = require('../../lib/core/errors')

const turn = () => new Promise((resolve) => setImmediate(resolve))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

class FakeSocket extends EventEmitter {
  constructor () {
    super()
    this.destroyed = 0
  }

  destroy () {
    this.destroyed++
  }
}

// A protocol whose answers the test sets (inFlight, sentOnSocket, done,
// left, closeError, oldest, setUp) and whose calls are noted in order.
function fakeProtocol () {
  const calls = []
  const p = {
    calls,
    inFlight: 0,
    sentOnSocket: 0,
    done: false,
    left: true,
    closeError: null,
    oldest: 0,
    setUp: 0,
    onOpen: () => calls.push('onOpen'),
    onReady: () => calls.push('onReady'),
    onData: (buf, start, end) => calls.push(['onData', buf.toString('latin1', start, end)]),
    onEnd: () => calls.push('onEnd'),
    onClose: (connected) => { calls.push(['onClose', connected]); return p.closeError },
    onFail: (err, connected) => calls.push(['onFail', err, connected]),
    dropInFlight: () => calls.push('dropInFlight'),
    nothingLeft: () => !p.left,
    finish: () => calls.push('finish'),
    oldestSentAt: () => p.oldest,
    setUpSince: () => p.setUp
  }
  return p
}

// A connection over fake sockets: `sockets` in the order they were
// opened; each connect() is noted in the protocol's calls too.
function connectionOf ({ timeoutMs = 1000, amount = 0 } = {}) {
  const protocol = fakeProtocol()
  const sockets = []
  const connect = (connection) => {
    // connect() is handed the connection itself.
    protocol.calls.push(connection === c ? 'connect' : 'connect(another)')
    const socket = new FakeSocket()
    sockets.push(socket)
    return socket
  }
  const c = new Connection(protocol, connect, { timeoutMs, amount })
  return { c, protocol, sockets }
}

// The same, opened and connected.
function connectedOf (opts) {
  const conn = connectionOf(opts)
  conn.c.open()
  conn.c.onConnect()
  return conn
}

t.test('open, ready, data: the protocol is told, in order', async (t) => {
  const { c, protocol, sockets } = connectionOf()
  c.open()
  t.same(protocol.calls, ['onOpen', 'connect'], 'the protocol readies itself before the socket is asked for')
  t.equal(c.connected, false)
  t.equal(c.socket, sockets[0])
  c.onConnect()
  t.equal(c.connected, true)
  c.onData(Buffer.from('xxHTTP/1.1yy'), 2, 10)
  t.same(protocol.calls.slice(2), ['onReady', ['onData', 'HTTP/1.1']], 'what was read, as (buf, start, end)')
  c.open()
  t.equal(sockets.length, 1, 'open() with a socket already: nothing')
})

t.test('phases(): each step of opening the socket from the marks the transport set, in µs; a step not taken is -1, a lookup not needed 0', async (t) => {
  const { c } = connectionOf()
  c.open()
  const start = c.connectStartedAt
  // Plain TCP to an address: no lookup, connected when ready.
  c.readyAt = 0
  c.onConnect()
  // The loop not busy in between (the test of the busy time is below).
  c.startBusy = c.tcpBusy = c.readyBusy = 0
  const plain = c.phases()
  t.same([plain.dns, plain.proxyConnect, plain.tls], [0, -1, -1])
  t.equal(plain.connect, Math.round((c.readyAt - start) * 1000))
  t.equal(c.tcpAt, c.readyAt, 'TCP up at the ready moment')
  // A name looked up, TCP, a proxy's CONNECT, then TLS.
  c.stop()
  const { c: d } = connectionOf()
  d.open()
  const at = d.connectStartedAt
  d.mark('lookup')
  d.mark('tcp')
  d.mark('tunnel')
  t.ok(d.lookupAt >= at && d.tcpAt >= d.lookupAt && d.tunnelAt >= d.tcpAt, 'each step marked when it ends')
  d.onConnect()
  t.equal(d.secure, true, 'TCP marked before the ready moment: a handshake followed')
  d.lookupAt = at + 1
  d.tcpAt = at + 1.5
  d.tunnelAt = at + 4
  d.readyAt = at + 10.25
  d.startBusy = d.lookupBusy = d.tcpBusy = d.tunnelBusy = d.readyBusy = 0
  const idle = { dnsDelay: 0, connectDelay: 0, proxyConnectDelay: 0, tlsDelay: 0 }
  t.same(d.phases(), { dns: 1000, connect: 500, proxyConnect: 2500, tls: 6250, ...idle })
  d.tunnelAt = 0
  t.same(d.phases(), { dns: 1000, connect: 500, proxyConnect: -1, tls: 8750, ...idle }, 'TLS straight after TCP')
  d.stop()
  d.stopped = false
  d.socket = null
  d.open()
  t.same([d.lookupAt, d.tcpAt, d.tunnelAt, d.readyAt], [0, 0, 0, 0], 'a new socket starts its marks afresh')
  d.stop()
})

t.test('phases(): the connect from its hand-over to the kernel, and the time our event loop was busy inside each step beside it, as its generator delay', async (t) => {
  const { c } = connectionOf()
  c.open()
  const at = c.connectStartedAt
  c.mark('attempt')
  t.ok(c.attemptAt >= at, 'the hand-over marked')
  t.ok(c.attemptBusy >= c.startBusy, 'with the loop\'s busy time then')
  c.mark('tcp')
  const tcpAt = c.tcpAt
  c.mark('lookup')
  t.equal(c.lookupAt, tcpAt, 'ends delivered by one poll: observed at the same moment')
  c.lookupAt = 0
  c.onConnect()
  // Opened at 0; handed to the kernel at 3 ms (the loop busy 2.5 ms
  // before: other connections opened); TCP up at 5 ms, the loop busy
  // 1.5 ms of those 2; the handshake done at 9 ms, 1 ms of it our loop's.
  c.attemptAt = at + 3
  c.tcpAt = at + 5
  c.readyAt = at + 9
  c.startBusy = 10
  c.attemptBusy = 12.5
  c.tcpBusy = 14
  c.readyBusy = 15
  t.same(c.phases(), { dns: 0, connect: 2000, proxyConnect: -1, tls: 4000, dnsDelay: 0, connectDelay: 1500, proxyConnectDelay: 0, tlsDelay: 1000 })
  c.attemptAt = 0
  t.same([c.phases().connect, c.phases().connectDelay], [5000, 4000], 'no hand-over marked (a Unix socket): from the open')
  c.stop()
})

t.test('a failure is counted once, however many ways the socket says so', async (t) => {
  const { c, protocol, sockets } = connectionOf({ timeoutMs: 10 })
  c.open()
  protocol.calls.length = 0
  const err = new Error('ECONNREFUSED')
  sockets[0].emit('error', err)
  sockets[0].emit('error', new Error('again'))
  c.checkTimeout(performance.now() + 1000)
  sockets[0].emit('end')
  sockets[0].emit('close')
  t.same(protocol.calls.filter((x) => x[0] === 'onFail'), [['onFail', err, false]], 'one onFail, not connected')
  t.notOk(protocol.calls.some((x) => x[0] === 'onClose'), 'a close after a failure counts nothing more')
  t.ok(protocol.calls.includes('dropInFlight'), 'what was in flight is dropped')
  t.ok(sockets[0].destroyed >= 1, 'the socket is destroyed')
  t.equal(c.failures, 1)
  await turn()
  t.equal(sockets.length, 2, 'the first failure: opened again at once')
  t.equal(c.countedFailure, false, 'the new socket may fail again')

  // Once connected, the failure says so.
  c.onConnect()
  const reset = new Error('ECONNRESET')
  sockets[1].emit('error', reset)
  t.same(protocol.calls.filter((x) => x[0] === 'onFail').pop(), ['onFail', reset, true])
})

t.test('backoff(): none the first time, then 5 ms doubling to the most', async (t) => {
  const plain = connectionOf().c
  t.same([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 30].map((n) => plain.backoff(n)), [0, 5, 10, 20, 40, 80, 160, 320, 640, 1000, 1000, 1000])
  const amount = connectionOf({ amount: 10 }).c
  t.same([1, 2, 3, 4, 5, 6, 7].map((n) => amount.backoff(n)), [0, 5, 10, 20, 40, 50, 50], 'with an amount, at most 50 ms')
})

// Fails the current socket and closes it; → ms until the next is opened.
async function failAndTime (t, { c, sockets }) {
  const count = sockets.length
  sockets[count - 1].emit('error', new Error('refused'))
  sockets[count - 1].emit('close')
  const closedAt = performance.now()
  await turn()
  if (sockets.length > count) return { at: 'next turn', timer: c.reconnectTimer }
  const timer = c.reconnectTimer
  while (sockets.length === count) await sleep(1)
  return { at: performance.now() - closedAt, timer }
}

t.test('failures in a row back off before the next socket; a response ends the run of failures', async (t) => {
  const conn = connectionOf()
  conn.c.open()
  const first = await failAndTime(t, conn)
  t.same(first, { at: 'next turn', timer: null }, 'first failure: at once')
  const delays = []
  for (let i = 0; i < 3; i++) {
    const { at, timer } = await failAndTime(t, conn)
    t.not(timer, null, 'a timer, not an immediate')
    delays.push(at)
  }
  t.ok(delays[0] >= 4 && delays[1] >= 9 && delays[2] >= 19, `5, 10, 20 ms: ${delays.map((d) => d.toFixed(1)).join(', ')}`)
  t.equal(conn.c.failures, 4)
  conn.c.succeeded()
  t.same(await failAndTime(t, conn), { at: 'next turn', timer: null }, 'after a response: at once again')
  conn.c.stop()
})

t.test('a close before any request went is a failure for the back-off; after some, a plain reconnect', async (t) => {
  const { c, protocol, sockets } = connectedOf()
  sockets[0].emit('close')
  t.same(protocol.calls.filter((x) => x[0] === 'onClose'), [['onClose', true]], 'asked what the close costs, connected')
  t.equal(c.failures, 1, 'nothing was sent on it: a failure')
  await turn()
  t.equal(sockets.length, 2, 'the first: at once')
  c.onConnect()
  sockets[1].emit('close')
  t.equal(c.failures, 2)
  t.not(c.reconnectTimer, null, 'the second in a row: backed off')
  await sleep(15)
  t.equal(sockets.length, 3)
  c.onConnect()
  protocol.sentOnSocket = 4
  sockets[2].emit('close')
  t.equal(c.failures, 2, 'requests went on it: no failure')
  t.equal(c.reconnectTimer, null)
  await turn()
  t.equal(sockets.length, 4, 'opened again at once')
  c.stop()
})

t.test('a close the protocol counts as an error fails the connection with it', async (t) => {
  const { c, protocol, sockets } = connectedOf()
  protocol.inFlight = 2
  const hangUp = new Error('socket hang up')
  protocol.closeError = hangUp
  sockets[0].emit('close')
  t.same(protocol.calls.filter((x) => Array.isArray(x) && (x[0] === 'onClose' || x[0] === 'onFail')),
    [['onClose', true], ['onFail', hangUp, true]])
  t.equal(c.failures, 1)
  c.stop()
})

t.test('closed for good: nothing left to send, or done', async (t) => {
  {
    const { protocol, sockets } = connectedOf()
    protocol.sentOnSocket = 1
    protocol.left = false
    sockets[0].emit('close')
    t.equal(protocol.calls.filter((x) => x === 'finish').length, 1, 'nothing left: finish()')
    await sleep(10)
    t.equal(sockets.length, 1, 'not opened again')
  }
  {
    const { c, protocol, sockets } = connectionOf()
    c.open()
    protocol.done = true
    protocol.left = false
    sockets[0].emit('close')
    t.notOk(protocol.calls.includes('finish'), 'already done: not finished twice')
    await sleep(10)
    t.equal(sockets.length, 1)
    t.equal(c.socket, null)
    t.equal(c.connected, false)
  }
})

t.test('the peer ends: the protocol hears it, the socket is destroyed', async (t) => {
  const { c, protocol, sockets } = connectedOf()
  sockets[0].emit('end')
  t.equal(protocol.calls[protocol.calls.length - 1], 'onEnd')
  t.equal(sockets[0].destroyed, 1)
  c.stop()
})

t.test('recycle(): a new socket at once, the old one unheard', async (t) => {
  const { c, protocol, sockets } = connectedOf()
  c.recycle()
  t.equal(sockets[0].destroyed, 1)
  t.equal(c.socket, null)
  const before = protocol.calls.length
  sockets[0].emit('error', new Error('late'))
  sockets[0].emit('close')
  t.same(protocol.calls.slice(before), [], 'the old socket\'s events count nothing')
  await turn()
  t.equal(sockets.length, 2)
  t.equal(c.socket, sockets[1])
  t.equal(c.failures, 0)
  c.stop()
})

t.test('checkTimeout(): a request from when it was sent', async (t) => {
  const { c, protocol } = connectedOf({ timeoutMs: 500 })
  protocol.inFlight = 1
  protocol.oldest = 10000
  c.checkTimeout(10499)
  t.notOk(protocol.calls.some((x) => x[0] === 'onFail'), 'not before the timeout')
  c.checkTimeout(10500)
  const fails = protocol.calls.filter((x) => x[0] === 'onFail')
  t.equal(fails.length, 1)
  const [, err, connected] = fails[0]
  t.ok(err instanceof RequestTimeoutError)
  t.same({ code: err.code, connected }, { code: 'AC_TIMEOUT', connected: true }, 'a request timeout, not a connect one')
  t.same([err.message, err.detail], ['request timed out', 'no response within 0.5 s'])
  c.checkTimeout(20000)
  t.equal(protocol.calls.filter((x) => x[0] === 'onFail').length, 1, 'once')
  c.stop()
})

t.test('checkTimeout(): a connection from when it began to connect', async (t) => {
  const { c, protocol } = connectionOf({ timeoutMs: 500 })
  const before = performance.now()
  c.open()
  const after = performance.now()
  c.checkTimeout(before + 499)
  t.notOk(protocol.calls.some((x) => x[0] === 'onFail'))
  c.checkTimeout(after + 500)
  const [, err, connected] = protocol.calls.find((x) => x[0] === 'onFail')
  t.same({ code: err.code, connected }, { code: 'AC_CONNECT_TIMEOUT', connected: false })
  t.same([err.message, err.detail], ['request timed out', 'the connection was not established within 0.5 s'])
  c.stop()
})

t.test('checkTimeout(): connected, the protocol\'s set-up from setUpSince()', async (t) => {
  const { c, protocol } = connectedOf({ timeoutMs: 500 })
  protocol.setUp = 0
  c.checkTimeout(performance.now() + 100000)
  t.notOk(protocol.calls.some((x) => x[0] === 'onFail'), 'not waiting for a set-up: an idle connection never times out')
  protocol.setUp = 50000
  c.checkTimeout(50499)
  t.notOk(protocol.calls.some((x) => x[0] === 'onFail'))
  c.checkTimeout(50500)
  const [, err, connected] = protocol.calls.find((x) => x[0] === 'onFail')
  t.same({ code: err.code, connected }, { code: 'AC_CONNECT_TIMEOUT', connected: true }, 'a set-up not done counts as a connection not opened')
  c.stop()
})

t.test('checkTimeout() without a socket: nothing', async (t) => {
  const { c, protocol } = connectionOf({ timeoutMs: 1 })
  c.checkTimeout(performance.now() + 1000)
  t.same(protocol.calls, [])
})

t.test('park(): closed by us, nothing counted, not opened again until unpark()', async (t) => {
  const { c, protocol, sockets } = connectedOf()
  protocol.calls.length = 0
  c.park()
  t.same({ parked: c.parked, socket: c.socket, connected: c.connected, destroyed: sockets[0].destroyed }, { parked: true, socket: null, connected: false, destroyed: 1 })
  sockets[0].emit('close')
  c.open()
  await sleep(10)
  t.same(protocol.calls, [], 'its close unheard, and open() does nothing while parked')
  t.equal(sockets.length, 1)
  c.failures = 3
  c.unpark()
  t.same({ parked: c.parked, failures: c.failures, sockets: sockets.length }, { parked: false, failures: 0, sockets: 2 }, 'unpark(): a fresh start, opened now')
  c.unpark()
  t.equal(sockets.length, 2, 'unpark() when not parked: nothing')
  c.stop()
})

t.test('park() during a back-off: the reconnect planned is dropped', async (t) => {
  const conn = connectionOf()
  const { c, sockets } = conn
  c.open()
  await failAndTime(t, conn)
  sockets[1].emit('error', new Error('refused'))
  sockets[1].emit('close')
  t.not(c.reconnectTimer, null, 'a reconnect planned in 5 ms')
  c.park()
  t.equal(c.reconnectTimer, null)
  await sleep(20)
  t.equal(sockets.length, 2, 'and it never comes')
  c.stop()
})

t.test('stop(): the socket destroyed, nothing reopened, its close not counted', async (t) => {
  const conn = connectionOf()
  const { c, protocol, sockets } = conn
  c.open()
  c.onConnect()
  c.stop()
  t.equal(sockets[0].destroyed, 1)
  sockets[0].emit('close')
  t.notOk(protocol.calls.some((x) => x[0] === 'onClose'), 'the protocol is not asked what the close costs')
  t.ok(protocol.calls.includes('dropInFlight'))
  c.open()
  await sleep(10)
  t.equal(sockets.length, 1, 'not opened again')

  // Stopped during a back-off.
  const other = connectionOf()
  other.c.open()
  await failAndTime(t, other)
  other.sockets[1].emit('error', new Error('refused'))
  other.sockets[1].emit('close')
  other.c.stop()
  t.equal(other.c.reconnectTimer, null)
  await sleep(20)
  t.equal(other.sockets.length, 2)
})

t.test('upgrade(): the new socket is heard, the old one no more', async (t) => {
  const { c, protocol, sockets } = connectionOf()
  c.open()
  const raw = sockets[0]
  const tls = new FakeSocket()
  t.equal(c.upgrade(raw, tls), true)
  t.equal(c.socket, tls)
  const before = protocol.calls.length
  raw.emit('error', new Error('old'))
  raw.emit('end')
  raw.emit('close')
  t.same(protocol.calls.slice(before), [], 'the old socket\'s events are ignored')
  t.equal(raw.destroyed, 0)
  const err = new Error('handshake failed')
  tls.emit('error', err)
  t.same(protocol.calls.slice(before), [['onFail', err, false]], 'the new one\'s are the connection\'s')
  t.equal(tls.destroyed, 1)

  t.equal(c.upgrade(raw, new FakeSocket()), false, 'from a socket it no longer has: refused')
  c.stop()
  t.equal(c.upgrade(tls, new FakeSocket()), false, 'once stopped: refused')
})
