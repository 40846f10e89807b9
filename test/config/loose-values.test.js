'use strict'

// Values of a type an option does not take, which autocannon takes
// unchecked (lib/config/loose-values.js): taken as autocannon takes them,
// with one warning per option saying how.

const t = require('tap')
const autocannon = require('../..')
const { warnLoose } = require('../../lib/config/loose-values')

const URL_ = 'http://127.0.0.1:1/'

t.test('a flag that is not a boolean and a title that is not a string: warned once each, saying what they were taken as', async (t) => {
  const warnings = []
  const emit = (message, { code }) => warnings.push({ code, message })
  warnLoose({ url: URL_, idReplacement: true, forever: false, debug: undefined, excludeErrorStats: null, title: 'a title' }, emit)
  t.same(warnings, [], 'booleans, a string title and values not given: nothing to say')
  warnLoose({ idReplacement: 'x', title: { a: 1 }, excludeErrorStats: 0 }, emit)
  warnLoose({ idReplacement: 'y', title: 5 }, emit)
  t.same(warnings, [
    { code: 'AC_OPTION_COERCED', message: 'idReplacement: "x" is not a boolean: taken as true, as autocannon takes its flags' },
    { code: 'AC_OPTION_COERCED', message: 'excludeErrorStats: 0 is not a boolean: taken as false, as autocannon takes its flags' },
    { code: 'AC_OPTION_COERCED', message: 'title: {"a":1} is not a string: the result\'s title is "[object Object]"' }
  ], 'once per option and process')
})

t.test('through autocannon(): the warnings, and the run goes on as autocannon\'s', async (t) => {
  const seen = []
  const listener = (w) => { if (w.code === 'AC_OPTION_COERCED') seen.push(w.message) }
  process.on('warning', listener)
  t.teardown(() => process.removeListener('warning', listener))
  // Options this file's first test did not warn about yet.
  const result = await autocannon({ url: URL_, connections: 1, amount: 1, timeout: 1, ignoreCoordinatedOmission: 'no', overallRate: 10 })
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(result.requests.sent + result.errors >= 1, true, 'the run went on')
  t.same(seen, ['ignoreCoordinatedOmission: "no" is not a boolean: taken as true, as autocannon takes its flags'])
})
