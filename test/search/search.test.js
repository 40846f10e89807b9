'use strict'

// The capacity search's decisions, driven by a model of a server of
// capacity C: bracketing, bisection, confirmation, lengthened steps, and
// every way it ends.

const t = require('tap')
const { createSearch } = require('../../lib/search/search')
const { makeResult, capacityServer, starvedGenerator } = require('../helpers/step-results')

// Runs a search against a model to its end. The bound on iterations makes
// a search that never ends fail the test instead of hanging it.
function drive (search, server) {
  let step
  let guard = 0
  while ((step = search.next())) {
    if (++guard > 1000) throw new Error('the search did not end')
    search.record(step, search.judge(step, server(step)))
  }
  return search.outcome()
}

const SLO = ['p99<200ms']

t.test('search: ceiling too high brackets down, bisects to C within the precision', async (t) => {
  const C = 1500
  const search = createSearch({ ceiling: 2000, slos: SLO, connections: 100 })
  const out = drive(search, capacityServer(C))
  t.equal(out.status, 'found')
  const kinds = out.history.map((h) => h.step.kind)
  t.same(kinds.slice(0, 2), ['low', 'upper'])
  t.same(out.history.slice(0, 2).map((h) => [h.step.rate, h.verdict]), [[200, 'pass'], [2000, 'fail']])
  t.equal(kinds[kinds.length - 1], 'confirm')
  t.ok(out.best.rate <= C, `best ${out.best.rate} is sustainable`)
  t.ok((C - out.best.rate) / C < 0.02, `best ${out.best.rate} within 2% of ${C}`)
  t.ok(out.failed.rate > C, `lowest fail ${out.failed.rate} is above C`)
  t.ok((out.bracket[1] - out.bracket[0]) / out.bracket[0] < 0.02, `bracket ${out.bracket}`)
  t.equal(out.best.confirmed, true)
  t.equal(out.best.summary.kind, 'confirm', 'the best is reported from its confirmation')
  t.equal(out.best.summary.duration, 10, 'confirmed at twice the step')
  // The upper step achieved 1530 (1.02 C) of 2000: the first bisection
  // tries 95% of that, not the midpoint of 200 and 2000.
  t.same(out.history[2].step, { rate: 1454, duration: 5, warmup: 1, kind: 'bisect', index: 2 }, 'near guess first')
  t.ok(out.steps <= 8, `${out.steps} steps`)
  t.comment(`ceiling 2000, C ${C}: ${out.steps} steps → ${out.best.rate}; ${out.history.map((h) => `${h.step.kind} ${h.step.rate} ${h.verdict}`).join(', ')}`)
  t.match(out.sentence, /^Sustains 1,4\d\d req\/s at 100 connections with p99 < 200 ms \(p99 20 ms, 0 errors\); 1,5\d\d req\/s failed \(p99 \d+ ms\)\.$/)
  t.equal(search.next(), null, 'finished')
})

t.test('search: ceiling too low grows until a step fails', async (t) => {
  const C = 1530
  const out = drive(createSearch({ ceiling: 700, slos: SLO }), capacityServer(C))
  t.equal(out.status, 'found')
  const upper = out.history.filter((h) => h.step.kind === 'upper')
  t.same(upper.map((h) => [h.step.rate, h.verdict]), [[700, 'pass'], [770, 'pass'], [1155, 'pass'], [1733, 'fail']], 'grows ×1.1 past the ceiling, then ×1.5 past C')
  t.ok(out.best.rate <= C && (C - out.best.rate) / C < 0.02, `best ${out.best.rate}`)
  t.ok(out.steps >= 8 && out.steps <= 12, `${out.steps} steps`)
  t.comment(`ceiling 700, C ${C}: ${out.steps} steps → ${out.best.rate}`)
})

t.test('search: steps taken from ceiling guesses between C/2 and 2C', async (t) => {
  const C = 1500
  const counts = []
  for (const guess of [0.5, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 2]) {
    const out = drive(createSearch({ ceiling: C * guess, slos: SLO }), capacityServer(C))
    t.equal(out.status, 'found', `ceiling ${C * guess}`)
    t.ok(out.best.rate <= C && (C - out.best.rate) / C < 0.02, `ceiling ${C * guess}: best ${out.best.rate}`)
    counts.push(`${guess}C: ${out.steps}`)
    t.ok(out.steps >= 5 && out.steps <= (guess < 0.9 ? 10 : 7), `ceiling ${guess}C: ${out.steps} steps`)
  }
  t.comment(`steps by ceiling guess: ${counts.join(', ')}`)
  const loose = drive(createSearch({ ceiling: 2000, slos: SLO, precision: 0.1 }), capacityServer(C))
  const tight = drive(createSearch({ ceiling: 2000, slos: SLO, precision: 0.005 }), capacityServer(C))
  t.ok(loose.steps < tight.steps, `precision 10%: ${loose.steps} steps, 0.5%: ${tight.steps}`)
  t.ok((C - loose.best.rate) / C < 0.1)
  t.ok((C - tight.best.rate) / C < 0.005)
})

