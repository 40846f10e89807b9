'use strict'

// `json: true` through the library, beside autocannon 9: the result as
// one JSON line on stdout after 'done' and after the callback (the
// warm-up's line first), in the same cases and only those (not `false`,
// not after an error, not with forever); options from parseArguments(-j)
// too, and start(). The command prints its line once. Run by the same
// script on each side, against one loopback server.

const t = require('tap')
const { bothScripts, bothClis } = require('../../helpers/side-by-side')
const { okServer } = require('../../helpers/dropin')

// The lines a script printed: its markers (<<…>>) and, for each JSON
// line, 'json' and the parsed value.
function lines (stdout) {
  return stdout.split('\n').filter(Boolean).map((line) => line.startsWith('<<') ? { mark: line } : { json: JSON.parse(line) })
}

const order = (out) => lines(out.stdout).map((l) => l.mark || 'json')

const CASES = {
  promise: 'await autocannon(base); mark("resolved")',
  callback: 'await new Promise((resolve) => autocannon(base, (err) => { mark("cb " + (err && err.message)); setImmediate(resolve) }))',
  'json is any truthy value': 'await autocannon({ ...base, json: "yes" }); mark("resolved")',
  'json: false': 'await autocannon({ ...base, json: false }); mark("resolved")',
  'a warm-up: its line, then the run\'s': 'const r = await autocannon({ ...base, amount: undefined, duration: 1, warmup: { connections: 1, duration: 1 } }); mark("resolved " + typeof r.warmup)',
  workers: 'await autocannon({ ...base, workers: 2 }); mark("resolved")',
  'an error: nothing': 'try { await autocannon({ ...base, connections: 0 }) } catch (e) { mark("rejected " + e.message) }',
  'forever: nothing': `await new Promise((resolve) => {
    const i = autocannon({ ...base, amount: undefined, duration: 1, forever: true })
    let n = 0
    i.on('done', () => { mark('done'); if (++n === 2) { i.stop(); setTimeout(resolve, 300) } })
  })`,
  'parseArguments(-j)': 'await autocannon(autocannon.parseArguments(["-j", "-a", "20", "-c", "2", url])); mark("resolved")',
  'parseArguments(-j) with a callback': 'await new Promise((resolve) => autocannon(autocannon.parseArguments(["-j", "-a", "20", "-c", "2", url]), () => { mark("cb"); setImmediate(resolve) }))',
  'start(parseArguments(-j))': 'autocannon.start(autocannon.parseArguments(["-j", "-a", "20", "-c", "2", url])); await new Promise((resolve) => setTimeout(resolve, 1000)); mark("later")'
}

function script (body) {
  return `
    const url = ARGS.url
    const base = { url, amount: 20, connections: 2, json: true }
    const mark = (m) => process.stdout.write('<<' + m + '>>\\n')
    ;(async () => { ${body} })()`
}

t.test('printed as autocannon prints it, in the same cases', async (t) => {
  const url = await okServer(t)
  for (const [label, body] of Object.entries(CASES)) {
    const { upstream, ours } = await bothScripts(script(body), { args: { url } })
    t.equal(ours.code, 0, `${label}: exit code (${ours.stderr})`)
    t.equal(upstream.code, 0, `${label}: autocannon's exit code (${upstream.stderr})`)
    t.same(order(ours), order(upstream), `${label}: the same lines in the same order (${order(upstream).join(', ')})`)
    t.equal(ours.stderr, upstream.stderr, `${label}: the same on stderr (nothing)`)
    const theirs = lines(upstream.stdout).filter((l) => l.json)
    const mine = lines(ours.stdout).filter((l) => l.json)
    for (let i = 0; i < theirs.length && i < mine.length; i++) {
      const missing = Object.keys(theirs[i].json).filter((key) => !(key in mine[i].json))
      t.same(missing, [], `${label}: line ${i + 1} has every key of autocannon's`)
      t.equal(mine[i].json.connections, theirs[i].json.connections, `${label}: line ${i + 1} is the same run's`)
    }
  }
})

// A row of docs/differences.md: a warm-up asked for with a callback runs.
t.test('a warm-up with a callback: autocannon runs none (one line), here it runs (two)', async (t) => {
  const url = await okServer(t)
  const body = 'await new Promise((resolve) => autocannon({ ...base, amount: undefined, duration: 1, warmup: { connections: 1, duration: 1 } }, (err, r) => { mark("cb " + typeof r.warmup); setImmediate(resolve) }))'
  const { upstream, ours } = await bothScripts(script(body), { args: { url } })
  t.same(order(upstream), ['<<cb undefined>>', 'json'], 'autocannon: no warm-up')
  t.same(order(ours), ['json', '<<cb object>>', 'json'], 'here: the warm-up\'s line, then the run\'s')
})

t.test('the command prints its -j line once, as autocannon\'s', async (t) => {
  const url = await okServer(t)
  const { upstream, ours } = await bothClis(['-j', '-a', '20', '-c', '2', url])
  t.equal(ours.code, 0, ours.stderr)
  t.equal(upstream.code, 0, upstream.stderr)
  t.equal(ours.stdout.split('\n').filter(Boolean).length, 1, 'one line')
  t.equal(upstream.stdout.split('\n').filter(Boolean).length, 1)
  t.equal(JSON.parse(ours.stdout)['2xx'], 20)
})
