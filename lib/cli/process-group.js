'use strict'

// The processes of a process group that are still running, as Linux's
// /proc says (null elsewhere): the CLI waits on the group of the command
// it started for --on-port, and so does the watchdog that leads it. And
// a signal to every one of them but the leader: a SIGKILL to the whole
// group kills the leader before it can reap its children, and what it
// leaves is handed to init, which in a container may never reap it (a
// zombie for as long as the container runs).

const fs = require('fs')

// The pids of the group's running members, or null without /proc. A
// member that has died but that its parent has not yet reaped (a zombie,
// which kill(-pgid, 0) still finds) is gone.
function members (pgid) {
  let names
  try {
    names = fs.readdirSync('/proc')
  } catch {
    return null
  }
  const pids = []
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue
    let stat
    try {
      stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8')
    } catch {
      continue
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') pids.push(Number(name))
  }
  return pids
}

function liveMembers (pgid) {
  const pids = members(pgid)
  return pids === null ? null : pids.length
}

// `signal` to each running member of group `pgid` but its leader (whose
// id is the group's), which stays to reap them. → false where /proc
// cannot say who they are (nothing was sent).
function signalMembers (pgid, signal) {
  const pids = members(pgid)
  if (pids === null) return false
  for (const pid of pids) {
    if (pid === pgid) continue
    try { process.kill(pid, signal) } catch {}
  }
  return true
}

module.exports = { liveMembers, signalMembers }
