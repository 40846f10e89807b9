'use strict'

// require('autocannon/lib/worker'): autocannon's worker-thread script.
// Refused as it is required (internal.js).

require('./internal').refuse('worker', 'autocannon\'s worker-thread script', 'run in worker threads with autocannon({ workers: n, … })')
