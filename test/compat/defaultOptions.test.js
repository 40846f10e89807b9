'use strict'

// require('autocannon/lib/defaultOptions'): autocannon's defaults, frozen.

const t = require('tap')
const defaults = require('../../lib/compat/defaultOptions')

t.test('autocannon 9\'s keys and values', async (t) => {
  const theirs = require('autocannon-upstream/lib/defaultOptions')
  t.same(Object.keys(defaults), Object.keys(theirs), 'the same keys, in order (servername: undefined included)')
  t.same(defaults, theirs)
  t.ok(Object.prototype.hasOwnProperty.call(defaults, 'servername'))
})

t.test('frozen, nested objects too: changing them would change no run', async (t) => {
  t.ok(Object.isFrozen(defaults))
  t.ok(Object.isFrozen(defaults.headers))
  t.ok(Object.isFrozen(defaults.requests) && Object.isFrozen(defaults.requests[0]))
  t.throws(() => { defaults.duration = 5 }, TypeError)
  t.equal(defaults.duration, 10)
})
