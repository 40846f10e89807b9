'use strict'

// require('autocannon/lib/format'): autocannon's count as its tables show
// it, 999 as '999' and 1500 as '2k'.

function format (num) {
  return num < 1000 ? '' + num : '' + Math.round(num / 1000) + 'k'
}

module.exports = format
