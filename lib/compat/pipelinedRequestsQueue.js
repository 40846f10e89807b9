'use strict'

// require('autocannon/lib/pipelinedRequestsQueue'): autocannon's queue of
// a connection's requests in flight. Refused as it is required
// (internal.js).

require('./internal').refuse('pipelinedRequestsQueue', 'autocannon\'s queue of a connection\'s requests in flight', 'set how many go at once with the pipelining option')
