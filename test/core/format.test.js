'use strict'

// Numbers as the tables, lines, sentences and reports show them
// (lib/core/format.js): grouped by thousands without Intl, milliseconds to
// two decimals or two significant digits, percentages.

const t = require('tap')
const { round, thousands, rate, ms, msBrief, percent, percentFixed } = require('../../lib/core/format')

t.test('thousands: a comma every three digits, rounded when asked', async (t) => {
  t.equal(thousands(70713.61), '70,713.61')
  t.equal(thousands(999), '999')
  t.equal(thousands(1000), '1,000')
  t.equal(thousands(1234567), '1,234,567')
  t.equal(thousands(1234567.891, 1), '1,234,567.9', 'rounded to one decimal')
  t.equal(thousands(-1234.5), '-1,234.5')
  t.equal(thousands(-0.001, 2), '0', 'no "-0" for what rounds to nothing')
  t.equal(thousands(-0.5, 2), '-0.5')
  t.equal(thousands(NaN), 'NaN', 'not a finite number: as String() shows it')
  t.equal(thousands(Infinity), 'Infinity')
  t.equal(thousands('12'), '12')
})

t.test('rate: whole requests per second', async (t) => {
  t.equal(rate(18312.6), '18,313')
  t.equal(rate(0.4), '0')
  t.equal(rate(999.5), '1,000')
})

t.test('ms: at most two decimals in the tables', async (t) => {
  t.equal(ms(0.251), '0.25')
  t.equal(ms(20), '20')
  t.equal(ms(1.005 + 1e-9), '1.01')
  t.equal(ms(12345.678), '12345.68', 'not grouped')
  t.equal(ms(undefined), 'undefined')
})

t.test('msBrief: two significant digits below 10 ms, whole above', async (t) => {
  t.equal(msBrief(0.254), '0.25')
  t.equal(msBrief(3.14), '3.1')
  t.equal(msBrief(9.94), '9.9')
  t.equal(msBrief(143.4), '143')
  t.equal(msBrief(1204), '1,204')
  t.equal(msBrief(NaN), 'NaN')
})

t.test('percent: in a sentence; percentFixed: in a table', async (t) => {
  t.equal(percent(0.0123), '1.2%')
  t.equal(percent(0), '0%')
  t.equal(percent(0.5), '50%')
  t.equal(percent(0.0999), '10%', 'two significant digits round up to 10')
  t.equal(percent(0.123), '12%')
  t.equal(percentFixed(0.123456), '12.35%')
  t.equal(percentFixed(0), '0%')
  t.equal(percentFixed(0.00001), '<0.01%', 'there, but rounds to nothing')
  t.equal(percentFixed(0.0001), '0.01%')
})

t.test('round', async (t) => {
  t.equal(round(1.23456, 2), 1.23)
  t.equal(round(1.235001, 2), 1.24)
  t.equal(round(-2.5, 0), -2, 'as Math.round')
  t.equal(round(12345, -2), 12300)
})
