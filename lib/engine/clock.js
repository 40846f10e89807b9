'use strict'

// A run's time: when it begins (at once, or at a start time every shard
// and worker waits for), when each sample falls (fixed offsets from the
// start, whatever the timers' drift), the ticks and the timeout sweep, and
// when a run of a duration ends. Timers may fire a little early (by up to
// a millisecond): each is armed again for what is left, so that no sample,
// and no run, ends before its time.

const { performance } = require('perf_hooks')

class RunClock {
  // clock: { start, epoch }, the performance.now() ms that maps to the
  // epoch ms (workers are handed the main thread's, so that their samples
  // line up). on: { begin(), sample(due) → false to stop sampling, tick(),
  // sweep(), end() }.
  constructor (config, clock, on) {
    this.config = config
    this.clock = clock || { start: performance.now(), epoch: performance.timeOrigin + performance.now() }
    this.on = on
    // Where the samples are counted from, and when the run really began:
    // the same, except when a start time was given and the run got there
    // late (a timer's lateness, a worker's boot).
    this.startedAt = 0
    this.beganAt = 0
    this.waitTimer = null
    this.sampleTimer = null
    this.timers = []
  }

  perfAt (epochMs) {
    return this.clock.start + (epochMs - this.clock.epoch)
  }

  epochAt (t) {
    return this.clock.epoch + (t - this.clock.start)
  }

  // Begins now, or once the epoch ms `startAt` comes: one timer until
  // then, and nothing of the run exists before.
  start (startAt) {
    if (startAt === undefined) return this.begin(null)
    this.waitUntil(this.perfAt(startAt))
  }

  waitUntil (at) {
    this.waitTimer = null
    const left = at - performance.now()
    if (left > 0) {
      this.waitTimer = setTimeout(() => this.waitUntil(at), left)
      return
    }
    this.begin(at)
  }

  // `at`: the start time (performance.now() ms), or null for now.
  begin (at) {
    const config = this.config
    const now = performance.now()
    this.beganAt = now
    this.startedAt = at === null ? now : this.sampleOrigin(at, now)
    this.scheduleSample(1)
    this.timers.push(setInterval(() => this.on.tick(), 1000))
    const timeoutMs = config.timeout * 1000
    this.timers.push(setInterval(() => this.on.sweep(), Math.max(10, Math.min(250, timeoutMs / 10))))
    // From the sample origin: shards that started together end together.
    if (!config.amount) this.endAt(this.startedAt + config.duration * 1000)
    this.on.begin()
  }

  // Samples are counted from the start time, so that they end at the same
  // instants on every machine, even when this one got there a little late
  // (its first sample is then short). Later than a whole interval, the
  // intervals it missed are skipped rather than recorded as empty: the
  // samples still fall on the shared grid, and the merge's start skew
  // shows how late it was.
  sampleOrigin (at, now) {
    const interval = this.config.sampleInt
    if (now - at <= interval) return at
    return at + Math.floor((now - at) / interval) * interval
  }

  // The run ends at its deadline, never before (`-d 1` measures at least
  // 1 s).
  endAt (at) {
    const left = at - performance.now()
    if (left <= 0) return this.on.end()
    const timer = setTimeout(() => {
      this.timers.splice(this.timers.indexOf(timer), 1)
      this.endAt(at)
    }, Math.ceil(left))
    this.timers.push(timer)
  }

  scheduleSample (k) {
    const due = this.startedAt + k * this.config.sampleInt
    const fire = () => {
      const left = due - performance.now()
      if (left > 0) {
        this.sampleTimer = setTimeout(fire, Math.ceil(left))
        return
      }
      if (this.on.sample(due)) this.scheduleSample(k + 1)
    }
    this.sampleTimer = setTimeout(fire, Math.max(0, due - performance.now()))
  }

  // Where the last sample ends: `elapsed` ms into the run, with `taken`
  // samples so far. → the sample's end when the interval is (nearly)
  // whole, so that it ends where its timer would have ended it, as every
  // other sample does (and every other shard's, on other machines); else
  // null.
  lastSampleEnd (elapsed, taken) {
    const sampleInt = this.config.sampleInt
    const due = (taken + 1) * sampleInt
    return elapsed >= due - Math.max(5, sampleInt * 0.02) ? this.startedAt + due : null
  }

  stop () {
    clearTimeout(this.waitTimer)
    clearTimeout(this.sampleTimer)
    for (const t of this.timers) clearTimeout(t)
  }
}

module.exports = { RunClock }
