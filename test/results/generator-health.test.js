'use strict'

// The generator's own health in every result: its event-loop delay, how
// busy its busiest thread was, and its late requests; the rule for when it
// may have distorted the latency; thresholds on it; and how it merges.
// Real runs (the CLI's line, a calm run, a pause of the sending thread):
// test/e2e/generator-health-runs.test.js.

const t = require('tap')
const { WARNING_PREFIX } = require('../../lib/core/warnings')
const { Recorder } = require('../../lib/engine/recorder')
const { aggregateResult } = require('../../lib/results/result')
const { distortion, MAX_LATE_SHARE } = require('../../lib/results/generator-health')
const { writeOutputs } = require('../../lib/output/outputs')
const { OWN, STARVED } = require('../../lib/engine/loop-monitor')

// pauses: [own ms, own max, starved ms, starved max] (null: not split).
function rated ({ loopP99 = 0.2, late = 0, sent = 10000, noConnection = 0, own = 0, starved = 0, pauses = null, cpu = 0.2 } = {}) {
  const part = (ms, max) => ({ count: ms > 0 ? 1 : 0, ms, max })
  return {
    rate: { target: 1000, achieved: 1000, late },
    requests: { sent, total: sent },
    generator: {
      loopDelay: { p50: 0, p99: loopP99, max: loopP99 * 3 },
      cpu,
      late,
      lateness: { p99: 1.1, max: 7 },
      lateNoConnection: noConnection,
      lateOwn: own,
      lateStarved: starved,
      pauses: pauses && { own: part(pauses[0], pauses[1]), starved: part(pauses[2], pauses[3]) }
    }
  }
}

t.test('the rule: under a rate, loop-delay p99 over 1 ms or 0.1% of requests late or more', async (t) => {
  t.equal(distortion(rated()), null, 'a calm generator')
  t.equal(distortion(rated({ loopP99: 1 })), null, '1 ms is not over 1 ms')
  t.match(distortion(rated({ loopP99: 2.5 })), /event loop ran 2\.5 ms late at p99 \(max 7\.5 ms\)/)
  t.equal(distortion(rated({ late: 9 })), null, '9 of 10,000 is under 0.1%')
  t.match(distortion(rated({ late: 10 })), /10 of 10,000 requests \(0\.1%\) left over 5 ms after their planned time \(max 7 ms\)/, '10 of 10,000 is 0.1%: flagged')
  t.match(distortion(rated({ late: 20, sent: 20000 })), /20 of 20,000 requests \(0\.1%\)/, '20 of 20,000 too')
  t.match(distortion(rated({ late: 11 })), /11 of 10,000 requests \(0\.11%\) left over 5 ms after their planned time \(max 7 ms\)/)
  t.match(distortion(rated({ loopP99: 3, late: 500 })), /^the generator may have distorted the latency: its event loop .*; 500 of 10,000/, 'both reasons, in one line')
  const closed = rated({ loopP99: 30, late: 0 })
  delete closed.rate
  t.equal(distortion(closed), null, 'without a rate, latency runs from the write: no line')
  t.equal(MAX_LATE_SHARE, 0.001)
})

t.test('the line names the cause and its remedy', async (t) => {
  const noConnection = distortion(rated({ late: 900, noConnection: 900, pauses: [0, 0, 0, 0] }))
  t.match(noConnection, /; cause: every connection was busy when 900 of the late requests were due \(the latency includes that wait\): more connections \(-c\) would send them on time$/)
  const starved = distortion(rated({ loopP99: 7, late: 2172, sent: 19989, starved: 2100, own: 72, pauses: [3, 1.5, 1234.5, 31] }))
  t.match(starved, /; cause: other processes had the CPU \(the thread was not running for 1,234\.5 ms of its pauses, the longest 31 ms, 2,100 late requests\): run fewer processes on this machine, or spread the load over threads \(-w\)$/,
    'own work under 10% of the late requests and of the time paused, its longest pause short: not named')
  const own = distortion(rated({ loopP99: 20, late: 45, own: 45, pauses: [39.3, 20.9, 6.5, 3] }))
  t.match(own, /; cause: its own work \(39\.3 ms of its pauses, the longest 21 ms, 45 late requests\): a pause of ours, a bug to report$/, 'the machine\'s 6.5 ms, for no late request, not named')
  const hidden = distortion(rated({ loopP99: 30, late: 300, starved: 300, pauses: [23, 23, 500, 70] }))
  t.match(hidden, /causes: other processes had the CPU .*; its own work \(23 ms of its pauses, the longest 23 ms\): a pause of ours/, 'a 10 ms pause of our own work is named even among longer ones of the machine\'s')
  const saturated = distortion(rated({ loopP99: 20, cpu: 0.97, pauses: [800, 20, 0, 0] }))
  t.match(saturated, /cause: its own work, the thread busy 97% of the time \(800 ms of its pauses, the longest 20 ms\): spread the load over threads \(-w\)$/)
  const one = distortion(rated({ late: 10, starved: 1, noConnection: 9, pauses: [0, 0, 2, 2] }))
  t.match(one, /causes: every connection .*; other processes had the CPU \(the thread was not running for 2 ms of its pauses, the longest 2 ms, 1 late request\)/, 'one late request, singular')
  t.match(distortion(rated({ late: 20 })), /after their planned time \(max 7 ms\)$/, 'no split (an older result, or no CPU clock): no cause named')
})

