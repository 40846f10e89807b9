'use strict'

// A signal at any moment of a run's life ends it cleanly: SIGTERM, SIGINT
// and SIGHUP sent at seeded random moments (before the --on-port command
// listens, before the first response, while -w 2 workers start, during
// the run, in its last 10-100 ms, while the result is printed and the
// command stopped, during the exit, and while a command that ignores
// SIGTERM waits for its SIGKILL). After each: the command's pid is gone,
// the caller's read of stderr ends (no process holds the pipe), no
// autocannon-XXXXXX folder is left in the test's own TMPDIR, and the exit
// code is 128 + the signal (Ctrl-C: 130 with nothing printed, the run's
// own 0 after a result, as autocannon does), or the process ended by the
// signal itself (a shell's 128 + signal, once everything is stopped; not
// for a Ctrl-C after a result, which a shell would report as 130).
// AC_STRESS_SEED=n repeats a run's moments.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { spawn } = require('child_process')
const { BIN, env } = require('../helpers/cli')
const { random } = require('../helpers/seeded-random')
const { ended } = require('../helpers/processes')

const SEED = Number(process.env.AC_STRESS_SEED) || (Date.now() % 100000)
const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP']
// How long the caller waits, after the signal, for the CLI's stderr to
// close before calling the pipe held: the longest end (a stubborn
// command's 3 s grace) on a machine so loaded that a node process gets a
// twentieth of a core, with room. A trial whose signal never went (the
// CLI ended first) is given SPAWN_MS from its start.
const PIPE_MS = 20000
const SPAWN_MS = 60000
const AT_ONCE = 6
// About 30 s on an idle 2-core machine; several times that on a loaded one.
t.setTimeout(420000)
const COVERED_EVERY = 12

// The command --on-port starts: writes its pid first thing, listens after
// `listenMs`, answers after `answerMs` (and says when the first request
// came); 'stubborn' ignores SIGTERM.
const COMMAND = `'use strict'
const fs = require('fs')
const [pidFile, mode, listenMs, answerMs] = process.argv.slice(2)
fs.writeFileSync(pidFile, String(process.pid))
if (mode === 'stubborn') process.on('SIGTERM', () => {})
let first = true
const server = require('http').createServer((req, res) => {
  if (first) fs.writeFileSync(pidFile + '.first', '')
  first = false
  setTimeout(() => res.end('ok'), Number(answerMs))
})
setTimeout(() => server.listen(0, '127.0.0.1'), Number(listenMs))
`

// The moments, each: its trials, the CLI's flags, the command's timings,
// and when to send the signal (ms after `after`: 'spawn', the command's
// pid file, the header line, the first request the command got, or the
// summary line).
const MOMENTS = [
  { name: 'before the port is found', trials: 36, args: ['-c', '1', '-d', '0.5'], listenMs: 150, after: 'spawn', at: [0, 350] },
  { name: 'before the first response', trials: 30, args: ['-c', '1', '-d', '1'], answerMs: 600, after: 'header', at: [0, 300] },
  { name: 'while -w 2 workers start', trials: 30, args: ['-w', '2', '-c', '2', '-d', '0.5', '-R', '50'], after: 'pid', at: [0, 250] },
  { name: 'during the run', trials: 24, args: ['-c', '1', '-d', '0.5', '-R', '50'], after: 'header', at: [50, 400] },
  { name: 'in the last 10-100 ms of the run', trials: 24, args: ['-c', '1', '-d', '0.5', '-R', '50'], after: 'first', at: [400, 490] },
  { name: 'in the last 10-100 ms of a -w 2 run', trials: 12, args: ['-w', '2', '-c', '2', '-d', '0.5', '-R', '50'], after: 'first', at: [400, 490] },
  // An amount, not a duration: on a loaded machine a 0.3 s run can end
  // before its first response, and then there is no result to print.
  { name: 'while printing, stopping the command, exiting', trials: 32, args: ['-c', '1', '-a', '15', '-R', '50'], after: 'summary', at: [0, 30], exiting: true },
  { name: 'while a command that ignores SIGTERM is stopped', trials: 12, args: ['-c', '1', '-d', '0.3', '-R', '50'], mode: 'stubborn', after: 'summary', at: [0, 2500] }
]

function tmpdir (t, prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

// Whether the command is still running: its pid there, not a zombie, and
// still the command (pids come round again fast on a busy machine).
function alive (pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
    return state !== 'Z' && state !== 'X' && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('command.js')
  } catch {
    return false
  }
}

