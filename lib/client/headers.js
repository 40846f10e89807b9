'use strict'

// Response headers as onResponse hooks and 'headers' listeners get them,
// from a flat [name, value, ...] list (as both protocols' parsers give
// them): keys as the server sent them, repeated headers as arrays (as
// autocannon gives them), and every key also readable in lower case.

function headersObject (flat) {
  const out = {}
  if (!flat) return out
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i]
    const value = flat[i + 1]
    const have = out[name]
    if (have === undefined) out[name] = value
    else if (Array.isArray(have)) have.push(value)
    else out[name] = [have, value]
  }
  for (const name of Object.keys(out)) {
    const lower = name.toLowerCase()
    if (lower !== name && !Object.prototype.hasOwnProperty.call(out, lower)) {
      Object.defineProperty(out, lower, { value: out[name], enumerable: false, writable: true, configurable: true })
    }
  }
  return out
}

module.exports = { headersObject }
