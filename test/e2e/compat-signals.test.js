'use strict'

// autocannon's behaviour where scripts lean on it: the library's warmup,
// more workers than connections, a run lasting at least what was asked,
// the header before any warning; and a clean end on SIGTERM and SIGHUP:
// the --on-port command stopped (it gets the signal first), what was
// measured printed and written, marked partial, exit code 128 + signal.

const t = require('tap')
const { WARNING_PREFIX } = require('../../lib/core/warnings')
const fs = require('fs')
const os = require('os')
const path = require('path')
const http = require('http')
const autocannon = require('../..')
const { start: startCli, run: runCli } = require('../helpers/cli')
const { waitFor: pollUntil, gone, reaped } = require('../helpers/processes')

function server (t) {
  const s = http.createServer((req, res) => res.end('ok'))
  return new Promise((resolve) => s.listen(0, '127.0.0.1', () => {
    t.teardown(() => { s.closeAllConnections(); s.close() })
    resolve(`http://127.0.0.1:${s.address().port}`)
  }))
}

function tmpdir (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-signals-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('library warmup: warms up, then runs; result.warmup is the warm-up\'s result', async (t) => {
  const url = await server(t)
  const instance = autocannon({ url, connections: 3, duration: 1, warmup: { connections: 4, duration: 0.5 } })
  const events = { start: 0, done: 0 }
  instance.on('start', () => events.start++)
  instance.on('done', () => events.done++)
  const result = await instance
  t.equal(result.connections, 3, 'the run\'s connections, not the warm-up\'s')
  t.ok(result.duration >= 1, `the run's duration (${result.duration})`)
  t.type(result.warmup, 'object')
  t.equal(result.warmup.connections, 4)
  t.ok(result.warmup.duration >= 0.5 && result.warmup.duration < 1, `the warm-up's duration (${result.warmup.duration})`)
  t.ok(result.warmup.requests.total > 0, 'the warm-up sent requests')
  t.same(events, { start: 1, done: 1 }, 'the warm-up\'s events are not the instance\'s')
  // With a callback, and before an amount run.
  const viaCallback = await new Promise((resolve, reject) => autocannon({ url, connections: 1, amount: 20, warmup: { duration: 0.3 } }, (err, r) => err ? reject(err) : resolve(r)))
  t.equal(viaCallback.requests.total, 20, 'the run\'s amount')
  t.ok(viaCallback.warmup.requests.total > 0)
  await t.rejects(autocannon({ url, warmup: 5 }), { code: 'AC_INVALID_OPTION', option: 'warmup' })
  await t.rejects(autocannon({ url, warmup: { connections: 0 } }), { message: 'connections can not be less than 1' })
})

t.test('more workers than connections: each worker runs one, with one warning', async (t) => {
  const url = await server(t)
  const seen = []
  const listener = (w) => { if (w.code === 'AC_WORKERS_OVER_CONNECTIONS') seen.push(w.message) }
  process.on('warning', listener)
  t.teardown(() => process.removeListener('warning', listener))
  const result = await autocannon({ url, workers: 3, connections: 2, amount: 30 })
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(result.connections, 3, 'three connections ran')
  t.equal(result.requests.total, 30)
  t.same(seen, ['3 workers for 2 connections: each worker runs one, so 3 connections run'])
  // autocannon's own test: amount 1, one connection, two workers: each
  // worker makes one request.
  const one = await autocannon({ url, connections: 1, amount: 1, workers: 2 })
  t.equal(one.requests.total, 2, 'one request per worker')
  t.equal(one.connections, 2)
})

t.test('a run lasts at least what was asked', async (t) => {
  const url = await server(t)
  for (let i = 0; i < 5; i++) {
    const result = await autocannon({ url, connections: 1, duration: 0.5 })
    t.ok(result.duration >= 0.5, `duration ${result.duration} >= 0.5`)
  }
})

t.test('CLI: the header comes first, warnings after the tables', async (t) => {
  const url = await server(t)
  const out = await runCli(['-w', '3', '-c', '2', '-d', '1', url])
  t.equal(out.code, 0, out.stderr)
  const lines = out.stderr.split('\n')
  t.same(lines.slice(0, 3), [`Running 1s test @ ${url}`, '3 connections', '3 workers'], 'the header first')
  const warning = lines.findIndex((l) => l.startsWith(`${WARNING_PREFIX}3 workers for 2 connections`))
  const summary = lines.findIndex((l) => /requests in [\d.]+s, /.test(l))
  t.ok(summary > 0 && warning > summary, `the warning (line ${warning}) after the summary (line ${summary})`)
})

// The command --on-port starts, which records the signal it got.
function commandScript (dir) {
  const script = path.join(dir, 'server.js')
  fs.writeFileSync(script, `'use strict'
const fs = require('fs')
const http = require('http')
const [pidFile, signalFile] = process.argv.slice(2)
for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT']) process.on(signal, () => { fs.writeFileSync(signalFile, signal); process.exit(0) })
http.createServer((req, res) => res.end('ok')).listen(0, '127.0.0.1', () => fs.writeFileSync(pidFile, String(process.pid)))
`)
  return script
}

const waitFor = (fn, ms = 15000) => pollUntil(fn, ms, 50)

for (const [signal, code] of [['SIGTERM', 143], ['SIGHUP', 129]]) {
  t.test(`${signal}: the command gets it, the result is printed and written, marked partial, exit ${code}`, async (t) => {
    const dir = tmpdir(t)
    const script = commandScript(dir)
    const pidFile = path.join(dir, 'pid')
    const signalFile = path.join(dir, 'signal')
    const outFile = path.join(dir, 'result.json')
    const child = startCli(['-c', '2', '-d', '30', '-j', '--out', outFile, '/', '--', process.execPath, script, pidFile, signalFile], { cwd: dir })
    t.ok(await waitFor(() => fs.existsSync(pidFile)), 'the command listens')
    await new Promise((resolve) => setTimeout(resolve, 1200))
    const sentAt = Date.now()
    child.kill(signal)
    const out = await child.done
    t.ok(Date.now() - sentAt < 5000, 'ended promptly')
    t.equal(out.code, code, `exit code ${code} (${out.stderr})`)
    const result = JSON.parse(out.stdout)
    t.same(result.partial, { signal }, 'marked partial')
    t.ok(result.requests.total > 0 && result.duration >= 1 && result.duration < 10, `what was measured (${result.duration} s)`)
    t.same(JSON.parse(fs.readFileSync(outFile, 'utf8')).partial, { signal }, '--out written')
    t.equal(fs.readFileSync(signalFile, 'utf8'), signal, `the command got ${signal} first`)
    const pid = Number(fs.readFileSync(pidFile, 'utf8'))
    // Gone, or a zombie: its parent (the watchdog) was killed with it, and
    // a container's init may never reap what it inherits.
    t.ok(gone(pid), 'the command is gone')
  })
}

t.test('a command that ignores the signal is killed after the grace period', async (t) => {
  const dir = tmpdir(t)
  const script = path.join(dir, 'stubborn.js')
  const pidFile = path.join(dir, 'pid')
  fs.writeFileSync(script, `'use strict'
process.on('SIGTERM', () => {})
require('http').createServer((req, res) => res.end('ok')).listen(0, '127.0.0.1', () => require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)))
`)
  const child = startCli(['-c', '1', '-d', '30', '/', '--', process.execPath, script], { cwd: dir })
  t.ok(await waitFor(() => fs.existsSync(pidFile)), 'the command listens')
  await new Promise((resolve) => setTimeout(resolve, 500))
  child.kill('SIGTERM')
  const out = await child.done
  t.equal(out.code, 143)
  const pid = Number(fs.readFileSync(pidFile, 'utf8'))
  // Reaped by the time the CLI exits, not left a zombie for init: the
  // SIGKILL spares the watchdog, which reaps the command before it exits,
  // and the CLI waits for the watchdog (a container's init reaps what it
  // inherits late, or never).
  t.ok(reaped(pid), 'gone and reaped (SIGKILL after the grace)')
})

t.test('merge: a shard stopped by SIGTERM is merged, marked partial, with a warning', async (t) => {
  const url = await server(t)
  const dir = tmpdir(t)
  // Two shards of one run (the same options), started together; the
  // second is stopped 1 s into its 2 s, counted from its header (a loaded
  // machine may take a second to start a CLI: a signal before it runs is
  // not this test's).
  const files = [0, 1].map((index) => path.join(dir, `s${index}.json`))
  const children = files.map((file, index) => startCli(['-c', '2', '-d', '2', '--shard', `${index}/2`, '--out', file, url], { cwd: dir }))
  const begun = Date.now()
  while (!/Running /.test(children[1].err) && Date.now() - begun < 20000) await new Promise((resolve) => setTimeout(resolve, 20))
  t.match(children[1].err, /Running /, 'the second shard began its run')
  await new Promise((resolve) => setTimeout(resolve, 1000))
  children[1].kill('SIGTERM')
  const outs = await Promise.all(children.map((c) => c.done))
  t.equal(outs[0].code, 0, outs[0].stderr)
  t.equal(outs[1].code, 143, outs[1].stderr)
  const merged = await runCli(['merge', '-j', ...files])
  t.equal(merged.code, 0, merged.stderr)
  const result = JSON.parse(merged.stdout)
  t.same(result.partial, { results: 1, shards: [1], signals: ['SIGTERM'] })
  t.match(result.merge.warnings.map((w) => w.code), ['AC_SHARD_PARTIAL'])
  t.match(merged.stderr, /shard 1 was stopped early \(SIGTERM\)/)
})
