'use strict'

// The CPU time of the calling thread, in µs: what tells a pause of the
// sending thread that was its own work (its CPU time advanced with the
// wall clock) from one where it was not running (other processes had the
// core). Read once per loop-monitor sample, never per request.
//
// process.threadCpuUsage() where Node has it (23.9 and later), asked
// after process.cpuUsage(): Linux brings a running thread's CPU time up
// to date only at a scheduler tick (4 ms at 250 Hz) or when the process's
// is asked for, and a read on its own lags by up to a tick (1 ms of work
// read as 0 or as 4 ms), which would turn a pause of the thread's own
// into the machine's, or the other way round. Else, on
// Linux, the thread's schedstat (its time on a CPU, in ns, per thread in
// worker threads too: a read of a file kept open); else, in the main
// thread only, process.cpuUsage(), the whole process's (GC helpers and
// the libuv pool included: a little more own work than there was). A
// worker thread with none of these gets no clock (null): the whole
// process's CPU time would count the other workers' work as its own.

const fs = require('fs')
const { lazy } = require('../core/lazy')
// Lazy: only a thread with neither clock above asks whether it is the
// main one.
const workerThreads = lazy(() => require('worker_threads'))

const SCHEDSTAT = '/proc/thread-self/schedstat'

// → { source, read() → µs, close() }, or null. The options stand in for
// the process and the file in tests.
function createThreadClock ({ threadCpuUsage = process.threadCpuUsage, cpuUsage = process.cpuUsage, schedstat = SCHEDSTAT, mainThread } = {}) {
  if (typeof threadCpuUsage === 'function') {
    return {
      source: 'threadCpuUsage',
      read: () => {
        cpuUsage()
        const u = threadCpuUsage()
        return u.user + u.system
      },
      close () {}
    }
  }
  const stat = schedstat ? openSchedstat(schedstat) : null
  if (stat !== null) return stat
  if (mainThread === undefined ? workerThreads().isMainThread : mainThread) return { source: 'cpuUsage', read: () => { const u = process.cpuUsage(); return u.user + u.system }, close () {} }
  return null
}

function openSchedstat (file) {
  let fd
  try {
    fd = fs.openSync(file, 'r')
  } catch {
    return null
  }
  const buf = Buffer.alloc(64)
  // The first field: ns spent on a CPU. Read again from the start each
  // time: the file is made anew at each read. The kernel brings a running
  // thread's count up to date only at a scheduler tick (up to 10 ms
  // behind), or when the process's CPU time is asked for, as
  // process.cpuUsage() does (one getrusage call): asked first.
  const read = () => {
    process.cpuUsage()
    const n = fs.readSync(fd, buf, 0, buf.length, 0)
    let ns = 0
    for (let i = 0; i < n; i++) {
      const c = buf[i]
      if (c < 48 || c > 57) break
      ns = ns * 10 + (c - 48)
    }
    return ns / 1000
  }
  const close = () => {
    if (fd === null) return
    fs.closeSync(fd)
    fd = null
  }
  try {
    if (!(read() >= 0)) throw new Error('not a schedstat')
  } catch {
    close()
    return null
  }
  return { source: 'schedstat', read, close }
}

module.exports = { createThreadClock }
