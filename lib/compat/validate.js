'use strict'

// require('autocannon/lib/validate'): autocannon's check of its options.
// Refused as it is required (internal.js).

require('./internal').refuse('validate', 'autocannon\'s check of the options', 'autocannon(opts) checks its options itself: an option that cannot be used reaches the callback, or rejects the returned instance, with AC_INVALID_OPTION')
