'use strict'

const t = require('tap')
const { cloneDeep } = require('../../lib/client/context')
const { RequestSequence } = require('../../lib/client/request-sequence')
const { http1Encoding } = require('../../lib/http1/request-encoder')

t.test('no initial context: a sequence starts from an empty object, a new one each round', async (t) => {
  const sequence = new RequestSequence({ method: 'GET', path: '/', headers: {}, host: 'a.test' }, [{ onResponse: () => {} }], { encoding: http1Encoding, initialContext: null })
  const first = sequence.context
  t.same(first, {})
  sequence.next()
  sequence.next()
  t.same(sequence.context, {})
  t.not(sequence.context, first, 'made again when the sequence starts over')
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
  const copy = cloneDeep(initial)
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