t.test('search: a lucky step fails its confirmation and the search steps down', async (t) => {
  const C = 1500
  const base = capacityServer(C)
  // Up to 6% over C, a 5 s step ends before the queue shows; 10 s does not.
  const lucky = (step) => step.rate <= C * 1.06 && step.duration < 10
    ? makeResult({ target: step.rate, duration: step.duration })
    : base(step)
  const out = drive(createSearch({ ceiling: 2000, slos: SLO }), lucky)
  t.equal(out.status, 'found')
  const confirms = out.history.filter((h) => h.step.kind === 'confirm')
  t.ok(confirms.length >= 1, `${confirms.length} confirmations (a bisection step as long is its own)`)
  t.equal(confirms[0].verdict, 'fail', 'the lucky rate did not hold')
  t.ok(confirms[0].step.rate > C)
  t.equal(out.best.confirmed, true)
  t.ok(out.best.summary.duration >= 10, 'the best held for a confirmation\'s length')
  t.ok(out.best.rate <= C, `best ${out.best.rate}, not the lucky ${confirms[0].step.rate}`)
  t.ok((C - out.best.rate) / C < 0.02, 'and still within the precision of C')
  t.ok(out.failed.rate <= confirms[0].step.rate, 'the failed confirmation is the lowest fail')
  const after = out.history.slice(out.history.indexOf(confirms[0]) + 1)
  t.ok(after.every((h) => h.step.rate < confirms[0].step.rate), 'every later step is below it')
  t.ok(after.every((h) => h.step.duration >= 10), 'and as long as a confirmation: short steps were shown to lie')
  t.comment(`lucky: ${out.steps} steps → ${out.best.rate}; ${out.history.map((h) => `${h.step.kind} ${h.step.rate} ${h.verdict}`).join(', ')}`)
})

