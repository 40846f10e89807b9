'use strict'

// `autocannon merge` in this process (lib/cli/merge.js), on saved results
// made from chosen numbers: the summary line and its warnings, the merged
// totals, the thresholds held to the merge (99 when one fails), the
// outputs, and bad input refused before anything is read. Real shards and
// the command as users run it: test/e2e/merge.test.js.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { run } = require('../../lib/cli/merge')
const { randomResult } = require('../helpers/random-result')
const { sink } = require('../helpers/sink')
const { warningLine } = require('../../lib/core/warnings')

function saved (t) {
  const a = randomResult({ seed: 1, intervals: 4 })
  const b = randomResult({ seed: 2, intervals: 4, rate: 1200 })
  const dir = t.testdir({ 'a.json': JSON.stringify(a), 'b.json': JSON.stringify(b) })
  return { dir, a, b, files: [path.join(dir, 'a.json'), path.join(dir, 'b.json')] }
}

function merge (argv) {
  const stdout = sink()
  const stderr = sink()
  const code = run(argv, { stdout, stderr })
  return { code, stdout: stdout.text, stderr: stderr.text }
}

t.test('-j: the merged result on stdout, the summary alone on stderr', async (t) => {
  const { a, b, files } = saved(t)
  const out = merge([...files, '-j'])
  t.equal(out.code, 0)
  t.equal(out.stderr, 'merged 2 results (no --shard), start skew 0 ms\n', 'plain results are not called shards')
  const merged = JSON.parse(out.stdout)
  t.equal(merged.requests.total, a.requests.total + b.requests.total, 'the requests of both')
  t.equal(merged.errors, 0)
})

t.test('--expect: the missing are warned about; a threshold is held to the merge', async (t) => {
  const { files } = saved(t)
  const out = merge([...files, '-j', '--expect', '3', '--threshold', 'rps>100000', '--threshold', 'errors<1%', '--allowMissing'])
  t.equal(out.code, 99, 'a failed threshold')
  t.equal(out.stderr, 'merged 2 results (no --shard), 1 of 3 expected results missing, start skew 0 ms\n' +
    warningLine({ code: 'AC_SHARD_MISSING', message: '1 of the 3 expected results are missing' }) + '\n' +
    '1 of 2 thresholds failed: rps>100000\n')
  t.same(JSON.parse(out.stdout).thresholds.map((x) => [x.expression, x.ok]), [['rps>100000', false], ['errors<1%', true]])

  // Without --allowMissing: part of a run is not the run.
  const partial = merge([...files, '-j', '--expect', '3'])
  t.equal(partial.code, 3, 'exit 3')
  t.match(partial.stderr, /\nmerge incomplete: 1 of 3 expected results missing, so the merged result is of part of the run \(exit 3; --allowMissing accepts it\)\n$/)
  t.equal(JSON.parse(partial.stdout).requests.total > 0, true, 'the merged result is printed all the same')
})

t.test('without -j: the tables on stderr; -o writes the merged result', async (t) => {
  const { dir, files } = saved(t)
  const file = path.join(dir, 'merged.json')
  const out = merge([...files, '-o', file])
  t.equal(out.code, 0)
  t.equal(out.stdout, '')
  t.match(out.stderr, /^merged 2 results \(no --shard\), start skew 0 ms\n/)
  t.match(out.stderr, /Req\/Sec/)
  t.equal(JSON.parse(fs.readFileSync(file, 'utf8')).samples, 4)
})

t.test('bad input: refused before anything is read or written', async (t) => {
  const { dir, files } = saved(t)
  const refused = (argv, message) => t.throws(() => run(argv, { stdout: sink(), stderr: sink() }), { message }, argv.join(' '))
  refused([], /^merge needs at least one saved result/)
  refused([...files, '--expect', '0'], /^Invalid value for --expect: "0" is not a number of shards/)
  refused([...files, '--threshold', 'p99<<1'], /^Invalid value for --threshold: "p99<<1" is not a threshold/)
  refused([...files, '-o', path.join(dir, 'no', 'such', 'merged.json')], /cannot write there \(no such directory\)/)
  refused([path.join(dir, 'missing.json')], /missing\.json: no such file/)
  t.match(merge(['-h']).stdout, /^usage: autocannon merge/)
})
