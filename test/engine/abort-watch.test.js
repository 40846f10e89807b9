'use strict'

// --abortOnFail across workers, the watch alone: each worker's latest
// counts and all their intervals' latencies, judged at the sample every
// running worker has reached, the verdict once ('abort', and `aborted`).
// Through runWorkers with its workers: test/engine/workers.test.js.

const t = require('tap')
const { EventEmitter } = require('events')
const { buildConfig } = require('../../lib/config/config')
const { abortWatch } = require('../../lib/engine/abort-watch')
const { createLatencyHistogram, pack } = require('../../lib/results/histogram')

const url = 'http://127.0.0.1:9'

function watchOf (opts) {
  const events = new EventEmitter()
  const aborts = []
  events.on('abort', (verdict) => aborts.push(verdict))
  const watch = abortWatch(buildConfig({ url, workers: 3, connections: 3, duration: 10, abortOnFail: true, ...opts }), events)
  return { watch, aborts }
}

// A worker's sample: its counts so far, its interval's latencies (ms).
function sample (elapsedS, figures, latenciesMs = []) {
  const h = createLatencyHistogram()
  for (const ms of latenciesMs) h.recordValue(ms * 1000)
  return { elapsedS, latency: new Uint8Array(pack(h)), figures: { completed: 0, sent: 0, errors: 0, timeouts: 0, non2xx: 0, bytes: 0, ...figures } }
}

t.test('judged on the sum once every worker has sent the sample; one verdict', async (t) => {
  const { watch, aborts } = watchOf({ thresholds: ['timeouts < 4'] })
  t.equal(watch.add(0, sample(1, { timeouts: 2 })), false)
  t.equal(watch.add(1, sample(1, { timeouts: 1 })), false)
  t.same(aborts, [], 'worker 2\'s sample awaited')
  t.equal(watch.add(2, sample(1, { timeouts: 1 })), true, '2 + 1 + 1: failed')
  const verdict = { threshold: 'timeouts < 4', at: 1, value: 4, unit: '' }
  t.same(aborts, [verdict])
  t.same(watch.aborted, verdict)
  for (const i of [0, 1, 2]) t.equal(watch.add(i, sample(2, { timeouts: 9 })), false, 'nothing judged after the verdict')
  t.equal(aborts.length, 1)
})

t.test('a finished worker no longer awaited; its counts still count', async (t) => {
  const { watch, aborts } = watchOf({ thresholds: ['errors < 5'] })
  watch.add(2, sample(1, { errors: 3 }))
  watch.finished(2)
  watch.add(0, sample(1, { errors: 1 }))
  t.same(aborts, [], 'worker 1 still runs')
  watch.finished(1)
  t.equal(watch.add(0, sample(2, { errors: 2 })), true, 'worker 0 alone is awaited: 2 + 3')
  t.same(aborts, [{ threshold: 'errors < 5', at: 2, value: 5, unit: '' }])
})

t.test('the latencies of every worker\'s intervals together', async (t) => {
  const { watch, aborts } = watchOf({ thresholds: ['p50 < 100ms'] })
  watch.add(0, sample(1, { completed: 2 }, [10, 10]))
  watch.add(1, sample(1, { completed: 1 }, [10]))
  watch.add(2, sample(1, { completed: 2 }, [400, 400]))
  t.same(aborts, [], 'p50 of 10, 10, 10, 400, 400: 10 ms')
  watch.add(0, sample(2, { completed: 2 }))
  watch.add(1, sample(2, { completed: 1 }))
  watch.add(2, sample(2, { completed: 4 }, [400, 400]))
  t.equal(aborts.length, 1, 'with two more at 400 ms: p50 400 ms')
  t.match(aborts[0], { threshold: 'p50 < 100ms', at: 2, unit: 'ms' })
  t.ok(aborts[0].value >= 399 && aborts[0].value <= 401, `p50 ${aborts[0].value} ms`)
})
