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
// counted.
// perf_hooks.monitorEventLoopDelay measures the same thing, but into a
// histogram that can be neither merged across threads and machines nor
// read per interval without a second timer; this one records into the
// recorder's HdrHistograms, which travel and merge as latency does.
// Busy is perf_hooks' event-loop utilisation: the share of the time the
// thread was not waiting for I/O, per thread (process.cpuUsage() is the
// whole process's, worker threads and GC helpers included).
//
// Each pause (a sample at least PAUSE_US late) is split by whose it was:
// the thread's CPU time (thread-clock.js) that advanced during the pause
// was its own work (a bug of ours, or more than one thread can send); the
// rest of the pause it was not running (descheduled: other processes had
// the core). Of the CPU time since the last sample, what the thread uses at
// its usual pace before its timer was due is not the pause's: that pace is
// its CPU share over the samples that were on time.

const { performance } = require('perf_hooks')
const { createThreadClock } = require('./thread-clock')

// 100 samples a second: a pause longer than that is always caught, and
// the timer costs a few microseconds each.
const PERIOD_MS = 10
const GRANULARITY_MS = 1
// A sample this late is a pause, its cause worth telling (the
// distortion rule's 1 ms at p99).
const PAUSE_US = 1000
// A pause this long can hold a request past the scheduler's LATE_MS (5 ms,
// the timer's millisecond aside): the late requests found after it are
// its. A shorter one (the work a long pause left behind) is not why they
// were late.
const HOLDS_US = 4000
// Half a late request's 5 ms (the scheduler's LATE_MS) of CPU time beyond
// the usual pace in a sample that was no pause: the request's wait was
// mostly the thread's own work.
const OWN_US = 2500
// The weight of each on-time sample in the usual pace.
const PACE_WEIGHT = 0.1

const OWN = 1
const STARVED = 2

class LoopMonitor {
  constructor (recorder) {
    this.recorder = recorder
    this.timer = null
    this.due = 0
    this.mark = null
    this.tick = () => this.sample()
    // The thread's CPU clock (null where it has none: pauses are then
    // not split), read at the last sample, when, and its usual pace.
    this.clock = null
    this.cpuAt = 0
    this.at = 0
    this.pace = 0
    // The cause of the last sample's pause (0: it was none).
    this.lastCause = 0
    // When (performance.now() ms) the last pause long enough to hold a
    // request late (HOLDS_US) ended, and its cause (OWN, STARVED, or 0
    // where the thread has no CPU clock): a search step's window waits for
    // the plan to catch up after one (lib/search/stepped-run.js).
    this.lastPauseAt = -Infinity
    this.lastPauseCause = 0
  }

  start (clock = createThreadClock()) {
    this.mark = performance.eventLoopUtilization()
    this.clock = clock
    this.at = performance.now()
    if (clock !== null) this.cpuAt = clock.read()
    this.due = this.at + PERIOD_MS
    this.timer = setTimeout(this.tick, PERIOD_MS)
  }

  sample () {
    const now = performance.now()
    const late = now - this.due - GRANULARITY_MS
    const lateUs = late > 0 ? Math.round(late * 1000) : 0
    if (lateUs >= HOLDS_US) {
      this.lastPauseAt = now
      this.lastPauseCause = 0
    }
    if (this.clock === null) {
      this.recorder.loopDelay(lateUs, null, 0)
    } else {
      const cpu = this.clock.read()
      const usedUs = cpu - this.cpuAt
      const wallUs = (now - this.at) * 1000
      let ownUs = null
      let cause = 0
      if (lateUs >= PAUSE_US) {
        // Before its timer was due the thread may have worked at its usual
        // pace; what it used beyond that, up to the pause, was the pause.
        const beforeUs = Math.max(0, this.due - this.at) * 1000 * this.pace
        ownUs = Math.min(lateUs, Math.max(0, Math.round(usedUs - beforeUs)))
        if (lateUs >= HOLDS_US) cause = ownUs * 2 >= lateUs ? OWN : STARVED
      } else if (wallUs > 0) {
        this.pace += (Math.min(1, usedUs / wallUs) - this.pace) * PACE_WEIGHT
      }
      // Requests found late after a short pause or none were held by the
      // last sample's long pause, or by one this sample saw only the end
      // of: its CPU time beyond the usual pace says whose.
      const held = cause || this.lastCause || (usedUs - wallUs * this.pace >= OWN_US ? OWN : STARVED)
      this.recorder.loopDelay(lateUs, ownUs, held)
      this.lastCause = cause
      if (cause !== 0) this.lastPauseCause = cause
      this.cpuAt = cpu
      this.at = now
    }
    // After a pause of several periods the schedule skips what it missed:
    // one pause is one sample, as long as the pause.
    this.due += PERIOD_MS * Math.max(1, Math.ceil((now - this.due) / PERIOD_MS))
    this.timer = setTimeout(this.tick, Math.max(0, this.due - now))
  }

  // A request left late. If the loop is late too, the pause that held
  // them is ending now, before the work it left behind (the requests due
  // in it, sent and answered): sampled now, that work is not counted as
  // the pause's. Once per pause: the sample moves `due` on.
  late () {
    if (this.timer === null || performance.now() - this.due < GRANULARITY_MS + PAUSE_US / 1000) return
    clearTimeout(this.timer)
    this.sample()
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
    if (this.clock !== null) this.clock.close()
    this.clock = null
  }
}

module.exports = { LoopMonitor, PERIOD_MS, GRANULARITY_MS, PAUSE_US, HOLDS_US, OWN, STARVED }