t.test('search: where the first bisection below a failure goes', async (t) => {
  // Plays the steps given as [verdict-making result] and returns the step
  // the search asks for next.
  function after (results, opts = {}) {
    const search = createSearch({ ceiling: 2000, slos: SLO, ...opts })
    for (const make of results) {
      const step = search.next()
      search.record(step, search.judge(step, make(step)))
    }
    return search.next()
  }
  const pass = (step) => makeResult({ target: step.rate, duration: step.duration })
  // A server whose 5 s steps pass up to `short` req/s and 10 s ones only
  // up to `long`: its capacity sinks as a step goes on.
  const shortOverLong = (short, long) => (step) => step.rate <= (step.duration < 10 ? short : long)
    ? pass(step)
    : makeResult({ target: step.rate, duration: step.duration, tailMs: 400 })
  const slow = (achieved) => (step) => makeResult({ target: step.rate, duration: step.duration, achieved: achieved || step.rate, tailMs: 400 })

  t.test('a latency failure far above the low check: 90% of it', async (t) => {
    const next = after([pass, slow()])
    t.same([next.kind, next.rate], ['bisect', 1800])
  })
  t.test('a failure the server fell short of: 95% of what it achieved', async (t) => {
    const next = after([pass, slow(1600)])
    t.same([next.kind, next.rate], ['bisect', 1520])
  })
  t.test('the guess failed too: one more, 90% of it', async (t) => {
    const next = after([pass, slow(1600), slow()])
    t.same([next.kind, next.rate], ['bisect', 1368])
  })
  t.test('a third and a fourth guess, 90% each', async (t) => {
    t.same(after([pass, slow(1600), slow(), slow()]).rate, 1231)
    t.same(after([pass, slow(1600), slow(), slow(), slow()]).rate, 1108)
  })
  t.test('four guesses failed: the midpoint, not a descent', async (t) => {
    const next = after([pass, slow(1600), slow(), slow(), slow(), slow()])
    t.same([next.kind, next.rate], ['bisect', Math.round((200 + 1108) / 2)])
  })
  t.test('an inconclusive guess run again is still one guess', async (t) => {
    // The guess at 1520 passes on too few requests for its p99.9, is run
    // again longer, and fails: the next is the second guess.
    const few = (step) => makeResult({ target: step.rate, duration: 0.5 })
    const next = after([pass, slow(1600), few, slow()], { slos: ['p99.9<200ms'] })
    t.same([next.kind, next.rate], ['bisect', 1368])
  })
  t.test('a failed confirmation far above the best pass: guesses below it', async (t) => {
    // Every 5 s step up to 2000 passes; nothing above 1500 holds for 10 s.
    // A failed confirmation is close above capacity (95%); a failed guess
    // is not (90%).
    const out = drive(createSearch({ ceiling: 2000, slos: SLO }), shortOverLong(2000, 1500))
    const i = out.history.findIndex((h) => h.step.kind === 'confirm')
    t.same(out.history.slice(i, i + 4).map((h) => [h.step.kind, h.step.rate, h.step.duration, h.verdict]), [
      ['confirm', 2000, 10, 'fail'], ['bisect', 1900, 10, 'fail'], ['bisect', 1710, 10, 'fail'], ['bisect', 1539, 10, 'fail']
    ])
    t.ok(out.best.rate <= 1500 && out.best.rate > 1470, `best ${out.best.rate}`)
  })
  t.test('a failed confirmation: the short passes within 5% under it are passed over', async (t) => {
    const out = drive(createSearch({ ceiling: 2000, slos: SLO }), shortOverLong(1560, 1450))
    const i = out.history.findIndex((h) => h.step.kind === 'confirm')
    const failed = out.history[i]
    t.equal(failed.verdict, 'fail')
    const near = out.history.slice(0, i).filter((h) => h.verdict === 'pass' && h.step.rate >= failed.step.rate * 0.95 && h.step.rate < failed.step.rate)
    t.ok(near.length > 0, `short passes just under ${failed.step.rate}: ${near.map((h) => h.step.rate).join(', ')}`)
    const later = out.history.slice(i + 1)
    const steps = later.map((h) => `${h.step.kind} ${h.step.rate}`).join(', ')
    t.notOk(later.some((h) => h.step.kind === 'confirm' && near.some((n) => n.step.rate === h.step.rate)), `none of them is confirmed: ${steps}`)
    t.ok(later.every((h) => h.step.duration === 10), 'the steps after it are as long as a confirmation')
    t.equal(out.status, 'found')
    t.ok(out.best.rate <= 1450 && out.best.rate > 1420, `best ${out.best.rate}`)
  })
  t.test('near passes: the midpoint, capped by what the failure achieved', async (t) => {
    // low 200, upper 2000 fails having achieved 1600, guess 1520 passes:
    // the next try is between 1520 and 1600, not 1520 and 2000.
    const next = after([pass, slow(1600), pass])
    t.same([next.kind, next.rate], ['bisect', 1560])
  })
  // The upper step falls short (1600 of 2000) and is stopped once its
  // failure is settled (lib/search/early-verdict.js) after `seconds`.
  function afterSettled (t, seconds) {
    const search = createSearch({ ceiling: 2000, slos: SLO })
    let step = search.next()
    search.record(step, search.judge(step, pass(step)))
    step = search.next()
    const judgement = search.judge(step, slow(1600)(step))
    t.equal(judgement.checks.find((c) => c.kind === 'achieved').ok, false, 'it fell short')
    search.record(step, { ...judgement, values: { ...judgement.values, duration: seconds }, settled: { at: seconds, reason: 'settled' } })
    return search.next()
  }
  t.test('a failure settled under a second in bounds nothing with its rate', async (t) => {
    // So short a window's achieved rate is chance: 2000 is the bound, not 1600.
    const next = afterSettled(t, 0.2)
    t.same([next.kind, next.rate], ['bisect', 1800], '90% of 2000, as for any latency failure')
  })
  t.test('a failure settled after a second or more bounds as any other', async (t) => {
    const next = afterSettled(t, 1)
    t.same([next.kind, next.rate], ['bisect', 1520], '95% of the 1600 it achieved')
  })
  t.test('a shortfall below the best pass is not the server\'s limit', async (t) => {
    // 1520 passed; 1560 fails having achieved 1300: noise, the bound is 1560.
    const next = after([pass, slow(1600), pass, slow(1300)])
    t.same([next.kind, next.rate], ['bisect', 1540])
  })
  t.test('a generator-bound shortfall is ours: the rate bounds', async (t) => {
    const bound = (step) => makeResult({ target: step.rate, duration: step.duration, achieved: 1100, tailMs: 400, generator: { cpu: 0.97, loopDelay: { p50: 0, p99: 80, max: 80 } } })
    const next = after([pass, bound])
    t.same([next.kind, next.rate], ['bisect', 1800])
  })
  t.test('a pass within the precision of what a failure achieved: confirm', async (t) => {
    // 1520 passed; 1560 fails having achieved 1540, 1.3% above 1520.
    const next = after([pass, slow(1600), pass, slow(1540)])
    t.same([next.kind, next.rate], ['confirm', 1520])
  })
  t.test('a confirmation the server fell short of: below what it achieved', async (t) => {
    // low 200, upper 2000 passes, 2200 fails (achieved 2100), 2050 passes,
    // 2075 fails: 2050 is confirmed and fails, the server delivering 1700.
    // The 5 s pass at 2000 is above that: not where to go on from.
    const steps = [pass, pass, slow(2100), pass, slow(), slow(1700)]
    const search = createSearch({ ceiling: 2000, slos: SLO })
    const kinds = []
    for (const make of steps) {
      const step = search.next()
      kinds.push(`${step.kind} ${step.rate}`)
      search.record(step, search.judge(step, make(step)))
    }
    t.same(kinds, ['low 200', 'upper 2000', 'upper 2200', 'bisect 2050', 'bisect 2075', 'confirm 2050'])
    const next = search.next()
    t.same([next.kind, next.rate, next.duration], ['bisect', 1615, 10])
  })
  t.test('nearGuess, nearClose and nearGuesses are checked', async (t) => {
    t.throws(() => createSearch({ ceiling: 2000, nearGuess: 1 }), { code: 'AC_INVALID_OPTION' })
    t.throws(() => createSearch({ ceiling: 2000, nearGuess: 0 }), { code: 'AC_INVALID_OPTION' })
    t.throws(() => createSearch({ ceiling: 2000, nearClose: 1.2 }), { code: 'AC_INVALID_OPTION' })
    t.throws(() => createSearch({ ceiling: 2000, nearGuesses: 1.5 }), { code: 'AC_INVALID_OPTION' })
    const none = createSearch({ ceiling: 2000, slos: SLO, nearGuesses: 0 })
    for (const make of [(s) => makeResult({ target: s.rate }), (s) => makeResult({ target: s.rate, tailMs: 400 })]) {
      const step = none.next()
      none.record(step, none.judge(step, make(step)))
    }
    t.equal(none.next().rate, 1100, 'nearGuesses 0: the midpoint')
  })
})

