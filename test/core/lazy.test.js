'use strict'

// lazy() (lib/core/lazy.js): the module is loaded at the first call, not
// before, and once.

const t = require('tap')
const { lazy } = require('../../lib/core/lazy')

t.test('nothing is loaded until the first call, then once', async (t) => {
  let loads = 0
  const exports = { answer: 42 }
  const get = lazy(() => { loads++; return exports })
  t.equal(loads, 0, 'not loaded when declared')
  t.equal(get(), exports, 'the first call returns the exports')
  t.equal(get(), exports, 'and so does the next')
  t.equal(loads, 1, 'loaded once')
})

t.test('exports that are falsy are kept too', async (t) => {
  let loads = 0
  const get = lazy(() => { loads++; return undefined })
  get()
  get()
  t.equal(loads, 1)
})

t.test('a load that throws is tried again at the next call', async (t) => {
  let loads = 0
  const get = lazy(() => { if (loads++ === 0) throw new Error('not yet'); return 'x' })
  t.throws(get, /not yet/)
  t.equal(get(), 'x')
  t.equal(loads, 2)
})

t.test('a real module: loaded at the first call', async (t) => {
  const file = require.resolve('../../lib/core/format')
  delete require.cache[file]
  const get = lazy(() => require('../../lib/core/format'))
  t.notOk(file in require.cache, 'not loaded when declared')
  t.type(get().ms, 'function')
  t.ok(file in require.cache, 'loaded by the call')
})
