'use strict'

// require('autocannon/lib/init'): autocannon's init is its entry, autocannon().

const t = require('tap')

t.test('the package\'s own autocannon()', async (t) => {
  t.equal(require('../../lib/compat/init'), require('../..'))
})
