'use strict'

// A page that never reads (a frozen tab, a client over a dead link) held
// open on the dashboard for a whole run at a fixed rate, beside one that
// reads: what waits for the slow one stays bounded, the reading one gets
// every interval, and the run's own stalls (its event loop's delay, its
// own pauses) are those of the same run without a dashboard, within the
// noise of a run. The stalls are compared on the real command run as
// users run it (bare: the test runner's coverage, and its heap in this
// process, would be the runs' GC pauses), the pages in this process.
// Timing-sensitive: run under the shared timing lock.

const t = require('tap')
const net = require('net')
const http = require('http')
const { autocannon } = require('../../lib/engine/autocannon')
const { watch } = require('../../lib/output/dashboard/attach')
const { MAX_BUFFERED } = require('../../lib/output/dashboard/server')
const { childServer } = require('../helpers/servers')
const { start, run } = require('../helpers/cli')
const { starvedReason, OWN_PAUSE_MAX_MS } = require('../helpers/truth-guards')
const { pauseEnv } = require('../helpers/pause-injector')
const { eachBlock } = require('../helpers/sse')

t.setTimeout(120000)

const OPTIONS = { connections: 10, overallRate: 2000, duration: 6, sampleInt: 100 }

function ownStalls (result) {
  const g = result.generator
  return { loopP99: g.loopDelay.p99, ownMs: g.pauses ? g.pauses.own.ms : 0, ownMax: g.pauses ? g.pauses.own.max : 0, late: g.lateOwn || 0 }
}

// A client that asks for the events, then never reads a byte.
async function neverReads (t, url) {
  const socket = net.connect(Number(new URL(url).port), '127.0.0.1')
  t.teardown(() => socket.destroy())
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.write('GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
  socket.pause()
}

// An SSE client that reads: the number of 'sample' events it got.
function reader (url) {
  const got = { samples: 0, states: 0 }
  http.get(url + 'events', (res) => eachBlock(res, (block) => {
    if (block.startsWith('event: sample')) got.samples++
    if (block.startsWith('event: state')) got.states++
  })).on('error', () => {})
  return got
}

t.test('a client that never reads', async (t) => {
  const target = await childServer(t, 'delay-server.js', ['1'])
  // Warmed, then the run with a dashboard.
  await autocannon({ url: target.url, connections: 10, overallRate: 2000, duration: 1 })

  const heapBefore = process.memoryUsage().heapUsed
  const instance = autocannon({ url: target.url, ...OPTIONS, dashboard: true })
  const watched = watch(instance)
  const url = await watched.listening
  // The dashboard's thread, its modules loaded and warmed up.
  const { heapUsed: threadBefore } = await watched.stats()
  await neverReads(t, url)
  const good = reader(url)
  let samples = 0
  instance.on('sample', () => { samples++ })
  const result = await instance
  const { mostBuffered: most, heapUsed } = await watched.stats()
  const heapGrowth = process.memoryUsage().heapUsed - heapBefore

  t.ok(samples >= 50, `${samples} samples of 100 ms`)
  t.ok(most <= MAX_BUFFERED + 64 * 1024, `what waits for the slow client stays bounded (${most} bytes at most)`)
  t.ok(heapGrowth < 64 * 1024 * 1024, `the run's heap grew ${Math.round(heapGrowth / 1024)} KiB`)
  t.ok(threadBefore > 0 && heapUsed - threadBefore < 32 * 1024 * 1024, `the dashboard's thread's heap grew ${Math.round((heapUsed - threadBefore) / 1024)} KiB (from ${Math.round(threadBefore / 1024)} KiB)`)
  t.ok(good.samples + good.states >= samples - 1, `the reading client got every interval (${good.samples} samples, ${good.states} states)`)

  t.equal(result.requests.total > 0.9 * 2000 * 6, true, `the rate held (${result.requests.total} responses)`)
})

const RATE = 2000
const CLI_ARGS = ['-c', '10', '-R', String(RATE), '-d', '6', '-L', '100', '-j']

// The real command with a dashboard, a page that never reads and one that
// reads (both in this process) → its result and what the reader got.
async function watchedRun (t, target, extraEnv) {
  const child = start([...CLI_ARGS, '--dashboard', '0', target.url], { bare: true, extraEnv })
  const url = await new Promise((resolve, reject) => {
    let err = ''
    child.stderr.on('data', (chunk) => {
      err += chunk
      const m = /^dashboard: (http:\S+)$/m.exec(err)
      if (m) resolve(m[1])
    })
    child.once('close', () => reject(new Error(`no dashboard line: ${err}`)))
  })
  await neverReads(t, url)
  const got = reader(url)
  const res = await child.done
  t.equal(res.code, 0, res.stderr)
  return { result: JSON.parse(res.stdout), got }
}

// The stalls of a watched run against those of the same run without a
// dashboard → { failures, loaded: why they say nothing, or null }.
function stallFailures (base, watched) {
  const before = ownStalls(base)
  const after = ownStalls(watched)
  const failures = []
  if (after.loopP99 > before.loopP99 * 2 + 2) failures.push(`event-loop delay p99 ${after.loopP99} ms (without: ${before.loopP99} ms)`)
  // Its own pauses within what a run's may be (the truth guards' bound:
  // a GC its allocations bring into the run takes 6–9 ms here), or
  // within the noise of the run without it.
  const ownLimit = Math.max(before.ownMax * 2 + 5, OWN_PAUSE_MAX_MS)
  if (after.ownMax > ownLimit) failures.push(`longest own pause ${after.ownMax} ms (without: ${before.ownMax} ms; limit ${ownLimit} ms)`)
  // And the requests due in such a pause (2,000 req/s).
  const lateLimit = before.late * 2 + 20 + Math.ceil(RATE * ownLimit / 1000)
  if (after.late > lateLimit) failures.push(`requests late by our own work: ${after.late} (without: ${before.late}; limit ${lateLimit})`)
  // Said nothing when the machine held either run off the CPU: its
  // pauses of the generator would be read as the dashboard's.
  const loaded = starvedReason(base, 150) || starvedReason(watched, 150)
  return { failures, loaded, figures: `own stalls without: ${JSON.stringify(before)}, with: ${JSON.stringify(after)}` }
}

async function compared (t, extraEnv) {
  const target = await childServer(t, 'delay-server.js', ['1'])
  await run(['-c', '10', '-R', '2000', '-d', '1', target.url], { bare: true })
  const base = await run([...CLI_ARGS, target.url], { bare: true })
  t.equal(base.code, 0, base.stderr)
  const { result, got } = await watchedRun(t, target, extraEnv)
  t.ok(got.samples >= 50, `the reading page got ${got.samples} samples of 100 ms`)
  const out = stallFailures(JSON.parse(base.stdout), result)
  t.comment(out.figures)
  return out
}

t.test('the command\'s own stalls with a page that never reads are those without a dashboard', async (t) => {
  const { failures, loaded } = await compared(t)
  if (loaded) return t.skip(`own stalls not compared: ${loaded}`)
  t.same(failures, [])
})

t.test('mutation: a 30 ms pause of ours in the watched run is reported', async (t) => {
  const { failures } = await compared(t, pauseEnv(30))
  t.ok(failures.length > 0, `reported: ${failures.join('; ')}`)
})