// One trial → what was seen: { code, signal, stderr, pipeHeld, pid,
// pidAlive, folders, sentAt (null: the CLI had ended first) }.
function trial ({ moment, signal, delay, dir, tmp, script, covered }) {
  const pidFile = path.join(fs.mkdtempSync(path.join(dir, 'trial-')), 'command.pid')
  const args = [...moment.args, '/', '--', process.execPath, script, pidFile, moment.mode || 'plain', String(moment.listenMs || 0), String(moment.answerMs || 0)]
  // The test runner's coverage (its hooks in NODE_OPTIONS, V8's in
  // NODE_V8_COVERAGE) costs a node process more than the trial itself,
  // and keeps the CLI's compile cache off: one trial in COVERED_EVERY
  // keeps it, the others run without.
  const vars = env({ TMPDIR: tmp }, { bare: !covered })
  const child = spawn(process.execPath, [BIN, ...args], { env: vars, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  let sentAt = null
  let held = false
  const hold = () => {
    held = true
    child.kill('SIGKILL')
    child.stderr.destroy()
  }
  let timer = setTimeout(hold, SPAWN_MS)
  let exit = null
  let armed = false
  const send = () => {
    if (armed) return
    armed = true
    setTimeout(() => {
      // Ended already (the caller reads its output late on a busy
      // machine): a signal to a process that has exited is not one to it.
      if (exit !== null || ended(child.pid)) return
      sentAt = Date.now()
      child.kill(signal)
      clearTimeout(timer)
      timer = setTimeout(hold, PIPE_MS)
    }, delay)
  }
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk) => {
    stderr += chunk
    if (moment.after === 'header' && stderr.includes('Running ')) send()
    if (moment.after === 'summary' && / requests in [\d.]+s, /.test(stderr)) send()
  })
  if (moment.after === 'spawn') send()
  let poll = null
  if (moment.after === 'pid' || moment.after === 'first') {
    const file = moment.after === 'pid' ? pidFile : `${pidFile}.first`
    poll = setInterval(() => {
      if (fs.existsSync(file)) {
        clearInterval(poll)
        send()
      }
    }, 5)
  }
  return new Promise((resolve) => {
    child.on('exit', (code, sig) => { exit = { code, signal: sig } })
    // 'close': the CLI has exited and every holder of its stderr closed it.
    child.on('close', (code, sig) => {
      clearTimeout(timer)
      clearInterval(poll)
      const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : null
      const pidAlive = pid !== null && alive(pid)
      // Whatever a failed trial left is ended here, not left to the machine.
      if (pidAlive) try { process.kill(pid, 'SIGKILL') } catch {}
      resolve({ code, signal: sig, stderr, pipeHeld: held, pid, pidAlive, sentAt })
    })
  })
}

// A signal that comes as the CLI ends, once everything is stopped and
// removed and its listeners are about to go, can be caught between the
// event loop's last look at signals and their removal (a busy machine
// preempts the process there), and is then not seen: the CLI exits 0 as
// if the signal had come a moment later, after it had exited. Allowed
// for the 'exiting' moment only (seen in 2 of 32 such trials at a load of
// 25 on 2 cores), in at most this share of its trials; a
// CLI that died in that moment with its command still running, or its
// folder left, fails as ever.
const EXIT_RACE_SHARE = 0.25

// The verdict on one trial: a list of what went wrong.
function problems (out, signal, moment) {
  const found = []
  if (out.pipeHeld) found.push(`stderr still open after ${PIPE_MS} ms (a process holds the pipe)`)
  if (out.pidAlive) found.push(`the command (pid ${out.pid}) is still running`)
  if (out.sentAt === null) return found
  const summary = out.stderr.search(/ requests in [\d.]+s, /)
  const printed = summary >= 0
  // Ctrl-C after a result that measured something: the run's own code.
  const measured = printed && !/ requests in [\d.]+s, 0 B read/.test(out.stderr)
  const number = os.constants.signals[signal]
  const expected = signal === 'SIGINT' ? (measured ? [0] : [130]) : [128 + number]
  // Death by the signal is 128 + its number to a shell: 130 for Ctrl-C,
  // which is wrong once there is a result.
  const diedAsExpected = out.signal === signal && !(signal === 'SIGINT' && measured)
  if (expected.includes(out.code) || diedAsExpected) {
    // As it should be.
  } else if (moment.exiting && out.code === 0 && found.length === 0 && printed && !out.stderr.includes('Running ', summary)) {
    out.exitRace = true
  } else {
    found.push(`exit ${out.code === null ? out.signal : out.code}, expected ${expected.join(' or ')} (or death by ${signal})`)
  }
  if (printed && out.stderr.indexOf('Running ', summary) >= 0) found.push('a "Running" header after the result')
  if (/no response from/.test(out.stderr)) found.push('"no response from" after a signal')
  return found
}