t.test('search: confirmations that never hold end "unconfirmed"', async (t) => {
  // Any 5 s step up to C passes; nothing holds for 10 s above the low rate.
  const server = (step) => step.duration < 10 && step.rate <= 1500
    ? makeResult({ target: step.rate, duration: step.duration })
    : makeResult({ target: step.rate, duration: step.duration, tailMs: step.rate <= 200 ? 20 : 900 })
  // With maxConfirms 1, the first failed confirmation ends it.
  const out = drive(createSearch({ ceiling: 2000, slos: SLO, maxConfirms: 1 }), server)
  t.equal(out.status, 'unconfirmed')
  t.equal(out.confirmationsFailed, 1)
  t.equal(out.best.confirmed, false)
  t.match(out.sentence, /^Unstable: 1 confirmation runs? of 10 s failed/)
  // With the default 3, the steps after a failed confirmation are as long
  // as one, and short passes within 5% under it are not confirmed in turn:
  // the search goes down to the rate that holds for 10 s.
  const patient = drive(createSearch({ ceiling: 2000, slos: SLO }), server)
  t.equal(patient.status, 'found', patient.sentence)
  t.equal(patient.best.rate, 200)
  t.equal(patient.best.confirmed, true)
})

t.test('search: too few requests lengthen the step', async (t) => {
  t.test('planned: low rates get steps long enough for the tail', async (t) => {
    const search = createSearch({ ceiling: 500, slos: ['p99<50ms'] })
    const step = search.next()
    t.same([step.kind, step.rate], ['low', 50])
    t.equal(step.duration, 22, '1,000 requests (+10%) at 50 req/s, not 5 s')
    t.equal(step.warmup, 1)
  })

  t.test('judged inconclusive: the same rate again, longer', async (t) => {
    const search = createSearch({ ceiling: 500, slos: ['p99<50ms'], stepDuration: 5 })
    const step = search.next()
    // The engine ran 5 s only (say it cut the step): 250 requests.
    const j = search.judge(step, makeResult({ target: 50, duration: 5 }))
    t.equal(j.verdict, 'inconclusive')
    search.record({ ...step, duration: 5 }, j)
    const again = search.next()
    t.equal(again.rate, 50)
    t.equal(again.kind, 'low')
    t.equal(again.rerun, true)
    t.ok(again.duration >= 22 && again.duration <= 60, `lengthened to ${again.duration} s`)
    search.record(again, search.judge(again, makeResult({ target: 50, duration: again.duration })))
    t.equal(search.next().kind, 'upper', 'then the search goes on')
  })

  t.test('still inconclusive at maxStepDuration: a fail', async (t) => {
    // p99.9 at 20 req/s needs 10,000 requests: 500 s, over the 60 s cap.
    const search = createSearch({ ceiling: 200, slos: ['p99.9<50ms'] })
    const step = search.next()
    t.equal(step.duration, 60, 'capped')
    search.record(step, search.judge(step, makeResult({ target: 20, duration: 60 })))
    t.equal(search.next(), null)
    const out = search.outcome()
    t.equal(out.status, 'below-low')
    t.equal(out.history[0].verdict, 'fail')
    t.match(out.history[0].reasons, [/p99.9 from 1,200 requests/, /still too few requests in 60 s steps/])
  })
})

