'use strict'

// require('autocannon/lib/pipelinedRequestsQueue'): autocannon's internal module, which has
// nothing of its own here: refused as it is required, in one error naming
// what to use instead (lib/compat/internal.js).

const t = require('tap')
const path = require('path')

const FILE = path.join(__dirname, '..', '..', 'lib', 'compat', 'pipelinedRequestsQueue.js')

t.test('requiring it throws AC_INTERNAL_MODULE, naming the path and what to use instead', async (t) => {
  t.throws(() => require(FILE), { code: 'AC_INTERNAL_MODULE', name: 'AutocannonError', message: /^require\('autocannon\/lib\/pipelinedRequestsQueue'\): .* is internal to autocannon, with no counterpart in this package; .*pipelining/ })
  t.throws(() => require(FILE), { code: 'AC_INTERNAL_MODULE' }, 'every time: a module that throws is not cached')
})
