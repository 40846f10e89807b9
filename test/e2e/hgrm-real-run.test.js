'use strict'

// .hgrm export from a real run: it renders and parses back to the run's
// own percentiles, and --hgrm FILE writes it. Against hdr-histogram-js
// and the plotter, from saved results: test/output/hgrm.test.js.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const autocannon = require('../..')
const { renderHgrm } = require('../../lib/output/hgrm')
const { parseHgrm } = require('../helpers/hgrm-reader')
const { httpServer } = require('../helpers/servers')
const { run } = require('../helpers/cli')

t.test('a real run renders, and parses back to its own percentiles', async (t) => {
  const url = await httpServer(t, (req, res) => setTimeout(() => res.end('hello'), 2))
  const result = await autocannon({ url, connections: 4, duration: 1 })
  const text = renderHgrm(result)
  const rows = parseHgrm(text)
  t.ok(rows.length > 20, `${rows.length} rows`)
  t.equal(rows.find((r) => r.percentile === 0.5).value, result.latency.p50, 'p50 equals the result\'s')
  t.equal(rows[rows.length - 1].totalCount <= result.latency.totalCount, true)
  t.match(text, new RegExp(`Total count {4}= +${result.latency.totalCount}\\]`), 'every response counted')
  t.equal(text, renderHgrm(JSON.parse(JSON.stringify(result))), 'the same from the result saved as JSON')
})

t.test('--hgrm FILE writes it', async (t) => {
  const url = await httpServer(t)
  const dir = t.testdir({})
  const file = path.join(dir, 'latency.hgrm')
  const out = await run(['-c', '2', '-d', '1', '-j', '--hgrm', file, url])
  t.equal(out.code, 0, out.stderr)
  const result = JSON.parse(out.stdout)
  t.equal(fs.readFileSync(file, 'utf8'), renderHgrm(result), 'the file is the result\'s distribution')
  t.ok(parseHgrm(fs.readFileSync(file, 'utf8')).length > 10)
})
