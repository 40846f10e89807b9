'use strict'

// Outputs through the real command: --html and `autocannon report` write
// the same self-contained report, output files are checked before the run,
// and saved results that are not results fail with one line.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { run } = require('../helpers/cli')
const { httpServer } = require('../helpers/servers')

t.test('--html writes the report of the run; report re-renders saved runs', async (t) => {
  let requests = 0
  const url = await httpServer(t, (req, res) => { requests++; res.end('hello') })
  const dir = t.testdir()
  const html = path.join(dir, 'run.html')
  const out = await run(['-c', '2', '-d', '1', '-j', '--html', html, url])
  t.equal(out.code, 0, out.stderr)
  const result = JSON.parse(out.stdout)
  const page = fs.readFileSync(html, 'utf8')
  t.match(page, /^<!doctype html>/i)
  t.match(page, /uPlot/, 'uPlot inlined')
  t.notMatch(page, /<script[^>]+src=/i, 'no external script')
  t.ok(page.includes(result.url), 'the run\'s URL is in it')
  t.ok(page.includes(result.requests.total.toLocaleString('en-US')), `its response count (${result.requests.total}) too`)

  const saved = path.join(dir, 'a.json')
  fs.writeFileSync(saved, out.stdout)
  const second = await run(['-c', '1', '-a', '20', '-j', url])
  fs.writeFileSync(path.join(dir, 'b.ndjson'), `log line\n${second.stdout}`)
  const report = path.join(dir, 'report.html')
  const rep = await run(['report', saved, path.join(dir, 'b.ndjson'), '-o', report])
  t.equal(rep.code, 0, rep.stderr)
  t.equal(rep.stdout, '')
  const two = fs.readFileSync(report, 'utf8')
  t.ok(two.includes('"a"') && two.includes('"b"'), 'one line per file, named after it')

  const toStdout = await run(['report', saved])
  t.match(toStdout.stdout, /^<!doctype html>/i, 'without -o, the page on stdout')

  const before = requests
  const unwritable = await run(['-c', '1', '-d', '1', '--html', path.join(dir, 'missing', 'r.html'), url])
  t.equal(unwritable.code, 1)
  t.match(unwritable.stderr, /^Error: --html .*missing.*: cannot write there \(no such directory\)\n$/)
  t.equal(requests, before, 'checked before the run: no request sent')
  const search = await run(['--findMaxRate', '--slo', 'p99<1s', '--html', path.join(dir, 'missing', 's.html'), url])
  t.equal(search.code, 1)
  t.match(search.stderr, /^Error: --html .*missing.*: cannot write there \(no such directory\)\n$/)
  t.equal(requests, before, 'and before a capacity search: no probe sent')

  fs.writeFileSync(path.join(dir, 'notes.json'), '{"not": "a result"}')
  for (const args of [['report', path.join(dir, 'notes.json')], ['report', path.join(dir, 'nope.json')], ['report'], ['report', saved, '--bogus']]) {
    const bad = await run(args)
    t.equal(bad.code, 1, `${args.join(' ')}: exit 1`)
    t.equal(bad.stderr.trim().split('\n').length, 1, `${args.join(' ')}: one line (${bad.stderr.trim()})`)
    t.notMatch(bad.stderr, /\n\s+at /, 'no stack trace')
  }
})
