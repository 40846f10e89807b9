'use strict'

// The sending thread's own health, measured while it sends: how late its
// event loop runs timers (what a due request waits for before it can
// leave, and a response before it is read) and how busy the loop is.
//
// Lateness is taken against an absolute schedule (a timer due every
// PERIOD_MS from the start), not from one callback to the next, so a pause
// is measured once, as long as it was. Node's timers fire up to about a
// millisecond after they are due on an idle thread (libuv keeps time in
// whole milliseconds, on a clock whose ticks are not ours): that
// millisecond (GRANULARITY_MS) is the timer's, not a pause, and is not
// counted. Measured on an idle loop: p99 1.00 ms, max 1.07 ms before it.
// perf_hooks.monitorEventLoopDelay measures the same thing, but into a
// histogram that can be neither merged across threads and machines nor
// read per interval without a second timer; this one records into the
// recorder's HdrHistograms, which travel and merge as latency does.
// Busy is perf_hooks' event-loop utilisation: the share of the time the
// thread was not waiting for I/O, per thread (process.cpuUsage() is the
// whole process's, worker threads and GC helpers included).

const { performance } = require('perf_hooks')

// 100 samples a second: a pause longer than that is always caught, and
// the timer costs a few microseconds each.
const PERIOD_MS = 10
const GRANULARITY_MS = 1

class LoopMonitor {
  constructor (recorder) {
    this.recorder = recorder
    this.timer = null
    this.due = 0
    this.mark = null
    this.tick = () => this.sample()
  }

  start () {
    this.mark = performance.eventLoopUtilization()
    this.due = performance.now() + PERIOD_MS
    this.timer = setTimeout(this.tick, PERIOD_MS)
  }

  sample () {
    const now = performance.now()
    const late = now - this.due - GRANULARITY_MS
    this.recorder.loopDelay(late > 0 ? Math.round(late * 1000) : 0)
    // After a pause of several periods the schedule skips what it missed:
    // one pause is one sample, as long as the pause.
    this.due += PERIOD_MS * Math.max(1, Math.ceil((now - this.due) / PERIOD_MS))
    this.timer = setTimeout(this.tick, Math.max(0, this.due - now))
  }

  // The share of the time since the last call (or the start) the loop was
  // busy, 0 to 1.
  busy () {
    if (this.mark === null) return 0
    const next = performance.eventLoopUtilization()
    const { utilization } = performance.eventLoopUtilization(next, this.mark)
    this.mark = next
    return Math.round(utilization * 1000) / 1000
  }

  stop () {
    if (this.timer !== null) clearTimeout(this.timer)
    this.timer = null
  }
}

module.exports = { LoopMonitor, PERIOD_MS, GRANULARITY_MS }
