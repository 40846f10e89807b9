'use strict'

// require('autocannon/lib/util'): { hasWorkerSupport, getPropertyCaseInsensitive }.

const t = require('tap')
const ours = require('../../lib/compat/util')
const theirs = require('autocannon-upstream/lib/util')

t.test('as autocannon 9\'s', async (t) => {
  t.same(Object.keys(ours), Object.keys(theirs))
  t.equal(ours.hasWorkerSupport, true)
  t.equal(ours.hasWorkerSupport, theirs.hasWorkerSupport)
  const obj = { 'Content-Type': 'a', host: 'h' }
  for (const key of ['content-type', 'CONTENT-TYPE', 'Host', 'missing']) t.equal(ours.getPropertyCaseInsensitive(obj, key), theirs.getPropertyCaseInsensitive(obj, key), key)
  t.equal(ours.getPropertyCaseInsensitive(obj, 'HOST'), 'h')
})
