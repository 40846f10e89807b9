'use strict'

// require('autocannon/lib/progressTracker'): track(instance[, opts]).

const t = require('tap')
const { EventEmitter } = require('events')
const track = require('../../lib/compat/progressTracker')

t.test('autocannon.track: its arguments, its error without an instance, the instance back', async (t) => {
  t.equal(track, require('../../lib/output/track'))
  t.equal(track.length, require('autocannon-upstream/lib/progressTracker').length)
  t.throws(() => track(), { message: 'instance required for tracking' }, 'autocannon\'s words')
  const instance = new EventEmitter()
  instance.opts = { url: 'http://127.0.0.1:1', connections: 1, duration: 1 }
  let written = ''
  const out = { write: (s) => { written += s }, isTTY: false }
  track(instance, { outputStream: out, renderResultsTable: false })
  instance.emit('start')
  t.match(written, /^Running 1s test @ http:\/\/127\.0\.0\.1:1\n1 connections\n/)
})
