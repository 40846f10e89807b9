'use strict'

// The report's tables (lib/output/html/tables.js), without a browser.

const t = require('tap')
const { cliText } = require('../../../lib/output/html/tables')
const { resultOfLatencies } = require('../../helpers/synthetic-result')

t.test('the CLI tables, without colour even when colour is forced', async (t) => {
  const r = resultOfLatencies({ perSecond: [[20000, 25000]] })
  const saved = process.env.FORCE_COLOR
  process.env.FORCE_COLOR = '1'
  t.teardown(() => { if (saved === undefined) delete process.env.FORCE_COLOR; else process.env.FORCE_COLOR = saved })
  const text = cliText(r)
  t.notMatch(text, /\u001b/) // eslint-disable-line no-control-regex
  t.match(text, /Latency/)
})
