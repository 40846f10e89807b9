'use strict'

// What fn() throws, or null when it returns: for tests that look at more
// of an error than t.throws() matches.
function thrown (fn) {
  try {
    fn()
  } catch (err) {
    return err
  }
  return null
}

module.exports = { thrown }
