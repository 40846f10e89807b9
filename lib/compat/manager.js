'use strict'

// require('autocannon/lib/manager'): autocannon's manager of worker
// threads. Refused as it is required (internal.js).

require('./internal').refuse('manager', 'autocannon\'s manager of worker threads', 'run in worker threads with autocannon({ workers: n, … })')
