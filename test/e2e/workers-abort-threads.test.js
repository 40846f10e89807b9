'use strict'

// The main thread's side of -w with real threads against a loopback
// server: --abortOnFail's thresholds fail on the workers' figures, every
// thread stops, and the verdict is the run's. Driven with message ports:
// test/engine/workers.test.js.

const t = require('tap')
const http = require('http')
const { EventEmitter } = require('events')
const { buildConfig } = require('../../lib/config/config')
const { runWorkers } = require('../../lib/engine/workers')
const { listen } = require('../helpers/servers')

t.test('real threads: the thresholds fail on the workers\' figures, every thread stops, the verdict is the run\'s', async (t) => {
  const server = http.createServer((req, res) => {
    res.statusCode = 500
    res.end('no')
  })
  const target = await listen(t, server)
  const config = buildConfig({ url: target, workers: 2, connections: 2, duration: 10, sampleInt: 100, thresholds: ['non2xx < 1'], abortOnFail: true })
  const events = new EventEmitter()
  const aborts = []
  events.on('abort', (verdict) => aborts.push(verdict))
  const started = Date.now()
  const raws = await new Promise((resolve, reject) => runWorkers(config, events, {}, (err, raws) => err ? reject(err) : resolve(raws)))
  const took = Date.now() - started
  t.equal(aborts.length, 1, 'one verdict')
  t.match(aborts[0], { threshold: 'non2xx < 1', unit: '' })
  t.ok(aborts[0].value >= 1, `${aborts[0].value} non-2xx`)
  t.ok(aborts[0].at > 0 && aborts[0].at < 5, `at ${aborts[0].at} s`)
  t.equal(raws.length, 2, 'a snapshot from each thread')
  t.same(raws[0].aborted, aborts[0], 'the verdict in the first')
  t.ok(took < 8000, `both threads stopped long before the 10 s (${took} ms)`)
})
