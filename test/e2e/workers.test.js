'use strict'

const t = require('tap')
const autocannon = require('../..')
const { httpServer } = require('../helpers/servers')
const { createLatencyHistogram, decode, toStats } = require('../../lib/results/histogram')

t.test('-w 2: totals are what the server saw, merged losslessly', async (t) => {
  let seen = 0
  const url = await httpServer(t, (req, res) => {
    seen++
    res.end('hello')
  })
  const result = await autocannon({ url, connections: 4, workers: 2, amount: 2000 })
  t.equal(result.requests.total, 2000, 'amount divided between workers, all of it done')
  t.equal(seen, 2000, 'the server saw exactly those requests')
  t.equal(result.latency.totalCount, 2000)
  t.equal(result.workers, 2)
  t.equal(result.connections, 4)
  t.equal(result['2xx'], 2000)
})

t.test('worker snapshots merge to the same percentiles as merging in one thread', async (t) => {
  const url = await httpServer(t)
  const raws = await autocannon({ url, connections: 4, workers: 2, duration: 1, skipAggregateResult: true })
  t.equal(raws.length, 2, 'one raw result per worker')
  const merged = createLatencyHistogram()
  for (const r of raws) {
    t.type(r.latencies, 'string', 'histograms travel encoded')
    // Ours, in µs, beside autocannon's in whole ms (latencies).
    t.type(r.latenciesUs, 'string', 'ours travel encoded too')
    merged.add(decode(r.latenciesUs))
  }
  const expected = toStats(merged, { scale: 1000, decimals: 3 })
  const result = autocannon.aggregateResult(raws, { url, connections: 4, workers: 2 })
  for (const key of ['p50', 'p90', 'p99', 'p99_9', 'max', 'min', 'mean']) {
    t.equal(result.latency[key], expected[key], `latency ${key}`)
  }
  t.equal(result.requests.total, raws[0].totalCompletedRequests + raws[1].totalCompletedRequests)
})

t.test('workers run concurrently: their samples are summed second by second', async (t) => {
  const url = await httpServer(t)
  const raws = await autocannon({ url, connections: 4, workers: 2, duration: 2, skipAggregateResult: true })
  const result = autocannon.aggregateResult(raws, { url })
  t.equal(result.samples, 2, 'two seconds, two samples (not four)')
  const perSecond = raws[0].series.map(([, n], i) => n + raws[1].series[i][1])
  t.equal(result.requests.max, Math.max(...perSecond), 'the busiest second is the sum of both workers')
})

t.test('function options must be file paths with workers', async (t) => {
  const url = 'http://127.0.0.1:1'
  await t.rejects(autocannon({ url, workers: 2, setupClient: () => {} }), /setupClient/)
})

t.test('aggregateResult of two separate runs keeps both runs\' samples', async (t) => {
  const url = await httpServer(t)
  const a = await autocannon({ url, connections: 2, duration: 1, skipAggregateResult: true })
  const b = await autocannon({ url, connections: 2, duration: 1, skipAggregateResult: true })
  const result = autocannon.aggregateResult([a, b], { url, connections: 2 })
  t.equal(result.requests.total, a.totalCompletedRequests + b.totalCompletedRequests, 'counts add up')
  t.equal(result.requests.sent, a.totalRequests + b.totalRequests)
  t.equal(result.samples, a.samples + b.samples, 'runs one after the other keep their samples apart')
  t.ok(result.requests.min > 0 && result.requests.max >= result.requests.min)
  t.equal(result.latency.totalCount, result.requests.total)
  // The mergeable form survives JSON (another process or machine).
  const viaJson = autocannon.aggregateResult(JSON.parse(JSON.stringify([a, b])), { url, connections: 2 })
  t.same(viaJson.latency, result.latency)
  t.same(viaJson.requests, result.requests)
})

t.test('function options given as file paths run inside the workers', async (t) => {
  const fs = require('fs')
  const os = require('os')
  const path = require('path')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-workers-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const setupClient = path.join(dir, 'setup-client.js')
  const verifyBody = path.join(dir, 'verify-body.js')
  fs.writeFileSync(setupClient, "module.exports = (client) => client.setHeaders({ 'x-from-worker': 'yes' })\n")
  fs.writeFileSync(verifyBody, "module.exports = (body) => body === 'expected'\n")

  let tagged = 0
  let n = 0
  const url = await httpServer(t, (req, res) => {
    if (req.headers['x-from-worker'] === 'yes') tagged++
    res.end(n++ % 2 === 0 ? 'expected' : 'other')
  })
  const result = await autocannon({ url, connections: 2, workers: 2, amount: 100, setupClient, verifyBody })
  t.equal(result.requests.total, 100)
  t.equal(tagged, 100, 'setupClient from a file ran in every worker')
  t.ok(result.mismatches >= 40 && result.mismatches <= 60, `verifyBody from a file counted mismatches (${result.mismatches})`)
})

