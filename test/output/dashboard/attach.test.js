'use strict'

// The dashboard wired to an instance (lib/output/dashboard/attach.js),
// the instance driven by hand: the URL said once, each sample reaches a
// page through the dashboard's thread, the report at 'done', the thread
// gone once the instance settles; a thread that fails is said in one line
// and the run's events go on without it. Against real runs and
// searches, in Chromium: test/e2e/dashboard.test.js.

const t = require('tap')
const http = require('http')
const net = require('net')
const { once } = require('events')
const { Instance } = require('../../../lib/engine/instance')
const { attach } = require('../../../lib/output/dashboard/attach')
const { createLatencyHistogram, pack } = require('../../../lib/results/histogram')
const { eachBlock } = require('../../helpers/sse')

const CONFIG = { url: 'http://user:secret@127.0.0.1:1/', sampleInt: 1000, duration: 3, dashboard: { host: '127.0.0.1', port: 0, keepOpen: false } }

function lines () {
  const out = []
  return { out, stream: { write: (text) => { out.push(...String(text).split('\n').filter(Boolean)) } } }
}

function sample (i) {
  const h = createLatencyHistogram()
  h.recordValue(3000)
  return { elapsed: i, time: 1000 * i, interval: 1000, requests: 5, bytes: 50, errors: 0, latencyP50: 3, latencyP99: 3, loopDelayMax: 0, connections: 1, ttfbSum: 0, transferSum: 0, timed: 0, latency: pack(h), totals: { responses: 5 * i, sent: 5 * i, errors: 0, timeouts: 0, late: 0, statusCodes: { 200: 5 * i } } }
}

async function page (url) {
  const res = await new Promise((resolve) => http.get(url + 'events', resolve))
  const events = []
  eachBlock(res, (block) => events.push({ name: /^event: (.*)$/m.exec(block)[1], data: JSON.parse(/^data: (.*)$/m.exec(block)[1]) }))
  const until = async (n) => { while (events.length < n) await once(res, 'data') }
  return { res, events, until }
}

function closed (port) {
  return new Promise((resolve) => net.connect(port, '127.0.0.1').on('connect', function () { this.destroy(); resolve(false) }).on('error', () => resolve(true)))
}

t.test('samples reach a page through the thread; the thread ends when the instance settles', async (t) => {
  const instance = new Instance()
  const { out, stream } = lines()
  const watched = attach(instance, CONFIG, { stream })
  let told = null
  instance.on('dashboard', (e) => { told = e.url })
  const url = await watched.listening
  t.same(out, [`dashboard: ${url}`], 'the URL, once, on a line of its own')
  t.equal(told, url, 'and as the instance\'s dashboard event')

  const p = await page(url)
  await p.until(1)
  t.notOk(JSON.stringify(p.events[0]).includes('secret'), 'no credential on the page')
  instance.emit('start')
  instance.emit('sample', sample(1))
  instance.emit('sample', sample(2))
  await p.until(3)
  t.same(p.events.map((e) => e.name), ['state', 'state', 'sample'])
  t.equal(p.events[2].data.numbers.responses, 10, 'the second sample\'s totals')

  // A made-up result: no report can be drawn of it (html null), and
  // the page is told the run is done all the same, after the latency by
  // percentile of the samples it had (the result has no histograms).
  instance.emit('done', {})
  await p.until(5)
  t.equal(p.events[3].name, 'percentiles')
  t.ok(p.events[3].data.rows['latency-percentiles'].whole, 'the percentile chart of the samples')
  t.same(p.events[4], { name: 'done', data: { html: null } })

  const exited = once(watched.worker, 'exit')
  instance.settle(null, {})
  await exited
  t.ok(await closed(Number(new URL(url).port)), 'its port closed')
  t.ok((await watched.stats()).heapUsed > 0, 'its last figures, told as it ended')
})

t.test('a thread that fails: one line, and the run\'s events go on', async (t) => {
  const instance = new Instance()
  const { out, stream } = lines()
  const watched = attach(instance, CONFIG, { stream })
  await watched.listening
  // (events.once() would reject on the thread's 'error'.)
  const exited = new Promise((resolve) => watched.worker.on('exit', resolve))
  // A sample the live state cannot read: the thread throws.
  instance.emit('sample', { time: 1000, elapsed: 1 })
  await exited
  t.equal(out.length, 2)
  t.match(out[1], /^dashboard: stopped \(.+\); the run goes on$/)
  t.doesNotThrow(() => {
    instance.emit('sample', sample(2))
    instance.emit('done', {})
    instance.settle(null, {})
  }, 'events after it are no one\'s')
})

t.test('a port that is taken: AC_DASHBOARD_LISTEN, naming it', async (t) => {
  const taken = net.createServer().listen(0, '127.0.0.1')
  await once(taken, 'listening')
  t.teardown(() => taken.close())
  const port = taken.address().port
  const instance = new Instance()
  const watched = attach(instance, { ...CONFIG, dashboard: { ...CONFIG.dashboard, port } }, { stream: lines().stream })
  await t.rejects(watched.listening, { code: 'AC_DASHBOARD_LISTEN', message: `the dashboard cannot listen on 127.0.0.1:${port}`, detail: 'EADDRINUSE' })
})
