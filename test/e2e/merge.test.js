'use strict'

// autocannon merge: the shards' saved results as the result of the whole
// run. Real shards against one counting server, synthetic ones for what
// must hold exactly (Req/Sec from the sums of each second), and the
// command's lines, files and failures.

const t = require('tap')
const { WARNING_PREFIX } = require('../../lib/core/warnings')
const fs = require('fs')
const path = require('path')
const autocannon = require('../..')
const { aggregateResult } = require('../../lib/results/result')
const { parseResults } = require('../../lib/results/saved-result')
const { mergeResults } = require('../../lib/distributed/merge')
const { createLatencyHistogram, decode, encode } = require('../../lib/results/histogram')
const { httpServer } = require('../helpers/servers')
const { run } = require('../helpers/cli')

const sum = (list) => list.reduce((a, b) => a + b, 0)
// As a file written by -j and read back.
const saved = (result) => parseResults(JSON.stringify(result), 'saved')[0]

function countingServer (t) {
  const arrivals = []
  return httpServer(t, (req, res) => {
    arrivals.push(Date.now())
    res.end('hello')
  }).then((url) => ({ url, arrivals }))
}

t.test('two shards of one run against one server', async (t) => {
  const { url, arrivals } = await countingServer(t)
  const startAt = Date.now() + 1500
  const shards = await Promise.all([0, 1].map((index) =>
    autocannon({ url, connections: 4, duration: 3, overallRate: 400, shard: { index, count: 2 }, startAt })))
  const results = shards.map(saved)
  const merged = mergeResults(results)

  t.same(results.map((r) => r.connections), [2, 2], 'each shard its part of -c 4')
  t.same(results.map((r) => r.rate.target), [200, 200], 'and of -R 400')
  t.equal(merged.connections, 4)
  t.equal(merged.rate.target, 400)
  t.equal(merged.errors, 0)
  t.equal(merged.requests.total, sum(results.map((r) => r.requests.total)))
  t.equal(merged.requests.sent, merged.requests.total + merged.errors + merged.requests.inFlight, 'sent = answered + errors + in flight')
  t.ok(arrivals.length >= merged.requests.total && arrivals.length <= merged.requests.total + merged.requests.inFlight,
    `the server counted ${arrivals.length}: the ${merged.requests.total} answered, and up to the ${merged.requests.inFlight} in flight`)

  const sumOfShards = createLatencyHistogram()
  for (const r of results) sumOfShards.add(decode(r.histograms.latency))
  const histogram = decode(merged.histograms.latency)
  let differing = 0
  for (let i = 0; i < Math.max(sumOfShards.countsArrayLength, histogram.countsArrayLength); i++) {
    if (sumOfShards.getCountAtIndex(i) !== histogram.getCountAtIndex(i)) differing++
  }
  t.equal(differing, 0, 'the merged latency histogram is the sum of the shards\', bucket by bucket')
  t.equal(histogram.totalCount, merged.requests.total)

  // The shards' seconds end at the same instants, so they add up slot by slot.
  t.same(results[0].series.time, results[1].series.time, 'both shards\' samples end at the same instants')
  t.same(merged.series.time, results[0].series.time)
  t.same(merged.series.requests, results[0].series.requests.map((n, i) => n + results[1].series.requests[i]), 'each second: the sum of the shards\' requests')
  t.same(merged.series.bytes, results[0].series.bytes.map((n, i) => n + results[1].series.bytes[i]), 'and bytes')
  merged.series.latency.forEach((h, i) => t.equal(decode(h).totalCount, merged.series.requests[i], `second ${i + 1}: its histogram holds both shards' responses`))

  // What the server saw in each of those seconds. A response that
  // arrived just before a second's end may be counted just after it: the
  // sample timers of a busy machine fire a few ms late.
  merged.series.time.forEach((end, i) => {
    const atServer = arrivals.filter((a) => a >= end - 1000 && a < end).length
    const slack = Math.max(4, merged.series.requests[i] * 0.03)
    t.ok(Math.abs(atServer - merged.series.requests[i]) <= slack, `second ${i + 1}: ${merged.series.requests[i]} merged, ${atServer} at the server`)
  })

  t.same(merged.merge, { results: 2, shards: 2, expected: 2, missing: [], duplicates: [], startSkewMs: merged.merge.startSkewMs, differences: [], warnings: [] })
  t.same(results.map((r) => r.shard.run), [0, 1].map(() => ({ connections: 4, amount: 0, maxOverallRequests: 0, overallRate: 400, connectionRate: 0, duration: 3, stages: null, connectionStages: null })),
    'each shard records the whole run\'s load')
  t.ok(merged.merge.startSkewMs >= 0 && merged.merge.startSkewMs < 1000, `start skew ${merged.merge.startSkewMs} ms`)
})

