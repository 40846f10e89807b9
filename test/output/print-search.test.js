'use strict'

// A capacity search as text (lib/output/print-search.js): the header of
// each connection count, one aligned row per step as it ends, the probe.
// The live table through the CLI: test/e2e/find-max-rate.test.js.

const t = require('tap')
const { headerLine, stepLine, probeLine } = require('../../lib/output/print-search')

// The columns' widths, right-aligned and one space apart.
const WIDTHS = [4, 7, 10, 10, 10, 10, 10, 7, 15]

function cells (line) {
  const out = []
  let at = 0
  for (const w of WIDTHS) {
    out.push(line.slice(at, at + w))
    at += w + 1
  }
  return { cells: out.map((c) => c.trim()), padded: out, rest: line.slice(at - 1) }
}

t.test('the header: the connection count, then the columns', async (t) => {
  const [title, head, end] = headerLine(100).split('\n')
  t.equal(title, 'Searching for the highest rate at 100 connections')
  t.same(cells(head).cells, ['step', 'kind', 'target', 'achieved', 'p50', 'p99', 'p99.9', 'errors', 'verdict'])
  t.equal(cells(head).rest, '  why')
  t.equal(end, '')
})

t.test('a step: its numbers in the columns, why after them', async (t) => {
  const entry = {
    kind: 'bisect',
    target: 12500,
    verdict: 'fail',
    reasons: ['p99 120 ms breaks p99 < 50 ms', 'errors 2% breaks errors < 1%'],
    result: { rate: { achieved: 12312.6 }, latency: { p50: 3.456, p99: 120, p99_9: 250.5 }, errors: 17, requests: { total: 1 }, duration: 1 }
  }
  const line = stepLine(entry, 4)
  t.ok(line.endsWith('\n'))
  const { cells: c, padded, rest } = cells(line.slice(0, -1))
  t.same(c, ['5', 'bisect', '12,500', '12,313', '3.46 ms', '120 ms', '250.5 ms', '17', 'fail'])
  t.ok(padded.every((p, i) => p.length === WIDTHS[i] && !p.endsWith(' ')), 'right-aligned in their widths')
  t.equal(rest, '  p99 120 ms breaks p99 < 50 ms; errors 2% breaks errors < 1%')

  const bare = stepLine({ kind: 'low', target: undefined, verdict: 'pass', result: { latency: {}, errors: 0, requests: { total: 500 }, duration: 2 } }, 0)
  t.same(cells(bare.slice(0, -1)).cells, ['1', 'low', '-', '250', '-', '-', '-', '0', 'pass'], 'achieved from the result without a rate; missing numbers as -')
  t.notMatch(bare, / {2}\n$/, 'no why: nothing after the verdict')
})

t.test('the probe', async (t) => {
  t.equal(probeLine({ connections: 10, ceiling: 15321.4 }), 'closed-loop probe at 10 connections: 15,321 req/s\n')
  t.equal(probeLine({ connections: 10, ceiling: 900, tries: 2, starved: null }), 'closed-loop probe at 10 connections: 900 req/s, try 2 (the generator was starved in the first)\n')
  t.equal(probeLine({ connections: 10, ceiling: 900, tries: 3, starved: null }), 'closed-loop probe at 10 connections: 900 req/s, try 3 (the generator was starved in the 2 before)\n')
  t.equal(probeLine({ connections: 10, ceiling: 813, tries: 3, starved: { cause: 'starved', text: '…' } }), 'closed-loop probe at 10 connections: 813 req/s, the highest of 3 tries, each starved (this machine\'s ceiling, not the server\'s: the steps judge the server)\n')
})
