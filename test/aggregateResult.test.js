'use strict'

// require('autocannon/lib/aggregateResult'): raw results (one per run, or
// one per worker, as skipAggregateResult hands them) into one result, as
// autocannon's own aggregateResult does. (That it loads nothing of the
// run's side: test/printResult.test.js.)

const t = require('tap')
const aggregateResult = require('../lib/aggregateResult')
const { Recorder } = require('../lib/engine/recorder')

// `n` responses of `latencyUs` a second, for `seconds`, from `start`.
function raw ({ n, latencyUs, seconds, start, status = 200 }) {
  const recorder = new Recorder({})
  for (let s = 1; s <= seconds; s++) {
    for (let i = 0; i < n; i++) {
      recorder.started(1)
      recorder.response(status, 100, latencyUs)
    }
    recorder.sample(start + s * 1000)
  }
  return recorder.snapshot({ start, finish: start + seconds * 1000, form: 'encoded' })
}

t.test('two workers\' raw results become one result', async (t) => {
  const start = Date.UTC(2024, 0, 2, 3, 4, 5)
  const result = aggregateResult([raw({ n: 10, latencyUs: 1000, seconds: 2, start }), raw({ n: 30, latencyUs: 2000, seconds: 2, start, status: 500 })], { url: 'http://127.0.0.1:1', connections: 4 })
  t.equal(result.requests.total, 80)
  t.equal(result.requests.average, 40, '40 a second, both workers together')
  t.equal(result.non2xx, 60)
  t.equal(result['5xx'], 60)
  t.equal(result['2xx'], 20)
  t.equal(result.latency.min, 1)
  t.equal(result.latency.max, 2)
  t.equal(result.latency.p50, 2, 'three quarters of the responses took 2 ms')
  t.equal(result.throughput.total, 8000)
  t.equal(result.url, 'http://127.0.0.1:1')
  t.equal(result.connections, 4)
})

t.test('options may be left out, or null, as autocannon\'s', async (t) => {
  const start = Date.UTC(2024, 0, 2, 3, 4, 5)
  for (const opts of [undefined, null]) t.equal(aggregateResult([raw({ n: 5, latencyUs: 500, seconds: 1, start })], opts).requests.total, 5)
})