t.test('search: below-low when the low rate already misses', async (t) => {
  const out = drive(createSearch({ ceiling: 2000, slos: SLO, connections: 100 }), (step) =>
    makeResult({ target: step.rate, duration: step.duration, tailMs: 412 }))
  t.equal(out.status, 'below-low')
  t.equal(out.steps, 1)
  t.equal(out.best, null)
  t.same(out.failed.rate, 200)
  t.equal(out.sentence, 'Misses its SLOs even at the low rate, 200 req/s at 100 connections (p99 412 ms): ' +
    'no sustainable rate at this connection count.')
})

t.test('search: a user low rate is used', async (t) => {
  const search = createSearch({ ceiling: 2000, slos: SLO, lowRate: 50, stepDuration: 30 })
  t.equal(search.next().rate, 50)
})

t.test('search: generator-bound', async (t) => {
  t.test('the generator saturates below the server capacity', async (t) => {
    const G = 1200
    const server = capacityServer(3000)
    const gen = (step) => step.rate > G
      ? makeResult({ target: step.rate, duration: step.duration, achieved: G, generator: { cpu: 0.97, loopDelay: { p50: 0, p99: 80, max: 80 } } })
      : server(step)
    const out = drive(createSearch({ ceiling: 2000, slos: SLO, connections: 100 }), gen)
    t.equal(out.status, 'generator-bound')
    t.ok(out.generatorBound.rate > G, `bound at ${out.generatorBound.rate}`)
    // Within the judge's 1% achieved tolerance above G a step still passes.
    t.ok(out.best.rate <= G * 1.01 && (G - out.best.rate) / G < 0.02, `measured up to ${out.best.rate}`)
    t.equal(out.failed, null, 'no step failed: the server never missed')
    t.match(out.sentence, /^Generator-bound at 1,2\d\d req\/s: use more workers \(-w\) or machines \(CPU 97% of its threads\)\. The server sustained 1,(1\d\d|20\d|21[0-2]) req\/s at 100 connections/)
    t.notMatch(out.sentence, /^Sustains/)
  })

  t.test('saturation above the server capacity does not hide the server\'s limit', async (t) => {
    const C = 1500
    const server = capacityServer(C)
    const gen = (step) => step.rate > 1900
      ? makeResult({ target: step.rate, duration: step.duration, achieved: 1900, generator: { cpu: 0.97, loopDelay: { p50: 0, p99: 80, max: 80 } } })
      : server(step)
    const out = drive(createSearch({ ceiling: 2000, slos: SLO }), gen)
    t.equal(out.status, 'found')
    t.equal(out.history[1].verdict, 'generator-bound', 'the ceiling was beyond the generator')
    t.ok(out.best.rate <= C && (C - out.best.rate) / C < 0.02)
  })

  t.test('saturated at the low rate: nothing measured', async (t) => {
    const out = drive(createSearch({ ceiling: 2000, slos: SLO }), (step) =>
      makeResult({ target: step.rate, duration: step.duration, tailMs: 900, generator: { cpu: 1, loopDelay: { p50: 0, p99: 300, max: 300 } } }))
    t.equal(out.status, 'generator-bound')
    t.equal(out.steps, 1)
    t.equal(out.best, null)
    t.match(out.sentence, /^Generator-bound at 200 req\/s: use more workers \(-w\) or machines/)
  })
})

