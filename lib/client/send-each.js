'use strict'

// A Client's requests sent one by one, as its sequence makes them (hooks,
// [<id>], a shared order): each queued with the protocol, then written at
// once. A setupRequest that throws ends its request unsent, as an error; one
// that returns a promise holds a place in flight until it settles, and
// nothing is sent behind it meanwhile.

const { performance } = require('perf_hooks')
const { PENDING } = require('./request-sequence')

// Requests whose hook failed (`failed` of them, `sent` others sent with
// them): nothing may be in flight to bring us back to pump(), so it is
// tried again soon, and later and later while the hook fails every time
// (no spinning).
function retryAfterHookFailures (client, failed, sent) {
  if (failed === 0) {
    client.hookFailures = 0
    return
  }
  if (sent === 0) client.hookFailures++
  const socket = client.connection.socket
  const delay = client.connection.backoff(client.hookFailures)
  const retry = () => {
    client.retryTimer = null
    if (client.connection.socket === socket) client.pump()
  }
  if (delay === 0) setImmediate(retry)
  else client.retryTimer = setTimeout(retry, delay)
}

// n requests of the sequence, one by one (hooks, ids, a shared order),
// planned at planned[k] (or now): each queued with the protocol, then
// flushed at once. A hook that fails ends its request unsent; a promise
// stops the batch (awaitRequest); what was granted and not used is
// given back.
function sendEach (client, n, now, planned) {
  const sequence = client.sequence
  const framing = client.framing
  let queued = 0
  // Requests whose hook failed: started (they count as sent) and ended
  // as errors, never written.
  let failed = 0
  let k = 0
  while (k < n) {
    const at = planned === null ? now : planned[k]
    k++
    let encoded
    try {
      encoded = sequence.next()
    } catch (err) {
      failed++
      hookFailed(client, err)
      if (client.stopped) return
      continue
    }
    if (encoded === PENDING) {
      awaitRequest(client, sequence.pending, sequence.lastEntry, at)
      break
    }
    framing.queue(encoded, now, at, sequence.lastEntry, queued++)
  }
  if (queued > 0) framing.flush(queued, now)
  const unused = n - k
  if (unused > 0) {
    // pump() counted all it was granted as sent.
    client.run.giveBack(unused)
    client.unsend(unused)
  }
  retryAfterHookFailures(client, failed, k - failed)
}

// setupRequest returned a promise: the request goes out when it
// settles, keeping the time it was meant to go. Meanwhile it holds a
// place among those in flight, and nothing else is sent. If the socket
// goes first, the request ended with it (an error).
function awaitRequest (client, promise, entry, planned) {
  const socket = client.connection.socket
  const held = client.slots.hold(performance.now())
  client.pendingRequest = promise
  const release = () => {
    if (client.pendingRequest !== promise) return false
    client.pendingRequest = null
    if (client.connection.socket !== socket) return false
    client.slots.unhold(held)
    return true
  }
  promise.then((req) => {
    if (!release()) return client.pump()
    if (client.stopped) return
    let encoded
    try {
      encoded = client.sequence.settle(entry, req)
    } catch (err) {
      hookFailed(client, err)
      return client.pump()
    }
    if (encoded === null || !client.framing.accepting) {
      // Reset, or the socket takes nothing more: never started.
      client.run.giveBack(1)
      client.unsend(1)
      return client.pump()
    }
    client.sendHeld(encoded, entry, planned)
    client.pump()
  }, (err) => {
    const err2 = client.sequence.fail(entry, err)
    if (!release()) return client.pump()
    if (client.stopped) return
    hookFailed(client, err2)
    client.pump()
  })
}

// The request's setupRequest hook threw while its batch was built.
function hookFailed (client, err) {
  client.completed++
  client.run.onHookError(client, err)
}

module.exports = { sendEach }
