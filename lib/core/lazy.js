'use strict'

// lazy(() => require('x')) → a function that returns x's exports, loading
// x at its first call: for a module only some runs use, so that the others
// do not read, compile and run it. The require() is written out in the
// arrow, so that the bundler (scripts/build-cli.js) and the check of
// import cycles (test/layout.test.js) see it as any other.
//
// A file declares its lazy modules at its top, beside its other requires,
// each with the runs that need it; a module every run of the file uses is
// required there plainly instead (scripts/loaded-modules.js tells which).
// Code that runs per request takes the exports once, out of that path.

function lazy (load) {
  let exports
  let loaded = false
  return function loadOnce () {
    if (!loaded) {
      exports = load()
      loaded = true
    }
    return exports
  }
}

module.exports = { lazy }
