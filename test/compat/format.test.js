'use strict'

// require('autocannon/lib/format'): a count as autocannon's tables show it.

const t = require('tap')
const format = require('../../lib/compat/format')

t.test('as autocannon 9\'s format: below 1000 as it is, above in rounded thousands', async (t) => {
  const theirs = require('autocannon-upstream/lib/format')
  for (const n of [0, 1, 999, 999.5, 1000, 1499, 1500, 2500, 123456, 1e9, -5, 0.25]) t.equal(format(n), theirs(n), String(n))
  t.equal(format(999), '999')
  t.equal(format(1500), '2k')
})
