'use strict'

// formatComparison(cmp) → the text `autocannon compare` prints: one row per
// metric with both values, the change, a verdict mark and the evidence,
// in plain aligned columns (as benchstat: easy to paste into a review),
// then what the marks mean and which tests gave them.

const { round, thousands, percentFixed: percent } = require('../core/format')

const MARKS = { '~': '~', 'too few samples': '?', better: 'better', worse: 'worse' }

function formatComparison (cmp) {
  const [nameA, nameB] = cmp.names || ['a', 'b']
  const rows = [['', nameA, nameB, 'delta', '', '']]
  for (const m of cmp.metrics) {
    rows.push([m.label, value(m, 'a'), value(m, 'b'), delta(m), MARKS[m.verdict] || '', evidence(m, cmp)])
  }
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)))
  const align = ['left', 'right', 'right', 'right', 'left', 'left']
  const lines = rows.map((r) => r.map((cell, c) => align[c] === 'left' ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))
    .join('  ').trimEnd())
  return [...lines, '', ...legend(cmp)].join('\n') + '\n'
}

function value (m, side) {
  const v = m[side]
  if (m.key === 'errors') {
    const rate = side === 'a' ? m.rateA : m.rateB
    return v === 0 ? '0' : `${thousands(v, 2)} (${percent(rate)})`
  }
  if (!Number.isFinite(v)) return '-'
  return m.unit === 'ms' ? `${round(v, 3)} ms` : thousands(v, 2)
}

function delta (m) {
  if (m.key === 'errors') {
    if (m.a === 0 && m.b === 0) return '-'
    if (m.rateA === 0) return 'new'
    return `×${round(m.rateB / m.rateA, 2).toFixed(2)}`
  }
  if (!Number.isFinite(m.change)) return '-'
  return signed(m.change)
}

function evidence (m, cmp) {
  if (m.verdict === 'too few samples') return `too few samples: ${m.note}`
  if (m.test === 'mann-whitney') {
    if (m.note === 'no errors in either') return m.note
    return `${formatP(m.p)} n=${m.n[0]}+${m.n[1]}`
  }
  return `${round(cmp.confidence * 100, 2)}% CI ${signed(m.ci[0])} … ${signed(m.ci[1])}`
}

function legend (cmp) {
  const intervals = cmp.a.intervals + cmp.b.intervals
  return [
    `~  no significant change at alpha ${cmp.alpha}, or none clearly beyond the ±${round(cmp.noise * 100, 2)}% noise threshold`,
    '?  too few samples to decide',
    `Req/Sec, errors${cmp.metrics.some((m) => m.key === 'ttfb') ? ', TTFB and transfer (medians of the interval means)' : ''}: Mann–Whitney U over per-interval samples (${cmp.a.intervals} + ${cmp.b.intervals}, not ${thousands(cmp.a.requests + cmp.b.requests, 2)} requests).`,
    `Latency: ${round(cmp.confidence * 100, 2)}% interval of the change from ${cmp.resamples} bootstrap resamples of whole intervals (${intervals} in all).`
  ]
}

function formatP (p) {
  return p < 0.001 ? 'p<0.001' : `p=${p.toFixed(3)}`
}

function signed (fraction) {
  if (!Number.isFinite(fraction)) return '-'
  const pct = (fraction * 100).toFixed(2)
  return (fraction > 0 && pct !== '0.00' ? '+' : '') + (pct === '-0.00' ? '0.00' : pct) + '%'
}

module.exports = { formatComparison }