// A shard's raw result: `counts` per second from `from` (s), 10 ms each.
function shard (index, count, from, counts, start = Date.UTC(2030, 0, 1)) {
  const series = counts.map((n, k) => {
    const h = createLatencyHistogram()
    h.recordValueWithCount(10000, n)
    return [start + (from + k + 1) * 1000, n, n * 100, 0, encode(h)]
  })
  const total = sum(counts)
  const latencies = createLatencyHistogram()
  if (total) latencies.recordValueWithCount(10000, total)
  return saved(aggregateResult([{
    latencies,
    series,
    totalCompletedRequests: total,
    totalRequests: total,
    totalBytes: total * 100,
    '2xx': total,
    statusCodeStats: { 200: { count: total } },
    errorsByCause: { read: index },
    errorCodes: index ? { ECONNRESET: index } : {},
    errors: index,
    duration: counts.length,
    start: new Date(start + from * 1000),
    finish: new Date(start + (from + counts.length) * 1000)
  }], { connections: 5, shard: { index, count }, startAt: start }))
}

t.test('autocannon.mergeResults is the merge', async (t) => {
  const a = shard(0, 2, 0, [1, 2])
  const b = shard(1, 2, 0, [3, 4])
  t.same(autocannon.mergeResults([a, b]).series.requests, mergeResults([a, b]).series.requests)
  t.same(autocannon.mergeResults([a, b]).series.requests, [4, 6])
})

t.test('Req/Sec from the requests of each second, summed over the shards', async (t) => {
  // Seconds that overlap: the service took 100 + 300 in each.
  const a = shard(0, 2, 0, [100, 100, 100])
  const b = shard(1, 2, 0, [300, 300, 300])
  const overlapping = mergeResults([a, b])
  t.same(overlapping.series.requests, [400, 400, 400])
  t.equal(overlapping.requests.average, 400, 'mean Req/Sec 400')
  t.equal(overlapping.requests.min, 400)
  t.equal(overlapping.samples, 3)
  // What adding the shards' own Req/Sec histograms would have said.
  const added = createLatencyHistogram()
  for (const r of [a, b]) added.add(decode(r.histograms.requests, 64))
  t.equal(added.mean, 200, 'adding the shards\' histograms reads 200 req/s: one shard\'s rate, not the service\'s')
  t.ok(Math.abs(overlapping.throughput.average - 40000) <= 40, `Bytes/Sec ${overlapping.throughput.average}: summed too (3 significant digits)`)

  // Seconds that do not overlap (one shard after the other): kept apart.
  const later = shard(1, 2, 3, [300, 300, 300])
  const apart = mergeResults([a, later])
  t.same(apart.series.requests, [100, 100, 100, 300, 300, 300])
  t.equal(apart.requests.average, 200)
  t.equal(apart.requests.min, 100)
  t.equal(apart.requests.max, 300)
  t.equal(apart.samples, 6)
  t.equal(apart.duration, 6)

  t.equal(overlapping.errors, 1, 'counts summed')
  t.same(overlapping.errorsByCause.read, 1)
  t.same(overlapping.errorCodes, { ECONNRESET: 1 })
  t.same(overlapping.statusCodeStats, { 200: { count: 1200 } })
  t.equal(overlapping['2xx'], 1200)
  t.equal(overlapping.connections, 10)
})

