'use strict'

// A step's failure settled before its end (lib/search/early-verdict.js),
// end to end: a stepped run against a real server stops a failing window
// early, in one thread and across workers, and runs a passing one to its
// end. When a failure is settled, on figures alone:
// test/search/early-verdict.test.js.

const t = require('tap')
const { monitorEventLoopDelay } = require('perf_hooks')
const autocannon = require('../..')
const { createEarlyVerdict } = require('../../lib/search/early-verdict')
const { judgeStep } = require('../../lib/search/step-judge')
const { Session } = require('../../lib/engine/session')
const { SteppedRun } = require('../../lib/search/stepped-run')
const { aggregateResult } = require('../../lib/results/result')
const { httpServer } = require('../helpers/servers')
const { starvedReason } = require('../helpers/truth-guards')

// A server that answers every request 60 ms late: a p99 < 50 ms step is
// settled as soon as enough answers came back, and the judge fails the
// window it measured. A fast server under the same watch runs to the end.
async function stepAgainst (t, handler, opts) {
  const url = await httpServer(t, handler)
  const session = new Session()
  let instance
  const done = session.run(() => {
    instance = autocannon({ url, connections: 20, overallRate: 200, duration: 120, ...opts })
    return instance
  })
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, 10000)
    instance.on('tick', (tick) => { if (tick.counter > 0) { clearTimeout(timer); resolve() } })
  })
  const stepped = new SteppedRun(session, instance.run, { drainMs: 2000 })
  const watch = createEarlyVerdict(['p99 < 50ms'])
  // The test's own measure of its thread (the run shares it): how long
  // the loop was held up while the step ran.
  const loop = monitorEventLoopDelay({ resolution: 5 })
  loop.enable()
  const started = Date.now()
  const window = await stepped.step({ rate: 200, warmup: 0.2, duration: 10 }, watch)
  const took = (Date.now() - started) / 1000
  loop.disable()
  session.stop()
  await done
  const result = aggregateResult(window.raws, { ...instance.opts, overallRate: 200, thresholds: undefined })
  return { window, result, took, loopMaxMs: loop.max / 1e6 - 5, judged: judgeStep(result, { target: 200, slos: ['p99 < 50ms'] }) }
}

for (const workers of [undefined, 2]) {
  const where = workers ? 'across 2 workers' : 'in one thread'
  t.test(`a stepped run stops a window whose failure is settled, ${where}`, async (t) => {
    const { window, result, took, loopMaxMs, judged } = await stepAgainst(t, (req, res) => setTimeout(() => res.end('slow'), 60), { workers })
    t.ok(window.settled, 'settled')
    t.match(window.settled.reason, /responses above 50 ms, more than 1% of the most it can end \([\d,]+\): p99 < 50 ms can no longer hold$/)
    // Ten answers above 50 ms settle it: at 200 req/s, the first ten sent
    // plus 60 ms, about a quarter of a second in. Within 1 s, unless this
    // thread was held up for longer than that margin.
    if (window.settled.at > 1 && loopMaxMs > 500) return t.skip(`settled at ${window.settled.at} s while this thread was held up ${Math.round(loopMaxMs)} ms`)
    t.ok(window.settled.at <= 1, `at ${window.settled.at} s of 10`)
    t.ok(result.duration <= 1, `the window measured ${result.duration} s, not 10`)
    // The warm-up (0.2 s), the window, and the drain of the 60 ms answers.
    t.ok(took < 1.5, `the step took ${took} s`)
    // A machine that held the generator off the CPU makes the step
    // generator-bound, rightly: said, not judged.
    const starved = judged.verdict === 'generator-bound' && starvedReason(result, 1)
    if (starved) return t.skip(`the step was generator-bound: ${starved}`)
    t.equal(judged.verdict, 'fail', judged.reasons.join('; '))
    t.ok(judged.checks.some((c) => c.name === 'p99 < 50ms' && c.ok === false), 'on its p99')
  })
}

t.test('a server that answers 503: settled on the implied 5xx bound', async (t) => {
  const { window, judged } = await stepAgainst(t, (req, res) => { res.statusCode = 503; res.end('busy') })
  t.match(window.settled && window.settled.reason, /^\d+ 5xx of the most it can end \([\d,]+\): 5xx < 1% can no longer hold$/)
  t.equal(judged.verdict, 'fail')
  t.ok(judged.checks.some((c) => c.name === '5xx<1%' && c.ok === false), judged.reasons.join('; '))
})

t.test('a stepped run under a watch runs a passing window to its end', async (t) => {
  const { window, result } = await stepAgainst(t, (req, res) => res.end('fast'), { duration: 30 })
  // The server answers in this thread: a machine that held the thread off
  // the CPU for longer than the SLO's 50 ms in all slowed its answers too.
  const starved = window.settled && starvedReason(result, 50)
  if (starved) return t.skip(`settled at ${window.settled.at} s (${window.settled.reason}): ${starved}`)
  t.equal(window.settled, null)
  t.ok(result.duration >= 9.9, `the whole window: ${result.duration} s`)
  t.ok(result.requests.total > 1800, `${result.requests.total} responses`)
})
