'use strict'

// Shrinks a case the in-process layer disagrees on to fewer bytes that
// still disagree in the same way, for a report one can read: drops ever
// smaller runs of bytes while the disagreement stays (a simple delta
// debugging). "The same way": the same layer and the same description,
// numbers and quoted bytes aside; otherwise the shrinking wanders off to
// some other, smaller difference.

const { checkCase } = require('./check')

function signature (r) {
  return `${r.layer} ${r.detail}`.replace(/"(?:[^"\\]|\\.)*"…?"?/g, 'S').replace(/[0-9]+/g, 'N')
}

function minimize (c, budget = 400) {
  const first = checkCase(c)
  if (first.verdict !== 'disagree') return c.wire
  const want = signature(first)
  const fails = (wire) => {
    budget--
    const r = checkCase({ ...c, wire })
    return r.verdict === 'disagree' && signature(r) === want
  }
  let wire = c.wire
  // budget is spent by fails(), which the loops call.
  for (let size = wire.length >> 1; size >= 1 && budget > 0; size = size >> 1) { // eslint-disable-line no-unmodified-loop-condition
    for (let at = 0; at + size <= wire.length && budget > 0;) { // eslint-disable-line no-unmodified-loop-condition
      const candidate = Buffer.concat([wire.subarray(0, at), wire.subarray(at + size)])
      if (candidate.length > 0 && fails(candidate)) wire = candidate
      else at += size
    }
  }
  return wire
}

module.exports = { minimize, signature }
