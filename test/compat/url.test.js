'use strict'

// require('autocannon/lib/url'): { checkURL, ofURL }, as autocannon's.

const t = require('tap')
const ours = require('../../lib/compat/url')
const theirs = require('autocannon-upstream/lib/url')

t.test('checkURL: a non-empty string or list', async (t) => {
  for (const url of ['http://a', '', [], ['http://a'], undefined, null, 3, {}]) t.same(ours.checkURL(url), theirs.checkURL(url), JSON.stringify(url))
})

t.test('ofURL: a list as it is, one URL mapped alone or as a list of one', async (t) => {
  const list = ['http://a', 'http://b']
  t.equal(ours.ofURL(list), list)
  const up = (u) => u.toUpperCase()
  t.equal(ours.ofURL('http://a').map(up), 'HTTP://A')
  t.same(ours.ofURL('http://a', true).map(up), ['HTTP://A'])
  t.same(ours.ofURL('http://a', true).map(up), theirs.ofURL('http://a', true).map(up))
  t.throws(() => ours.ofURL(3), { message: 'url should only be a string or an array of string' })
  t.throws(() => theirs.ofURL(3), { message: 'url should only be a string or an array of string' })
})
