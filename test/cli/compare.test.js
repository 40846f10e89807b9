'use strict'

// `autocannon compare` in this process (lib/cli/compare.js), on saved
// results made from chosen numbers: the names it shows, --alpha and --noise
// as fractions or percentages, -j, and bad input in one line. The statistics
// themselves: test/compare/compare.test.js.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { run } = require('../../lib/cli/compare')
const { randomResult } = require('../helpers/random-result')
const { sink } = require('../helpers/sink')

function files (t, names = ['base.json', 'new.json']) {
  const dir = t.testdir({ runs: {}, other: {} })
  const paths = names.map((name) => path.join(dir, name))
  fs.writeFileSync(paths[0], JSON.stringify(randomResult({ seed: 1 })))
  fs.writeFileSync(paths[1], JSON.stringify(randomResult({ seed: 2, rate: 1200 })))
  return paths
}

function compare (argv) {
  const stdout = sink()
  const code = run(argv, { stdout })
  return { code, stdout: stdout.text }
}

t.test('the table names each side by its file', async (t) => {
  const out = compare(files(t))
  t.equal(out.code, 0)
  t.match(out.stdout, /^ +base +new +delta\nReq\/Sec .* better /)
  const same = compare(files(t, ['runs/a.json', 'other/a.json']))
  t.match(same.stdout, /^ +\S+runs\/a\.json +\S+other\/a\.json +delta\n/, 'two files of one name: their paths')
})

t.test('--alpha and --noise as fractions or percentages; -j the comparison', async (t) => {
  const [a, b] = files(t)
  const percent = JSON.parse(compare([a, b, '-j', '--noise', '25%', '--alpha', '0.01']).stdout)
  t.equal(percent.noise, 0.25)
  t.equal(percent.alpha, 0.01)
  t.equal(percent.metrics[0].verdict, '~', 'an 18% change is inside a 25% threshold')
  const fraction = JSON.parse(compare([a, b, '--json', '--noise', '0.05']).stdout)
  t.equal(fraction.noise, 0.05)
  t.equal(fraction.metrics[0].verdict, 'better')
})

t.test('bad input: one line, with the usage', async (t) => {
  const [a, b] = files(t)
  const refused = (argv, message) => t.throws(() => run(argv, { stdout: sink() }), { code: 'AC_INVALID_ARGUMENT', message }, argv.join(' '))
  refused([a], /^compare needs two saved results, got 1 \(usage: autocannon compare/)
  refused([a, b, a], /^compare needs two saved results, got 3/)
  refused([a, b, '--noise', 'lots'], /^Invalid value for --noise: lots/)
  refused([a, b, '--alpha', '%'], /^Invalid value for --alpha: %/)
  t.match(compare(['--help']).stdout, /^usage: autocannon compare a\.json b\.json/)
})
