'use strict'

// Under a rate, latency counts from each request's planned time, so a pause
// of the sending thread is charged to the server. The costliest pauses are
// first uses: a module loaded, an encoder compiled, mid-run (the first
// encoding of an interval histogram once took 19 ms at the first tick).
// Here the real CLI runs with a spy preloaded in every thread, and nothing
// may be loaded or compressed between the server's first arrival and its
// last: whatever a run needs is loaded before it sends, and histograms are
// compressed after it. And whatever the spy cannot see (a first use that
// is not a load nor a compression, a pause of any other work of ours) the
// run's own result can: its own work may not pause the generator long,
// whatever the machine's load (test/helpers/truth-guards.js).

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const http = require('http')
const { childServer } = require('../helpers/servers')
const { listen } = require('../helpers/listen')
const { run } = require('../helpers/cli')
const { pauseEnv } = require('../helpers/pause-injector')
const { ownPauseFailures } = require('../helpers/truth-guards')

const SPY = path.join(__dirname, '..', 'helpers', 'first-use-spy.js')

// `endSlackMs`: with workers, each thread ends on its own timer, a few ms
// apart, and a thread that has ended compresses its result while another
// may still send: the window stops that much before the last arrival.
async function firstUsesDuring (t, args, { endSlackMs = 0, path: urlPath = '', extraEnv = {} } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-first-use-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const log = path.join(dir, 'spy.jsonl')
  const server = await childServer(t, 'stall-server.js')
  const outputs = ['-j', '--out', path.join(dir, 'r.json'), '--html', path.join(dir, 'r.html'), '--hgrm', path.join(dir, 'r.hgrm')]
  const res = await run([...args, ...outputs, server.url + urlPath], {
    // As users run it: the runner's coverage would be the run's pauses.
    bare: true,
    extraEnv: { ...extraEnv, FIRST_USE_LOG: log, NODE_OPTIONS: `${extraEnv.NODE_OPTIONS || ''} --require ${SPY}` }
  })
  t.equal(res.code, 0, res.stderr)
  const { arrivals } = await server.ask({ report: true })
  const threads = fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line))
  const all = threads.flat()
  const events = all.filter((e) => e.what !== 'connect' && e.what !== 'end')
  // From the first connection opened (the run has begun: a load then
  // delays the first sends) or the first arrival, whichever came first,
  // to the end of the thread's run where it had one (the spy marks it),
  // else to the last arrival.
  const first = Math.min(arrivals[0], ...all.filter((e) => e.what === 'connect').map((e) => e.at))
  const last = arrivals[arrivals.length - 1] - endSlackMs
  const ends = new Map(all.filter((e) => e.what === 'end').map((e) => [e.threadId, e.at]))
  const until = (e) => Math.min(last, ends.has(e.threadId) ? ends.get(e.threadId) : Infinity)
  return {
    result: JSON.parse(res.stdout),
    threads: threads.length,
    events,
    during: events.filter((e) => e.at >= first && e.at <= until(e)),
    after: events.filter((e) => e.at > until(e))
  }
}

// The guard: no first use while the run sends, and no long pause of our
// own work in it. → its failures.
function firstUseFailures ({ during, result }) {
  const failures = ownPauseFailures(result)
  if (during.length > 0) failures.push(`first uses during the run: ${describe(during)}`)
  return failures
}

const describe = (events) => events.slice(0, 5).map((e) => `${e.what} ${e.name ? path.relative(path.join(__dirname, '..', '..'), e.name) : ''} (thread ${e.threadId}, ${e.ms.toFixed(2)} ms)`).join('; ') + (events.length > 5 ? `; and ${events.length - 5} more` : '')

t.test('a rated run loads and compresses nothing while it sends, whatever outputs are asked', async (t) => {
  const m = await firstUsesDuring(t, ['-c', '10', '-R', '1000', '-d', '2'])
  const { after } = m
  t.same(firstUseFailures(m), [], 'nothing loaded or compressed while it sends, no long pause of its own')
  // The spy sees what it should: the outputs load and compress afterwards.
  t.ok(after.some((e) => e.what === 'deflateSync'), 'histograms are compressed once the run is over')
  t.ok(after.some((e) => e.what === 'load' && /cli-table3/.test(e.name)), 'the tables\' modules load for the tables')
})

t.test('requests made one by one (ids replaced in each) load nothing while they send either', async (t) => {
  const m = await firstUsesDuring(t, ['-c', '10', '-R', '1000', '-d', '2', '-I'], { path: '/item/[<id>]' })
  t.same(firstUseFailures(m), [])
})

t.test('with worker threads, none of them loads or compresses anything while they send', async (t) => {
  const m = await firstUsesDuring(t, ['-c', '4', '-R', '500', '-d', '2', '-w', '2'], { endSlackMs: 50 })
  t.equal(m.threads, 3, 'the spy ran in the main thread and in both workers')
  t.same(firstUseFailures(m), [])
})

// An HTTP proxy for http targets that forwards each request but every
// `every`th, which it refuses with a 407, as a proxy whose credentials
// stopped being accepted would: the refusals come while the run sends.
async function refusingProxy (t, every) {
  const agent = new http.Agent({ keepAlive: true })
  t.teardown(() => agent.destroy())
  let n = 0
  const port = await listen(t, http.createServer((req, res) => {
    if (++n % every === 0) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="bench"', 'content-length': 0 })
      return res.end()
    }
    http.get(req.url, { agent }, (up) => {
      res.writeHead(up.statusCode, up.headers)
      up.pipe(res)
    }).on('error', () => res.destroy())
  }))
  return `http://127.0.0.1:${port}`
}

t.test('a proxy\'s 407 mid-run loads nothing while the run sends', async (t) => {
  const proxy = await refusingProxy(t, 20)
  const m = await firstUsesDuring(t, ['-c', '10', '-R', '1000', '-d', '2', '--proxy', proxy])
  t.ok(m.result.errorCodes.AC_PROXY_REFUSED > 0, `the proxy refused requests mid-run (${JSON.stringify(m.result.errorCodes)})`)
  t.same(firstUseFailures(m), [], 'the refusal\'s error was at hand before the run sent')
})

// The pause that broke it once was 19 ms of first-use work at the first
// tick: not a load the spy would see, nor a compression.
t.test('mutation: the guard reports a 19 ms pause of ours at the first sample and tick', async (t) => {
  const m = await firstUsesDuring(t, ['-c', '10', '-R', '1000', '-d', '2'], { extraEnv: pauseEnv(19) })
  t.same(m.during, [], 'the spy sees nothing: the pause is neither a load nor a compression')
  const failures = firstUseFailures(m)
  t.ok(failures.length > 0, `reported: ${failures.join('; ')}`)
})

t.test('mutation: with worker threads too', async (t) => {
  const m = await firstUsesDuring(t, ['-c', '4', '-R', '500', '-d', '2', '-w', '2'], { endSlackMs: 50, extraEnv: pauseEnv(19) })
  const failures = firstUseFailures(m)
  t.ok(failures.length > 0, `reported: ${failures.join('; ')}`)
})
