'use strict'

// autocannon's internal modules that have no counterpart here (its HTTP
// client, request builder, worker manager…): each path still resolves, and
// requiring it throws at once one error, AC_INTERNAL_MODULE, naming what to
// use instead, rather than Node's MODULE_NOT_FOUND, which would read as a
// broken install.

const { raise } = require('../core/errors')

// name: the path under autocannon's lib/; what: what it is in autocannon;
// instead: what to use here.
function refuse (name, what, instead) {
  throw raise('AC_INTERNAL_MODULE', `require('autocannon/lib/${name}'): ${what} is internal to autocannon, with no counterpart in this package; ${instead}`)
}

module.exports = { refuse }
