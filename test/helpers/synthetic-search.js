'use strict'

// Capacity searches written by hand, in the shape findMaxRate resolves to
// (and -j saves): known rates, statuses and latencies, no run and no
// timing. For the report's tests, which must not depend on how fast the
// machine is.

const SLO = 'p99<50ms'

// [kind, target, verdict, p50, p99, p99.9] → a step as the engine records it.
function step (connections, [kind, target, verdict, p50, p99, p999], { errors = 0 } = {}) {
  const reasons = verdict === 'pass'
    ? []
    : verdict === 'generator-bound'
      ? ['generator saturated: CPU 97% of 1 thread', `p99 ${p99} ms breaks p99 < 50 ms`]
      : [`p99 ${p99} ms breaks p99 < 50 ms`]
  return {
    connections,
    kind,
    target,
    verdict,
    reasons,
    values: { target, achieved: target, p50, p99, p999, errors, errorRatio: errors / (target * 2), serverErrors: 0, samples: target * 2, duration: 2 },
    checks: []
  }
}

function summary (s) {
  return { achieved: s.values.achieved, p50: s.values.p50, p99: s.values.p99, p999: s.values.p999, errors: 0, errorRatio: 0, samples: s.values.samples, duration: 2, kind: s.kind, slos: [] }
}

// One connection count: its steps in the order they ran; best and failed
// are the rates of steps among them.
function search (connections, status, rows, { best, failed, sentence, ceiling }) {
  const steps = rows.map((row) => step(connections, row))
  const at = (rate, verdicts) => steps.filter((s) => s.target === rate && verdicts.includes(s.verdict)).pop()
  const b = best === undefined ? null : at(best, ['pass'])
  const f = failed === undefined ? null : at(failed, ['fail', 'generator-bound'])
  return {
    connections,
    ceiling,
    status,
    best: b ? { rate: best, confirmed: status === 'found' || status === 'generator-bound', summary: summary(b) } : null,
    failed: f ? { rate: failed, reason: `p99 ${f.values.p99} ms`, summary: summary(f) } : null,
    generatorBound: null,
    bracket: [b ? best : null, f ? failed : null],
    confirmations: steps.filter((s) => s.kind === 'confirm').length,
    confirmationsFailed: 0,
    sentence,
    wallSeconds: steps.length * 3,
    steps
  }
}

// Server "a": found at 10 and 100 connections, generator-bound at 1000.
function searchA () {
  return {
    slos: [SLO, 'errors<1%'],
    precision: 0.02,
    searches: [
      search(10, 'found', [
        ['low', 90, 'pass', 1, 5, 8],
        ['upper', 1200, 'fail', 30, 400, 600],
        ['bisect', 900, 'pass', 2, 30, 45],
        ['bisect', 1050, 'fail', 5, 120, 180],
        ['bisect', 975, 'fail', 4, 70, 90],
        ['confirm', 900, 'pass', 2, 35, 48]
      ], { best: 900, failed: 975, ceiling: 1200, sentence: 'Sustains 900 req/s at 10 connections with p99 < 50 ms (p99 35 ms, 0 errors); 975 req/s failed (p99 70 ms).' }),
      search(100, 'found', [
        ['low', 160, 'pass', 1, 6, 9],
        ['upper', 1600, 'pass', 3, 40, 49],
        ['upper', 2400, 'fail', 50, 700, 900],
        ['bisect', 2000, 'fail', 10, 90, 150],
        ['confirm', 1600, 'pass', 3, 42, 49]
      ], { best: 1600, failed: 2000, ceiling: 1600, sentence: 'Sustains 1,600 req/s at 100 connections with p99 < 50 ms (p99 42 ms, 0 errors); 2,000 req/s failed (p99 90 ms).' }),
      search(1000, 'generator-bound', [
        ['low', 150, 'pass', 2, 10, 20],
        ['upper', 1500, 'generator-bound', 20, 80, 100],
        ['bisect', 1200, 'pass', 4, 30, 40],
        ['confirm', 1200, 'pass', 4, 31, 41]
      ], { best: 1200, failed: 1500, ceiling: 1500, sentence: 'Generator-bound at 1,500 req/s: use more workers (-w) or machines (CPU 97% of 1 thread). The server sustained 1,200 req/s at 1,000 connections with p99 < 50 ms (p99 31 ms, 0 errors), the most this generator could measure.' })
    ]
  }
}

// Server "b": slower, and no rate passes at 1000 connections.
function searchB () {
  return {
    slos: [SLO],
    precision: 0.02,
    searches: [
      search(10, 'found', [
        ['low', 60, 'pass', 2, 8, 12],
        ['upper', 800, 'fail', 40, 300, 500],
        ['bisect', 600, 'pass', 3, 40, 49],
        ['bisect', 700, 'fail', 8, 90, 120],
        ['confirm', 600, 'pass', 3, 41, 49]
      ], { best: 600, failed: 700, ceiling: 800, sentence: 'Sustains 600 req/s at 10 connections with p99 < 50 ms (p99 41 ms, 0 errors); 700 req/s failed (p99 90 ms).' }),
      search(100, 'found', [
        ['low', 90, 'pass', 2, 9, 14],
        ['upper', 900, 'fail', 40, 200, 300],
        ['bisect', 800, 'pass', 5, 45, 49],
        ['confirm', 800, 'pass', 5, 46, 49]
      ], { best: 800, failed: 900, ceiling: 900, sentence: 'Sustains 800 req/s at 100 connections with p99 < 50 ms (p99 46 ms, 0 errors); 900 req/s failed (p99 200 ms).' }),
      search(1000, 'below-low', [
        ['low', 70, 'fail', 20, 90, 130]
      ], { failed: 70, ceiling: 700, sentence: 'Misses its SLOs even at the low rate, 70 req/s at 1,000 connections (p99 90 ms): no sustainable rate at this connection count.' })
    ]
  }
}

module.exports = { searchA, searchB, step, search }