t.test('missing, doubled and mismatched shards are told, not silent', async (t) => {
  const three = [shard(0, 3, 0, [10, 10]), shard(1, 3, 0, [10, 10]), shard(2, 3, 0, [10, 10])]
  const two = mergeResults([three[0], three[2]])
  t.same(two.merge.missing, [1])
  t.equal(two.merge.shards, 2)
  t.equal(two.merge.expected, 3)
  t.same(two.merge.warnings.map((w) => w.code), ['AC_SHARD_MISSING'])
  t.match(two.merge.warnings[0].message, /^shard 1 of 3 is missing/)

  const doubled = mergeResults([...three, three[1]])
  t.same(doubled.merge.duplicates, [1])
  t.equal(doubled.requests.total, 60, 'the second result of shard 1 is not added')
  t.match(doubled.merge.warnings[0], { code: 'AC_SHARD_DUPLICATE', message: /shard 1 has more than one result/ })

  t.same(mergeResults(three, { expect: 4 }).merge.missing, [3], '--expect N: the count to hold them to')
  const other = shard(1, 4, 0, [10, 10], Date.UTC(2031, 0, 1))
  t.throws(() => mergeResults([three[0], other]), {
    code: 'AC_DIFFERENT_RUNS',
    message: 'The results are not of one run: the shard count 3 (shard 0) vs 4 (shard 1); --startAt 2030-01-01T00:00:00.000Z (shard 0) vs 2031-01-01T00:00:00.000Z (shard 1): merge the shards of one run (or add --force to merge them anyway)'
  }, 'different shard counts and start times: refused')
  const mixed = mergeResults([three[0], other], { force: true })
  t.same(mixed.merge.warnings.filter((w) => w.code === 'AC_SHARD_MISMATCH').map((w) => w.message), [
    'merged with --force, though the results differ in the shard count 3 (shard 0) vs 4 (shard 1): the sums mix different runs',
    'merged with --force, though the results differ in --startAt 2030-01-01T00:00:00.000Z (shard 0) vs 2031-01-01T00:00:00.000Z (shard 1): the sums mix different runs'
  ], 'with force: merged, one warning per difference')
  t.same(mixed.merge.differences.map((d) => d.option), ['shards', 'startAt'])

  const coarse = shard(1, 3, 0, [10])
  coarse.series.interval = 500
  t.throws(() => mergeResults([three[0], coarse]), { code: 'AC_CANNOT_MERGE', message: /different intervals \(1000 ms, 500 ms\)/ })
})

t.test('the command: NDJSON with log lines, outputs, warnings, one-line failures', async (t) => {
  const dir = t.testdir({
    'not-a-result.json': '{"hello":"world"}\n',
    'plain.txt': 'pods are starting\nno results here\n'
  })
  const a = shard(0, 3, 0, [100, 100])
  const b = shard(1, 3, 0, [300, 300])
  // kubectl logs: warnings and other lines between the JSON lines.
  fs.writeFileSync(path.join(dir, 'results.ndjson'), [
    'shard 0 of 3 (0-based), starting at 2030-01-01T00:00:00.000Z (in 59.8 s)',
    JSON.stringify(a),
    `${WARNING_PREFIX}something`,
    '{ not json',
    JSON.stringify(b),
    ''
  ].join('\n'))
  const file = path.join(dir, 'results.ndjson')
  const out = path.join(dir, 'merged.json')

  const merged = await run(['merge', file, '-o', out, '--allowMissing'])
  t.equal(merged.code, 0, merged.stderr)
  t.equal(merged.stdout, '', 'nothing on stdout without -j')
  t.match(merged.stderr, /^merged 2 of 3 shards \(missing: shard 2\), start skew 0 ms\ncannonade: warning: shard 2 of 3 is missing/)
  t.match(merged.stderr, /Req\/Sec/, 'the tables')
  const written = JSON.parse(fs.readFileSync(out, 'utf8'))
  t.same(written.series.requests, [400, 400])
  t.same(written.merge.missing, [2])

  const json = await run(['merge', file, '-j', '--expect', '2'])
  t.equal(json.code, 0)
  t.equal(JSON.parse(json.stdout).requests.total, 800)
  t.equal(json.stderr, 'merged 2 of 2 shards, start skew 0 ms\n', 'only the summary on stderr with -j')

  const failing = await run(['merge', file, '-j', '--threshold', 'rps>1000', '--allowMissing'])
  t.equal(failing.code, 99, 'a threshold held to the merged result')
  t.match(failing.stderr, /1 of 1 thresholds failed: rps>1000/)

  for (const [args, message] of [
    [['merge', path.join(dir, 'not-a-result.json')], /^.*not-a-result\.json is not an autocannon result: its JSON has no requests and latency/],
    [['merge', path.join(dir, 'plain.txt')], /plain\.txt is not an autocannon result: it holds no result/],
    [['merge'], /merge needs at least one saved result/],
    [['merge', file, '--bogus'], /Unknown option for merge: --bogus/],
    [['merge', file, '--expect', '0'], /Invalid value for --expect/],
    [['merge', file, '--threshold', 'p99<<1'], /Invalid value for --threshold/],
    [['merge', file, '-o', path.join(dir, 'no', 'such', 'merged.json')], /cannot write there \(no such directory\)/]
  ]) {
    const res = await run(args)
    t.equal(res.code, 1, args.join(' '))
    t.equal(res.stderr.trim().split('\n').length, 1, 'one line')
    t.match(res.stderr, message)
  }
})

