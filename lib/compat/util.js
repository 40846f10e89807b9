'use strict'

// require('autocannon/lib/util'): whether worker threads are there (they
// always are, on the Node versions this package runs on), and a key of an
// object read whatever its case.

function getPropertyCaseInsensitive (obj, key) {
  for (const objKey of Object.keys(obj)) {
    if (objKey.toLowerCase() === key.toLowerCase()) return obj[objKey]
  }
}

module.exports = { hasWorkerSupport: true, getPropertyCaseInsensitive }