t.test('merged: every thread\'s loop-delay samples together, the busiest thread, late summed', async (t) => {
  // pause: [lateUs, ownUs] of one pause, split by its thread's CPU time.
  const part = (delaysUs, busy, late, pause) => {
    const r = new Recorder()
    r.trackLateness()
    for (const d of delaysUs) r.loopDelay(d)
    r.response(200, 10, 1000)
    r.sample(1e12 + 1000)
    for (let k = 0; k < late; k++) r.planned(8, true, k === 0)
    r.loopDelay(pause[0], pause[1], pause[1] * 2 >= pause[0] ? OWN : STARVED)
    return r.snapshot({ start: 1e12, finish: 1e12 + 1000, busy, targetRate: 100, form: 'encoded' })
  }
  const a = part(new Array(90).fill(0).concat(new Array(10).fill(20000)), 0.3, 2, [12000, 11000])
  const b = part(new Array(100).fill(500), 0.7, 3, [15000, 2000])
  const merged = aggregateResult(JSON.parse(JSON.stringify([a, b])))
  t.equal(merged.generator.cpu, 0.7, 'the busiest thread')
  t.equal(merged.generator.late, 5)
  t.same([merged.generator.lateNoConnection, merged.generator.lateOwn, merged.generator.lateStarved], [2, 1, 2], 'the late requests by cause, summed')
  t.same(merged.generator.pauses, { own: { count: 1, ms: 13, max: 11 }, starved: { count: 1, ms: 14, max: 13 } }, 'the pauses by cause: summed, the longest part any thread\'s')
  t.equal(merged.generator.loopDelay.max, 20.015, 'the longest pause of any thread (bucket edge)')
  t.equal(merged.generator.loopDelay.p50, 0.5, 'p50 of all 202 samples (90 of 0, 100 of 0.5 ms, 10 of 20 ms, the pauses of 12 and 15)')
  t.equal(merged.series.loopDelayMax[0], 20, 'an interval shows its longest pause, any thread\'s')
  // merge (saved results) reads it back and merges it again.
  const { mergeResults } = require('../../lib/distributed/merge')
  const saved = [aggregateResult([a]), aggregateResult([b])].map((r) => JSON.parse(JSON.stringify(r)))
  const again = mergeResults(saved)
  t.equal(again.generator.cpu, 0.7)
  t.equal(again.generator.loopDelay.max, 20.015)
  t.same([again.generator.lateNoConnection, again.generator.lateOwn, again.generator.lateStarved], [2, 1, 2])
  t.same(again.generator.pauses, merged.generator.pauses, 'the pauses survive a save and a merge')
  // Results saved before the split merge without one.
  for (const r of saved) {
    delete r.generator.pauses
    delete r.generator.lateOwn
  }
  const old = mergeResults(saved)
  t.equal(old.generator.pauses, null)
  t.equal(old.generator.lateOwn, 0)
})

t.test('writeOutputs prints the line on stderr, with -j too', async (t) => {
  const out = []
  const err = []
  const streams = { stdout: { write: (s) => out.push(s) }, stderr: { write: (s) => err.push(s) } }
  writeOutputs(rated({ loopP99: 4 }), { json: true, renderResultsTable: false }, { streams })
  t.equal(err.join(''), `${WARNING_PREFIX}the generator may have distorted the latency: its event loop ran 4 ms late at p99 (max 12 ms)\n`)
  t.equal(out.length, 1)
})
