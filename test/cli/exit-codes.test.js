'use strict'

// How the command ends (lib/cli/exit-codes.js): 0 after a run that met its
// thresholds, 99 when one failed, saying which on stderr when the tables
// that list them were not printed.

const t = require('tap')
const { EXIT, Interrupted, thresholdsExitCode, searchExitCode } = require('../../lib/cli/exit-codes')
const { sink } = require('../helpers/sink')

t.test('the codes CI scripts branch on', async (t) => {
  t.same(EXIT, { OK: 0, FAILED: 1, INCOMPLETE: 3, UNMEASURED: 98, THRESHOLDS_FAILED: 99, INTERRUPTED: 130 })
  t.ok(Object.isFrozen(EXIT))
  t.ok(new Interrupted() instanceof Error)
})

t.test('thresholds: 0 when met or none, 99 when one failed, named unless the tables were shown', async (t) => {
  const passed = [{ expression: 'p99<10ms', ok: true }]
  const failed = [{ expression: 'p99<10ms', ok: true }, { expression: 'rps>100', ok: false }, { expression: 'errors<1%', ok: false }]
  const quiet = sink()
  t.equal(thresholdsExitCode(undefined, { tablesShown: false, stderr: quiet }), 0)
  t.equal(thresholdsExitCode(passed, { tablesShown: false, stderr: quiet }), 0)
  t.equal(quiet.text, '', 'nothing said when they passed')
  const told = sink()
  t.equal(thresholdsExitCode(failed, { tablesShown: false, stderr: told }), 99)
  t.equal(told.text, '2 of 3 thresholds failed: rps>100, errors<1%\n')
  const shown = sink()
  t.equal(thresholdsExitCode(failed, { tablesShown: true, stderr: shown }), 99)
  t.equal(shown.text, '', 'the tables already list them')
})

t.test('a capacity search: 99 when the SLOs failed even at the low rate, 98 when the machine could not measure, else 0', async (t) => {
  const of = (...statuses) => searchExitCode({ searches: statuses.map((status) => ({ status })) })
  t.equal(of('found'), 0)
  t.equal(of('found', 'at-ceiling', 'unconfirmed', 'max-steps'), 0)
  t.equal(of('generator-bound'), 98, 'never "no sustainable rate", never a pass')
  t.equal(of('found', 'generator-bound'), 98)
  t.equal(of('below-low'), 99)
  t.equal(of('generator-bound', 'below-low'), 99, 'a verdict on the server wins')
})
