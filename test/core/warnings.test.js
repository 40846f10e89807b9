'use strict'

// Warnings (lib/core/warnings.js): only registered codes, one line each,
// emitted or printed. That the registry and docs/errors.md agree:
// test/core/errors.test.js.

const t = require('tap')
const warnings = require('../../lib/core/warnings')

t.test('warning() refuses unregistered codes; each warning is one line', async (t) => {
  t.throws(() => warnings.warning('AC_NOT_A_CODE', 'x'), /unregistered warning code AC_NOT_A_CODE/)
  t.same(warnings.warning('AC_SHARD_MISSING', 'shard 1 of 2 is missing'), { code: 'AC_SHARD_MISSING', message: 'shard 1 of 2 is missing' })
  t.equal(warnings.WARNING_PREFIX, 'cannonade: warning: ', 'our warnings carry our name, not autocannon\'s')
  t.equal(warnings.warningLine({ code: 'AC_SHARD_MISSING', message: 'm' }), 'cannonade: warning: m')
  t.equal(warnings.warningLine({ code: 'AC_HAR_OTHER_ORIGIN', message: 'skipping x' }), 'Warning: skipping x', 'autocannon\'s own words for the HAR line')
  const emitted = []
  warnings.emitWarning('AC_WORKERS_OVER_CORES', '4 workers on 2 CPU cores', (message, opts) => emitted.push([message, opts]))
  t.same(emitted, [['4 workers on 2 CPU cores', { code: 'AC_WORKERS_OVER_CORES' }]])
  let printed = ''
  warnings.printWarning('AC_KUBE_LOCAL_FILES', 'files', { write: (s) => { printed += s } })
  t.equal(printed, 'cannonade: warning: files\n')
})
