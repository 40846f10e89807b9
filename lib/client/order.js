'use strict'

// The order in which a run's connections take the entries of one origin
// (--targets): 'sequential' shares one cursor between them (the file's
// order across all connections), 'random' draws each from a seeded
// generator (the same seed, the same requests). pick() → the index of the
// next entry.

function sharedOrder (order, length, random) {
  if (order === 'random') return { pick: () => Math.floor(random() * length) }
  let next = 0
  return {
    pick () {
      const i = next
      next = i + 1 === length ? 0 : i + 1
      return i
    }
  }
}

module.exports = { sharedOrder }