t.test('a merge with a shard missing: named in the summary, the tables, -j and the HTML report; exit 3 unless --allowMissing', async (t) => {
  // merge shard-0.json of a --shard 0/2 run.
  const dir = t.testdir({ 'shard-0.json': JSON.stringify(shard(0, 2, 0, [5, 7])) })
  const file = path.join(dir, 'shard-0.json')
  const html = path.join(dir, 'report.html')
  const tables = await run(['merge', file, '--html', html])
  t.equal(tables.code, 3, 'exit 3: part of a run')
  const lines = tables.stderr.trim().split('\n')
  t.equal(lines[0], 'merged 1 of 2 shards (missing: shard 1), start skew 0 ms')
  t.match(lines[1], /warning: shard 1 of 2 is missing/)
  t.ok(lines.includes('a merge of part of the run: shard 1 missing, whose load these numbers lack'), 'said after the tables')
  t.equal(lines[lines.length - 1], 'merge incomplete: shard 1 missing, so the merged result is of part of the run (exit 3; --allowMissing accepts it)')
  const page = fs.readFileSync(html, 'utf8')
  t.match(page, /<tr data-key="merge"><th scope="row">Merged from<\/th><td>1 of 2 shards \(missing: shard 1\), start skew 0 ms<\/td><\/tr>/, 'the report\'s run table')
  t.match(page, /<p class="sentence verdict" id="merge-missing-0">a merge of part of the run: shard 1 missing, whose load these numbers lack<\/p>/, 'and its verdict')

  const json = await run(['merge', file, '-j'])
  t.equal(json.code, 3)
  const merged = JSON.parse(json.stdout)
  t.same([merged.merge.shards, merged.merge.expected, merged.merge.missing], [1, 2, [1]], '-j: merge.missing')
  t.match(json.stderr, /^merged 1 of 2 shards \(missing: shard 1\)/)

  const allowed = await run(['merge', file, '-j', '--allowMissing'])
  t.equal(allowed.code, 0, '--allowMissing: exit 0')
  t.match(allowed.stderr, /^merged 1 of 2 shards \(missing: shard 1\)/, 'still named')
  t.notMatch(allowed.stderr, /merge incomplete/)

  // Shards 1 and 3 of 4: both named.
  const four = t.testdir({ 'a.json': JSON.stringify(shard(0, 4, 0, [5])), 'b.json': JSON.stringify(shard(2, 4, 0, [5])) })
  const two = await run(['merge', path.join(four, 'a.json'), path.join(four, 'b.json'), '-j'])
  t.equal(two.code, 3)
  t.match(two.stderr, /^merged 2 of 4 shards \(missing: shards 1 and 3\)/)
})

