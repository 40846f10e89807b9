'use strict'

// The controls a search steps a run with: setRate() changes the planned
// rate in place (connections stay open), cut() hands over what was
// measured since the last cut. In this thread and in workers.

const t = require('tap')
const autocannon = require('../..')
const { aggregateResult } = require('../../lib/results/result')
const { httpServer } = require('../helpers/servers')

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

for (const workers of [0, 2]) {
  t.test(`setRate and cut${workers ? ' with workers' : ''}`, async (t) => {
    const url = await httpServer(t, (req, res) => res.end('ok'))
    const instance = autocannon({ url, connections: 4, workers: workers || undefined, overallRate: 200, duration: 60 })
    instance.on('reqError', () => {})
    await new Promise((resolve) => instance.once('start', resolve))
    const run = instance.run
    // Worker threads take a while to start (under tap's loaders, seconds):
    // wait for their first responses.
    if (workers) await new Promise((resolve) => instance.on('tick', (tick) => { if (tick.counter > 0) resolve() }))
    await sleep(1000)
    const first = [].concat(await run.cut())
    run.setRate(600)
    await sleep(300)
    await run.cut() // a step's warm-up, thrown away
    await sleep(2000)
    const second = [].concat(await run.cut())
    instance.stop()
    const last = await instance

    const a = aggregateResult(first, {})
    const b = aggregateResult(second, {})
    // (Workers plan overallRate each, as in autocannon; setRate is the whole run's.)
    if (!workers) t.ok(Math.abs(a.requests.total - 200) <= 30, `~200 responses in the first second (${a.requests.total})`)
    else t.ok(a.requests.total > 0, `the workers were running before the cut (${a.requests.total})`)
    t.ok(Math.abs(b.requests.total - 1200) <= 60, `~1200 responses in 2 s at 600 req/s (${b.requests.total})`)
    t.ok(Math.abs(b.duration - 2) < 0.2, `the window is the cut's (${b.duration} s)`)
    t.equal(b.rate.target, 600, 'the target of the window is the new rate')
    t.ok(Math.abs(b.rate.achieved - 600) <= 30, `achieved ${b.rate.achieved}`)
    t.ok(b.latency.totalCount === b.requests.total, 'histograms reset at each cut')
    t.equal(b.errors, 0)
    t.ok(last.requests.total < 600, `the run's own result holds only what came after the last cut (${last.requests.total})`)
  })
}

// Between the steps of a search the run stops sending and lets what is in
// flight finish, so a step does not inherit the backlog of the one before.
for (const workers of [0, 2]) {
  t.test(`drain${workers ? ' with workers' : ''}`, async (t) => {
    let arrived = 0
    const url = await httpServer(t, (req, res) => {
      arrived++
      setTimeout(() => res.end('ok'), 200)
    })
    const instance = autocannon({ url, connections: 20, workers: workers || undefined, overallRate: 100, duration: 60 })
    instance.on('reqError', () => {})
    await new Promise((resolve) => instance.once('start', resolve))
    const run = instance.run
    if (workers) await new Promise((resolve) => instance.on('tick', (tick) => { if (tick.counter > 0) resolve() }))
    await sleep(500)
    const started = Date.now()
    t.equal(await run.drain(5000), true, 'nothing left in flight')
    const waited = Date.now() - started
    t.ok(waited >= 50 && waited < 2000, `it waited for the requests in flight (${waited} ms)`)
    const before = arrived
    await sleep(400)
    t.equal(arrived, before, 'paused: nothing more was sent')
    const raw = [].concat(await run.cut())
    t.equal(raw.reduce((n, r) => n + r.inFlight, 0), 0, 'the cut finds nothing in flight')
    run.setRate(100)
    await sleep(600)
    t.ok(arrived > before + 20, `setRate sends again (${arrived - before} more)`)
    instance.stop()
    const last = await instance
    t.equal(last.errors, 0)
  })
}

t.test('drain gives up after its timeout', async (t) => {
  const url = await httpServer(t, () => {}) // never answers
  const instance = autocannon({ url, connections: 2, overallRate: 50, duration: 60, timeout: 30 })
  instance.on('reqError', () => {})
  await new Promise((resolve) => instance.once('start', resolve))
  await sleep(200)
  const started = Date.now()
  t.equal(await instance.run.drain(300), false, 'requests still in flight')
  t.ok(Date.now() - started < 2000, 'within its timeout')
  instance.stop()
  await instance
})
