'use strict'

// The one error autocannon's internal paths throw (lib/compat/internal.js).

const t = require('tap')
const { refuse } = require('../../lib/compat/internal')
const { RAISED } = require('../../lib/core/errors')

t.test('refuse() throws a registered AC_INTERNAL_MODULE with the path, what it is and what to use', async (t) => {
  t.ok('AC_INTERNAL_MODULE' in RAISED, 'a registered code')
  t.throws(() => refuse('thing', 'autocannon\'s thing', 'use the other thing'), {
    code: 'AC_INTERNAL_MODULE',
    message: 'require(\'autocannon/lib/thing\'): autocannon\'s thing is internal to autocannon, with no counterpart in this package; use the other thing'
  })
})
