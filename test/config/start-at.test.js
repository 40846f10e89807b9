'use strict'

// --startAt: ISO 8601 with a zone or epoch milliseconds → epoch ms; at
// most one sample interval late.

const t = require('tap')
const { parseStartAt } = require('../../lib/config/start-at')

const NOW = Date.parse('2030-01-01T12:00:00Z')

t.test('the instants it reads', async (t) => {
  t.equal(parseStartAt('2030-01-01T12:00:05Z', 1000, NOW), NOW + 5000)
  t.equal(parseStartAt('2030-01-01T14:00:05+02:00', 1000, NOW), NOW + 5000)
  t.equal(parseStartAt(String(NOW + 1), 1000, NOW), NOW + 1)
  t.equal(parseStartAt(new Date(NOW - 900), 1000, NOW), NOW - 900, 'less than an interval late')
  t.equal(parseStartAt(undefined, 1000, NOW), undefined)
})

t.test('what it refuses, saying why', async (t) => {
  t.throws(() => parseStartAt('2030-01-01T12:00:05', 1000, NOW), { option: 'startAt', message: /no time zone/ })
  t.throws(() => parseStartAt(NOW - 5000, 1000, NOW), { option: 'startAt', message: /5\.0 s in the past/ })
  t.throws(() => parseStartAt(Math.floor(NOW / 1000) + 10, 1000, NOW), { message: /epoch milliseconds are expected, not seconds/ })
  t.throws(() => parseStartAt('soon', 1000, NOW), { message: /ISO 8601 with a zone/ })
})
