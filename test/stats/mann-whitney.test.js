'use strict'

// The Mann–Whitney U test against values computed with scipy 1.17.1:
//   scipy.stats.mannwhitneyu(x, y, alternative='two-sided', method=...)
// and, for the exact distribution with ties (which mannwhitneyu does not
// compute), the exact permutation distribution of U:
//   scipy.stats.permutation_test((x, y), U, permutation_type='independent',
//                                n_resamples=np.inf, alternative='two-sided')

const t = require('tap')
const { mannWhitney } = require('../../lib/stats/mann-whitney')
const { seededRandom } = require('../../lib/core/random')

const close = (t, actual, expected, relative, msg) =>
  t.ok(Math.abs(actual - expected) <= relative * expected, `${msg}: ${actual} ≈ ${expected}`)

t.test('exact distribution, no ties (scipy method=exact)', async (t) => {
  const cases = [
    ['fully separated, 4 + 4', [1.1, 2.3, 3.0, 4.5], [5, 6, 7.2, 8], 0, 0.02857142857142857],
    ['textbook, 5 + 4', [19, 22, 16, 29, 24], [20, 11, 17, 12], 17, 0.1111111111111111],
    ['req/s of two alike runs, 8 + 8', [10234, 10102, 9987, 10400, 10311, 10050, 9890, 10222],
      [10150, 10280, 10020, 9950, 10390, 10180, 10060, 10120], 33, 0.959129759129759],
    ['a 10% shift, 10 + 10', [100, 103, 98, 101, 99, 102, 97, 104, 100.5, 99.5],
      [110, 113, 108, 111, 109, 112, 107, 114, 110.5, 109.5], 0, 1.082508822446903e-05]
  ]
  for (const [name, x, y, u, p] of cases) {
    const r = mannWhitney(x, y)
    t.equal(r.method, 'exact', name)
    t.equal(r.u, u, `${name}: U`)
    close(t, r.p, p, 1e-12, `${name}: p`)
  }
})

t.test('exact distribution with ties: mid-ranks, counted exactly (scipy permutation_test)', async (t) => {
  let r = mannWhitney([3, 3, 5, 7, 7, 9], [1, 3, 5, 5, 6, 7])
  t.equal(r.u, 23)
  close(t, r.p, 0.47186147186147187, 1e-12, 'p')
  r = mannWhitney([120, 120, 121, 119, 122], [118, 119, 119, 117, 120])
  t.equal(r.u, 22)
  close(t, r.p, 0.07936507936507936, 1e-12, 'p')
})

t.test('normal approximation with tie correction and continuity (scipy method=asymptotic)', async (t) => {
  const x = Array.from({ length: 40 }, (_, i) => (i * 37) % 23)
  const y = Array.from({ length: 45 }, (_, i) => (i * 41) % 29 + 2)
  let r = mannWhitney(x, y)
  t.equal(r.method, 'normal', '85 values: past the exact limit')
  t.equal(r.u, 590.5)
  close(t, r.p, 0.0064840444836964045, 1e-6, 'heavy ties: p')

  const x2 = Array.from({ length: 30 }, (_, i) => 1000 + (i * 7919) % 61)
  const y2 = Array.from({ length: 35 }, (_, i) => 1010 + (i * 104729) % 67)
  r = mannWhitney(x2, y2)
  t.equal(r.u, 340.5)
  close(t, r.p, 0.015452083579565276, 1e-6, 'p')

  // Where both apply, they agree (scipy: exact 0.11663881126432638,
  // asymptotic 0.11603618751300343).
  const a = Array.from({ length: 25 }, (_, i) => i + 1)
  const b = a.map((v) => v + 3.5)
  close(t, mannWhitney(a, b).p, 0.11663881126432638, 1e-12, 'exact at 25 + 25')
  close(t, mannWhitney(a, b, { exactLimit: 0 }).p, 0.11603618751300343, 1e-6, 'normal at 25 + 25')
})

t.test('the smallest p the samples could give (benchstat\'s "too few samples")', async (t) => {
  // No ties: 2 / C(n1 + n2, n1).
  t.equal(mannWhitney([1, 2, 3], [4, 5, 6]).minP, 0.1, '3 + 3: 2/20, never below 0.05')
  close(t, mannWhitney([1, 2, 3, 4], [5, 6, 7, 8]).minP, 2 / 70, 1e-12, '4 + 4: 0.0286, as benchstat says')
  t.equal(mannWhitney([5, 6], [1, 2]).minP, 1 / 3, '2 + 2')
  const same = mannWhitney([5, 5, 5], [5, 5, 5, 5])
  t.same([same.p, same.minP], [1, 2 / 35], 'all tied: p = 1, the data are alike (not too few)')
  t.same(mannWhitney([], [1, 2, 3]), { u: NaN, p: 1, minP: 1, n: [0, 3], method: 'none' }, 'no samples')
  const r = mannWhitney([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [11, 12, 13, 14, 15, 16, 17, 18, 19, 20])
  t.equal(r.p, r.minP, 'fully separated samples reach it')
  close(t, mannWhitney(Array.from({ length: 60 }, (_, i) => i), Array.from({ length: 60 }, (_, i) => i + 0.5)).minP,
    2 / 9.661490884036332e+34, 1e-12, '60 + 60: 2 / C(120, 60)')
})

t.test('symmetric: swapping the samples swaps U, keeps p', async (t) => {
  const random = seededRandom(3)
  for (let k = 0; k < 20; k++) {
    const x = Array.from({ length: 3 + k % 9 }, () => Math.round(random() * 20))
    const y = Array.from({ length: 4 + k % 7 }, () => Math.round(random() * 20))
    const xy = mannWhitney(x, y)
    const yx = mannWhitney(y, x)
    if (xy.u + yx.u !== x.length * y.length || Math.abs(xy.p - yx.p) > 1e-12 || Math.abs(xy.minP - yx.minP) > 1e-12) {
      t.fail(`not symmetric for ${JSON.stringify([x, y])}`)
    }
  }
  t.pass('20 random pairs with ties')
})

t.test('under the null, p < 0.05 about 5% of the time', async (t) => {
  const random = seededRandom(11)
  let rejected = 0
  const trials = 2000
  for (let k = 0; k < trials; k++) {
    const x = Array.from({ length: 10 }, () => random())
    const y = Array.from({ length: 10 }, () => random())
    if (mannWhitney(x, y).p < 0.05) rejected++
  }
  // Exact: P(p < 0.05) = 0.0433 at 10 + 10 (discreteness); 2000 trials.
  t.ok(rejected / trials > 0.025 && rejected / trials < 0.065, `${rejected} of ${trials}`)
})
