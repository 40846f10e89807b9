'use strict'

// Saved results and searches read back (lib/results/saved-result.js):
// JSON, NDJSON with log lines between, and what is neither, refused in one
// line naming the file. What a saved result keeps, from real runs:
// test/e2e/series.test.js.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { readInputs, readResults, parseInputs, isSearch } = require('../../lib/results/saved-result')
const { searchA, searchB } = require('../helpers/synthetic-search')
const { resultOfLatencies } = require('../helpers/synthetic-result')

t.test('what is not a result fails with one line naming the file', async (t) => {
  const fs = require('fs')
  const path = require('path')
  const dir = t.testdir({
    'notes.json': '{"hello": "world"}',
    'empty.json': '',
    'text.txt': 'just text\nno json here\n',
    'old.json': JSON.stringify({ requests: { total: 5 }, latency: { p99: 1 } })
  })
  for (const [file, why] of [['notes.json', /no requests and latency/], ['empty.json', /empty/], ['text.txt', /holds no result/]]) {
    t.throws(() => readResults(path.join(dir, file)), { code: 'AC_NOT_A_RESULT', message: why }, file)
  }
  t.throws(() => readResults(path.join(dir, 'missing.json')), { code: 'AC_FILE_UNREADABLE', message: /missing\.json: no such file/ })
  t.equal(readResults(path.join(dir, 'old.json')).length, 1, 'autocannon\'s own -j output is a result')
  t.throws(() => readResults(path.join(dir, 'old.json'), { need: ['histograms'] }), { code: 'AC_NOT_A_RESULT', message: /no latency histograms.*older autocannon/ })
  t.throws(() => readResults(path.join(dir, 'old.json'), { need: ['series'] }), { code: 'AC_NOT_A_RESULT', message: /no per-second series/ })
  t.ok(fs.existsSync(dir))
})

t.test('saved searches read back: JSON, NDJSON beside results, and what is neither', async (t) => {
  const result = resultOfLatencies({ perSecond: [[20000], [21000]] })
  const a = searchA()
  a.searches[0].steps[0].result = JSON.parse(JSON.stringify(result))
  const dir = t.testdir({
    'search.json': JSON.stringify(a) + '\n',
    'mixed.ndjson': `Running a search\n${JSON.stringify(result)}\nlog line\n${JSON.stringify(searchB())}\n`,
    'notes.json': '{"searches": "no"}',
    'empty-search.json': '{"slos": [], "searches": []}',
    'broken.json': JSON.stringify({ slos: [], searches: [{ connections: 1, steps: [{ kind: 'low' }] }] })
  })
  const [one] = readInputs(path.join(dir, 'search.json'))
  t.equal(one.kind, 'search')
  t.same(one.value.searches.map((s) => s.best && s.best.rate), [900, 1600, 1200])
  t.type(one.value.searches[0].steps[0].result.start, Date, 'the steps\' results get their dates back')
  t.same(readInputs(path.join(dir, 'mixed.ndjson')).map((i) => i.kind), ['result', 'search'])
  t.ok(isSearch(searchB()))
  t.notOk(isSearch(result))

  t.throws(() => readInputs(path.join(dir, 'notes.json')), { code: 'AC_NOT_A_RESULT', message: /notes\.json is not an autocannon result or capacity search: its JSON has no requests and latency/ })
  t.throws(() => readInputs(path.join(dir, 'empty-search.json')), { code: 'AC_NOT_A_RESULT' })
  t.throws(() => readInputs(path.join(dir, 'broken.json')), { code: 'AC_NOT_A_RESULT', message: /broken\.json has a search step without its target rate and latency \(at 1 connections\)/ })
  t.throws(() => parseInputs('', 'stdin'), { message: /stdin is not an autocannon result or capacity search: it is empty/ })

  // What reads only results says what the file is, in one line.
  t.throws(() => readResults(path.join(dir, 'search.json')), { code: 'AC_NOT_A_RESULT', message: /search\.json is a capacity search \(--findMaxRate -j\), not a result/ })
  t.equal(readResults(path.join(dir, 'mixed.ndjson')).length, 1, 'beside results, a search line is passed over')
  t.throws(() => readResults(path.join(dir, 'notes.json')), { message: /notes\.json is not an autocannon result: its JSON has no requests and latency \(save one with -j > file\.json\)$/ })
  t.ok(fs.existsSync(dir))
})
