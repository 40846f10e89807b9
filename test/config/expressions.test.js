'use strict'

// The grammar of thresholds and SLOs, parsed where the config checks them
// (lib/results/thresholds.js holds results to what it parses).

const t = require('tap')
const { parseThreshold, STAT_KEYS } = require('../../lib/config/expressions')

t.test('each kind of term, in its own unit', async (t) => {
  const p = (e) => {
    const { metric, operator, limit, unit, kind } = parseThreshold(e)
    return [metric, operator, limit, unit, kind]
  }
  t.same(p('p99 < 200ms'), ['p99', '<', 200, 'ms', 'latency'])
  t.same(p('p(99.9)<=1.5s'), ['p99.9', '<=', 1500, 'ms', 'latency'])
  t.same(p('mean != 900us'), ['avg', '!=', 0.9, 'ms', 'latency'])
  t.same(p('errors < 1%'), ['errors', '<', 1, '%', 'count'])
  t.same(p('rps >= 5000'), ['rps', '>=', 5000, 'req/s', 'rate'])
  t.same(p('throughput > 2KiB/s'), ['throughput', '>', 2048, 'B/s', 'rate'])
  t.same(p('generator.cpu < 90%'), ['generator.cpu', '<', 0.9, '', 'generator'])
  t.same(p('generator.loopDelay.p99 < 1s'), ['generator.loopDelay.p99', '<', 1000, 'ms', 'generator'])
  t.same(p('generator.lateOwn < 1'), ['generator.lateOwn', '<', 1, '', 'generator'])
  t.same(p('generator.latestarved < 0.5%'), ['generator.lateStarved', '<', 0.5, '%', 'generator'], 'in any case')
  t.same(p('generator.lateNoConnection == 0'), ['generator.lateNoConnection', '==', 0, '', 'generator'])
  t.same(p('generator.pauses.own.max < 10ms'), ['generator.pauses.own.max', '<', 10, 'ms', 'generator'])
  t.same(p('generator.pauses.starved.max < 0.1s'), ['generator.pauses.starved.max', '<', 100, 'ms', 'generator'])
  t.equal(parseThreshold(' p99 < 2 ').expression, 'p99 < 2', 'the expression as given, trimmed')
  t.equal(STAT_KEYS.mean, 'average', 'the result\'s key of a statistic')
})

t.test('what is not an expression says why, with the grammar\'s hint', async (t) => {
  for (const [bad, why] of [[42, /not a string/], ['p99', /<term> <operator> <value>/], ['p101 < 1s', /not a percentile/],
    ['p99 < 1 parsec', /not of the form|not a latency unit/], ['errors < 5ms', /count or a percentage/], ['latency < 1', /unknown term/],
    ['generator.heat < 1', /generator terms: generator\.late, \.lateOwn/], ['generator.lateOwn < 2ms', /generator\.lateOwn is a count or a percentage/],
    ['generator.pauses.own.max < 2kB', /not a latency unit/]]) {
    const err = t.throws(() => parseThreshold(bad), why, JSON.stringify(bad))
    t.match(err && err.why, /e\.g\. "p99 < 200ms"/, 'with the hint')
  }
})
