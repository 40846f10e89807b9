'use strict'

// The outputs of a run or a search (lib/output/outputs.js), chosen in one
// table. Through the real command: test/e2e/outputs.test.js.

const t = require('tap')
const { OUTPUTS } = require('../../lib/output/outputs')
const { OPTIONS } = require('../../lib/core/options')

t.test('outputs are chosen in one table', async (t) => {
  t.same(OUTPUTS.result.map((o) => o.option), ['renderResultsTable', null, 'json', 'out', 'html', 'hgrm'], 'a run: its tables, the generator\'s health line whatever is asked, then the rest')
  t.same(OUTPUTS.search.map((o) => o.option), ['json', 'out', 'html', null], 'a search: its JSON, its report, and always its closing sentences')
  for (const o of OUTPUTS.result.filter((o) => o.option)) t.equal(OPTIONS[o.option].library, false, `${o.option} is kept from the library`)
  for (const o of OUTPUTS.search.filter((o) => o.option)) t.equal(OPTIONS[o.option].library, false, `${o.option} is kept from the library`)
})
