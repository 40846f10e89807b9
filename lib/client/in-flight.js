'use strict'

// The requests in flight on one Client's connection, a slot each: when
// each was sent, when it was planned to go (its latency runs from then
// under a rate), when the first byte of its response came, and the entry
// of the sequence it is; how many there are, the one a setupRequest's
// promise holds, and the oldest (for the timeout). The Client owns it and
// reads it to count a response; the framing takes a slot as it writes a
// request and gives it back as the request ends, and keeps what is its
// own (a stream's id and windows, whether a request was a HEAD) in columns
// of its own under the same slot numbers. Nothing is allocated per request.
//
// Two orders, as the framing answers: InOrder for responses that come in
// the order the requests were sent (HTTP/1.1: a ring, the next answered
// at its head), AnyOrder for those that come in any order (HTTP/2's
// streams: a free list, the oldest found by a scan of the busy slots).

// What both orders keep: a column per time, the entry, the count and
// the held slot.
class Slots {
  constructor (size) {
    this.size = size
    this.sentAt = new Float64Array(size)
    this.plannedAt = new Float64Array(size)
    this.firstAt = new Float64Array(size)
    this.entryOf = new Int32Array(size)
    this.count = 0
    // Slots a setupRequest's promise holds (at most one: nothing is sent
    // behind it).
    this.held = 0
  }

  // A place held, from now, for a request whose setupRequest is settling;
  // given back (unhold) as it settles, the newest in flight.
  hold (now) {
    this.held++
    return this.take(now, now, 0)
  }
}

class InOrder extends Slots {
  constructor (size) {
    super(size)
    this.head = 0
  }

  // The slot of the request sent next: head and count are both below the
  // size, so one subtraction wraps it (no division per request).
  take (now, planned, entry) {
    let slot = this.head + this.count
    if (slot >= this.size) slot -= this.size
    this.sentAt[slot] = now
    this.plannedAt[slot] = planned
    this.entryOf[slot] = entry
    this.count++
    return slot
  }

  // The slot the next response answers.
  first () {
    return this.head
  }

  // The request at the head ended (its times stay readable until a slot
  // is taken again).
  release (slot) {
    this.head = slot + 1 === this.size ? 0 : slot + 1
    this.count--
  }

  unhold () {
    this.held--
    this.count--
  }

  oldestSentAt () {
    return this.count > 0 ? this.sentAt[this.head] : 0
  }

  clear () {
    this.count = 0
    this.held = 0
    this.head = 0
  }
}

class AnyOrder extends Slots {
  constructor (size) {
    super(size)
    this.free = new Int32Array(size)
    this.freeTop = 0
    this.busy = new Uint8Array(size)
    this.clear()
  }

  take (now, planned, entry) {
    const slot = this.free[--this.freeTop]
    this.busy[slot] = 1
    this.sentAt[slot] = now
    this.plannedAt[slot] = planned
    this.entryOf[slot] = entry
    this.firstAt[slot] = 0
    this.count++
    return slot
  }

  release (slot) {
    this.busy[slot] = 0
    this.free[this.freeTop++] = slot
    this.count--
  }

  unhold (slot) {
    this.held--
    this.release(slot)
  }

  oldestSentAt () {
    let oldest = Infinity
    for (let i = 0; i < this.size; i++) if (this.busy[i] === 1 && this.sentAt[i] < oldest) oldest = this.sentAt[i]
    return oldest === Infinity ? 0 : oldest
  }

  clear () {
    const size = this.size
    for (let i = 0; i < size; i++) {
      this.free[i] = size - 1 - i
      this.busy[i] = 0
    }
    this.freeTop = size
    this.count = 0
    this.held = 0
  }
}

module.exports = { InOrder, AnyOrder }
