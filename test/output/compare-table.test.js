'use strict'

// The comparison as the command prints it (lib/output/compare-table.js),
// for comparisons of results made from chosen numbers.

const t = require('tap')
const { compare } = require('../../lib/compare/compare')
const { formatComparison } = require('../../lib/output/compare-table')
const { randomResult } = require('../helpers/random-result')

t.test('formatComparison: one row a metric, the marks explained', async (t) => {
  const a = randomResult({ seed: 1 })
  const b = randomResult({ seed: 2, rate: 1200, latencyMs: 6, errors: 3 })
  const text = formatComparison(compare(a, b, { names: ['base', 'new'] }))
  const lines = text.split('\n')
  t.match(lines[0], /^ +base +new +delta$/)
  t.match(lines[1], /^Req\/Sec +1,0\d\d(\.5)? +1,2\d\d(\.5)? +\+\d+\.\d\d% +better +p<0\.001 n=10\+10$/)
  t.match(lines[2], /^Latency p50 +\d\.\d+ ms +\d\.\d+ ms +\+\d+\.\d\d% +worse +95% CI \+\d+\.\d\d% … \+\d+\.\d\d%$/)
  t.match(lines[3], /^Latency p99 /)
  t.match(lines[4], /^Latency p99\.9 /)
  t.match(lines[5], /^Errors +0 +30 \(0\.\d+%\) +new +worse +p<0\.001 n=10\+10$/)
  t.match(text, /~ {2}no significant change at alpha 0\.05, or none clearly beyond the ±2% noise threshold/)
  t.match(text, /Mann–Whitney U over per-interval samples \(10 \+ 10, not [\d,]+ requests\)/)
  const widths = new Set(lines.slice(0, 6).map((l) => l.indexOf('%') > 0 ? l.search(/[+-]\d+\.\d\d%/) : -1))
  t.ok(widths.size <= 2, 'the delta column is aligned')

  const same = formatComparison(compare(randomResult({ seed: 4, intervals: 3 }), randomResult({ seed: 3, intervals: 3 })))
  t.match(same, /\nReq\/Sec .* \?  +too few samples: n = 3 \+ 3 intervals: the smallest p they could give is 0\.1, not below alpha 0\.05\n/)
  t.match(same, /\nErrors +0 +0 +- +~ +no errors in either/)
})
