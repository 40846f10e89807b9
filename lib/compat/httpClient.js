'use strict'

// require('autocannon/lib/httpClient'): autocannon's own HTTP client.
// Refused as it is required (internal.js).

require('./internal').refuse('httpClient', 'autocannon\'s HTTP client', 'reach a connection\'s client through the setupClient option, or the client the instance\'s \'response\' event passes')