// A step the generator could not run as planned: its health names other
// processes (the thread not running for 600 ms of the step, its loop up to
// 115 ms late), and p99 breaks 50 ms for it alone.
function starvedResult (step) {
  const r = makeResult({ target: step.rate, duration: step.duration, tailMs: 115, serviceMs: 1 })
  r.connections = 20
  r.generator = starvedGenerator()
  return r
}

t.test('search: a step the generator could not run as planned is run again, never the server\'s failure', async (t) => {
  const P99 = ['p99<50ms']
  t.test('starved once at the low rate: run again after a pause, then the search goes on', async (t) => {
    const server = capacityServer(1500)
    let starve = 1
    const out = drive(createSearch({ ceiling: 2000, slos: P99, connections: 20 }), (step) => starve-- > 0 ? starvedResult(step) : server(step))
    t.equal(out.status, 'found', out.sentence)
    t.same(out.history.slice(0, 2).map((h) => [h.step.kind, h.step.rate, h.verdict, h.step.tries, h.step.pause]),
      [['low', 200, 'generator-bound', undefined, undefined], ['low', 200, 'pass', 2, 2]], 'the same step again, after 2 s')
    t.match(out.history[0].reasons, [/^generator starved /, /p99 115 ms breaks p99 < 50 ms/, 'run again after a 2 s pause: the generator, not the server, was late'])
    t.ok(out.best.rate <= 1500 && (1500 - out.best.rate) / 1500 < 0.02, `best ${out.best.rate}`)
  })

  t.test('starved in every try at the low rate: the machine could not measure, not "no sustainable rate"', async (t) => {
    const out = drive(createSearch({ ceiling: 2000, slos: P99, connections: 20 }), starvedResult)
    t.equal(out.status, 'generator-bound')
    t.same(out.history.map((h) => [h.step.rate, h.verdict, h.step.tries, h.step.pause]),
      [[200, 'generator-bound', undefined, undefined], [200, 'generator-bound', 2, 2], [200, 'generator-bound', 3, 4]], 'three tries, 2 s then 4 s apart')
    t.equal(out.best, null)
    t.equal(out.failed, null, 'no step failed')
    t.match(out.generatorBound, { rate: 200, cause: 'starved', tries: 3, kind: 'low', measured: 'p99 115 ms' })
    t.match(out.sentence, /^This machine could not measure 200 req\/s at 20 connections: the generator did not run it as planned, in each of 3 tries \(generator starved \(event-loop delay p99 61 ms, max 115 ms\): other processes had the CPU \(the thread was not running for 600 ms of its pauses, the longest 115 ms, 54 late requests\): run fewer processes on this machine, or spread the load over threads \(-w\); measured p99 115 ms\)\.$/)
    t.notMatch(out.sentence, /no sustainable rate/)
    t.match(out.history[2].reasons, [/^generator starved /, /p99 115 ms/, 'generator-bound in 3 tries'])
  })

  t.test('a step stopped early: the outcome gives the generator\'s reason, not the stop\'s', async (t) => {
    const search = createSearch({ ceiling: 2000, slos: P99, connections: 20, generatorRetries: 0 })
    const step = search.next()
    const judgement = search.judge(step, starvedResult(step))
    judgement.reasons.unshift('stopped at 2 of 11 s: 46 responses above 50 ms, …')
    search.record(step, judgement)
    t.match(search.outcome().generatorBound.reason, /^generator starved \(event-loop delay p99 61 ms/)
  })

  t.test('starved above the capacity it has measured: the rates below are still measured', async (t) => {
    const server = capacityServer(1500)
    const out = drive(createSearch({ ceiling: 2000, slos: P99, connections: 20 }), (step) => step.rate > 1300 ? starvedResult(step) : server(step))
    t.equal(out.status, 'generator-bound')
    t.equal(out.failed, null)
    t.ok(out.best.rate <= 1300, `measured up to ${out.best.rate}`)
    t.match(out.sentence, /^This machine could not measure 1,3\d\d req\/s at 20 connections: .* The server sustained 1,[23]\d\d req\/s at 20 connections with p99 < 50 ms \(p99 20 ms, 0 errors\), the most this machine could measure\.$/)
  })

  t.test('a generator saturated at a rate is not run again: the same rate would saturate it again', async (t) => {
    const out = drive(createSearch({ ceiling: 2000, slos: SLO }), (step) =>
      makeResult({ target: step.rate, duration: step.duration, tailMs: 900, generator: { cpu: 1, loopDelay: { p50: 0, p99: 300, max: 300 } } }))
    t.equal(out.steps, 1)
    t.equal(out.generatorBound.cause, 'saturated')
  })

  t.test('no retries asked: generator-bound at once', async (t) => {
    const out = drive(createSearch({ ceiling: 2000, slos: P99, generatorRetries: 0 }), starvedResult)
    t.equal(out.steps, 1)
    t.equal(out.status, 'generator-bound')
  })
})

t.test('search: at-ceiling when maxRate passes', async (t) => {
  const out = drive(createSearch({ ceiling: 1000, maxRate: 2000, slos: SLO }), capacityServer(1e9))
  t.equal(out.status, 'at-ceiling')
  t.same(out.history.map((h) => [h.step.kind, h.step.rate]),
    [['low', 100], ['upper', 1000], ['upper', 1100], ['upper', 1650], ['upper', 2000], ['confirm', 2000]])
  t.match(out.sentence, /^Sustains at least 2,000 req\/s with p99 < 200 ms/)
})

t.test('search: maxSteps ends it', async (t) => {
  const search = createSearch({ ceiling: 2000, slos: SLO, maxSteps: 4 })
  const out = drive(search, capacityServer(1500))
  t.equal(out.status, 'max-steps')
  t.equal(out.steps, 4)
  t.equal(search.next(), null)
  t.equal(out.best.confirmed, false)
  t.match(out.sentence, /^Stopped after 4 steps \(maxSteps\) without converging: \d[\d,]* req\/s passed \(not confirmed\)/)
})

t.test('search: always ends, whatever the verdicts', async (t) => {
  // A deterministic pseudo-random verdict per step.
  let seed = 42
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 }
  const verdicts = ['pass', 'fail', 'inconclusive', 'generator-bound']
  for (let i = 0; i < 300; i++) {
    const search = createSearch({ ceiling: 100 + Math.floor(random() * 5000), slos: SLO, maxSteps: 25 })
    let steps = 0
    let step
    while ((step = search.next())) {
      if (++steps > 25) break
      const verdict = verdicts[Math.floor(random() * random() * 4)]
      search.record(step, { verdict, reasons: [verdict], values: { samples: 100 }, needSamples: verdict === 'inconclusive' ? 1000 : 0 })
    }
    const out = search.outcome()
    if (steps > 25 || out.status === null || out.steps > 25) {
      t.fail(`search ${i} did not end within maxSteps: ${steps} steps, status ${out.status}`)
      return
    }
    if (out.best && out.bracket[1] !== null && !(out.best.rate < out.bracket[1])) {
      t.fail(`search ${i}: best ${out.best.rate} is not below the bracket's top ${out.bracket[1]}`)
      return
    }
  }
  t.pass('300 random searches ended within maxSteps, best always below the lowest failure')
})