t.test('plain results (no --shard) of different runs: refused as shards of different runs are, unless --force; those of one run are merged, and not called shards', async (t) => {
  const url = await httpServer(t)
  const dir = t.testdir({})
  const a = path.join(dir, 'a.json')
  const b = path.join(dir, 'b.json')
  // -c 4 then, once it ended, -c 6: two runs.
  t.equal((await run(['-c', '4', '-a', '200', '--out', a, '-j', url])).code, 0)
  t.equal((await run(['-c', '6', '-a', '300', '--out', b, '-j', url])).code, 0)
  const refused = await run(['merge', a, b, '-j'])
  t.equal(refused.code, 1, 'refused: exit 1')
  t.equal(refused.stdout, '')
  t.equal(refused.stderr.trim().split('\n').length, 1, 'one line')
  t.match(refused.stderr, /^Error: The results are not of one run: -c 4 \(result 1\) vs 6 \(result 2\); the time they ran \S+ to \S+ \(result 1\) vs \S+ to \S+ \(result 2\): merge the results of one run \(or add --force to merge them anyway\)\n$/)
  const forced = await run(['merge', a, b, '-j', '--force'])
  t.equal(forced.code, 0, forced.stderr)
  t.match(forced.stderr, /^merged 2 results \(no --shard\), start skew \d+ ms\n.*warning: merged with --force, though the results differ in -c 4 \(result 1\) vs 6 \(result 2\)/)
  t.equal(JSON.parse(forced.stdout).requests.total, 500)

  // The same run twice, one after the other: still two runs.
  const c = path.join(dir, 'c.json')
  t.equal((await run(['-c', '4', '-a', '200', '--out', c, '-j', url])).code, 0)
  const again = await run(['merge', a, c, '-j'])
  t.equal(again.code, 1)
  t.match(again.stderr, /^Error: The results are not of one run: the time they ran /)

  // One command on two "machines" at once: one run.
  const runs = await Promise.all([0, 1].map(() => autocannon({ url, connections: 2, duration: 1 })))
  const together = await run(['merge', ...runs.map((r, i) => {
    const file = path.join(dir, `m${i}.json`)
    fs.writeFileSync(file, JSON.stringify(r))
    return file
  }), '-j'])
  t.equal(together.code, 0, together.stderr)
  t.match(together.stderr, /^merged 2 results \(no --shard\), start skew \d+ ms\n$/)
  t.equal(JSON.parse(together.stdout).requests.total, runs[0].requests.total + runs[1].requests.total)
})

t.test('--html draws the merged result (lib/output/outputs.js\'s html output)', async (t) => {
  const dir = t.testdir({ 'a.json': JSON.stringify(shard(0, 2, 0, [5, 7])), 'b.json': JSON.stringify(shard(1, 2, 0, [3, 3])) })
  const html = path.join(dir, 'report.html')
  const out = await run(['merge', path.join(dir, 'a.json'), path.join(dir, 'b.json'), '--html', html, '-j'])
  t.equal(out.code, 0, out.stderr)
  const page = fs.readFileSync(html, 'utf8')
  t.match(page, /^<!DOCTYPE html>/i, 'an HTML page')
  t.equal(JSON.parse(out.stdout).requests.total, 18)
})

t.test('Poisson shards of one seed: the merge says how they were spaced', async (t) => {
  const url = await httpServer(t)
  const shards = await Promise.all([0, 1].map((index) =>
    autocannon({ url, connections: 2, duration: 1, overallRate: 200, arrivals: 'poisson', seed: 42, shard: { index, count: 2 } })))
  const results = shards.map(saved)
  t.same(results.map((r) => [r.rate.arrivals, r.rate.seed]), [['poisson', 42], ['poisson', 42]], 'each shard gives the run\'s seed')
  const merged = mergeResults(results)
  t.same([merged.rate.arrivals, merged.rate.seed], ['poisson', 42])
  const mixed = mergeResults([results[0], saved(await autocannon({ url, connections: 2, duration: 1, overallRate: 200, shard: { index: 1, count: 2 } }))])
  t.same([mixed.rate.arrivals, mixed.rate.seed], ['mixed', undefined], 'no one spacing, no one seed, for shards spaced differently')
})