t.test(`signals at random moments (seed ${SEED}) leave no process, pipe or folder, and exit 128 + signal`, async (t) => {
  if (process.platform !== 'linux') return t.skip('reads /proc to tell a live process from one that has exited')
  const dir = tmpdir(t, 'ac-stress-')
  // The test's own temp directory: the CLI's folders for --on-port are
  // made there (its compile cache too, shared by the trials).
  const tmp = fs.mkdtempSync(path.join(dir, 'tmp-'))
  const script = path.join(dir, 'command.js')
  fs.writeFileSync(script, COMMAND)
  const next = random(SEED)
  const trials = []
  for (const moment of MOMENTS) {
    for (let i = 0; i < moment.trials; i++) {
      const signal = SIGNALS[Math.floor(next() * SIGNALS.length)]
      // The stubborn command: SIGTERM only, the signal it ignores.
      const delay = Math.round(moment.at[0] + next() * (moment.at[1] - moment.at[0]))
      trials.push({ moment, signal: moment.mode === 'stubborn' ? 'SIGTERM' : signal, delay, dir, tmp, script, covered: i % COVERED_EVERY === 0 })
    }
  }
  t.ok(trials.length >= 200, `${trials.length} trials`)
  // Interleaved, so that the slow moments (the stubborn command's grace)
  // overlap the quick ones.
  const order = trials.map((trial, i) => [next(), i]).sort((a, b) => a[0] - b[0]).map(([, i]) => trials[i])
  const failures = []
  const counts = new Map()
  const started = Date.now()
  let cursor = 0
  const worker = async () => {
    while (cursor < order.length) {
      const one = order[cursor++]
      const out = await trial(one)
      const found = problems(out, one.signal, one.moment)
      const key = one.moment.name
      const count = counts.get(key) || { trials: 0, signalled: 0, failed: 0, exitRace: 0 }
      count.trials++
      if (out.exitRace) count.exitRace++
      if (out.sentAt !== null) count.signalled++
      if (found.length > 0) {
        count.failed++
        failures.push(`${key}, ${one.signal} at +${one.delay} ms: ${found.join('; ')}\n${out.stderr.split('\n').slice(-6).join('\n')}`)
      }
      counts.set(key, count)
    }
  }
  await Promise.all(Array.from({ length: AT_ONCE }, worker))
  for (const [name, count] of counts) t.comment(`${name}: ${count.trials} trials, ${count.signalled} signalled, ${count.failed} failed${count.exitRace ? `, ${count.exitRace} exit 0 as the CLI ended` : ''}`)
  t.comment(`${trials.length} trials in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  t.same(failures, [], 'every trial ended cleanly')
  for (const [name, count] of counts) {
    if (count.exitRace) t.ok(count.exitRace <= count.trials * EXIT_RACE_SHARE, `${name}: ${count.exitRace} of ${count.trials} signals unseen as the CLI ended (at most ${EXIT_RACE_SHARE * 100}%)`)
  }
  // The signal reached most runs before they ended: the moments are real.
  // As the CLI exits, a quiet machine ends it within the moment's window
  // (0-30 ms after the result) often enough: half is what shows the
  // moment is hit (with 0-40 ms, 20 to 25 of 32 were, quiet).
  const exiting = new Set(MOMENTS.filter((m) => m.exiting).map((m) => m.name))
  for (const [name, count] of counts) {
    const least = exiting.has(name) ? 0.5 : 0.8
    t.ok(count.signalled >= count.trials * least, `${name}: ${count.signalled} of ${count.trials} signalled before the CLI ended (at least ${least * 100}%)`)
  }
  // The folders of --on-port (autocannon-XXXXXX); the compile cache's
  // (autocannon-compile-cache-UID) is meant to stay.
  const left = fs.readdirSync(tmp).filter((f) => /^autocannon-[A-Za-z0-9]{6}$/.test(f))
  t.same(left, [], 'no autocannon-XXXXXX folder left')
})
