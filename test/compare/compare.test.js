'use strict'

// compare() on results made from chosen numbers (through the real recorder
// and aggregation): a real change is found, chance is not, and too little
// data says so. Real runs are in test/e2e/compare-runs.test.js, the table
// in test/output/compare-table.test.js.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const { compare, formatComparison, DEFAULTS } = require('../../lib/compare/compare')
const { mannWhitney } = require('../../lib/stats/mann-whitney')
const { normalSf } = require('../../lib/stats/normal')
const { randomResult } = require('../helpers/random-result')
const { run } = require('../helpers/cli')

const byKey = (cmp) => Object.fromEntries(cmp.metrics.map((m) => [m.key, m]))

t.test('a 20% change is significant, each metric in its direction', async (t) => {
  const a = randomResult({ seed: 1 })
  const b = randomResult({ seed: 2, rate: 1200, latencyMs: 6 })
  const m = byKey(compare(a, b))
  t.equal(m.rps.verdict, 'better', 'more req/s is better')
  t.ok(m.rps.change > 0.15 && m.rps.change < 0.25, `req/s +${(m.rps.change * 100).toFixed(1)}%`)
  t.ok(m.rps.p < 0.001, `p = ${m.rps.p}, n = ${m.rps.n}`)
  t.same(m.rps.n, [10, 10], 'n = intervals')
  for (const key of ['p50', 'p99', 'p99_9']) {
    t.equal(m[key].verdict, 'worse', `${key}: slower is worse`)
    t.ok(m[key].ci[0] > DEFAULTS.noise, `${key}: the whole interval ${m[key].ci.map((x) => x.toFixed(3))} is beyond the noise threshold`)
    t.ok(m[key].ci[0] < m[key].change && m[key].change < m[key].ci[1], `${key}: the change is inside its interval`)
  }
  t.equal(m.errors.verdict, '~', 'no errors in either')
  for (const key of ['ttfb', 'transfer']) {
    t.equal(m[key].verdict, 'worse', `${key} mean: slower is worse`)
    t.equal(m[key].test, 'mann-whitney')
    t.same(m[key].n, [10, 10], `${key}: n = intervals`)
    t.ok(m[key].change > 0.15 && m[key].change < 0.25, `${key} +${(m[key].change * 100).toFixed(1)}%`)
  }
  t.match(formatComparison(compare(a, b)), /TTFB mean .* worse/)
  t.match(formatComparison(compare(a, b)), /Req\/Sec, errors, TTFB and transfer \(medians of the interval means\): Mann–Whitney U/)
  const old = { ...a, series: { ...a.series } }
  delete old.series.ttfbMean
  t.same(compare(old, b).metrics.map((x) => x.key), ['rps', 'p50', 'p99', 'p99_9', 'errors'], 'no phase rows when a side predates them')
  t.notMatch(formatComparison(compare(old, b)), /TTFB/)

  const back = byKey(compare(b, a))
  t.equal(back.rps.verdict, 'worse', 'the other way round: fewer req/s')
  t.equal(back.p99.verdict, 'better')
  t.equal(back.rps.p, m.rps.p)
})

t.test('the same distribution twice: ~', async (t) => {
  // 1200/s: well above the 10,000 responses p99.9 needs in each run.
  const cmp = compare(randomResult({ seed: 1, rate: 1200 }), randomResult({ seed: 3, rate: 1200 }))
  for (const m of cmp.metrics) t.equal(m.verdict, '~', `${m.label}: ${m.note}`)
})

