'use strict'

// Ctrl-C after a complete result: the exit code is the run's own (0, or
// 99 when a threshold failed), as docs/cli.md says, however late the
// signal comes while the CLI ends: SIGINT 0-30 ms after the -j result is
// printed, at seeded moments (AC_LATE_SEED=n repeats them). Never 130,
// and never death by SIGINT (which a shell reports as 130): 130 is for a
// Ctrl-C before any result. The other moments of a run's life, and the
// other signals: test/e2e/signals-stress.test.js.

const t = require('tap')
const http = require('http')
const { spawn } = require('child_process')
const { BIN, env } = require('../helpers/cli')
const { random } = require('../helpers/seeded-random')
const { ended } = require('../helpers/processes')

const SEED = Number(process.env.AC_LATE_SEED) || (Date.now() % 100000)
const TRIALS = 20
const LATEST_MS = 30
// A trial that has not ended this long after its signal has hung.
const END_MS = 20000

// One run with -j, SIGINT `delay` ms after its JSON line came out:
// { code, signal, sent, stdout, stderr }.
function trial (args, delay) {
  // Without V8's coverage counters (env's `bare`), but started as the
  // runner starts every process: its hooks come back into NODE_OPTIONS
  // (nodeCommand says why) and keep the CLI a few ms longer after its
  // JSON line, the moments the signals are sent into. A CLI without them
  // has mostly exited within this window (1 of 20 signals reached one).
  const vars = env({}, { bare: true })
  const child = spawn(process.execPath, [BIN, ...args], { env: vars, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  let sent = false
  let armed = false
  let exited = false
  const timer = setTimeout(() => child.kill('SIGKILL'), END_MS)
  child.stdout.setEncoding('utf8')
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk) => { stderr += chunk })
  child.stdout.on('data', (chunk) => {
    stdout += chunk
    if (armed || !stdout.includes('\n')) return
    armed = true
    setTimeout(() => {
      if (exited || ended(child.pid)) return
      sent = true
      child.kill('SIGINT')
    }, delay)
  })
  child.on('exit', () => { exited = true })
  return new Promise((resolve) => child.on('close', (code, signal) => {
    clearTimeout(timer)
    resolve({ code, signal, sent, stdout, stderr })
  }))
}

t.test(`SIGINT 0-${LATEST_MS} ms after the result (seed ${SEED}): the run's own exit code, never 130`, async (t) => {
  if (process.platform !== 'linux') return t.skip('reads /proc to tell a process that is exiting')
  const server = http.createServer((req, res) => res.end('ok'))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { server.closeAllConnections(); server.close() })
  const url = `http://127.0.0.1:${server.address().port}/`
  const next = random(SEED)
  const wrong = []
  let signalled = 0
  for (let i = 0; i < TRIALS; i++) {
    const delay = Math.round(next() * LATEST_MS)
    // Every other run fails a threshold: its own code is 99.
    const failing = i % 2 === 1
    const args = ['-c', '1', '-a', '20', '-j', ...(failing ? ['--threshold', 'rps>100000000'] : []), url]
    const expected = failing ? 99 : 0
    const out = await trial(args, delay)
    t.ok(JSON.parse(out.stdout).requests.total >= 20, `trial ${i}: the result was complete`)
    if (out.sent) signalled++
    if (out.code !== expected) wrong.push(`trial ${i} (${failing ? 'a failed threshold' : 'thresholds met'}), SIGINT at +${delay} ms${out.sent ? '' : ' (not sent: the CLI had ended)'}: ${out.code === null ? `death by ${out.signal}` : `exit ${out.code}`}, expected ${expected}`)
  }
  t.same(wrong, [], 'every trial exited with the run\'s own code')
  // The moments are real: most signals reached a CLI that was still there.
  if (signalled < TRIALS / 2) t.skip(`only ${signalled} of ${TRIALS} signals reached a CLI still running: too few moments to judge (each that did was checked above)`)
  else t.pass(`${signalled} of ${TRIALS} signals sent before the CLI had ended`)
})
