'use strict'

// require('autocannon/lib/progressTracker'): track(instance[, opts]), the
// header, progress bar and tables of a run, as autocannon.track.

module.exports = require('../output/track')
