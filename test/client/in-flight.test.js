'use strict'

// The requests in flight (lib/client/in-flight.js): a slot each, with the
// times a response's latency is counted from; InOrder's ring answers them
// in the order they were sent, AnyOrder's free list in any order; a place
// held for a settling setupRequest; the oldest for the timeout; cleared
// with the socket.

const t = require('tap')
const { InOrder, AnyOrder } = require('../../lib/client/in-flight')

t.test('InOrder: a ring, the next answered at its head, wrapping', async (t) => {
  const slots = new InOrder(3)
  const taken = [slots.take(10, 5, 0), slots.take(11, 6, 1), slots.take(12, 7, 2)]
  t.same(taken, [0, 1, 2])
  t.equal(slots.count, 3)
  t.equal(slots.oldestSentAt(), 10)
  t.equal(slots.first(), 0)
  slots.release(slots.first())
  t.same([slots.first(), slots.count, slots.oldestSentAt()], [1, 2, 11])
  t.equal(slots.take(13, 8, 0), 0, 'the freed slot, past the end: wrapped')
  slots.release(slots.first())
  slots.release(slots.first())
  t.same([slots.first(), slots.sentAt[0], slots.plannedAt[0]], [0, 13, 8], 'the head wraps too')
  slots.release(slots.first())
  t.equal(slots.count, 0)
  t.equal(slots.oldestSentAt(), 0, 'none in flight')
})

t.test('InOrder: a held place is the newest; cleared with the socket', async (t) => {
  const slots = new InOrder(4)
  slots.take(1, 1, 0)
  const held = slots.hold(2)
  t.same([held, slots.count, slots.held], [1, 2, 1])
  slots.unhold(held)
  t.same([slots.count, slots.held], [1, 0])
  t.equal(slots.take(3, 3, 0), 1, 'its place taken by the request it became')
  slots.clear()
  t.same([slots.count, slots.held, slots.first()], [0, 0, 0])
})

t.test('AnyOrder: slots given back in any order, the oldest of those busy', async (t) => {
  const slots = new AnyOrder(3)
  const a = slots.take(10, 9, 0)
  const b = slots.take(20, 19, 1)
  const c = slots.take(30, 29, 2)
  t.same(new Set([a, b, c]).size, 3, 'three slots')
  slots.firstAt[b] = 25
  t.equal(slots.oldestSentAt(), 10)
  slots.release(a)
  t.equal(slots.oldestSentAt(), 20, 'the oldest still in flight')
  t.equal(slots.count, 2)
  const d = slots.take(40, 39, 0)
  t.equal(d, a, 'the freed slot again')
  t.equal(slots.firstAt[d], 0, 'no first byte yet')
  t.equal(slots.firstAt[b], 25, 'others untouched')
  const held = slots.hold(50)
  t.equal(slots.held, 1)
  t.equal(slots.count, 4, 'held counts in flight')
  slots.unhold(held)
  t.same([slots.held, slots.count], [0, 3])
  slots.clear()
  t.same([slots.count, slots.held, slots.oldestSentAt()], [0, 0, 0])
  t.same(new Set([slots.take(1, 1, 0), slots.take(1, 1, 0), slots.take(1, 1, 0)]).size, 3, 'every slot free again')
})
