'use strict'

// Formats the fuzz runner's report: a table per layer, the known
// differences seen, and the disagreements with their case ids and a hex
// dump of each.

const { KNOWN } = require('./known')
const { CATEGORIES } = require('./generate')

function hexdump (buf, max = 512) {
  const lines = []
  const n = Math.min(buf.length, max)
  for (let off = 0; off < n; off += 16) {
    const row = buf.subarray(off, Math.min(off + 16, n))
    const hex = [...row].map((b) => b.toString(16).padStart(2, '0')).join(' ')
    const text = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('')
    lines.push(`    ${off.toString(16).padStart(4, '0')}  ${hex.padEnd(47)}  |${text}|`)
  }
  if (buf.length > max) lines.push(`    … ${buf.length - max} more bytes`)
  return lines.join('\n')
}

function table (tally) {
  const rows = [['category', 'cases', 'agree', 'known', 'disagree']]
  const total = { cases: 0, agree: 0, known: 0, disagree: 0 }
  const cats = [...CATEGORIES, ...Object.keys(tally.byCategory).filter((c) => !CATEGORIES.includes(c))]
  for (const cat of cats) {
    const r = tally.byCategory[cat]
    if (!r) continue
    rows.push([cat, r.cases, r.agree, r.known, r.disagree])
    for (const k of Object.keys(total)) total[k] += r[k]
  }
  rows.push(['all', total.cases, total.agree, total.known, total.disagree])
  return rows.map((r) => '  ' + r.map((x, k) => k === 0 ? String(x).padEnd(12) : String(x).padStart(9)).join('')).join('\n')
}

function knownLines (tallies) {
  const ids = Object.keys(KNOWN)
  const lines = []
  for (const id of ids) {
    const counts = tallies.map(([, t]) => t.known[id] || 0)
    if (counts.every((n) => n === 0)) continue
    lines.push(`  ${id.padEnd(15)}${counts.map((n) => String(n).padStart(9)).join('')}  ${KNOWN[id].title}`)
  }
  return lines
}

module.exports = { hexdump, table, knownLines }
