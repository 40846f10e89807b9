'use strict'

// --abortOnFail: the thresholds held at every sample to the run so far;
// the first failure stops the run, which still reports what it measured.
// The server turns slow after 2 s: the run ends at the first check after
// that, once the slow responses have moved the percentile. The check
// itself: test/results/abort-check.test.js.

const t = require('tap')
const http = require('http')
const autocannon = require('../..')
const { run } = require('../helpers/cli')
const { starvedReason } = require('../helpers/truth-guards')

// The server turns slow at 2 s: a stop before then is what the machine
// did to the run (its pauses of the generator are charged as latency
// under a rate), measured, or null.
const SLOW_AT_S = 2
function machineStop (abortedAtS, starved) {
  return abortedAtS < SLOW_AT_S && starved ? `stopped at ${abortedAtS} s, before the server turned slow, while ${starved}: the machine's doing, not the server's` : null
}

// Fast for `fastMs` after its first request, then every answer takes 300 ms.
function turnsSlow (t, fastMs = SLOW_AT_S * 1000) {
  let first = 0
  const server = http.createServer((req, res) => {
    if (first === 0) first = Date.now()
    if (Date.now() - first > fastMs) setTimeout(() => res.end('slow'), 300)
    else res.end('ok')
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    t.teardown(() => { server.closeAllConnections(); server.close() })
    resolve(`http://127.0.0.1:${server.address().port}`)
  }))
}

t.test('library: stops at the first failing check, says which and when', async (t) => {
  const url = await turnsSlow(t)
  const instance = autocannon({ url, connections: 5, overallRate: 100, duration: 20, thresholds: ['p99 < 100ms', 'errors < 50%'], abortOnFail: true, abortAfter: 1 })
  const events = []
  instance.on('abort', (a) => events.push(['abort', a]))
  instance.on('done', () => events.push(['done']))
  const result = await instance
  const machine = result.aborted && machineStop(result.aborted.at, starvedReason(result, 50))
  if (machine) return t.skip(machine)
  t.same(events.map((e) => e[0]), ['abort', 'done'], 'abort, then done')
  t.equal(result.aborted.threshold, 'p99 < 100ms')
  t.equal(result.aborted.unit, 'ms')
  t.ok(result.aborted.value >= 100, `the value that failed (${result.aborted.value} ms)`)
  // The slow answers start at 2 s; with checks every second, the run
  // stops at the first check where they reach p99: 3 or 4 s, not 20.
  t.ok(result.aborted.at >= 2 && result.aborted.at <= 5, `at ${result.aborted.at} s`)
  t.equal(result.aborted.at % 1, 0, 'a check is at a sample\'s end')
  t.ok(result.duration >= result.aborted.at && result.duration < result.aborted.at + 1, `the run ended then (${result.duration} s)`)
  t.same(events[0][1], result.aborted)
  t.notOk(result.thresholds[0].ok, 'the final verdict fails too')
  t.ok(result.requests.sent > 100, 'what was measured is there')
})

t.test('library: a run that meets its thresholds is not stopped', async (t) => {
  const url = await turnsSlow(t, 60000)
  const result = await autocannon({ url, connections: 2, duration: 2, thresholds: ['p99 < 1s'], abortOnFail: true })
  t.equal(result.aborted, undefined)
  t.ok(result.duration >= 2)
})

t.test('workers: the whole run\'s figures are checked, and every worker stops', async (t) => {
  const url = await turnsSlow(t)
  const instance = autocannon({ url, connections: 4, workers: 2, overallRate: 100, duration: 20, thresholds: ['p99 < 100ms'], abortOnFail: true, abortAfter: 1 })
  const events = []
  instance.on('abort', (a) => events.push(a))
  const result = await instance
  t.equal(events.length, 1, 'one abort event')
  t.same(events[0], result.aborted)
  t.equal(result.aborted.threshold, 'p99 < 100ms')
  t.ok(result.aborted.at >= 2 && result.aborted.at <= 5, `at ${result.aborted.at} s`)
  t.ok(result.duration < result.aborted.at + 1.5, `both workers stopped then (${result.duration} s)`)
  t.ok(result.aborted.value >= 100, `the value that failed (${result.aborted.value} ms)`)
  t.equal(result.requests.sent, result.requests.total + result.errors + result.requests.inFlight, 'every request accounted for')
  // Errors are counted over both workers: an error rate fails as a whole.
  const passing = await autocannon({ url: await turnsSlow(t, 60000), connections: 2, workers: 2, duration: 2, thresholds: ['p99 < 1s', 'errors < 1%'], abortOnFail: true })
  t.equal(passing.aborted, undefined, 'a run that meets them is not stopped')
})

t.test('refused without thresholds, and a bad delay', async (t) => {
  await t.rejects(autocannon({ url: 'http://127.0.0.1:9', abortOnFail: true }), { code: 'AC_INVALID_OPTION', option: 'abortOnFail' })
  await t.rejects(autocannon({ url: 'http://127.0.0.1:9', abortOnFail: true, thresholds: ['p99<1s'], abortAfter: 'soon' }), { code: 'AC_INVALID_OPTION', option: 'abortAfter' })
})

t.test('CLI: --abortOnFail --abortAfter: the tables, one line, exit 99', async (t) => {
  const url = await turnsSlow(t)
  const out = await run(['-c', '5', '-R', '100', '-d', '20', '--threshold', 'p99<100ms', '--abortOnFail', '--abortAfter', '1s', url])
  t.equal(out.code, 99, out.stderr)
  const at = /\naborted at (\d+) s:/.exec(out.stderr)
  const starved = /other processes had the CPU \([^)]*\)/.exec(out.stderr)
  const machine = at && machineStop(Number(at[1]), starved && starved[0])
  if (machine) return t.skip(machine)
  t.match(out.stderr, /\naborted at [2-5] s: p99<100ms failed on the run so far \(measured [\d.]+ ms\)\n/)
  t.match(out.stderr, /requests in [2-5](\.\d+)?s, /, 'stopped early')
  const j = await run(['-c', '5', '-R', '100', '-d', '20', '--threshold', 'p99<100ms', '--abortOnFail', '-j', await turnsSlow(t)])
  t.equal(j.code, 99)
  t.equal(JSON.parse(j.stdout).aborted.threshold, 'p99<100ms')
})
