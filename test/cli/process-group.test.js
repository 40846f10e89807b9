'use strict'

// liveMembers and signalMembers (lib/cli/process-group.js): the running
// processes of a process group, as /proc says (a zombie is not one of
// them), and a signal to all of them but the leader.

const t = require('tap')
const fs = require('fs')
const { spawn } = require('child_process')
const { liveMembers, signalMembers } = require('../../lib/cli/process-group')

async function until (fn, ms = 10000) {
  const end = Date.now() + ms
  while (!fn() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20))
}

t.test('counts the running members of a group, not its zombies', async (t) => {
  if (process.platform !== 'linux') return t.equal(liveMembers(process.pid), null, 'no /proc: null')
  // A group of its own: `sleep 30`, and a child it never reaps (the
  // shell started `sleep 0` and became `sleep 30`), a zombie once done.
  const leader = spawn('sh', ['-c', 'sleep 0 & exec sleep 30'], { detached: true, stdio: 'ignore' })
  t.teardown(() => { try { process.kill(-leader.pid, 'SIGKILL') } catch {} })
  const zombies = () => fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n)).filter((n) => {
    try {
      const fields = fs.readFileSync(`/proc/${n}/stat`, 'utf8').split(') ')[1].split(' ')
      return Number(fields[2]) === leader.pid && fields[0] === 'Z'
    } catch {
      return false
    }
  })
  await until(() => zombies().length === 1)
  t.equal(zombies().length, 1, 'the group holds a zombie')
  t.equal(liveMembers(leader.pid), 1, 'only `sleep 30` runs')
  process.kill(-leader.pid, 'SIGKILL')
  await until(() => liveMembers(leader.pid) === 0)
  t.equal(liveMembers(leader.pid), 0, 'none once the group is killed')
  t.equal(liveMembers(2 ** 30), 0, 'a group that does not exist')
})

t.test('a group outlives its leader: its other members still count', async (t) => {
  if (process.platform !== 'linux') return t.skip('reads /proc')
  const leader = spawn(process.execPath, ['-e', 'require("child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "ignore" }); setTimeout(() => {}, 30000)'], { detached: true, stdio: 'ignore' })
  t.teardown(() => { try { process.kill(-leader.pid, 'SIGKILL') } catch {} })
  await until(() => liveMembers(leader.pid) === 2)
  t.equal(liveMembers(leader.pid), 2, 'the leader and its child')
  const exited = new Promise((resolve) => leader.once('exit', resolve))
  process.kill(leader.pid, 'SIGKILL')
  await exited
  t.equal(liveMembers(leader.pid), 1, 'its child, left')
})

t.test('signalMembers: every running member but the leader, which stays to reap them', async (t) => {
  if (process.platform !== 'linux') return t.equal(signalMembers(process.pid, 0), false, 'no /proc: nothing sent')
  const leader = spawn(process.execPath, ['-e', 'require("child_process").spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"], { stdio: "ignore" }); setTimeout(() => {}, 30000)'], { detached: true, stdio: 'ignore' })
  t.teardown(() => { try { process.kill(-leader.pid, 'SIGKILL') } catch {} })
  await until(() => liveMembers(leader.pid) === 2)
  t.equal(signalMembers(leader.pid, 'SIGKILL'), true)
  await until(() => liveMembers(leader.pid) <= 1)
  // Time for a SIGKILL sent to the leader too to have taken it.
  await new Promise((resolve) => setTimeout(resolve, 300))
  t.equal(liveMembers(leader.pid), 1, 'one member left')
  // The leader itself: running, not a zombie (which kill(pid, 0) finds).
  const state = (() => { try { return fs.readFileSync(`/proc/${leader.pid}/stat`, 'utf8').split(') ')[1][0] } catch { return null } })()
  t.ok(state !== null && state !== 'Z' && state !== 'X', `the leader runs on (state ${state})`)
  t.equal(signalMembers(2 ** 30, 'SIGKILL'), true, 'a group that does not exist: none to signal')
})
