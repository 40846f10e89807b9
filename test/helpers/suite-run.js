'use strict'

// Which tap run a process belongs to, and the processes of a run still
// running. Every test file tap runs preloads suite-run-mark.js (.taprc's
// node-arg), which writes the run's id into the file's environment, and
// every process a test starts inherits it (a shell, a detached server, the
// CLI and its command), wherever it is in the tree and whoever its parent
// is once its own has died. processes-left.js, which tap runs after every
// test file has ended (.taprc's after), lists those still running. A
// process started with an environment of its own making (not a copy of
// its parent's) carries no id, and is not seen.

const fs = require('fs')

const VAR = 'AC_TEST_RUN'

// A run's id: the tap runner's pid and start time (pids come round again).
function runId (runnerPid) {
  const stat = fs.readFileSync(`/proc/${runnerPid}/stat`, 'utf8')
  // pid (comm) state ppid … starttime is the 22nd field; comm may hold
  // spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return `${runnerPid}-${fields[19]}`
}

// The processes still running (not zombies) whose environment holds run
// `id`, but `except` (pids): [{ pid, cmd }].
function processesOf (id, except = []) {
  const entry = `${VAR}=${id}`
  const found = []
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || except.includes(Number(name))) continue
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8')
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]
      if (state === 'Z' || state === 'X') continue
      if (!fs.readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(entry)) continue
      const cmd = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim()
      found.push({ pid: Number(name), cmd })
    } catch {
      // Gone meanwhile, or another user's.
    }
  }
  return found
}

module.exports = { VAR, runId, processesOf }