t.test('autocannon-compare\'s mistake, n = requests, is not made here', async (t) => {
  // autocannon-compare runs Welch's t-test on the Req/Sec mean and stddev
  // with n = requests.total, though the mean and stddev are of per-second
  // samples. Between two results drawn from ONE distribution, it finds
  // "significant" differences nearly every time.
  function welchN (a, b, n) {
    const se = Math.sqrt(a.requests.stddev ** 2 / n(a) + b.requests.stddev ** 2 / n(b))
    const t = Math.abs(a.requests.mean - b.requests.mean) / se
    // With n in the thousands the t distribution is the normal one.
    return 2 * normalSf(t)
  }
  const pairs = 100
  let welchSignificant = 0
  let ours = 0
  for (let k = 0; k < pairs; k++) {
    const a = randomResult({ seed: 100 + k, intervals: 10, rate: 1000 })
    const b = randomResult({ seed: 1000 + k, intervals: 10, rate: 1000 })
    if (welchN(a, b, (r) => r.requests.total) < 0.1) welchSignificant++
    const rates = (r) => r.series.requests.map((c) => c * 1000 / r.series.interval)
    if (mannWhitney(rates(a), rates(b)).p < 0.05) ours++
  }
  t.ok(welchSignificant >= 70, `n = requests: ${welchSignificant} of ${pairs} pairs of one distribution called significant (at its alpha 0.10)`)
  t.ok(ours <= 12, `n = per-second samples: ${ours} of ${pairs} (about alpha, 5%)`)

  // One such pair in full: 1% apart by chance, 5% per-second spread.
  const a = randomResult({ seed: 100, rate: 1000 })
  const b = randomResult({ seed: 1004, rate: 1000 })
  const change = Math.abs(b.requests.mean / a.requests.mean - 1)
  t.ok(change > 0.005 && change < 0.03, `the means differ by ${(change * 100).toFixed(2)}%`)
  t.ok(welchN(a, b, (r) => r.requests.total) < 0.001, 'autocannon-compare: significant')
  t.ok(welchN(a, b, (r) => r.samples) > 0.1, 'the same t-test with n = samples: not significant')
  const m = byKey(compare(a, b, { noise: 0 }))
  t.equal(m.rps.verdict, '~', `ours, even without a noise threshold: ~ (p = ${m.rps.p.toFixed(3)})`)
  t.ok(m.rps.p > 0.1)
})

t.test('the noise threshold: significant but small prints ~', async (t) => {
  // 1% more req/s with almost no spread: certain, and too small to matter.
  const a = randomResult({ seed: 1, rate: 10000, rateNoise: 0.001 })
  const b = randomResult({ seed: 2, rate: 10100, rateNoise: 0.001 })
  let m = byKey(compare(a, b)).rps
  t.ok(m.p < 0.001, `p = ${m.p}`)
  t.equal(m.verdict, '~')
  t.match(m.note, /noise threshold/)
  m = byKey(compare(a, b, { noise: 0.005 })).rps
  t.equal(m.verdict, 'better', 'a lower threshold lets it through')

  // 2.5% more req/s with a 3% spread: significant, and past 2%, but not
  // clearly: the interval of the change reaches inside ±2%.
  const ra = randomResult({ seed: 1, rate: 10000, rateNoise: 0.03 })
  const rb = randomResult({ seed: 2, rate: 10400, rateNoise: 0.03 })
  m = byKey(compare(ra, rb)).rps
  t.ok(m.p < 0.05 && m.change > 0.02, `p = ${m.p.toFixed(3)}, +${(m.change * 100).toFixed(2)}%`)
  t.equal(m.verdict, '~')
  t.match(m.note, /not clearly beyond the ±2% noise threshold/)
  t.equal(byKey(compare(ra, rb, { noise: 0 })).rps.verdict, 'better', 'without a threshold: a change')

  // Latency 1.5% up in every interval: an interval excluding 0 but not
  // clear of ±2%.
  const la = randomResult({ seed: 5, rate: 20000, spread: 0.1, drift: 0.001 })
  const lb = randomResult({ seed: 6, rate: 20000, spread: 0.1, drift: 0.001, latencyMs: 5 * 1.015 })
  const p50 = byKey(compare(la, lb)).p50
  t.ok(p50.significant, `p50 interval ${p50.ci.map((x) => x.toFixed(4))} excludes 0`)
  t.equal(p50.verdict, '~', p50.note)
  t.equal(byKey(compare(la, lb, { noise: 0 })).p50.verdict, 'worse')
})

