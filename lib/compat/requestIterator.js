'use strict'

// require('autocannon/lib/requestIterator'): autocannon's iterator over a
// connection's requests. Refused as it is required (internal.js).

require('./internal').refuse('requestIterator', 'autocannon\'s iterator over a connection\'s requests', 'give the sequence with the requests option, and what changes per request with requests[i].setupRequest and onResponse')
