'use strict'

// Fakes to drive a protocol object (lib/http1/client-h1.js,
// lib/http2/client-h2.js) on its own: a socket that keeps what is written
// to it, and a client that notes each call a protocol makes of it. The
// client is strict: a protocol that reads a member lib/client/client.js
// does not declare for it fails the test at once (the same list as
// test/client/client.test.js holds on real runs).

// What a protocol may use of its Client (lib/client/client.js's header),
// and what it takes of it once, at construction.
const DECLARED = new Set(['respond', 'overflowed', 'requestFailed', 'resend', 'fail', 'pump', 'checkIdle', 'sendEach',
  'emitHeaders', 'wantBody', 'wantHeaders', 'maxBodySize', 'sentOnSocket', 'pendingRequest', 'stopped', 'target', 'readAt'])
const AT_CONSTRUCTION = new Set(['connection', 'sequence'])

function fakeSocket () {
  return {
    writes: [],
    // The buffers themselves, as written.
    originals: [],
    destroyed: false,
    // Bytes the kernel did not take yet (HTTP/1.1's templates look).
    writableLength: 0,
    write (buf) {
      // A copy: a protocol may write over a buffer once it is sent.
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

// sequence: a RequestSequence; options: the client's fields. Returns
// { client (strict, for the protocol), state (the same object, to set up
// and look at), calls, connection, socket }.
function fakeClient (sequence, options = {}) {
  const calls = []
  const socket = fakeSocket()
  const connection = {
    socket,
    countedFailure: false,
    succeeded () { calls.push(['succeeded']) }
  }
  const note = (name) => (...args) => { calls.push([name, ...args]) }
  const state = {
    connection,
    sequence,
    target: {},
    wantBody: false,
    wantHeaders: false,
    maxBodySize: Infinity,
    sentOnSocket: 0,
    pendingRequest: null,
    stopped: false,
    // The time of the read being handled.
    readAt: 0,
    respond: note('respond'),
    overflowed: note('overflowed'),
    requestFailed: note('requestFailed'),
    resend: note('resend'),
    // As the real connection, a failure is counted once, and nothing is
    // written after it.
    fail (err) {
      calls.push(['fail', err])
      connection.countedFailure = true
    },
    pump: note('pump'),
    checkIdle: note('checkIdle'),
    sendEach: note('sendEach'),
    emitHeaders: note('emitHeaders'),
    ...options
  }
  let constructed = false
  const client = new Proxy(state, {
    get (obj, prop) {
      if (typeof prop === 'string' && !DECLARED.has(prop) && !(AT_CONSTRUCTION.has(prop) && !constructed)) {
        throw new Error(`a protocol read client.${prop}, which lib/client/client.js does not declare`)
      }
      return obj[prop]
    },
    set (obj, prop) {
      throw new Error(`a protocol set client.${String(prop)}`)
    }
  })
  return {
    client,
    state,
    calls,
    connection,
    socket,
    // Once the protocol is made: from then on it uses the declared list only.
    constructed () { constructed = true }
  }
}

// The calls of one name, without it.
function callsOf (calls, name) {
  return calls.filter((c) => c[0] === name).map((c) => c.slice(1))
}

module.exports = { fakeSocket, fakeClient, callsOf }