t.test('too few samples: said, not guessed', async (t) => {
  const a = randomResult({ seed: 1, intervals: 3 })
  const b = randomResult({ seed: 2, intervals: 3, rate: 2000, latencyMs: 10 })
  const m = byKey(compare(a, b))
  t.equal(m.rps.verdict, 'too few samples', 'doubled req/s, but 3 + 3 samples can never give p < 0.05')
  t.equal(m.rps.minP, 0.1)
  t.match(m.rps.note, /n = 3 \+ 3 intervals: the smallest p they could give is 0\.1/)
  t.equal(m.p50.verdict, 'too few samples')
  t.match(m.p50.note, /bootstrap needs 4/)
  t.equal(byKey(compare(a, b, { alpha: 0.2 })).rps.verdict, 'better', 'at alpha 0.2, 3 + 3 can decide')

  // p99.9 rests on the slowest 0.1%: 10,000 responses for ten of them.
  const small = byKey(compare(randomResult({ seed: 1, rate: 500 }), randomResult({ seed: 2, rate: 500 })))
  t.equal(small.p99_9.verdict, 'too few samples')
  t.match(small.p99_9.note, /p99\.9 needs 10000 responses in each run, one has \d+/)
  t.equal(small.p99.verdict, '~', 'p99 has its 1,000')
})

t.test('a tail that is one event is not decided', async (t) => {
  // Every slow response of b in one second: one stall, whatever its size.
  const a = randomResult({ seed: 1, spread: 0.05 })
  const b = randomResult({ seed: 2, spread: 0.05 })
  const stall = JSON.parse(JSON.stringify(b))
  const { createLatencyHistogram, decode, encode } = require('../../lib/results/histogram')
  const slow = createLatencyHistogram()
  slow.add(decode(stall.series.latency[4]))
  for (let k = 0; k < 200; k++) slow.recordValue(100000)
  stall.series.latency[4] = encode(slow)
  const whole = decode(stall.histograms.latency)
  for (let k = 0; k < 200; k++) whole.recordValue(100000)
  stall.histograms.latency = encode(whole)
  const p99 = byKey(compare(a, stall)).p99
  t.equal(p99.verdict, 'too few samples')
  t.match(p99.note, /the responses at or above p99 of one run fall in 1 of its intervals; it needs 3/)
  t.equal(byKey(compare(a, b)).p99.verdict, '~', 'without the stall, decided')
})

t.test('errors: per-interval error rates, counts and ratio', async (t) => {
  const a = randomResult({ seed: 1 })
  const b = randomResult({ seed: 2, errors: 5 })
  let m = byKey(compare(a, b)).errors
  t.equal(m.verdict, 'worse', 'errors in every second where there were none')
  t.equal(m.a, 0)
  t.equal(m.b, 50)
  t.ok(m.rateB > 0.004 && m.rateB < 0.006, `rate ${m.rateB}`)
  t.ok(m.p < 0.001)

  // One burst of 200 errors in one second: a single event, not a trend.
  const burst = randomResult({ seed: 2, errors: (i) => i === 4 ? 200 : 0 })
  m = byKey(compare(a, burst)).errors
  t.equal(m.verdict, '~', `one bad second of ten: ~ (p = ${m.p.toFixed(3)})`)
  t.equal(m.b, 200)
})

t.test('several runs a side are pooled', async (t) => {
  const as = [1, 2, 3].map((seed) => randomResult({ seed, intervals: 3 }))
  const bs = [4, 5, 6].map((seed) => randomResult({ seed, intervals: 3, rate: 1300 }))
  const cmp = compare(as, bs)
  t.same(cmp.a, { runs: 3, intervals: 9, requests: as.reduce((s, r) => s + r.requests.total, 0), duration: 9 })
  const m = byKey(cmp)
  t.same(m.rps.n, [9, 9], 'three runs of three seconds: nine samples a side')
  t.equal(m.rps.verdict, 'better', 'which one run of three could not decide')
  t.equal(m.p50.verdict, '~')
})

