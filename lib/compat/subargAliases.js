'use strict'

// require('autocannon/lib/subargAliases'): a copy of parsed arguments in
// which --warmup's group has its long names too ({ warmup: { c: 1 } } →
// { warmup: { c: 1, connections: 1 } }), as autocannon's parser gives them.

const SUBARG_ALIASES = {
  warmup: { c: 'connections', d: 'duration' }
}

// Arrays and plain objects copied, anything else (a function, a Buffer) kept.
function clone (value) {
  if (Array.isArray(value)) return value.map(clone)
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value
  const out = {}
  for (const key of Object.keys(value)) out[key] = clone(value[key])
  return out
}

function generateSubargAliases (args) {
  const aliased = clone(args)
  for (const parent of Object.keys(SUBARG_ALIASES)) {
    const group = aliased[parent]
    if (!group) continue
    const aliases = SUBARG_ALIASES[parent]
    for (const sub in group) {
      if (aliases[sub]) group[aliases[sub]] = group[sub]
    }
  }
  return aliased
}

module.exports = generateSubargAliases
