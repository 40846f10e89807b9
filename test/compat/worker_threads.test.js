'use strict'

const t = require('tap')

t.test('Node\'s worker_threads', async (t) => {
  t.equal(require('../../lib/compat/worker_threads'), require('worker_threads'))
  t.equal(require('../../lib/compat/worker_threads').isMainThread, true)
})
