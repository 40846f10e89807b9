'use strict'

// require('autocannon/lib/url'): autocannon's helpers for a url option
// that is one URL or a list of them.

// The url option is set: a non-empty string or list.
function checkURL (url) {
  return (typeof url === 'string' && url) || (Array.isArray(url) && url.length > 0)
}

// A list as it is; one URL as something with map(fn), which gives fn(url),
// or [fn(url)] with asArray.
function ofURL (url, asArray) {
  if (Array.isArray(url)) return url
  if (typeof url === 'string') {
    return {
      map (fn) {
        return asArray ? [fn(url)] : fn(url)
      }
    }
  }
  throw new Error('url should only be a string or an array of string')
}

module.exports = { checkURL, ofURL }
