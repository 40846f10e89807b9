'use strict'

// Thresholds end to end, the CI gate: result.thresholds from the library
// (a malformed expression rejected), and the CLI's exit 0 when met, 99
// when not, 1 for a malformed expression. The grammar and the values:
// test/results/thresholds.test.js.

const t = require('tap')
const autocannon = require('../..')
const { httpServer } = require('../helpers/servers')
const { run } = require('../helpers/cli')
const { parseTables } = require('../helpers/tables')

t.test('library: result.thresholds, and a malformed expression rejected', async (t) => {
  const url = await httpServer(t, (req, res) => setTimeout(() => res.end('ok'), 20))
  const result = await autocannon({ url, connections: 2, duration: 1, thresholds: ['p99 < 2s', 'p50 < 1ms', 'errors == 0'] })
  t.same(result.thresholds.map((r) => [r.expression, r.ok]), [['p99 < 2s', true], ['p50 < 1ms', false], ['errors == 0', true]])
  t.ok(result.thresholds[1].value >= 19, `p50 ${result.thresholds[1].value} ms is the server's delay`)
  t.equal(result.thresholds[1].value, result.latency.p50, 'the same value as the table')

  const plain = await autocannon({ url, connections: 1, amount: 5 })
  t.equal(plain.thresholds, undefined, 'no thresholds, no field')

  await t.rejects(autocannon({ url, thresholds: ['p99 <'] }), { code: 'AC_INVALID_OPTION', option: 'thresholds' })
  await t.rejects(autocannon({ url, thresholds: 'p99 < 1parsec' }), { code: 'AC_INVALID_OPTION' })
  await t.rejects(autocannon({ url, thresholds: [42] }), { code: 'AC_INVALID_OPTION' })
})

t.test('CLI: exit 0 when met, 99 when not, 1 when malformed', async (t) => {
  const url = await httpServer(t, (req, res) => setTimeout(() => res.end('ok'), 20))

  const pass = await run(['-c', '2', '-d', '1', '--threshold', 'p99<5s', '--threshold', 'errors<1%', url], { extraEnv: { NO_COLOR: '1' } })
  t.equal(pass.code, 0, pass.stderr)
  const table = parseTables(pass.stderr).find((rows) => rows[0][0] === 'Threshold')
  t.ok(table, 'a thresholds table')
  t.same(table.slice(1).map((r) => [r[0], r[2]]), [['p99<5s', '✔ pass'], ['errors<1%', '✔ pass']])
  t.match(pass.stderr, /all 2 thresholds passed/)

  const fail = await run(['-c', '2', '-d', '1', '--threshold', 'p50<1ms', '--threshold', 'p99<5s', url], { extraEnv: { NO_COLOR: '1' } })
  t.equal(fail.code, 99, 'a failed threshold exits 99')
  const failTable = parseTables(fail.stderr).find((rows) => rows[0][0] === 'Threshold')
  t.same(failTable.slice(1).map((r) => r[2]), ['✗ fail', '✔ pass'])
  t.match(failTable[1][1], /^\d+(\.\d+)? ms$/, 'the measured value beside it')
  t.match(fail.stderr, /1 of 2 thresholds failed/)

  const json = await run(['-c', '2', '-d', '1', '-j', '--threshold', 'p50<1ms', url])
  t.equal(json.code, 99)
  const result = JSON.parse(json.stdout)
  t.same(result.thresholds.map((r) => r.ok), [false])
  t.equal(json.stderr, '1 of 1 thresholds failed: p50<1ms\n', 'with -j, one line on stderr')

  const bad = await run(['-d', '1', '--threshold', 'p99 < soon', url])
  t.equal(bad.code, 1)
  t.equal(bad.stderr.split('\n').filter(Boolean).length, 1, 'one line')
  t.match(bad.stderr, /^Error: Invalid value for --threshold: "p99 < soon" is not a threshold/)
  t.equal(bad.stdout, '')
})
