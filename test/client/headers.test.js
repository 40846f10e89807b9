'use strict'

const t = require('tap')
const { headersObject } = require('../../lib/client/headers')

t.test('flat list → object: names as sent, repeats as arrays, lower case readable too', async (t) => {
  const h = headersObject(['Content-Type', 'text/plain', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2', 'Set-Cookie', 'c=3', 'x-id', '7'])
  t.same(h, { 'Content-Type': 'text/plain', 'Set-Cookie': ['a=1', 'b=2', 'c=3'], 'x-id': '7' })
  t.equal(h['content-type'], 'text/plain')
  t.same(h['set-cookie'], ['a=1', 'b=2', 'c=3'])
  t.same(Object.keys(h), ['Content-Type', 'Set-Cookie', 'x-id'], 'the lower-case keys are not enumerable')
  t.same(headersObject(null), {})
  const both = headersObject(['A', '1', 'a', '2'])
  t.equal(both.a, '2', 'a name sent in lower case keeps its own value')
})
