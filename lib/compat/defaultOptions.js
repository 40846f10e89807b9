'use strict'

// require('autocannon/lib/defaultOptions'): autocannon's defaults, its
// keys and values, frozen: this package's own defaults are in its table of
// options (lib/core/options.js), and changing these would change nothing
// of a run, so it is refused rather than ignored.

function deepFreeze (value) {
  if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) deepFreeze(value[key])
    Object.freeze(value)
  }
  return value
}

module.exports = deepFreeze({
  headers: {},
  method: 'GET',
  duration: 10,
  connections: 10,
  sampleInt: 1000,
  pipelining: 1,
  timeout: 10,
  maxConnectionRequests: 0,
  maxOverallRequests: 0,
  connectionRate: 0,
  overallRate: 0,
  amount: 0,
  reconnectRate: 0,
  forever: false,
  idReplacement: false,
  requests: [{}],
  servername: undefined,
  excludeErrorStats: false
})
