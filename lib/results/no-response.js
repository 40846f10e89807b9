'use strict'

// Why a run got no response at all, in one line: the CLI's last line
// before it exits 1, a capacity search's reason to stop before its first
// step, and the HTML report's summary. Worded from the result object
// alone, so that whoever raises it needs no output module.

const { tally } = require('../core/format')

function noResponseLine (result) {
  const url = Array.isArray(result.url) ? result.url.join(', ') : result.url
  const sent = result.requests ? result.requests.sent : 0
  if (result.errors > 0) {
    const codes = result.errorCodes ? `; ${tally(result.errorCodes)}` : ''
    return `no response from ${url}: ${result.errors} of ${sent} requests ended in errors (${tally(result.errorsByCause || {})}${codes})`
  }
  if (sent > 0) {
    return `no response from ${url}: ${sent} requests were still waiting after ${result.duration}s (each may wait up to the timeout, -t)`
  }
  return `no response from ${url}: no request was sent in ${result.duration}s`
}

module.exports = { noResponseLine }
