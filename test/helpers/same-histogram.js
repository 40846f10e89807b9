'use strict'

// Asserts that two histograms hold the same: total, max, min, range and
// every bucket's count.
function sameHistogram (t, a, b, label) {
  t.equal(a.totalCount, b.totalCount, `${label}: total`)
  t.equal(a.maxValue, b.maxValue, `${label}: max`)
  t.equal(a.minNonZeroValue, b.minNonZeroValue, `${label}: min`)
  t.equal(a.countsArrayLength, b.countsArrayLength, `${label}: range`)
  let diff = 0
  for (let i = 0; i < a.countsArrayLength; i++) if (a.getCountAtIndex(i) !== b.getCountAtIndex(i)) diff++
  t.equal(diff, 0, `${label}: every bucket`)
}

module.exports = { sameHistogram }
