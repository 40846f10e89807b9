'use strict'

// One option's value checked by its kind in the table: the number it
// stands for, its default when not given, or an error naming the option
// (autocannon's message where autocannon has one).

const t = require('tap')
const { checkOption, parseDuration, checkExpressions } = require('../../lib/config/values')

t.test('numbers, numeric strings and defaults', async (t) => {
  t.equal(checkOption('connections', '12'), 12)
  t.equal(checkOption('connections', undefined), 10, 'the table\'s default')
  t.equal(checkOption('amount', 0), 0, '0 is "not set" for a count')
  t.equal(checkOption('overallRate', '2.5'), 2.5)
  t.equal(checkOption('precision', 0.05), 0.05)
  t.equal(checkOption('debug', 1), true)
  t.throws(() => checkOption('connections', 0), { code: 'AC_INVALID_OPTION', option: 'connections', message: 'connections can not be less than 1' })
  t.throws(() => checkOption('precision', 1), { option: 'precision', message: /a fraction between 0 and 1/ })
  t.throws(() => checkOption('overallRate', 'fast'), { option: 'overallRate', message: 'bailout overallRate can not be less than 1' }, 'autocannon\'s own words')
  t.throws(() => checkOption('slos', undefined), { option: 'slos', message: /at least one SLO/ }, 'a required option')
})

t.test('durations: seconds and timestrings', async (t) => {
  t.equal(parseDuration(undefined), 10)
  t.equal(parseDuration('1m30s'), 90)
  t.equal(parseDuration(' 2.5 '), 2.5)
  t.throws(() => parseDuration('-3'), { option: 'duration', message: 'duration can not be less than 0' })
  t.throws(() => parseDuration('soon'), { option: 'duration', message: 'duration entered was in an invalid format' })
})

t.test('thresholds: a list of expressions, frozen, or refused naming the expression', async (t) => {
  const list = checkExpressions('thresholds', 'p99 < 1s')
  t.same(list, ['p99 < 1s'])
  t.ok(Object.isFrozen(list))
  t.equal(checkExpressions('thresholds', []), undefined, 'none')
  t.throws(() => checkExpressions('thresholds', ['p99 <']), { option: 'thresholds', message: /"p99 <" is not a threshold/ })
  t.throws(() => checkExpressions('slos', ['p99 <']), { option: 'slos', message: /is not an SLO/ })
})
