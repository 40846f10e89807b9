'use strict'

// The capacity search's options: the defaults it fills in, the values it
// derives from others, and the one-line refusal of each bad value.

const t = require('tap')
const { DEFAULTS, searchOptions } = require('../../lib/search/search-options')

t.test('the defaults, as the search documents them', async (t) => {
  const o = searchOptions({ ceiling: 2000 })
  t.same({
    precision: o.precision,
    stepDuration: o.stepDuration,
    warmup: o.warmup,
    maxStepDuration: o.maxStepDuration,
    maxSteps: o.maxSteps,
    growth: o.growth,
    ceilingGrowth: o.ceilingGrowth,
    maxConfirms: o.maxConfirms,
    nearGuess: o.nearGuess,
    nearClose: o.nearClose,
    nearGuesses: o.nearGuesses,
    minTailSamples: o.minTailSamples,
    maxGeneratorCpu: o.maxGeneratorCpu,
    maxLoopDelay: o.maxLoopDelay,
    generatorRetries: o.generatorRetries,
    generatorPause: o.generatorPause
  }, {
    precision: 0.02,
    stepDuration: 5,
    warmup: 1,
    maxStepDuration: 60,
    maxSteps: 25,
    growth: 1.5,
    ceilingGrowth: 1.1,
    maxConfirms: 3,
    nearGuess: 0.9,
    nearClose: 0.95,
    nearGuesses: 4,
    minTailSamples: 10,
    maxGeneratorCpu: 0.9,
    maxLoopDelay: 50,
    generatorRetries: 2,
    generatorPause: 2
  })
  t.equal(o.confirmDuration, 10, 'twice the step')
  t.equal(o.lowRate, 200, '10% of the ceiling')
  t.equal(o.maxRate, Infinity)
  t.same(o.slos, [])
  t.ok(Object.isFrozen(DEFAULTS), 'one search cannot change the next one\'s defaults')
})

t.test('derived values follow the options they derive from', async (t) => {
  t.equal(searchOptions({ ceiling: 2000, stepDuration: 3 }).confirmDuration, 6)
  t.equal(searchOptions({ ceiling: 2000, confirmDuration: 7 }).confirmDuration, 7)
  t.equal(searchOptions({ ceiling: 4 }).lowRate, 1, 'at least 1 req/s')
  t.equal(searchOptions({ ceiling: 1234 }).lowRate, 123)
  t.equal(searchOptions({ ceiling: 2000, lowRate: 50 }).lowRate, 50)
  t.equal(searchOptions({ ceiling: 2000, maxRate: 900 }).maxRate, 900)
  t.equal(searchOptions({ ceiling: 2000, precision: undefined }).precision, 0.02, 'undefined is absent')
  t.same(searchOptions({ ceiling: 2000, slos: ['p99<200ms'] }).slos.map((s) => [s.metric, s.operator, s.limit]), [['p99', '<', 200]])
})

t.test('a bad value is refused with the option and what it must be', async (t) => {
  const refused = (opts, message) => t.throws(() => searchOptions({ ceiling: 2000, ...opts }), { code: 'AC_INVALID_OPTION', message }, message)
  t.throws(() => searchOptions({}), { code: 'AC_INVALID_OPTION', message: 'invalid option "ceiling": undefined is not a positive number' })
  refused({ precision: 0 }, 'invalid option "precision": 0 must be a fraction between 0 and 1, such as 0.02 for 2%')
  refused({ maxSteps: 2.5 }, 'invalid option "maxSteps": 2.5 must be an integer >= 1')
  refused({ maxStepDuration: 0 }, 'invalid option "maxStepDuration": 0 is not a positive number')
  refused({ maxConfirms: 1.5 }, 'invalid option "maxConfirms": 1.5 is not a positive integer')
  refused({ minTailSamples: 0 }, 'invalid option "minTailSamples": 0 is not a positive integer')
  refused({ growth: 1 }, 'invalid option "growth": 1 is not a number above 1')
  refused({ ceilingGrowth: 0.9 }, 'invalid option "ceilingGrowth": 0.9 is not a number above 1')
  refused({ nearGuesses: -1 }, 'invalid option "nearGuesses": -1 is not an integer, 0 or more')
  refused({ nearGuess: 1 }, 'invalid option "nearGuess": 1 is not a number between 0 and 1')
  refused({ nearClose: 0 }, 'invalid option "nearClose": 0 is not a number between 0 and 1')
  refused({ warmup: -1 }, 'invalid option "warmup": -1 is not a number of seconds (0 or more)')
  refused({ confirmDuration: '10' }, 'invalid option "confirmDuration": "10" is not a positive number')
  refused({ lowRate: -1 }, 'invalid option "lowRate": -1 must be a number > 0')
  refused({ maxRate: 100, lowRate: 150 }, 'invalid option "maxRate": 100 is below the low rate (150)')
  refused({ generatorRetries: 1.5 }, 'invalid option "generatorRetries": 1.5 is not an integer, 0 or more')
  refused({ generatorPause: -1 }, 'invalid option "generatorPause": -1 is not a number of seconds (0 or more)')
  t.doesNotThrow(() => searchOptions({ ceiling: 2000, warmup: 0, nearGuesses: 0 }), 'no warm-up and no near guesses are allowed')
  t.doesNotThrow(() => searchOptions({ ceiling: 2000, generatorRetries: 0, generatorPause: 0 }), 'no retries, no pause')
})