t.test('deterministic, from results or their saved JSON', async (t) => {
  const a = randomResult({ seed: 1 })
  const b = randomResult({ seed: 2, latencyMs: 5.3 })
  const first = compare(a, b)
  t.same(compare(a, b), first, 'same inputs, same intervals')
  t.same(compare(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b))), first, 'from JSON')
  t.not(compare(a, b, { seed: 9 }).metrics[1].ci[0], first.metrics[1].ci[0], 'the seed is the only source of chance')
})

t.test('bad input', async (t) => {
  const a = randomResult({ seed: 1 })
  t.throws(() => compare(a, { hello: 1 }), { code: 'AC_NOT_A_RESULT' })
  t.throws(() => compare(a, []), { code: 'AC_NOT_A_RESULT' })
  const old = JSON.parse(JSON.stringify(a))
  delete old.series
  t.throws(() => compare(old, a), { code: 'AC_NOT_A_RESULT', message: /per-second series/ })
  t.throws(() => compare(a, a, { alpha: 1.5 }), { code: 'AC_INVALID_OPTION', message: /alpha/ })
  t.throws(() => compare(a, a, { noise: -1 }), { code: 'AC_INVALID_OPTION', message: /noise/ })
  t.throws(() => compare(a, a, { resamples: 10 }), { code: 'AC_INVALID_OPTION', message: /resamples/ })
})

t.test('autocannon compare a.json b.json', async (t) => {
  const dir = t.testdir({})
  const a = path.join(dir, 'base.json')
  const b = path.join(dir, 'new.json')
  fs.writeFileSync(a, JSON.stringify(randomResult({ seed: 1 })))
  fs.writeFileSync(b, JSON.stringify(randomResult({ seed: 2, rate: 1200 })))

  let out = await run(['compare', a, b])
  t.equal(out.code, 0, out.stderr)
  t.match(out.stdout, /^ +base +new +delta\nReq\/Sec .*better/)
  t.equal(out.stdout, formatComparison(compare(JSON.parse(fs.readFileSync(a)), JSON.parse(fs.readFileSync(b)), { names: ['base', 'new'] })))

  out = await run(['compare', a, b, '--json', '--noise', '25%', '--alpha', '0.01'])
  t.equal(out.code, 0, out.stderr)
  const cmp = JSON.parse(out.stdout)
  t.equal(cmp.noise, 0.25)
  t.equal(cmp.alpha, 0.01)
  t.equal(cmp.metrics[0].verdict, '~', '20% is inside a 25% threshold')

  // Rounds of -f, one result a line: pooled.
  const rounds = path.join(dir, 'rounds.ndjson')
  fs.writeFileSync(rounds, [1, 2].map((seed) => JSON.stringify(randomResult({ seed, intervals: 3 }))).join('\n') + '\n')
  out = await run(['compare', rounds, b, '-j'])
  t.equal(JSON.parse(out.stdout).a.runs, 2)

  const notResult = path.join(dir, 'x.json')
  fs.writeFileSync(notResult, '{"hello": 1}')
  out = await run(['compare', notResult, b])
  t.equal(out.code, 1)
  t.match(out.stderr, /^[^\n]*x\.json is not an autocannon result[^\n]*\n$/, 'one line')
  out = await run(['compare', a])
  t.equal(out.code, 1)
  t.match(out.stderr, /compare needs two saved results, got 1/)
  out = await run(['compare', a, b, '--noise', 'lots'])
  t.equal(out.code, 1)
  t.match(out.stderr, /Invalid value for --noise: lots/)
})
