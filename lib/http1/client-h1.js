'use strict'

// HTTP/1.1 on one connection: the framing object the connection's Client
// holds (lib/client/client.js lists what a framing answers to and calls
// back), writing the requests' bytes (request-encoder.js) and reading the
// responses (response-parser.js).
//
// The requests in flight are the Client's (lib/client/in-flight.js), in
// order (responses come back in the order requests were written): a ring
// of slots, nothing allocated per request but the write that carries a
// batch of them; whether each was a HEAD is kept here, under its slot.
// Only a close the server announced (or, for idempotent requests, an
// unannounced one after the connection had answered) sends the requests
// behind it again.

const { ResponseParser } = require('./response-parser')
const { http1Encoding } = require('./request-encoder')
const { CountedError, socketHangUp } = require('../core/errors')
const { lazy } = require('../core/lazy')
// Lazy: only an http target through a proxy needs it, for the proxy's
// refusal (407) of its requests.
const proxyRefusal = lazy(() => require('../transport/proxy-refusal'))

// Its function, taken as a proxied target's first connection is set up,
// before anything is sent: a 407 comes mid-run, where a module loaded
// would hold up the requests due then.
let refusedRequest = null

class Http1 {
  // client: the Client it frames requests for (its calls back only);
  // setup: Run#clientSetup; slots: the Client's requests in flight, in
  // order; sequence: the requests it sends; target: where.
  constructor (client, setup, slots, sequence, target) {
    this.client = client
    this.slots = slots
    this.sequence = sequence
    this.target = target
    this.maxBodySize = setup.maxBodySize
    // The socket, once connected (connected()); null once closed.
    this.socket = null
    this.wantBody = false
    this.wantHeaders = false
    const p = setup.pipelining
    this.pipelining = p
    // Closed loop: the pipeline is refilled once at least half of it is
    // free, so that one write carries several requests (as wrk's
    // pipelining does) instead of one write per response. Under a rate
    // every free slot is used at once, to stay on the plan.
    this.refillAt = setup.rated ? 1 : Math.ceil(p / 2)
    // Through an HTTP proxy, a 407 is the proxy refusing us, not the
    // target answering: decided once, here.
    this.proxied = target.absoluteForm !== undefined
    if (this.proxied && refusedRequest === null) refusedRequest = proxyRefusal().refusedRequest
    this.ready = true
    this.accepting = true
    this.spent = false

    this.parser = new ResponseParser(this)
    // Whether the request in each slot was a HEAD.
    this.isHead = new Uint8Array(p)
    this.bodyChunks = null
    this.bodyBytes = 0
    this.bodyTooLarge = false
    this.bodyHeaders = null

    // batches[k]: k copies of the one request, for one write per read.
    this.batches = null
    this.batchIsHead = false
    // Static entries in a row, by start index and length (sendSequence).
    this.runs = null
    // A batch being built (queue): one request, or a list of them.
    this.queued = null
  }

  refresh (wantBody, wantHeaders) {
    const bytes = this.sequence.staticBytes
    this.batches = bytes ? [null, bytes] : null
    this.batchIsHead = bytes !== null && this.sequence.entries[0].isHead
    this.runs = null
    this.wantBody = wantBody
    this.wantHeaders = wantHeaders
    this.parser.wantBody = wantBody
    this.parser.wantHeaders = wantHeaders
  }

  // --- the socket ---

  // A new socket: nothing of the last one carries over.
  connected (socket) {
    this.socket = socket
    this.parser.reset()
    this.parser.wantBody = this.wantBody
    this.accepting = true
  }

  // now: the time of this read, for the responses whose first byte it
  // holds.
  read (buf, start, end, now) {
    this.parser.readAt = now
    this.parser.execute(buf, start, end)
    const socket = this.socket
    if (!this.accepting && socket) {
      // The server said Connection: close: whatever else is in flight goes
      // again on a new connection (see closed()).
      socket.destroy()
      return false
    }
    return true
  }

  end () {
    // A body delimited by the close ends now, and that close was announced;
    // a response cut short is an error (HPE_INCOMPLETE, counted as a read
    // error: the connection failed). Requests that got no answer at
    // all are a hang-up: counted when the socket closes, as for a reset.
    this.parser.finish()
  }

  // done: the requests of this socket that ended before it closed.
  closed (done) {
    if (this.slots.count === 0) return null
    if (!this.accepting || this.mayResend(done)) {
      // The server announced the close (Connection: close, HTTP/1.0, a
      // body ended by the close): it processes nothing after that
      // response (RFC 9112 §9.6), so the requests pipelined behind it
      // were never started there. Or, unannounced, on a connection that
      // had answered before, with not a byte of the next response: a
      // server (tinyproxy 1.11) that closes after each response without
      // saying so, the next request already on its way; RFC 9112 §9.3.1
      // lets such requests go again when idempotent. Either way they go
      // again, on the next connection.
      return null
    }
    return socketHangUp()
  }

  mayResend (done) {
    return done > 0 && this.parser.idle && this.sequence.idempotent
  }

  // The socket is given up (closed, failed, recycled, parked, or the run
  // is over): what was read of a response goes with it.
  close () {
    this.socket = null
    this.bodyChunks = null
    this.bodyTooLarge = false
  }

