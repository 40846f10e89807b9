'use strict'

// A run's connections: each target's route (its transport, protocol and
// framing, requests and their shared order, made once per target before anything
// is sent), the Clients built and opened a batch per turn of the event
// loop, and --connectionStages' ramp, which parks and unparks them.

const { performance } = require('perf_hooks')
const { Client } = require('../client/client')
const { transportFor } = require('../transport/transport')
const { seededRandom, streamSeed } = require('../core/random')
const { protocolOf } = require('../protocols/registry')
const { lazy } = require('../core/lazy')
// Lazy: only --connectionStages needs its ramp.
const connectionRamp = lazy(() => require('./connection-ramp'))
// Lazy: only --targets needs its entries' shared order.
const targetOrder = lazy(() => require('../client/order'))

// Connections opened per turn of the event loop: enough that thousands
// open within a few turns, few enough that one turn's batch does not hold
// the clock's timers back for long.
const OPEN_BATCH = 256
// The ramp of --connectionStages wakes at most this often (ms): a steep
// one moves several connections at a time rather than spinning.
const RAMP_MIN_MS = 10

// The random stream --order random draws from (far from the arrivals').
const TARGETS_STREAM = 0x7a000000

class Connections {
  // setup: what every client shares (Run#clientSetup); run: the run's
  // handle (run-handle.js), handed to each client; prepared:
  // lib/config/prepare.js's requestsByOrigin and setupClient.
  constructor (config, setup, run, { requestsByOrigin, setupClient }) {
    this.config = config
    this.setup = setup
    this.run = run
    this.requestsByOrigin = requestsByOrigin || null
    this.setupClient = setupClient || null
    this.orders = null
    this.routes = new Map(config.urls.map((target) => [target, this.routeOf(target)]))
    this.clients = []
    this.openTimer = null
    // --connectionStages: the count to hold from moment to moment; the
    // connections wanted now (the first `wanted` clients), and how many
    // have ever been started.
    this.ramp = config.connectionStages
      ? connectionRamp().createConnectionRamp(config.connectionStages, config.connectionShares)
      : null
    this.rampTimer = null
    this.rampFrom = 0
    this.wanted = this.ramp === null ? config.connections : 0
    this.started = 0
    this.doneClients = 0
    this.stopped = false
  }

  // The protocol a target's connections speak, decided once per target
  // in lib/config: its descriptor, and its framing's module, loaded here
  // (HTTP/2's builds its Huffman table at load), before anything is sent.
  routeOf (target) {
    const protocol = protocolOf(target)
    const framing = protocol.framing()
    return Object.freeze({
      target,
      connect: transportFor(target, this.config),
      protocol,
      framing,
      encoding: framing.encodingFor(target),
      requests: this.requestsByOrigin && this.requestsByOrigin.has(target.origin) ? this.requestsByOrigin.get(target.origin) : this.config.requests,
      order: this.orderFor(target)
    })
  }

  // --targets: one order of an origin's entries for all its connections.
  orderFor (target) {
    if (!this.config.targets || !this.requestsByOrigin || !this.requestsByOrigin.has(target.origin)) return null
    if (this.orders === null) this.orders = new Map()
    let order = this.orders.get(target.origin)
    if (order === undefined) {
      const { sharedOrder } = targetOrder()
      const config = this.config
      // Its own stream of the run's seed (the arrivals use 0, 1, 2…).
      const random = seededRandom(streamSeed(config.seed, config.shardIndex, config.workerIndex, TARGETS_STREAM + this.orders.size))
      order = sharedOrder(config.order, this.requestsByOrigin.get(target.origin).length, random)
      this.orders.set(target.origin, order)
    }
    return order
  }

  // The first batch is built before the run begins (Run#start): a request
  // that cannot be encoded, or a setupClient that throws, fails the start
  // and leaves nothing behind.
  build () {
    this.addClients(OPEN_BATCH)
  }

  addClients (count) {
    const urls = this.config.urls
    const to = Math.min(this.config.connections, this.clients.length + count)
    for (let i = this.clients.length; i < to; i++) {
      const client = new Client(this.run, this.setup, this.routes.get(urls[i % urls.length]), i)
      if (this.setupClient) this.setupClient(client)
      this.clients.push(client)
    }
  }

  // `startedAt`: the run's sample origin, which a ramp's stages count from.
  // onError(err): a setupClient that threw for a later batch.
  begin (startedAt, onError) {
    this.rampFrom = startedAt
    this.onError = onError
    if (this.ramp !== null) this.followRamp()
    else this.open()
  }

  // Connections are built and opened a batch per turn of the event loop,
  // up to the count wanted: thousands of them in one go would hold the
  // clock (samples, timeouts, the end of the run) for seconds.
  open () {
    this.openTimer = null
    const to = Math.min(this.clients.length, this.wanted)
    for (let i = this.started; i < to && !this.stopped; i++) this.clients[i].start()
    if (to > this.started) this.started = to
    if (this.started >= this.wanted || this.stopped) return
    this.openTimer = setImmediate(() => {
      this.openTimer = null
      if (this.stopped) return
      try {
        this.addClients(OPEN_BATCH)
      } catch (err) {
        return this.onError(err)
      }
      this.open()
    })
  }

  // --connectionStages: the connections above the ramp's count are parked
  // (closed once answered), those below it opened or unparked; then the
  // timer is armed for the count's next change.
  followRamp () {
    this.rampTimer = null
    if (this.stopped) return
    const t = performance.now() - this.rampFrom
    const want = this.ramp.at(t)
    const started = this.started
    for (let i = want; i < Math.min(this.wanted, started); i++) this.clients[i].park()
    for (let i = this.wanted; i < Math.min(want, started); i++) this.clients[i].unpark()
    this.wanted = want
    if (started < want && this.openTimer === null) this.open()
    const next = this.ramp.nextChange(t)
    if (next !== Infinity) this.rampTimer = setTimeout(() => this.followRamp(), Math.max(RAMP_MIN_MS, next - t))
  }

  // One more client is done: → whether all are (a ramp's, once a request
  // budget (-O) is spent and every connection it started is done).
  clientDone () {
    ++this.doneClients
    return this.ramp === null ? this.doneClients === this.config.connections : this.doneClients === this.started && this.run.exhausted()
  }

  // Connections open now: what each sample records beside its counts.
  openCount () {
    let open = 0
    for (let i = 0; i < this.started; i++) if (this.clients[i].connected) open++
    return open
  }

  inFlight () {
    let inFlight = 0
    for (const client of this.clients) inFlight += client.inFlight
    return inFlight
  }

  // Timers run before the event loop reads its sockets: after a stall,
  // responses and connections that are already waiting would count as
  // timeouts. Checking after the next poll reads them first.
  sweep () {
    setImmediate(() => {
      if (this.stopped) return
      const now = performance.now()
      for (const client of this.clients) client.checkTimeout(now)
    })
  }

  // → the requests that were in flight.
  stop () {
    this.stopped = true
    clearTimeout(this.rampTimer)
    if (this.openTimer) clearImmediate(this.openTimer)
    const inFlight = this.inFlight()
    for (const client of this.clients) client.stop()
    return inFlight
  }
}

module.exports = { Connections }
