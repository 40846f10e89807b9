'use strict'

// A clock that moves only when nothing else is left to run: setTimeout,
// setInterval, their clears and Date.now are replaced, for the code under
// test and the test alike, until the test ends. Whenever no callback and
// no promise is waiting (the real setImmediate comes round), its time
// jumps to the next timer due and fires it, one at a time, in the order
// Node's would fire (due time, then creation). So a test that waits
// seconds of the code's timers waits none of the wall clock's, and reads
// the exact times of the code's schedule rather than a loaded machine's.
// For code that keeps time with these alone: no I/O to wait for (time
// would jump past it), no performance.now() (left real), no new Date().
//
// useFakeClock(t) → { now(): the clock's time in ms, pending(): timers set }.

const real = {
  setTimeout: global.setTimeout,
  clearTimeout: global.clearTimeout,
  setInterval: global.setInterval,
  clearInterval: global.clearInterval,
  setImmediate: global.setImmediate,
  dateNow: Date.now
}

// What setTimeout returns: enough of Node's Timeout for code that refs,
// unrefs or refreshes it.
class FakeTimer {
  constructor (id, clock) {
    this.id = id
    this.clock = clock
  }

  ref () { return this }
  unref () { return this }
  hasRef () { return true }

  refresh () {
    this.clock.refresh(this.id)
    return this
  }

  [Symbol.toPrimitive] () { return this.id }
}

// Node fires a delay under 1 ms, or over the largest it takes, after 1 ms.
const TIMEOUT_MAX = 2 ** 31 - 1
const delayOf = (ms) => (ms >= 1 && ms <= TIMEOUT_MAX ? Number(ms) : 1)

function useFakeClock (t) {
  let now = real.dateNow()
  let order = 0
  let stepping = false
  let installed = true
  // id → { fn, args, delay, at, repeat, order }
  const timers = new Map()

  const step = () => {
    stepping = false
    if (!installed || timers.size === 0) return
    let id = null
    let next = null
    for (const [k, timer] of timers) {
      if (next === null || timer.at < next.at || (timer.at === next.at && timer.order < next.order)) {
        id = k
        next = timer
      }
    }
    now = Math.max(now, next.at)
    if (next.repeat) {
      next.at = now + next.delay
      next.order = ++order
    } else {
      timers.delete(id)
    }
    try {
      next.fn(...next.args)
    } finally {
      drive()
    }
  }
  const drive = () => {
    if (stepping || !installed || timers.size === 0) return
    stepping = true
    real.setImmediate(step)
  }

  const clock = {
    now: () => now,
    pending: () => timers.size,
    refresh (id) {
      const timer = timers.get(id)
      if (timer) {
        timer.at = now + timer.delay
        timer.order = ++order
      }
    }
  }
  const add = (repeat) => (fn, ms, ...args) => {
    const id = ++order
    const delay = delayOf(ms)
    timers.set(id, { fn, args, delay, at: now + delay, repeat, order: id })
    drive()
    return new FakeTimer(id, clock)
  }
  // A timer of the real clock's (set before this one was installed) is
  // cleared on it.
  const clear = (realClear) => (timer) => {
    if (timer instanceof FakeTimer) timers.delete(timer.id)
    else realClear(timer)
  }

  global.setTimeout = add(false)
  global.setInterval = add(true)
  global.clearTimeout = clear(real.clearTimeout)
  global.clearInterval = clear(real.clearInterval)
  Date.now = () => Math.floor(now)
  t.teardown(() => {
    installed = false
    timers.clear()
    global.setTimeout = real.setTimeout
    global.setInterval = real.setInterval
    global.clearTimeout = real.clearTimeout
    global.clearInterval = real.clearInterval
    Date.now = real.dateNow
  })
  return clock
}

module.exports = { useFakeClock }
