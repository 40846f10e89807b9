'use strict'

// The normal and t distributions the comparison and the search lean on
// (lib/stats/normal.js), against values computed with scipy 1.17.1.

const t = require('tap')
const { normalSf, normalIsf, tIsf } = require('../../lib/stats/normal')

const close = (t, actual, expected, relative, msg) =>
  t.ok(Math.abs(actual - expected) <= relative * expected, `${msg}: ${actual} ≈ ${expected}`)

t.test('normal tail (scipy.stats.norm.sf)', async (t) => {
  close(t, normalSf(0), 0.5, 2e-7, 'z=0')
  close(t, normalSf(1), 0.15865525393145707, 2e-7, 'z=1')
  close(t, normalSf(1.959963984540054), 0.025, 2e-7, 'z=1.96')
  close(t, normalSf(3), 0.0013498980316300933, 2e-7, 'z=3')
  close(t, normalSf(5), 2.866515718791933e-07, 2e-7, 'z=5')
  close(t, normalSf(8), 6.22096057427174e-16, 2e-7, 'z=8: relative accuracy far in the tail')
  close(t, normalSf(-1), 1 - 0.15865525393145707, 2e-7, 'z=-1')
})

t.test('normal and t quantiles (scipy.stats.norm.isf, t.isf)', async (t) => {
  close(t, normalIsf(0.025), 1.959963984540054, 1e-7, 'z at 2.5%')
  close(t, normalIsf(0.005), 2.5758293035489004, 1e-7, 'z at 0.5%')
  close(t, tIsf(0.025, 7), 2.364624251592784, 1e-4, 't at 2.5%, 7 df')
  close(t, tIsf(0.025, 59), 2.000995378088267, 1e-6, 't at 2.5%, 59 df')
  close(t, tIsf(0.025, 3), 3.1824463052837078, 2e-3, 't at 2.5%, 3 df: the expansion\'s worst case here')
})
