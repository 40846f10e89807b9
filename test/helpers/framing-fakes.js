'use strict'

// Fakes to drive a framing object (lib/http1/client-h1.js,
// lib/http2/client-h2.js) on its own: a socket that keeps what is written
// to it, and a client that notes each call a framing makes of it. The
// client is strict: a framing that reads any member of it but the calls
// lib/client/client.js declares for it fails the test at once (the same
// list as test/client/client.test.js holds on real runs). framed() makes
// the framing with the Client's requests in flight (lib/client/in-flight.js)
// and plays the Client's part of the seam, so that a test drives the
// framing as the Client does.

const { performance } = require('perf_hooks')
const { InOrder, AnyOrder } = require('../../lib/client/in-flight')
const { CLIENT } = require('./seam')

const DECLARED = new Set(CLIENT)

function fakeSocket () {
  return {
    writes: [],
    // The buffers themselves, as written.
    originals: [],
    destroyed: false,
    // Bytes the kernel did not take yet (HTTP/1.1's templates look).
    writableLength: 0,
    write (buf) {
      // A copy: a framing may write over a buffer once it is sent.
      this.writes.push(Buffer.from(buf))
      this.originals.push(buf)
      return true
    },
    destroy () {
      this.destroyed = true
    },
    // Everything written, and forgotten.
    take () {
      const out = Buffer.concat(this.writes)
      this.writes.length = 0
      this.originals.length = 0
      return out
    }
  }
}

// sequence: a RequestSequence; options: the client's state (wantBody,
// wantHeaders, maxBodySize, sentOnSocket, readAt, target) and calls.
// Returns { client (strict, for the framing), state (its state, to set up
// and look at), calls, connection, socket, attach(slots, framing) }.
function fakeClient (sequence, options = {}) {
  const calls = []
  const socket = fakeSocket()
  const connection = { socket }
  const note = (name) => (...args) => { calls.push([name, ...args]) }
  let slots = null
  let framing = null
  const state = {
    connection,
    sequence,
    target: {},
    wantBody: false,
    wantHeaders: false,
    maxBodySize: Infinity,
    sentOnSocket: 0,
    stopped: false,
    // The time of the read being handled.
    readAt: 0,
    // A response, noted with its slot's times as the Client reads them.
    respond: (slot, status, bytes, body, headers) => {
      calls.push(['respond', status, bytes, slots.sentAt[slot], slots.plannedAt[slot], slots.entryOf[slot], body, headers, slots.firstAt[slot]])
    },
    overflowed: note('overflowed'),
    requestFailed: note('requestFailed'),
    resend: note('resend'),
    // As the real client, a failure is counted once; the requests in flight
    // end with it and the framing writes nothing more.
    fail (err) {
      calls.push(['fail', err])
      if (framing !== null) framing.close()
    },
    setUp: () => calls.push(['succeeded']),
    pump: note('pump'),
    checkIdle: note('checkIdle'),
    sendEach: note('sendEach'),
    emitHeaders: note('emitHeaders'),
    ...options
  }
  const client = new Proxy(state, {
    get (obj, prop) {
      if (typeof prop === 'string' && !DECLARED.has(prop)) {
        throw new Error(`a framing read client.${prop}, which lib/client/client.js does not declare`)
      }
      return obj[prop]
    },
    set (obj, prop) {
      throw new Error(`a framing set client.${String(prop)}`)
    }
  })
  return {
    client,
    state,
    calls,
    connection,
    socket,
    attach (table, made) {
      slots = table
      framing = made
    }
  }
}

// module: a framing's module; setup: Run#clientSetup's part it reads.
// Returns { framing: the framing, driven by the Client's calls (below),
// raw: the framing itself, slots, ...the fake client's }.
function framed (module, sequence, setup, options = {}) {
  const fake = fakeClient(sequence, options)
  const state = fake.state
  const slots = module.inOrder ? new InOrder(setup.pipelining) : new AnyOrder(setup.pipelining)
  const framing = module.create(fake.client, { maxBodySize: state.maxBodySize, ...setup }, slots, sequence, state.target)
  fake.attach(slots, framing)
  let connectedAt = 0
  // The Client's part: what it does around each call of the seam, under
  // the names the tests drive the framing by.
  const asClient = {
    inFlight: () => slots.count,
    oldestSentAt: () => () => slots.oldestSentAt(),
    setUpSince: () => () => framing.ready ? 0 : connectedAt,
    // A new socket (what the framing writes as it takes it is left out:
    // it is written again at connected()), then the Client's onReady:
    // waiting for the framing's set-up from then, or pumping.
    // The requests of the last socket ended with it, as the Client drops
    // them before it opens another.
    open: () => () => {
      slots.clear()
      framing.close()
      const socket = fake.socket
      const written = socket.writes.length
      framing.connected(socket)
      socket.writes.length = written
      socket.originals.length = written
    },
    connected: () => () => {
      connectedAt = performance.now()
      if (!module.inOrder) framing.connected(fake.socket)
      if (framing.ready) state.pump()
    },
    read: () => (buf, start, end) => framing.read(buf, start, end, state.readAt),
    refresh: () => () => framing.refresh(state.wantBody, state.wantHeaders),
    // The socket closed with requests in flight: the error they end in, or
    // null when they go again (resent).
    unanswered: () => () => {
      const err = framing.closed(state.sentOnSocket - slots.count)
      if (err === null && slots.count > 0) state.resend(slots.count)
      return err
    },
    closedIdle: () => () => framing.closed(state.sentOnSocket - slots.count),
    mayResend: () => () => framing.mayResend(state.sentOnSocket - slots.count),
    drop: () => () => {
      slots.clear()
      framing.close()
    },
    retire: () => () => framing.close(),
    stop: () => () => framing.close(),
    hold: () => () => slots.hold(performance.now()),
    release: () => (held) => slots.unhold(held),
    sendHeld: () => (encoded, entry, planned) => {
      const now = performance.now()
      framing.queue(encoded, now, planned, entry, 0)
      framing.flush(1, now)
    }
  }
  const driven = new Proxy(framing, {
    get (obj, prop) {
      if (Object.prototype.hasOwnProperty.call(asClient, prop)) return asClient[prop]()
      return obj[prop]
    }
  })
  return { framing: driven, raw: framing, slots, ...fake }
}

// The calls of one name, without it.
function callsOf (calls, name) {
  return calls.filter((c) => c[0] === name).map((c) => c.slice(1))
}

module.exports = { fakeSocket, fakeClient, framed, callsOf }
