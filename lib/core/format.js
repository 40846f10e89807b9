'use strict'

// Numbers as the tables, lines, sentences and reports show them, in one
// place. No Intl.NumberFormat nor toLocaleString: either loads ICU's data,
// more than a short run's own work, for a comma every three digits.

function round (value, decimals) {
  const f = 10 ** decimals
  return Math.round(value * f) / f
}

// 70713.61 → "70,713.61": grouped by thousands, rounded to `decimals` when
// given. Not a finite number: as String() shows it.
function thousands (value, decimals) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value)
  const abs = decimals === undefined ? Math.abs(value) : round(Math.abs(value), decimals)
  const [whole, fraction] = String(abs).split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  // No "-0" for what rounds to nothing.
  return (value < 0 && (whole !== '0' || fraction) ? '-' : '') + grouped + (fraction ? '.' + fraction : '')
}

// A rate in whole requests per second: 18312.6 → "18,313".
function rate (value) {
  return thousands(Math.round(value), 0)
}

// Milliseconds in the tables, to at most two decimals: 0.251 → "0.25",
// 20 → "20".
function ms (value) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value)
  return String(round(value, 2))
}

// Milliseconds in a sentence: two significant digits below 10, whole
// above (0.25, 3.1, 143, 1,204).
function msBrief (value) {
  if (!Number.isFinite(value)) return String(value)
  return value >= 10 ? rate(value) : String(Number(value.toPrecision(2)))
}

// A fraction as a percentage in a sentence: two significant digits below
// 10% (0.0123 → "1.2%"), whole above.
function percent (fraction) {
  const p = fraction * 100
  return (p === 0 ? '0' : p >= 10 ? String(Math.round(p)) : String(Number(p.toPrecision(2)))) + '%'
}

// A fraction as a percentage in a table, to two decimals; "<0.01%" for
// what is there but rounds to nothing.
function percentFixed (fraction) {
  const p = fraction * 100
  return p > 0 && p < 0.01 ? '<0.01%' : `${round(p, 2)}%`
}

// { connect: 50, read: 450 } → "read 450, connect 50": the non-zero
// counts, largest first.
function tally (byKey) {
  return Object.keys(byKey).filter((k) => byKey[k] > 0).sort((a, b) => byKey[b] - byKey[a])
    .map((k) => `${k} ${byKey[k]}`).join(', ')
}

module.exports = { round, thousands, rate, ms, msBrief, percent, percentFixed, tally }
