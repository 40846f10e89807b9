'use strict'

const t = require('tap')
const noop = require('../../lib/compat/noop')

t.test('a function of no arguments that returns nothing', async (t) => {
  t.equal(typeof noop, 'function')
  t.equal(noop.length, 0)
  t.equal(noop(1, 2), undefined)
})
