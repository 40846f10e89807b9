'use strict'

// The dashboard option: true, a port or { port, host, keepOpen } → the
// one shape the server reads, 127.0.0.1 unless a host is given; anything
// else refused with the option's name.

const t = require('tap')
const { checkDashboard, LOOPBACK } = require('../../lib/config/dashboard')
const { buildConfig } = require('../../lib/config/config')

t.test('true, a port, an object', async (t) => {
  t.same(checkDashboard(true), { port: 0, host: LOOPBACK, keepOpen: false }, 'true: a free port on loopback')
  t.same(checkDashboard(8080), { port: 8080, host: LOOPBACK, keepOpen: false }, 'a port')
  t.same(checkDashboard('8081'), { port: 8081, host: LOOPBACK, keepOpen: false }, 'a port as text')
  t.same(checkDashboard({ port: 0, host: '0.0.0.0', keepOpen: true }), { port: 0, host: '0.0.0.0', keepOpen: true }, 'an object')
  t.same(checkDashboard({}), { port: 0, host: LOOPBACK, keepOpen: false }, 'an empty object: the defaults')
  t.ok(Object.isFrozen(checkDashboard(true)), 'frozen')
  for (const none of [undefined, null, false]) t.equal(checkDashboard(none), undefined, `${none}: no dashboard`)
})

t.test('what is refused', async (t) => {
  for (const bad of [-1, 65536, 1.5, 'x', [], { port: 'x' }, { host: '' }, { host: 3 }]) {
    t.throws(() => checkDashboard(bad), { code: 'AC_INVALID_OPTION', option: 'dashboard' }, `${JSON.stringify(bad)} is refused`)
  }
})

t.test('in the config', async (t) => {
  t.equal(buildConfig({ url: 'http://127.0.0.1:1' }).dashboard, undefined, 'not asked: none')
  t.same(buildConfig({ url: 'http://127.0.0.1:1', dashboard: 9000 }).dashboard, { port: 9000, host: LOOPBACK, keepOpen: false }, 'asked: checked')
})
