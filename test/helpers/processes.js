'use strict'

// Processes as Linux's /proc tells them, for the tests that check what a
// signal or a run left behind.

const fs = require('fs')

// The kernel's PF_EXITING, in /proc/<pid>/stat's flags field.
const PF_EXITING = 0x4

// The fields of /proc/<pid>/stat after the command's name (which may hold
// spaces and parentheses): [state, ppid, …]; null once it is gone.
function statFields (pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return null
  }
}

// Whether the process has exited: not there, a zombie or dead.
function gone (pid) {
  const fields = statFields(pid)
  return fields === null || fields[0] === 'Z' || fields[0] === 'X'
}

// Whether the process has exited and been reaped: no trace of it left,
// not even a zombie (which a container's init may never reap).
function reaped (pid) {
  return statFields(pid) === null
}

// Whether the process has exited or is exiting: gone, or PF_EXITING in its
// flags (the kernel is tearing it down, which takes milliseconds on a busy
// machine, and drops any signal sent meanwhile: not one it could see).
function ended (pid) {
  const fields = statFields(pid)
  return fields === null || fields[0] === 'Z' || fields[0] === 'X' || (Number(fields[6]) & PF_EXITING) !== 0
}

// The processes still running whose environment holds `marker` (every
// process a test's CLI started inherits it): [{ pid, cmd }].
function running (marker) {
  const found = []
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      if (gone(name)) continue
      if (!fs.readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(marker)) continue
      found.push({ pid: Number(name), cmd: fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim() })
    } catch {}
  }
  return found
}

// Resolves true once fn() is, polling every `every` ms; false after `ms`.
async function waitFor (fn, ms, every) {
  const until = Date.now() + ms
  while (Date.now() < until) {
    if (fn()) return true
    await new Promise((resolve) => setTimeout(resolve, every))
  }
  return false
}

module.exports = { gone, ended, running, waitFor, reaped }
