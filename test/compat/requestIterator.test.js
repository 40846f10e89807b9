'use strict'

// require('autocannon/lib/requestIterator'): autocannon's internal module, which has
// nothing of its own here: refused as it is required, in one error naming
// what to use instead (lib/compat/internal.js).

const t = require('tap')
const path = require('path')

const FILE = path.join(__dirname, '..', '..', 'lib', 'compat', 'requestIterator.js')

t.test('requiring it throws AC_INTERNAL_MODULE, naming the path and what to use instead', async (t) => {
  t.throws(() => require(FILE), { code: 'AC_INTERNAL_MODULE', name: 'AutocannonError', message: /^require\('autocannon\/lib\/requestIterator'\): .* is internal to autocannon, with no counterpart in this package; .*requests option/ })
  t.throws(() => require(FILE), { code: 'AC_INTERNAL_MODULE' }, 'every time: a module that throws is not cached')
})
