'use strict'

// require('autocannon/lib/preload/autocannonDetectPort'): what autocannon's
// --on-port preloads, which has nothing of its own here (this package's
// --on-port preloads lib/cli/detect-port.js): refused as it is required.

const t = require('tap')
const path = require('path')

const FILE = path.join(__dirname, '..', '..', '..', 'lib', 'compat', 'preload', 'autocannonDetectPort.js')

t.test('requiring it throws AC_INTERNAL_MODULE and names --on-port', async (t) => {
  t.throws(() => require(FILE), { code: 'AC_INTERNAL_MODULE', message: /^require\('autocannon\/lib\/preload\/autocannonDetectPort'\): .*--on-port/ })
})
