'use strict'

// How a capacity search's outcome reads: each step's summary, the reason a
// rate failed, and the closing sentence for every way a search ends.

const t = require('tap')
const { summaryOf, failedText, measuredAll, sentence } = require('../../lib/search/outcome-text')
const { parseSlos } = require('../../lib/search/step-judge')

t.test('a step\'s summary: its values, its length and kind, its SLO checks', async (t) => {
  const record = {
    step: { rate: 1500, duration: 10, kind: 'confirm' },
    judgement: {
      values: { achieved: 1499.5, p50: 2, p99: 20, p999: 21, errors: 3, errorRatio: 0.0002, samples: 14995, duration: 10 },
      checks: [
        { kind: 'achieved', name: 'achieved', value: 1499.5, ok: true },
        { kind: 'latency', name: 'p99<200ms', value: 20, ok: true, measured: 'p99 20 ms' },
        { kind: 'count', name: 'errors<1%', value: 0.02, ok: true, implied: true, measured: 'errors 0.02%' }
      ]
    }
  }
  t.same(summaryOf(record), {
    achieved: 1499.5,
    p50: 2,
    p99: 20,
    p999: 21,
    errors: 3,
    errorRatio: 0.0002,
    samples: 14995,
    duration: 10,
    kind: 'confirm',
    slos: [
      { expression: 'p99<200ms', value: 20, ok: true, implied: false },
      { expression: 'errors<1%', value: 0.02, ok: true, implied: true }
    ]
  })
  t.same(summaryOf({ step: { duration: 5, kind: 'low' }, judgement: { verdict: 'generator-bound' } }), {
    achieved: undefined,
    p50: undefined,
    p99: undefined,
    p999: undefined,
    errors: 0,
    errorRatio: 0,
    samples: undefined,
    duration: 5,
    kind: 'low',
    slos: []
  }, 'a judgement without values or checks')
})

t.test('why a rate failed: its failed checks as measured, else the judge\'s reasons', async (t) => {
  const judgement = (fields) => ({ judgement: { verdict: 'fail', ...fields } })
  t.equal(failedText(judgement({
    checks: [{ ok: false, measured: 'p99 412 ms' }, { ok: true, measured: 'p50 3 ms' }, { ok: false, measured: 'errors 2%' }],
    reasons: ['ignored']
  })), 'p99 412 ms, errors 2%')
  t.equal(failedText(judgement({ checks: [{ ok: true, measured: 'p99 3 ms' }], reasons: ['p99 rising', 'taken as a fail'] })), 'p99 rising; taken as a fail')
  t.equal(failedText(judgement({})), 'fail', 'nothing but the verdict')
})

t.test('what the best step measured: each SLO\'s metric once, then its errors', async (t) => {
  const slos = parseSlos(['p99<200ms', 'p50<=20ms', 'p99<300ms', 'errors<1%', 'p90<100ms'])
  const summary = (errors, errorRatio) => ({
    errors,
    errorRatio,
    slos: [
      { expression: 'p99<200ms', value: 143 },
      { expression: 'p50<=20ms', value: 3.14 },
      { expression: 'p99<300ms', value: 143 },
      { expression: 'errors<1%', value: 0 }
    ]
  })
  t.equal(measuredAll(summary(0, 0), slos), 'p99 143 ms, p50 3.1 ms, 0 errors', 'p90 was not measured')
  t.equal(measuredAll(summary(1, 0.0001), slos), 'p99 143 ms, p50 3.1 ms, 1 error (0.01%)')
  t.equal(measuredAll(summary(12345, 0.123), slos), 'p99 143 ms, p50 3.1 ms, 12,345 errors (12%)')
  t.equal(measuredAll({ slos: [] }, []), '0 errors')
})

t.test('the closing sentence, for every status', async (t) => {
  const cfg = { connections: 100, slos: parseSlos(['p99<200ms']), arrivals: 'uniform', maxRate: Infinity, confirmDuration: 10 }
  const best = { rate: 1480, confirmed: true, summary: { slos: [{ expression: 'p99<200ms', value: 143 }], errors: 0, errorRatio: 0, duration: 10 } }
  const failed = { rate: 1510, reason: 'p99 412 ms' }
  const said = (out, c = cfg) => sentence({ best: null, failed: null, ...out }, c)

  t.equal(said({ status: null }), 'Searching.')
  t.equal(said({ status: null, best, failed }), 'Searching: 1,480 req/s passed so far; 1,510 req/s failed (p99 412 ms).')
  t.equal(said({ status: 'found', best, failed }),
    'Sustains 1,480 req/s at 100 connections with p99 < 200 ms (p99 143 ms, 0 errors); 1,510 req/s failed (p99 412 ms).')
  t.equal(said({ status: 'found', best }, { ...cfg, connections: 1, arrivals: 'poisson' }),
    'Sustains 1,480 req/s of Poisson arrivals at 1 connection with p99 < 200 ms (p99 143 ms, 0 errors).')
  t.equal(said({ status: 'found', best }, { ...cfg, connections: undefined, slos: [] }), 'Sustains 1,480 req/s (0 errors).')
  t.equal(said({ status: 'found', best: { ...best, rate: 18500 } }, { ...cfg, slos: parseSlos(['p99<200ms', 'p50<50ms']) }),
    'Sustains 18,500 req/s at 100 connections with p99 < 200 ms and p50 < 50 ms (p99 143 ms, 0 errors).')
  t.equal(said({ status: 'at-ceiling', best }, { ...cfg, maxRate: 1480 }),
    'Sustains at least 1,480 req/s at 100 connections with p99 < 200 ms (p99 143 ms, 0 errors): no higher rate tried (maxRate 1,480 req/s).')
  t.equal(said({ status: 'below-low', failed: { rate: 150, reason: 'p99 412 ms' } }),
    'Misses its SLOs even at the low rate, 150 req/s at 100 connections (p99 412 ms): no sustainable rate at this connection count.')
  const generatorBound = { rate: 50000, reason: 'generator saturated: CPU 95%' }
  t.equal(said({ status: 'generator-bound', generatorBound }),
    'Generator-bound at 50,000 req/s: use more workers (-w) or machines (CPU 95%).')
  t.equal(said({ status: 'generator-bound', generatorBound, best, failed }),
    'Generator-bound at 50,000 req/s: use more workers (-w) or machines (CPU 95%). ' +
    'The server sustained 1,480 req/s at 100 connections with p99 < 200 ms (p99 143 ms, 0 errors), the most this generator could measure; 1,510 req/s failed (p99 412 ms).')
  t.equal(said({ status: 'unconfirmed', confirmationsFailed: 3, best: { ...best, confirmed: false, summary: { ...best.summary, duration: 5 } }, failed }),
    'Unstable: 3 confirmation runs of 10 s failed; 1,480 req/s passed a 5 s step but was not confirmed; 1,510 req/s failed (p99 412 ms).')
  t.equal(said({ status: 'max-steps', steps: 25, best: { ...best, confirmed: false }, failed }),
    'Stopped after 25 steps (maxSteps) without converging: 1,480 req/s passed (not confirmed); 1,510 req/s failed (p99 412 ms).')
  t.equal(said({ status: 'max-steps', steps: 25, best }),
    'Stopped after 25 steps (maxSteps) without converging: 1,480 req/s passed.')
  t.equal(said({ status: 'max-steps', steps: 25 }), 'Stopped after 25 steps (maxSteps) without converging: no rate passed.')
  t.equal(said({ status: 'something else', best }), '', 'no sentence for a status it does not know')
})
