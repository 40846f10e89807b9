'use strict'

// `autocannon report` in this process (lib/cli/report.js): saved results
// into one HTML page, named by their files (several in one file numbered),
// to stdout or to -o, and bad input refused before anything is written.
// The page itself: test/output/html/report/.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { run } = require('../../lib/cli/report')
const { randomResult } = require('../helpers/random-result')
const { sink } = require('../helpers/sink')

// The names the page gives its runs, from the data it inlines.
function names (html) {
  const data = JSON.parse(/<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)[1])
  return data.charts.find((c) => c.id === 'latency-percentiles').series.map((s) => s.label)
}

t.test('one page for every result, named by its file; -o writes it', async (t) => {
  const dir = t.testdir({
    'base.json': JSON.stringify(randomResult({ seed: 1, intervals: 3 })),
    'rounds.ndjson': [2, 3].map((seed) => JSON.stringify(randomResult({ seed, intervals: 3 }))).join('\n') + '\n'
  })
  const stdout = sink()
  t.equal(run([path.join(dir, 'base.json'), path.join(dir, 'rounds.ndjson')], { stdout }), 0)
  t.match(stdout.text, /^<!doctype html>/i)
  t.same(names(stdout.text), ['base', 'rounds #1', 'rounds #2'])
  const file = path.join(dir, 'report.html')
  const quiet = sink()
  t.equal(run([path.join(dir, 'base.json'), '-o', file], { stdout: quiet }), 0)
  t.same(names(fs.readFileSync(file, 'utf8')), ['Latency (from send)'], 'one result: its lines named by what they are, and which latency (no rate: from send)')
})

t.test('bad input: refused before anything is written', async (t) => {
  const old = randomResult({ seed: 1, intervals: 2 })
  delete old.histograms
  const dir = t.testdir({ 'old.json': JSON.stringify(old), 'ok.json': JSON.stringify(randomResult({ seed: 1, intervals: 2 })) })
  const refused = (argv, message) => {
    const stdout = sink()
    t.throws(() => run(argv, { stdout }), { message }, argv.join(' '))
    t.equal(stdout.text, '', 'nothing written')
  }
  refused([], /^report needs at least one saved result or search/)
  refused([path.join(dir, 'old.json')], /old\.json .*no latency histograms/)
  refused([path.join(dir, 'ok.json'), '-o', path.join(dir, 'no', 'such', 'r.html')], /cannot write there \(no such directory\)/)
  const help = sink()
  t.equal(run(['-h'], { stdout: help }), 0)
  t.match(help.text, /^usage: autocannon report/)
})
