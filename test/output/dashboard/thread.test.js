'use strict'

// The dashboard's own thread (lib/output/dashboard/thread.js), run as
// attach.js runs it, driven by its messages alone: it listens on
// 127.0.0.1 and says where, a page gets the state and then each sample
// posted to it (its packed histogram arrived as a Uint8Array), its
// figures when asked, the report at 'done', and on 'close' it ends, its
// last figures told, its port closed. A port that is taken is told, not
// thrown.

const t = require('tap')
const http = require('http')
const net = require('net')
const path = require('path')
const { once } = require('events')
const { Worker } = require('worker_threads')
const { createLatencyHistogram, pack, encode } = require('../../../lib/results/histogram')
const { eachBlock } = require('../../helpers/sse')

const FILE = path.join(__dirname, '..', '..', '..', 'lib', 'output', 'dashboard', 'thread.js')
const LIVE = { url: 'http://127.0.0.1:1/', duration: 3, sampleInt: 1000 }

function thread (t, port = 0) {
  const worker = new Worker(FILE, { workerData: { live: LIVE, kind: 'run', heading: 'cannonade: live run of x', host: '127.0.0.1', port, version: '0.0.0' } })
  t.teardown(() => worker.terminate())
  const messages = []
  worker.on('message', (m) => messages.push(m))
  const next = (type) => new Promise((resolve) => {
    const look = () => {
      const i = messages.findIndex((m) => m.type === type)
      if (i !== -1) return resolve(messages.splice(i, 1)[0])
      worker.once('message', look)
    }
    look()
  })
  return { worker, next }
}

function sample (i, ms) {
  const h = createLatencyHistogram()
  h.recordValue(ms * 1000)
  return {
    elapsed: i,
    time: 1000 * i,
    interval: 1000,
    requests: 10 * i,
    bytes: 100,
    errors: 0,
    latencyP50: ms,
    latencyP99: ms,
    loopDelayMax: 0,
    connections: 1,
    ttfbSum: 0,
    transferSum: 0,
    timed: 0,
    // As a structured clone delivers a Buffer: a Uint8Array of its bytes.
    latency: new Uint8Array(pack(h)),
    totals: { responses: 10 * i, sent: 10 * i, errors: 0, timeouts: 0, late: 0, statusCodes: { 200: 10 * i } }
  }
}

t.test('listens, streams each sample to a page, tells its figures, ends on close', async (t) => {
  const { worker, next } = thread(t)
  const { url } = await next('listening')
  t.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/)

  const events = []
  const res = await new Promise((resolve) => http.get(url + 'events', resolve))
  eachBlock(res, (block) => events.push({ name: /^event: (.*)$/m.exec(block)[1], data: JSON.parse(/^data: (.*)$/m.exec(block)[1]) }))
  const until = async (n) => { while (events.length < n) await once(res, 'data') }
  await until(1)
  t.equal(events[0].name, 'state', 'a new page gets the state first')
  t.same(events[0].data.charts, [], 'no sample yet')

  worker.postMessage({ type: 'sample', data: sample(1, 4) })
  await until(2)
  t.equal(events[1].name, 'state', 'the first sample makes the charts: the state whole')
  t.equal(events[1].data.numbers.p50, 4)
  t.equal(events[1].data.numbers.responsesPerSecond, 10)
  worker.postMessage({ type: 'sample', data: sample(2, 7) })
  await until(3)
  t.equal(events[2].name, 'sample')
  t.equal(events[2].data.numbers.p99, 7)
  t.equal(events[2].data.numbers.responses, 20)
  const percentiles = Object.values(events[2].data.rows).find((row) => row.whole)
  t.ok(percentiles, 'the latency by percentile, from the samples\' histograms')

  worker.postMessage({ type: 'warning', line: 'cannonade: warning: w' })
  await until(4)
  t.same(events[3], { name: 'warning', data: { text: 'cannonade: warning: w' } })

  worker.postMessage({ type: 'stats' })
  const stats = await next('stats')
  t.equal(stats.clients, 1)
  t.ok(stats.mostBuffered >= 0 && stats.heapUsed > 0, `its heap: ${Math.round(stats.heapUsed / 1024)} KiB`)

  // The report, with the run's histogram: its percentiles first, whole.
  const h = createLatencyHistogram()
  h.recordValue(9000)
  worker.postMessage({ type: 'done', html: '<p>report</p>', latency: encode(h) })
  await until(6)
  t.equal(events[4].name, 'percentiles', 'the latency by percentile of the whole run, first')
  const ends = Object.values(events[4].data.rows)
  const top = (whole) => Math.max(...whole[1].filter((v) => v !== null))
  t.equal(ends.length, 1, 'the percentile chart alone')
  t.ok(top(percentiles.whole) < 8 && top(ends[0].whole) >= 8.9, `of the run's histogram (top ${top(percentiles.whole)}, then ${top(ends[0].whole)} ms)`)
  t.same(events[5], { name: 'done', data: { html: '<p>report</p>' } })

  const ended = once(worker, 'exit')
  worker.postMessage({ type: 'close' })
  const last = await next('stats')
  t.equal(last.type, 'stats', 'its last figures, as it ends')
  const [code] = await ended
  t.equal(code, 0, 'the thread ended by itself')
  const port = Number(new URL(url).port)
  const refused = await new Promise((resolve) => net.connect(port, '127.0.0.1').on('connect', () => resolve(false)).on('error', () => resolve(true)))
  t.ok(refused, 'its port is closed')
})

t.test('a port that is taken: told as failed, with the code', async (t) => {
  const taken = net.createServer().listen(0, '127.0.0.1')
  await once(taken, 'listening')
  t.teardown(() => taken.close())
  const { next } = thread(t, taken.address().port)
  const failed = await next('failed')
  t.equal(failed.code, 'EADDRINUSE')
})
