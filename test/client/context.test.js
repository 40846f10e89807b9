'use strict'

const t = require('tap')
const { cloneContext, cloneDeep } = require('../../lib/client/context')

t.test('no initial context: an empty object each time', async (t) => {
  const a = cloneContext(undefined)
  const b = cloneContext(null)
  t.same(a, {})
  t.not(a, b)
})

t.test('a deep copy, as lodash.clonedeep makes it', async (t) => {
  class Point { constructor (x) { this.x = x } norm () { return Math.abs(this.x) } }
  const fn = () => 1
  const initial = {
    list: [1, { n: 2 }],
    when: new Date(5),
    re: /x/g,
    map: new Map([['k', { v: 1 }]]),
    set: new Set([1]),
    buf: Buffer.from('ab'),
    typed: new Uint8Array([1, 2]),
    point: new Point(-3),
    fn
  }
  initial.self = initial
  const copy = cloneContext(initial)
  t.not(copy, initial)
  t.same(copy.list, [1, { n: 2 }])
  t.not(copy.list[1], initial.list[1], 'nested objects are copied')
  t.equal(copy.when.getTime(), 5)
  t.not(copy.when, initial.when)
  t.equal(copy.re, initial.re, 'a RegExp is shared')
  t.same(copy.map.get('k'), { v: 1 })
  t.not(copy.map.get('k'), initial.map.get('k'))
  t.ok(copy.set.has(1))
  t.equal(copy.buf.toString(), 'ab')
  t.not(copy.buf, initial.buf)
  t.same([...copy.typed], [1, 2])
  t.not(copy.typed, initial.typed)
  t.equal(copy.point.norm(), 3, 'prototypes are kept')
  t.equal(copy.fn, fn, 'functions are shared')
  t.equal(copy.self, copy, 'cycles are kept as cycles')
  copy.list[1].n = 9
  t.equal(initial.list[1].n, 2, 'the original is untouched')
  t.equal(cloneDeep(7), 7)
})
