'use strict'

// The marks a socket's events set on its connection: the lookup once,
// the hand-over to the kernel at each address tried.

const t = require('tap')
const { EventEmitter } = require('events')
const { marks } = require('../../lib/transport/marks')

t.test('lookup once; each connection attempt, the last one being the connect that is timed', async (t) => {
  const socket = new EventEmitter()
  const seen = []
  marks(socket, { mark: (step) => seen.push(step) })
  socket.emit('lookup', null, '::1', 6, 'localhost')
  socket.emit('connectionAttempt', '::1', 3000, 6)
  socket.emit('connectionAttempt', '127.0.0.1', 3000, 4)
  socket.emit('lookup', null, '127.0.0.1', 4, 'localhost')
  t.same(seen, ['lookup', 'attempt', 'attempt'])
})