t.test('search: the protocol', async (t) => {
  const search = createSearch({ ceiling: 2000, slos: SLO })
  const step = search.next()
  t.equal(search.next(), step, 'next() repeats the step until it is recorded')
  t.throws(() => search.record({ ...step, rate: step.rate + 1 }, { verdict: 'pass' }), /takes the step next\(\) returned/)
  t.throws(() => search.record(step, { verdict: 'maybe' }), /verdict/)
  t.equal(search.outcome().status, null, 'an outcome can be read mid-search')
  t.match(search.outcome().sentence, /^Searching/)
  t.throws(() => createSearch({ slos: SLO }), { code: 'AC_INVALID_OPTION', message: /ceiling/ })
  t.throws(() => createSearch({ ceiling: 100, precision: 0 }), { code: 'AC_INVALID_OPTION', message: /precision/ })
  t.throws(() => createSearch({ ceiling: 100, maxSteps: 2.5 }), { code: 'AC_INVALID_OPTION', message: /maxSteps/ })
  t.throws(() => createSearch({ ceiling: 100, slos: ['p99<<1'] }), /p99<<1/)
  const defaults = createSearch({ ceiling: 20000 }).options
  t.match(defaults, { precision: 0.02, stepDuration: 5, warmup: 1, confirmDuration: 10, maxStepDuration: 60, maxSteps: 25, lowRate: 2000, growth: 1.5 })
})

