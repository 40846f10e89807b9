'use strict'

// require('autocannon/lib/preload/autocannonDetectPort'): what autocannon's
// --on-port preloads into the command it starts. Refused as it is required
// (internal.js): this package's --on-port preloads its own.

require('../internal').refuse('preload/autocannonDetectPort', 'what autocannon\'s --on-port preloads into the command it starts', 'use --on-port on the command line (autocannon --on-port / -- node server.js), which preloads this package\'s own')
