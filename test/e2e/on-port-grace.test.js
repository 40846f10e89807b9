'use strict'

// --on-port's stop() (lib/cli/on-port.js) on a real process group: it
// resolves once nothing of the command's group is left, a member that
// ignores SIGTERM killed after the 3 s grace, and the command's socket
// folder removed. The rest of --on-port: test/cli/on-port.test.js.

const t = require('tap')
const { startCommand } = require('../../lib/cli/on-port')
const { Session } = require('../../lib/engine/session')

t.test('stop(): resolves once nothing of the command\'s group is left, a member that ignores SIGTERM killed after the grace', async (t) => {
  const fs = require('fs')
  const os = require('os')
  const path = require('path')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-on-port-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const pidFile = path.join(dir, 'grandchild')
  // The leader listens and exits on SIGTERM; its child (same group)
  // ignores SIGTERM and outlives it.
  const grandchild = `process.on("SIGTERM", () => {}); require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1000)`
  const leader = `require("child_process").spawn(process.execPath, ["-e", ${JSON.stringify(grandchild)}], { stdio: "ignore", env: {} }); require("http").createServer().listen(0, "127.0.0.1")`
  // The command's socket folder goes in a TMPDIR of this test's own, where
  // other tests running beside it make and remove none.
  const tmp = path.join(dir, 'tmp')
  fs.mkdirSync(tmp)
  const saved = process.env.TMPDIR
  process.env.TMPDIR = tmp
  t.teardown(() => { if (saved === undefined) delete process.env.TMPDIR; else process.env.TMPDIR = saved })
  const { stop } = await startCommand({ spawn: [process.execPath, '-e', leader] }, new Session())
  const until = Date.now() + 10000
  while (!fs.existsSync(pidFile) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20))
  const pid = Number(fs.readFileSync(pidFile, 'utf8'))
  t.match(fs.readdirSync(tmp), [/^autocannon-/], 'the socket folder, while the command runs')
  const stoppedAt = Date.now()
  await stop()
  const took = Date.now() - stoppedAt
  // Dead: no longer there, or a zombie that init has not reaped yet.
  let state = 'gone'
  try { state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8') } catch {}
  t.ok(state === 'gone' || / Z /.test(state.slice(state.lastIndexOf(')'))), `the group's other member is gone too (${state.slice(0, 40)})`)
  t.ok(took >= 2900 && took < 8000, `SIGKILL after the 3 s grace (${took} ms)`)
  t.equal(await stop(), undefined, 'a second stop() is the same one')
  t.same(fs.readdirSync(tmp), [], 'its socket folder removed')
})
