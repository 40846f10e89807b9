'use strict'

// .hgrm text read back, for tests of what --hgrm writes.

// As HdrHistogram's plotter (plotFiles.html) reads a file: trimmed lines
// split on runs of spaces, '#' lines skipped, only rows of four numbers
// kept. So the header and the 100% row (no 1/(1-p): it is infinite) are
// not rows; a file the plotter would draw differently parses differently.
function parseHgrm (text) {
  const rows = []
  for (const line of String(text).split('\n')) {
    const trimmed = line.trim()
    if (trimmed.startsWith('#')) continue
    const fields = trimmed.split(/ +/)
    if (fields.length !== 4) continue
    const [value, percentile, totalCount, inverse] = fields.map(Number)
    if ([value, percentile, totalCount, inverse].some(Number.isNaN)) continue
    rows.push({ value, percentile, totalCount, inverse })
  }
  return rows
}

module.exports = { parseHgrm }