  // --- sending ---

  room () {
    const room = this.pipelining - this.slots.count
    return room < this.refillAt ? 0 : room
  }

  send (n, now, planned) {
    if (this.batches !== null) {
      const isHead = this.batchIsHead
      for (let k = 0; k < n; k++) this.push(now, planned === null ? now : planned[k], 0, isHead)
      this.socket.write(this.batch(n))
    } else {
      this.sendSequence(n, now, planned)
    }
  }

  batch (n) {
    let b = this.batches[n]
    if (b === undefined || b === null) {
      b = Buffer.concat(new Array(n).fill(this.batches[1]))
      this.batches[n] = b
    }
    return b
  }

  push (now, planned, entry, isHead) {
    this.isHead[this.slots.take(now, planned, entry)] = isHead ? 1 : 0
  }

  sendSequence (n, now, planned) {
    const socket = this.socket
    const sequence = this.sequence
    if (sequence.templateOnly) {
      // Templates: n requests written into the connection's own buffer,
      // one write.
      const bytes = sequence.templateBatch(n)
      const isHead = sequence.entries[0].isHead
      for (let k = 0; k < n; k++) this.push(now, planned === null ? now : planned[k], 0, isHead)
      socket.write(bytes)
      // Not sent at once but queued (the kernel's buffer was full): the
      // bytes must stay as they are until they go, so the next batch is
      // written elsewhere. Sent, they can be written over.
      if (socket.writableLength !== 0) sequence.templateKept()
      return
    }
    if (sequence.allStatic && sequence.order === null && n > 1) {
      // Static entries only, in the sequence's own order: one write of n
      // requests in a row (a shared order picks them one by one).
      const entries = sequence.entries
      const start = sequence.advance(n)
      for (let k = 0, e = start; k < n; k++) {
        this.push(now, planned === null ? now : planned[k], e, entries[e].isHead)
        if (++e === entries.length) e = 0
      }
      socket.write(this.runOf(start, n))
      return
    }
    this.client.sendEach(n, now, planned)
  }

  // n static entries from `start` on, as one buffer, built once.
  runOf (start, n) {
    const key = start * 4096 + n
    if (this.runs === null) this.runs = new Map()
    let bytes = this.runs.get(key)
    if (bytes === undefined) {
      const entries = this.sequence.entries
      const parts = new Array(n)
      for (let k = 0; k < n; k++) parts[k] = entries[(start + k) % entries.length].bytes
      bytes = Buffer.concat(parts)
      if (n < 4096) this.runs.set(key, bytes)
    }
    return bytes
  }

  // One write for all of a batch: a single buffer costs far less than a
  // writev of many small ones.
  queue (bytes, now, planned, entry, k) {
    this.push(now, planned, entry, this.sequence.lastIsHead)
    if (k === 0) this.queued = bytes
    else if (k === 1) this.queued = [this.queued, bytes]
    else this.queued.push(bytes)
  }

  flush (count) {
    this.socket.write(count === 1 ? this.queued : Buffer.concat(this.queued))
    this.queued = null
  }

  // --- the parser's calls ---

  onHeadersComplete (status, headers) {
    if (this.wantBody) {
      this.bodyChunks = []
      this.bodyBytes = 0
    }
    if (headers !== null) {
      this.bodyHeaders = headers
      this.client.emitHeaders(headers)
    }
    return this.isHead[this.slots.first()] === 1
  }

  onBody (buf, start, end) {
    if (this.bodyTooLarge) return
    this.bodyBytes += end - start
    if (this.bodyBytes > this.maxBodySize) {
      // Kept no further: the response is read to its end and then counted
      // as an error, and the connection goes on.
      this.bodyTooLarge = true
      this.bodyChunks = []
      return
    }
    // Copy: the read buffer is shared and reused.
    this.bodyChunks.push(Buffer.from(buf.subarray(start, end)))
  }

  onMessageComplete (status, bytes, close) {
    const client = this.client
    const slots = this.slots
    if (this.proxied && status === 407 && slots.count > 0) {
      this.parser.abort()
      client.fail(refusedRequest(this.target))
      return
    }
    if (slots.count - slots.held === 0) {
      // A response nobody asked for (a place held for a settling
      // setupRequest was not sent).
      this.parser.abort()
      client.fail(new CountedError('AC_UNEXPECTED_RESPONSE', 'received a response to no request'))
      return
    }
    const slot = slots.first()
    slots.firstAt[slot] = this.parser.firstByteAt
    slots.release(slot)
    if (close) this.accepting = false
    if (this.bodyTooLarge) {
      this.bodyTooLarge = false
      this.bodyChunks = null
      return client.overflowed()
    }
    let body = null
    if (this.bodyChunks !== null) {
      body = this.bodyChunks.length === 1 ? this.bodyChunks[0] : Buffer.concat(this.bodyChunks)
      this.bodyChunks = null
    }
    client.respond(slot, status, bytes, body, this.bodyHeaders)
  }

  onParseError (err) {
    this.client.fail(err)
  }
}

module.exports = {
  // The Client's requests in flight come back in the order they were sent.
  inOrder: true,
  create: (client, setup, slots, sequence, target) => new Http1(client, setup, slots, sequence, target),
  encodingFor: () => http1Encoding,
  Http1
}