// A server whose responses take 80 ms for 1% of requests, 2 ms otherwise:
// p99 sits on that step at every rate. The low step's p99 interval
// straddles p99 < 50 ms; the step is run again with four times the
// requests; still straddling, the rate is not shown to hold and the
// answer says that it was chance.
t.test('search: a pN within chance of its bound is measured again, then said to be chance', async (t) => {
  const search = createSearch({ ceiling: 6000, slos: ['p99<50ms'], connections: 20, stepDuration: 2 })
  const step = search.next()
  t.same([step.kind, step.rate, step.duration], ['low', 600, 2])
  const first = search.judge(step, makeResult({ target: 600, duration: 2, tailMs: 80, tailShare: 0.01 }))
  t.equal(first.verdict, 'inconclusive')
  search.record(step, first)
  const again = search.next()
  t.same([again.kind, again.rate, again.rerun, again.forChance], ['low', 600, true, true], 'the same rate again')
  t.equal(again.duration, 8, 'four times the requests: 8 s')
  search.record(again, search.judge(again, makeResult({ target: 600, duration: 8, tailMs: 80, tailShare: 0.01 })))
  t.equal(search.next(), null, 'no third try')
  const out = search.outcome()
  t.equal(out.status, 'below-low')
  t.equal(out.history.length, 2)
  t.equal(out.history[1].verdict, 'fail')
  t.match(out.history[1].reasons[1], /^p99 still within chance of its bound over a 8 s step: taken as a fail$/)
  t.match(out.uncertain, { metric: 'p99', limit: 50, step: true, samples: 4800 })
  t.equal(out.sentence, 'Misses its SLOs even at the low rate, 600 req/s at 20 connections (p99 2 ms, within chance of its bound): ' +
    'no sustainable rate at this connection count. Uncertain: p99 sits on a step of the latency distribution: 1% of responses take ~80 ms, ' +
    'the rest 2 ms or less, so whether p99 < 50 ms holds is chance (p99 2–80 ms at 99.9% confidence over 4,800 requests).')

  // Measured again and clear of the bound, the step is judged as any other.
  const clear = createSearch({ ceiling: 6000, slos: ['p99<50ms'], stepDuration: 2 })
  const s1 = clear.next()
  clear.record(s1, clear.judge(s1, makeResult({ target: 600, duration: 2, tailMs: 80, tailShare: 0.01 })))
  const s2 = clear.next()
  clear.record(s2, clear.judge(s2, makeResult({ target: 600, duration: s2.duration, tailMs: 80, tailShare: 0.003 })))
  t.equal(clear.next().kind, 'upper', 'passed: the search goes on')
  t.equal(clear.outcome().uncertain, null)

  // A search whose bracket ends on a chance failure: found, and said so.
  const found = drive(createSearch({ ceiling: 2000, slos: ['p99<50ms'], connections: 10, stepDuration: 2 }), (step) =>
    makeResult({ target: step.rate, duration: step.duration, tailMs: 80, tailShare: step.rate > 1000 ? 0.01 : 0 }))
  t.equal(found.status, 'found')
  t.ok(found.best.rate <= 1000 && found.failed.rate > 1000, `best ${found.best.rate}, failed ${found.failed.rate}`)
  t.match(found.sentence, /^Sustains [\d,]+ req\/s at 10 connections with p99 < 50 ms \(p99 2 ms, 0 errors\); [\d,]+ req\/s failed \(p99 \d+ ms, within chance of its bound\)\. Uncertain: p99 sits on a step of the latency distribution: 1% of responses take ~80 ms/)
})

// A Poisson plan draws n ± √n requests for a target of n: just above C,
// a 2 s step can draw fewer than C and pass. What the search then says
// the server sustains is what it was offered, never the target.
t.test('search: a Poisson step that drew below its target passes at what it drew', async (t) => {
  const C = 1000
  const server = capacityServer(C)
  const lucky = (step) => {
    // Every target from C to 4% above it draws 3% short, by chance.
    const drawn = step.rate > C && step.rate <= C * 1.04 ? step.rate * 0.97 : step.rate
    const r = drawn <= C ? makeResult({ target: step.rate, duration: step.duration, achieved: drawn }) : server(step)
    Object.assign(r.rate, { arrivals: 'poisson', planned: Math.round(drawn * step.duration) })
    return r
  }
  const out = drive(createSearch({ ceiling: 2000, slos: SLO, connections: 20, arrivals: 'poisson' }), lucky)
  t.equal(out.status, 'found')
  t.ok(out.best.target > C, `a target above C passed (${out.best.target}), as the model makes it`)
  t.ok(out.best.rate <= C, `the rate said to be sustained, ${out.best.rate}, is what was offered: at most C`)
  t.equal(out.best.rate, Math.floor(out.best.target * 0.97))
  t.equal(out.bracket[0], out.best.rate)
  t.match(out.sentence, new RegExp(`^Sustains ${out.best.rate.toLocaleString('en-US')} req/s of Poisson arrivals \\(what a plan of ${out.best.target.toLocaleString('en-US')} req/s drew, by chance\\) at 20 connections`))
})
