'use strict'

// require('autocannon/lib/parseHAR'): { parseHAR(har) }, autocannon's
// reading of a parsed HAR: a Map of each origin to its entries' requests,
// { origin, method, path, headers[, body] }, as the HAR has them (the
// method as written, the path with its query and fragment, the last of a
// repeated header). Throws autocannon's "Could not parse HAR content: …".
// (The har option reads a HAR its own way, lib/config/har.js.)

const { upstream } = require('../core/upstream-messages')

function entries (har) {
  if (!har || typeof har !== 'object' || typeof har.log !== 'object' || !Array.isArray(har.log.entries) || !har.log.entries.length) {
    throw new Error(upstream('harNoEntries'))
  }
  return har.log.entries
}

function headersOf (list, i) {
  if (!Array.isArray(list)) throw new Error(upstream('harHeaders', { i }))
  const headers = {}
  list.forEach((header, j) => {
    if (!header || typeof header !== 'object' || typeof header.name !== 'string' || typeof header.value !== 'string') {
      throw new Error(upstream('harHeader', { i, j: j + 1 }))
    }
    headers[header.name] = header.value
  })
  return headers
}

function parseHAR (har) {
  const byOrigin = new Map()
  try {
    entries(har).forEach((entry, k) => {
      const i = k + 1
      if (!entry || typeof entry !== 'object' || !entry.request || typeof entry.request !== 'object') {
        throw new Error(upstream('harRequest', { i }))
      }
      const { method, url, headers: list, postData } = entry.request
      const headers = headersOf(list, i)
      const { pathname, search, hash, origin } = new URL(url)
      if (!byOrigin.has(origin)) byOrigin.set(origin, [])
      const request = { origin, method, path: `${pathname}${search}${hash}`, headers }
      if (typeof postData === 'object' && typeof postData.text === 'string') request.body = postData.text
      byOrigin.get(origin).push(request)
    })
  } catch (err) {
    throw new Error(upstream('har', { reason: err.message }))
  }
  return byOrigin
}

module.exports = { parseHAR }