// The instance's 'response' event carries a client, which lives in a worker
// thread: with workers it is never called, as in autocannon (a script
// written for autocannon adds it and runs), and a warning says so once.
t.test('the response event with workers: accepted and never called, with one AC_NOT_WITH_WORKERS warning; other events still work', async (t) => {
  let seen = 0
  const url = await httpServer(t, (req, res) => {
    seen++
    res.end('ok')
  })
  const warnings = []
  const onWarning = (w) => { if (w.code === 'AC_NOT_WITH_WORKERS') warnings.push(w.message) }
  process.on('warning', onWarning)
  t.teardown(() => process.removeListener('warning', onWarning))
  const instance = autocannon({ url, connections: 2, workers: 2, amount: 20 })
  let called = 0
  t.doesNotThrow(() => instance.on('response', () => called++), 'added, as autocannon adds it')
  t.doesNotThrow(() => instance.once('response', () => called++))
  t.equal(instance.listenerCount('response'), 2, 'the listeners are there')
  let done = 0
  instance.on('done', () => done++)
  const result = await instance
  t.equal(result.requests.total, 20, 'the run itself goes on')
  t.equal(seen, 20)
  t.equal(done, 1)
  t.equal(called, 0, 'never called')
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(warnings.length, 1, 'one warning for the instance')
  t.match(warnings[0], /'response' event is never emitted with workers.*setupClient/)
  // Without workers the same listener is called once per response.
  let responses = 0
  const single = autocannon({ url, connections: 2, amount: 20 })
  single.on('response', () => responses++)
  await single
  t.equal(responses, 20)
})

t.test('a worker thread ends with its run, even with a hook\'s timer still armed in it, once its pending work is done', async (t) => {
  const fs = require('fs')
  const os = require('os')
  const path = require('path')
  const { spawn } = require('child_process')
  const url = await httpServer(t)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-worker-end-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  // An interval in each worker that nothing of the user's can clear, and
  // a write 200 ms after each response: the last ones come after the run.
  const log = path.join(dir, 'responses.log')
  fs.writeFileSync(path.join(dir, 'keep-alive.js'), `module.exports = (client) => {
  setInterval(() => {}, 1000)
  client.on('response', () => setTimeout(() => require('fs').appendFileSync(${JSON.stringify(log)}, 'x'), 200))
}
`)
  fs.writeFileSync(path.join(dir, 'main.js'), `const autocannon = require(${JSON.stringify(path.join(__dirname, '..', '..'))})
autocannon({ url: ${JSON.stringify(url)}, workers: 2, connections: 2, duration: 1, setupClient: ${JSON.stringify(path.join(dir, 'keep-alive.js'))} })
  .then((r) => console.log(JSON.stringify({ total: r.requests.total, errors: r.errors })))
`)
  const started = Date.now()
  const child = spawn(process.execPath, [path.join(dir, 'main.js')], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.on('data', (b) => { out += b })
  const code = await new Promise((resolve) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); resolve('hung') }, 15000)
    child.on('exit', (c) => { clearTimeout(timer); resolve(c) })
  })
  t.equal(code, 0, `the process exited by itself (after ${Date.now() - started} ms)`)
  const result = JSON.parse(out)
  t.ok(result.total > 0, `${result.total} responses`)
  t.equal(result.errors, 0)
  t.equal(fs.readFileSync(log, 'utf8').length, result.total, 'what the hooks left pending had time to finish')
})

t.test('\'start\' with workers: once they are all ready, as a run in one thread fires it when it starts sending', async (t) => {
  const fs = require('fs')
  const os = require('os')
  const path = require('path')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-worker-start-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  // A hook file that takes 600 ms to load in a worker (the main thread
  // loads it too, to check it, at once): each worker is ready that much
  // after it was started.
  const hook = path.join(dir, 'slow-setup.js')
  fs.writeFileSync(hook, 'if (!require(\'worker_threads\').isMainThread) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 600)\nmodule.exports = () => {}\n')
  let firstRequestAt = 0
  const url = await httpServer(t, (req, res) => {
    if (firstRequestAt === 0) firstRequestAt = Date.now()
    res.end('ok')
  })
  const calledAt = Date.now()
  const instance = autocannon({ url, connections: 2, workers: 2, amount: 20, setupClient: hook })
  const order = []
  let startAt = 0
  instance.on('start', () => {
    startAt = Date.now()
    order.push('start')
  })
  instance.on('done', () => order.push('done'))
  const result = await instance
  t.equal(result.requests.total, 20)
  t.same(order, ['start', 'done'], 'once, before done')
  t.ok(startAt - calledAt >= 590, `not before the workers were ready (${startAt - calledAt} ms after the call; each took 600 ms to load its hook)`)
  t.ok(startAt <= firstRequestAt, 'not after the first request was sent')
})
