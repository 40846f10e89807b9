'use strict'

// require('autocannon/lib/httpMethods'): the methods autocannon sends.

const t = require('tap')

t.test('autocannon 9\'s list', async (t) => {
  t.same(require('../../lib/compat/httpMethods'), require('autocannon-upstream/lib/httpMethods'))
  t.equal(require('../../lib/compat/httpMethods').length, 9)
})
