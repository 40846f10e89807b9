'use strict'

// --abortOnFail's check (lib/results/abort-check.js) on a live recorder:
// the thresholds held to the run so far once abortAfter has passed, the
// first that fails named with its value, and the generator's terms left
// for the whole run. End to end: test/e2e/abort-on-fail.test.js.

const t = require('tap')
const { createAbortCheck } = require('../../lib/results/abort-check')
const { Recorder } = require('../../lib/engine/recorder')

t.test('unit: the check reads the live recorder, after the delay, and skips generator terms', async (t) => {
  const r = new Recorder()
  for (let i = 0; i < 98; i++) r.response(200, 10, 1000)
  r.response(200, 10, 500000)
  r.response(500, 10, 1000)
  // The run checks right after each sample, when the interval's latencies
  // have joined the run's.
  r.flushPartial()
  const check = createAbortCheck(['p99 < 100ms', 'errors < 1%', 'generator.late < 1'], 2)
  t.equal(check(r, 1, false), null, 'before abortAfter: nothing checked')
  t.equal(check(r, 2, false), null, 'p99 is 1 ms, no errors: passes')
  r.response(200, 10, 500000)
  r.flushPartial()
  const failed = check(r, 3, false)
  t.equal(failed && failed.expression, 'p99 < 100ms', 'two slow of 101: p99 is 500 ms')
  t.ok(failed.value >= 499 && failed.value <= 501, `value ${failed.value}`)
  r.requestErrors(5, 'read', 'ECONNRESET')
  t.equal(createAbortCheck(['errors < 1%'], 0)(r, 3, false).expression, 'errors < 1%')
  t.equal(createAbortCheck(['non2xx < 1'], 0)(r, 3, false).expression, 'non2xx < 1', 'the 500 is a non-2xx')
  t.equal(createAbortCheck(['rps > 1000'], 0)(r, 1, true).expression, 'rps > 1000', '101 responses in 1 s')
  t.equal(createAbortCheck(['generator.late < 1'], 0)(r, 3, true), null, 'generator terms wait for the whole run')
  t.equal(createAbortCheck(['timings.ttfb.p99 < 1us'], 0)(r, 3, true), null, 'timings terms too')
})
