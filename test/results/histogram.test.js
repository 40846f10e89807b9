'use strict'

// lib/results/histogram.js is what every stage requires for histograms:
// the names of its parts (tested in test/results/histogram/), the phases
// a run times, and warmUp().

const t = require('tap')
const histogram = require('../../lib/results/histogram')

t.test('the names callers require, each the part\'s own', async (t) => {
  const parts = {
    create: ['createLatencyHistogram', 'createCountHistogram'],
    'v2-encoding': ['encode', 'pack', 'isPacked', 'decode', 'addEncoded'],
    merge: ['addHistogram', 'subtractHistogram'],
    buckets: ['filledBuckets'],
    stats: ['PERCENTILE_KEYS', 'toStats', 'valueSum', 'countAbove']
  }
  const names = ['TIMINGS', 'warmUp']
  for (const [part, exported] of Object.entries(parts)) {
    const module = require(`../../lib/results/histogram/${part}`)
    for (const name of exported) t.equal(histogram[name], module[name], `${name} from histogram/${part}.js`)
    names.push(...exported)
  }
  t.same(Object.keys(histogram).sort(), names.sort(), 'and no other')
})

t.test('TIMINGS: the phases a run times', async (t) => {
  t.same(histogram.TIMINGS, ['dns', 'connect', 'proxyConnect', 'tls', 'ttfb', 'transfer'])
})

t.test('warmUp() runs the once-a-second passes on histograms of its own, once', async (t) => {
  const merge = require('../../lib/results/histogram/merge')
  const addHistogram = merge.addHistogram
  let calls = 0
  merge.addHistogram = (...args) => { calls++; return addHistogram(...args) }
  t.teardown(() => { merge.addHistogram = addHistogram })
  // Through a fresh copy of the index, which reads merge's export when required.
  delete require.cache[require.resolve('../../lib/results/histogram')]
  const fresh = require('../../lib/results/histogram')
  fresh.warmUp()
  t.equal(calls, 1, 'an interval added into a run')
  fresh.warmUp()
  t.equal(calls, 1, 'the second call does nothing')
})
