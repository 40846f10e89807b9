'use strict'

// require('autocannon/lib/parseHAR'): { parseHAR }, a HAR read as
// autocannon reads it, held to autocannon 9's own on the same HARs.

const t = require('tap')
const { parseHAR } = require('../../lib/compat/parseHAR')
const theirs = require('autocannon-upstream/lib/parseHAR').parseHAR

const entry = (request) => ({ request: { method: 'GET', headers: [], ...request } })
const har = (...entries) => ({ log: { entries } })

t.test('a Map of origins to their requests, as autocannon 9 gives it', async (t) => {
  const cases = [
    har(entry({ url: 'http://a.test/x?y=1#z' })),
    har(entry({ url: 'http://a.test/', method: 'post', headers: [{ name: 'X', value: '1' }, { name: 'X', value: '2' }], postData: { text: '{}' } }),
      entry({ url: 'https://b.test:8443/p' }),
      entry({ url: 'http://a.test/second', postData: { mimeType: 'text/plain' } }))
  ]
  for (const h of cases) {
    const mine = parseHAR(h)
    t.ok(mine instanceof Map)
    t.same([...mine], [...theirs(h)])
  }
  const [a] = parseHAR(cases[1]).get('http://a.test')
  t.same(a, { origin: 'http://a.test', method: 'post', path: '/', headers: { X: '2' }, body: '{}' }, 'the method as written, the last of a repeated header')
  t.same(parseHAR(cases[0]).get('http://a.test')[0].path, '/x?y=1#z', 'query and fragment kept')
})

t.test('autocannon 9\'s messages for what it cannot read', async (t) => {
  const bad = [
    undefined,
    {},
    har(),
    har(null),
    har({ request: 'x' }),
    har(entry({ url: 'http://a.test/', headers: 'x' })),
    har(entry({ url: 'http://a.test/' }), entry({ url: 'http://a.test/', headers: [{ name: 'x' }] })),
    har(entry({ url: 'not a url' })),
    har(entry({ url: 'http://a.test/', postData: null }))
  ]
  for (const h of bad) {
    let expected
    try { theirs(h) } catch (err) { expected = err.message }
    t.ok(expected, 'autocannon refuses it')
    t.throws(() => parseHAR(h), { message: expected }, expected)
  }
  t.throws(() => parseHAR({}), { message: 'Could not parse HAR content: no entries found' })
})