t.test('shards of different runs: refused in one line naming each difference, or merged with --force and a warning for each', async (t) => {
  const url = await httpServer(t)
  const dir = t.testdir({})
  const a = path.join(dir, 'a.json')
  const b = path.join(dir, 'b.json')
  // Two shards of "one" run given different -c, -R and -d, started apart.
  const first = run(['--shard', '0/2', '-c', '4', '-R', '200', '-d', '1', '--out', a, '-j', url])
  await new Promise((resolve) => setTimeout(resolve, 500))
  const second = await run(['--shard', '1/2', '-c', '6', '-R', '100', '-d', '2', '--out', b, '-j', url])
  t.equal((await first).code, 0, 'shard 0 ran')
  t.equal(second.code, 0, 'shard 1 ran')

  const refused = await run(['merge', a, b, '-j'])
  t.equal(refused.code, 1, 'refused: exit 1')
  t.equal(refused.stdout, '', 'no result')
  t.equal(refused.stderr.trim().split('\n').length, 1, 'one line')
  t.match(refused.stderr, /The results are not of one run: -c 4 \(shard 0\) vs 6 \(shard 1\); -R 200 \(shard 0\) vs 100 \(shard 1\); -d 1 \(shard 0\) vs 2 \(shard 1\): merge the shards of one run \(or add --force/)

  const forced = await run(['merge', a, b, '-j', '--force'])
  t.equal(forced.code, 0, forced.stderr)
  const lines = forced.stderr.trim().split('\n')
  t.match(lines[0], /^merged 2 of 2 shards, start skew \d+ ms$/)
  t.same(lines.slice(1, 4), [
    `${WARNING_PREFIX}merged with --force, though the results differ in -c 4 (shard 0) vs 6 (shard 1): the sums mix different runs`,
    `${WARNING_PREFIX}merged with --force, though the results differ in -R 200 (shard 0) vs 100 (shard 1): the sums mix different runs`,
    `${WARNING_PREFIX}merged with --force, though the results differ in -d 1 (shard 0) vs 2 (shard 1): the sums mix different runs`
  ], 'a warning naming each difference')
  const merged = JSON.parse(forced.stdout)
  t.same(merged.merge.differences.map((d) => [d.flag, d.values.map((v) => v.value)]), [['-c', [4, 6]], ['-R', [200, 100]], ['-d', [1, 2]]])
  t.equal(merged.connections, 2 + 3, 'each shard\'s part, summed')
})

t.test('a shard that started late: its missing seconds are in the series, and Req/Sec agrees with rate.achieved', async (t) => {
  const { url, arrivals } = await countingServer(t)
  const opts = { url, connections: 2, overallRate: 100, duration: 2 }
  // No --startAt: the second shard starts 2.5 s after the first ended.
  const early = saved(await autocannon({ ...opts, shard: { index: 0, count: 2 } }))
  await new Promise((resolve) => setTimeout(resolve, 2500))
  const late = saved(await autocannon({ ...opts, shard: { index: 1, count: 2 } }))
  const merged = mergeResults([early, late])

  const requests = merged.series.requests
  const gap = []
  requests.forEach((n, i) => { if (n === 0) gap.push(i) })
  // The time no shard sent, from the shards' own start and finish, and
  // the server's count of it.
  const idle = late.start.getTime() - early.finish.getTime()
  // (A request written as the first shard stopped may reach the server a
  // few ms after: 100 ms either side are left out.)
  const quiet = arrivals.filter((a) => a > early.finish.getTime() + 100 && a < late.start.getTime() - 100).length
  t.equal(quiet, 0, `the server saw nothing in the ${idle} ms between the shards`)
  t.ok(gap.length >= Math.floor(idle / 1000) && gap.length <= Math.ceil(idle / 1000) + 1,
    `those seconds are in the series, as zeros: ${JSON.stringify(requests)} (${gap.length} empty for ${idle} ms idle)`)
  t.ok(gap.every((i) => i > 0 && i < requests.length - 1), 'between the shards\' seconds')
  t.equal(merged.samples, requests.length)
  t.equal(sum(requests), sum(early.series.requests) + sum(late.series.requests), 'the zeros add nothing')
  const achieved = merged.rate.achieved
  t.ok(Math.abs(merged.requests.average - achieved) <= achieved * 0.15,
    `Req/Sec average ${merged.requests.average} agrees with rate.achieved ${achieved} (responses over the ${merged.duration} s the run spanned)`)
  t.equal(merged.requests.min, 0, 'the empty seconds count in Req/Sec')
  const gapWarnings = merged.merge.warnings.filter((w) => w.code === 'AC_SHARD_GAP').map((w) => w.message)
  t.match(gapWarnings, [
    /^shard 0 ended \d+ s before the last: the series has those seconds without its load \(give every shard one --startAt\)$/,
    /^shard 1 began \d+ s after the first: the series has those seconds without its load/
  ], 'and warnings name the shards')
  t.equal(gapWarnings.length, 2)
})

t.test('a shard with no response is a warning', async (t) => {
  const empty = shard(1, 2, 0, [0, 0])
  const merged = mergeResults([shard(0, 2, 0, [10, 10]), empty])
  t.same(merged.merge.warnings, [{ code: 'AC_SHARD_EMPTY', message: 'shard 1 had no responses (1 errors: 1 read): the merged numbers lack its load' }])
  t.same(merged.series.requests, [10, 10])
  const dir = t.testdir({ 'a.json': JSON.stringify(shard(0, 2, 0, [10, 10])), 'b.json': JSON.stringify(empty) })
  const out = await run(['merge', path.join(dir, 'a.json'), path.join(dir, 'b.json'), '-j'])
  t.equal(out.code, 0)
  t.equal(out.stderr, 'merged 2 of 2 shards, start skew 0 ms\ncannonade: warning: shard 1 had no responses (1 errors: 1 read): the merged numbers lack its load\n')
})

t.test('HTTP/1.1 and HTTP/2 shards: refused, or merged as mixed; HTTP/2 shards stay h2', async (t) => {
  const http2 = require('http2')
  const { makePki } = require('../helpers/pki')
  const { listen } = require('../helpers/servers')
  const pki = makePki(t.testdir({}))
  // One server that speaks both, by ALPN.
  const server = http2.createSecureServer({ ...pki.server, allowHTTP1: true }, (req, res) => res.end('hello'))
  const url = (await listen(t, server)).replace('http:', 'https:')
  const opts = { url, connections: 2, duration: 1, tlsOptions: { ca: pki.ca } }
  const startAt = Date.now() + 1500
  const [h1, h2, h2b] = (await Promise.all([
    autocannon({ ...opts, shard: { index: 0, count: 2 }, startAt }),
    autocannon({ ...opts, http2: true, shard: { index: 1, count: 2 }, startAt }),
    autocannon({ ...opts, http2: true, shard: { index: 0, count: 2 }, startAt })
  ])).map(saved)
  t.same([h1.protocol, h2.protocol], [undefined, 'h2'], 'each shard spoke its own')
  t.ok(h1.requests.total > 0 && h2.requests.total > 0)
  t.throws(() => mergeResults([h1, h2]), { code: 'AC_DIFFERENT_RUNS', message: /the protocol http\/1\.1 \(shard 0\) vs h2 \(shard 1\)/ })
  const mixed = mergeResults([h1, h2], { force: true })
  t.equal(mixed.protocol, 'mixed', 'the merged protocol says mixed')
  t.match(mixed.merge.warnings[0].message, /differ in the protocol http\/1\.1 \(shard 0\) vs h2 \(shard 1\)/)
  t.equal(mergeResults([h2b, h2]).protocol, 'h2', 'shards that all spoke HTTP/2: h2')
})
