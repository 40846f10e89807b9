'use strict'

// The watchdog --on-port puts between the CLI and the command
// (lib/cli/command-watchdog.js), started here as the CLI starts it
// (detached, with an IPC channel), this test standing for the CLI: it
// starts the command in its group, says how the command exited, exits as
// the command did once nothing else of its group runs, and ends the group
// and removes the folder when the channel closes. The CLI dying by SIGKILL at
// random moments, within a second: test/e2e/on-port-sigkill.test.js.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { spawn } = require('child_process')
const { watchdogEnv, commandEnv } = require('../../lib/cli/command-watchdog')
const { gone, waitFor: pollUntil } = require('../helpers/processes')

const WATCHDOG = path.join(__dirname, '..', '..', 'lib', 'cli', 'command-watchdog.js')

function tmpdir (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-watchdog-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

// The watchdog with `command`; resolves `.done` to { code, signal,
// messages } once it has exited.
function watchdog (t, folder, command, env = process.env) {
  const child = spawn(process.execPath, [WATCHDOG, folder, ...command], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], detached: true, env })
  const messages = []
  child.on('message', (m) => messages.push(m))
  child.done = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, messages })))
  // Whatever a failed test left is ended here.
  t.teardown(() => { try { process.kill(-child.pid, 'SIGKILL') } catch {} })
  return child
}

const waitFor = (fn, ms = 10000) => pollUntil(fn, ms, 10)

t.test('the environments: the command gets NODE_OPTIONS, the watchdog none', async (t) => {
  const env = watchdogEnv({ PATH: '/bin', NODE_OPTIONS: '--user', X: '1' }, '--require d.js --user')
  t.same(env, { PATH: '/bin', X: '1', AUTOCANNON_COMMAND_NODE_OPTIONS: '--require d.js --user' })
  t.same(commandEnv(env), { PATH: '/bin', X: '1', NODE_OPTIONS: '--require d.js --user' })
  t.same(commandEnv({ PATH: '/bin' }), { PATH: '/bin' }, 'none to give, none given')
})

t.test('starts the command in its own group; says how it exited; exits as it did', async (t) => {
  const dir = tmpdir(t)
  const pidFile = path.join(dir, 'pid')
  const script = `const fs = require('fs'); const pgid = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[2]; fs.writeFileSync(${JSON.stringify(pidFile)}, [process.pid, process.ppid, pgid, process.env.NODE_OPTIONS].join(' ')); setTimeout(() => process.exit(3), 200)`
  const w = watchdog(t, dir, [process.execPath, '-e', script], watchdogEnv(process.env, '--no-warnings'))
  const out = await w.done
  const [pid, ppid, pgid, ...nodeOptions] = fs.readFileSync(pidFile, 'utf8').split(' ')
  // (tap's process-info hooks, loaded into the watchdog, quote it and add
  // theirs after.)
  t.match(nodeOptions.join(' '), /^"?--no-warnings"?( |$)/, 'the command\'s NODE_OPTIONS')
  if (process.platform === 'linux') t.same([Number(ppid), Number(pgid)], [w.pid, w.pid], 'the watchdog\'s child, in the group it leads')
  t.same(out, { code: 3, signal: null, messages: [{ exit: { code: 3, signal: null } }] })
  t.ok(gone(Number(pid)), 'the command is gone')
  t.ok(fs.existsSync(dir), 'the folder is the CLI\'s to remove when all goes well')
})

t.test('a command ended by a signal: the watchdog ends by it too', async (t) => {
  const dir = tmpdir(t)
  const w = watchdog(t, dir, [process.execPath, '-e', 'process.kill(process.pid, "SIGTERM"); setTimeout(() => {}, 5000)'])
  const out = await w.done
  t.same(out, { code: null, signal: 'SIGTERM', messages: [{ exit: { code: null, signal: 'SIGTERM' } }] })
})

t.test('a command that cannot start: its error, and an exit', async (t) => {
  const dir = tmpdir(t)
  const w = watchdog(t, dir, [path.join(dir, 'no-such-command')])
  const out = await w.done
  t.equal(out.code, 1)
  t.match(out.messages, [{ error: /ENOENT/ }])
})

t.test('a wrapper that exits first: its exit is told at once, the watchdog stays until the rest of its group is gone', async (t) => {
  if (process.platform !== 'linux') return t.skip('reads /proc to see the group')
  const dir = tmpdir(t)
  const pidFile = path.join(dir, 'pid')
  const left = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setTimeout(() => {}, 600)`
  const wrapper = `require("child_process").spawn(process.execPath, ["-e", ${JSON.stringify(left)}], { stdio: "ignore" }); setTimeout(() => process.exit(5), 100)`
  const w = watchdog(t, dir, [process.execPath, '-e', wrapper])
  let toldAt = null
  w.on('message', () => { toldAt = Date.now() })
  const out = await w.done
  const exitedAt = Date.now()
  t.same(out, { code: 5, signal: null, messages: [{ exit: { code: 5, signal: null } }] })
  t.ok(gone(Number(fs.readFileSync(pidFile, 'utf8'))), 'the wrapper\'s child was gone before the watchdog exited')
  t.ok(toldAt !== null && exitedAt - toldAt >= 200, `told at once, exited ${exitedAt - toldAt} ms later with the group`)
})

t.test('the channel closes (the CLI is gone): the group is ended, SIGKILL for what ignores SIGTERM, the folder removed', async (t) => {
  if (process.platform !== 'linux') return t.skip('reads /proc to see the processes')
  const dir = tmpdir(t)
  const folder = path.join(dir, 'autocannon-abcdef')
  fs.mkdirSync(folder)
  fs.writeFileSync(path.join(folder, 'port.sock'), '')
  const pidFile = path.join(dir, 'pid')
  const stubborn = `process.on("SIGTERM", () => {}); require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`
  const w = watchdog(t, folder, [process.execPath, '-e', stubborn])
  t.ok(await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8') !== ''), 'the command runs')
  const pid = Number(fs.readFileSync(pidFile, 'utf8'))
  w.disconnect()
  const out = await w.done
  t.ok(await waitFor(() => gone(pid)), 'the command that ignores SIGTERM is gone')
  t.equal(out.signal, 'SIGKILL', 'the watchdog went with its group\'s SIGKILL')
  t.notOk(fs.existsSync(folder), 'the CLI\'s folder removed')
})

t.test('the channel closes at once (the CLI died as the watchdog started): nothing of the group left, the folder removed', async (t) => {
  if (process.platform !== 'linux') return t.skip('reads /proc to see the processes')
  const dir = tmpdir(t)
  const folder = path.join(dir, 'autocannon-ghijkl')
  fs.mkdirSync(folder)
  const pidFile = path.join(dir, 'pid')
  const w = watchdog(t, folder, [process.execPath, '-e', `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`])
  w.disconnect()
  const out = await w.done
  t.notOk(fs.existsSync(folder), 'the folder removed')
  // Closed before the watchdog looked: it starts nothing and exits 1;
  // after: it ends the group it started, itself with it.
  t.ok(out.code === 1 || out.signal === 'SIGTERM' || out.signal === 'SIGKILL', `the watchdog went (${out.signal || `code ${out.code}`})`)
  // The command ended before it wrote its pid, or after.
  await new Promise((resolve) => setTimeout(resolve, 300))
  if (fs.existsSync(pidFile)) t.ok(gone(Number(fs.readFileSync(pidFile, 'utf8'))), 'the command is gone')
})
