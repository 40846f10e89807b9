'use strict'

// The context a sequence's hooks share (setupRequest and onResponse) is a
// deep copy of initialContext, made again whenever the sequence starts
// over (request-sequence.js; without an initialContext, an empty object).

// A deep copy as lodash.clonedeep makes it (which autocannon uses): plain
// data is copied, prototypes are kept, functions are shared.
function cloneDeep (value, seen) {
  if (value === null || typeof value !== 'object') return value
  if (seen === undefined) seen = new Map()
  else if (seen.has(value)) return seen.get(value)
  let out
  if (Array.isArray(value)) {
    out = new Array(value.length)
    seen.set(value, out)
    for (let i = 0; i < value.length; i++) out[i] = cloneDeep(value[i], seen)
    return out
  }
  if (Buffer.isBuffer(value)) out = Buffer.from(value)
  else if (ArrayBuffer.isView(value)) out = value.slice()
  else if (value instanceof Date) out = new Date(value.getTime())
  else if (value instanceof RegExp) out = value
  else if (value instanceof Map) {
    out = new Map()
    seen.set(value, out)
    for (const [k, v] of value) out.set(k, cloneDeep(v, seen))
    return out
  } else if (value instanceof Set) {
    out = new Set()
    seen.set(value, out)
    for (const v of value) out.add(cloneDeep(v, seen))
    return out
  } else {
    out = Object.create(Object.getPrototypeOf(value))
    seen.set(value, out)
    for (const key of Object.keys(value)) out[key] = cloneDeep(value[key], seen)
    return out
  }
  seen.set(value, out)
  return out
}

module.exports = { cloneDeep }
