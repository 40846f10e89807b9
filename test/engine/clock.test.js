'use strict'

// The run's clock (lib/engine/clock.js) on its own, with callbacks that
// note what they are called with: when a run begins (at once, or at a
// start time), where its samples are counted from when it got there
// late, samples at fixed offsets that no early timer brings forward, an
// end never before the deadline, the last sample's rule, and stop().

const t = require('tap')
const { performance } = require('perf_hooks')
const { RunClock } = require('../../lib/engine/clock')

// The real setTimeout, whatever earlyTimers() does to the global one.
const realSetTimeout = setTimeout
const sleep = (ms) => new Promise((resolve) => realSetTimeout(resolve, ms))

function config (over) {
  return { sampleInt: 20, duration: 0.1, amount: 0, timeout: 10, ...over }
}

// The callbacks, noting each call with performance.now() at the time.
function callbacks ({ keepSampling = () => true } = {}) {
  const log = { begin: [], samples: [], ticks: 0, sweeps: 0, ends: [] }
  const on = {
    begin: () => log.begin.push(performance.now()),
    sample: (due) => {
      log.samples.push({ due, at: performance.now() })
      return keepSampling(log.samples.length)
    },
    tick: () => log.ticks++,
    sweep: () => log.sweeps++,
    end: () => {
      log.ends.push(performance.now())
      if (log.onEnd) log.onEnd()
    }
  }
  log.ended = () => new Promise((resolve) => { log.onEnd = resolve })
  return { on, log }
}

// Timers that fire early, at half their delay (Node's may fire up to a
// millisecond early; this makes it certain and larger). Long ones (tap's)
// are left alone. → restore().
function earlyTimers () {
  global.setTimeout = (fn, ms, ...args) => realSetTimeout(fn, ms >= 2 && ms <= 1000 ? Math.floor(ms / 2) : ms, ...args)
  return () => { global.setTimeout = realSetTimeout }
}

t.test('perfAt and epochAt map performance.now() ms and epoch ms both ways', async (t) => {
  const clock = new RunClock(config(), { start: 1000, epoch: 1700000000000 }, callbacks().on)
  t.equal(clock.perfAt(1700000000500), 1500)
  t.equal(clock.epochAt(1500), 1700000000500)
  t.equal(clock.perfAt(1699999999000), 0, 'before the mapped moment too')
  // Without a clock handed in, this thread's own mapping.
  const own = new RunClock(config(), undefined, callbacks().on)
  t.ok(Math.abs(own.epochAt(performance.now()) - Date.now()) < 50, 'its own: epochAt(now) is Date.now()')
})

t.test('without a start time it begins at once', async (t) => {
  const { on, log } = callbacks()
  const clock = new RunClock(config(), undefined, on)
  const before = performance.now()
  clock.start(undefined)
  const after = performance.now()
  t.equal(log.begin.length, 1, 'begin() called synchronously')
  t.equal(clock.startedAt, clock.beganAt, 'samples counted from when it began')
  t.ok(clock.beganAt >= before && clock.beganAt <= after, 'began now')
  t.equal(clock.waitTimer, null, 'no wait')
  clock.stop()
})

t.test('with a start time it waits for it, and counts the samples from it', async (t) => {
  const { on, log } = callbacks()
  const clock = new RunClock(config({ sampleInt: 1000, duration: 5 }), undefined, on)
  const at = performance.now() + 60
  const startAt = clock.epochAt(at)
  clock.start(startAt)
  t.equal(log.begin.length, 0, 'nothing begins before the start time')
  t.not(clock.waitTimer, null)
  await new Promise((resolve) => { on.begin = () => { log.begin.push(performance.now()); resolve() } })
  t.equal(log.begin.length, 1, 'began once the time came')
  t.ok(log.begin[0] >= at, `not before it (${(log.begin[0] - at).toFixed(2)} ms after)`)
  t.equal(clock.startedAt, clock.perfAt(startAt), 'late by less than an interval: samples count from the start time')
  t.ok(clock.beganAt >= clock.startedAt, 'and it began at or after it')
  clock.stop()
})

t.test('sampleOrigin: late by up to an interval keeps the start time, later skips whole intervals', async (t) => {
  const clock = new RunClock(config({ sampleInt: 40 }), undefined, callbacks().on)
  t.equal(clock.sampleOrigin(1000, 1000), 1000, 'on time')
  t.equal(clock.sampleOrigin(1000, 1039), 1000)
  t.equal(clock.sampleOrigin(1000, 1040), 1000, 'late by exactly one interval: still counted from the start time')
  t.equal(clock.sampleOrigin(1000, 1041), 1040, 'late by more: the first interval is skipped')
  t.equal(clock.sampleOrigin(1000, 1119), 1080)
  t.equal(clock.sampleOrigin(1000, 1120), 1120)
})

t.test('a start time already past: begins at once, on the start time\'s grid', async (t) => {
  const { on, log } = callbacks()
  const clock = new RunClock(config({ sampleInt: 40, duration: 5 }), undefined, on)
  // 2.5 intervals ago: the two whole intervals missed are skipped.
  const at = performance.now() - 100
  clock.start(clock.epochAt(at))
  t.equal(log.begin.length, 1, 'no wait')
  t.equal(clock.startedAt, clock.perfAt(clock.epochAt(at)) + 80)
  t.ok(clock.beganAt - clock.startedAt >= 20 && clock.beganAt - clock.startedAt < 40, 'its first sample is short')
  clock.stop()

  const late = callbacks()
  const clock2 = new RunClock(config({ sampleInt: 40, duration: 5 }), undefined, late.on)
  const at2 = performance.now() - 10
  clock2.start(clock2.epochAt(at2))
  t.equal(clock2.startedAt, clock2.perfAt(clock2.epochAt(at2)), 'late by less than an interval: the start time')
  clock2.stop()
})

t.test('samples fall at fixed offsets from the start, and the run ends at its deadline', async (t) => {
  const { on, log } = callbacks()
  const clock = new RunClock(config({ sampleInt: 20, duration: 0.1 }), undefined, on)
  const ended = log.ended()
  clock.start()
  await ended
  clock.stop()
  const s = clock.startedAt
  // Four or five (the one at 100 ms and the end race); fewer only when
  // the machine is so loaded that the end comes before a late sample.
  const grid = [20, 40, 60, 80, 100].map((ms) => s + ms)
  t.ok(log.samples.length >= 2, `${log.samples.length} samples`)
  t.same(log.samples.map((x) => x.due), grid.slice(0, log.samples.length), 'due at k × sampleInt, not drifting')
  t.same(log.samples.filter((x) => x.at < x.due), [], 'none before its time')
  t.equal(log.ends.length, 1)
  t.ok(log.ends[0] >= s + 100, `ended ${(log.ends[0] - s).toFixed(2)} ms in, not before 100`)
})

t.test('timers that fire early are armed again: no sample and no end before its time', async (t) => {
  const { on, log } = callbacks()
  const clock = new RunClock(config({ sampleInt: 20, duration: 0.1 }), undefined, on)
  const restore = earlyTimers()
  try {
    const ended = log.ended()
    clock.start()
    await ended
  } finally {
    restore()
  }
  clock.stop()
  const s = clock.startedAt
  t.same(log.samples.filter((x) => x.at < x.due).map((x) => x.due - s), [], 'no sample early')
  t.ok(log.samples.length >= 2, `${log.samples.length} samples`)
  // In µs: the times are sums of floating-point ms (20.000000000000114).
  t.same(log.samples.map((x) => Math.round((x.due - s) * 1000) / 1000), [20, 40, 60, 80, 100].slice(0, log.samples.length), 'each once, in order')
  t.equal(log.ends.length, 1)
  t.ok(log.ends[0] >= s + 100, `ended ${(log.ends[0] - s).toFixed(2)} ms in, not before 100`)
})

t.test('sampling stops when sample() says so', async (t) => {
  const { on, log } = callbacks({ keepSampling: (n) => n < 2 })
  const clock = new RunClock(config({ sampleInt: 10, duration: 5 }), undefined, on)
  clock.start()
  await sleep(80)
  clock.stop()
  t.equal(log.samples.length, 2)
})

t.test('an amount run has no deadline', async (t) => {
  const { on, log } = callbacks()
  const clock = new RunClock(config({ amount: 10, duration: 0.02 }), undefined, on)
  clock.start()
  await sleep(60)
  clock.stop()
  t.equal(log.ends.length, 0)
  t.ok(log.samples.length > 0, 'it samples all the same')
})

t.test('endAt: a deadline already passed ends at once', async (t) => {
  const { on, log } = callbacks()
  const clock = new RunClock(config(), undefined, on)
  clock.endAt(performance.now() - 1)
  t.equal(log.ends.length, 1)
})

t.test('the tick is every second, the sweep a tenth of the timeout within 10 to 250 ms', async (t) => {
  const real = global.setInterval
  const armed = []
  global.setInterval = (fn, ms) => {
    armed.push({ fn, ms })
    return real(fn, ms)
  }
  const periods = {}
  try {
    for (const timeout of [0.05, 0.2, 10]) {
      armed.length = 0
      const { on } = callbacks()
      const clock = new RunClock(config({ timeout }), undefined, on)
      clock.start()
      clock.stop()
      periods[timeout] = armed.map((x) => x.ms)
    }
  } finally {
    global.setInterval = real
  }
  t.same(periods, { 0.05: [1000, 10], 0.2: [1000, 20], 10: [1000, 250] })

  // And they call tick() and sweep().
  const { on, log } = callbacks()
  const clock = new RunClock(config({ timeout: 0.05, duration: 5 }), undefined, on)
  clock.start()
  await sleep(60)
  t.ok(log.sweeps >= 1, `${log.sweeps} sweeps`)
  clock.stop()
  const sweeps = log.sweeps
  await sleep(40)
  t.equal(log.sweeps, sweeps, 'none after stop()')
})

t.test('tick() goes to on.tick', async (t) => {
  const real = global.setInterval
  const armed = []
  global.setInterval = (fn, ms) => {
    armed.push({ fn, ms })
    return real(fn, ms)
  }
  const { on, log } = callbacks()
  const clock = new RunClock(config(), undefined, on)
  try {
    clock.start()
  } finally {
    global.setInterval = real
  }
  clock.stop()
  armed.find((x) => x.ms === 1000).fn()
  t.equal(log.ticks, 1)
  t.equal(log.sweeps, 0)
})

t.test('lastSampleEnd: the last interval is a sample only when (nearly) whole', async (t) => {
  const clock = new RunClock(config({ sampleInt: 1000 }), undefined, callbacks().on)
  clock.startedAt = 500
  // 2% of 1000 ms = 20 ms of slack.
  t.equal(clock.lastSampleEnd(1000, 0), 1500, 'whole')
  t.equal(clock.lastSampleEnd(980, 0), 1500, '20 ms short: whole enough, it ends where its timer would have')
  t.equal(clock.lastSampleEnd(979, 0), null, 'shorter: not a sample')
  t.equal(clock.lastSampleEnd(2990, 2), 3500, 'the third interval')
  t.equal(clock.lastSampleEnd(2500, 2), null)

  const short = new RunClock(config({ sampleInt: 100 }), undefined, callbacks().on)
  short.startedAt = 0
  // 2% of 100 ms is 2 ms: at least 5 ms of slack.
  t.equal(short.lastSampleEnd(195, 1), 200)
  t.equal(short.lastSampleEnd(194, 1), null)
})

t.test('stop() clears everything: no callback after it', async (t) => {
  const { on, log } = callbacks()
  const clock = new RunClock(config({ sampleInt: 10, duration: 0.04, timeout: 0.05 }), undefined, on)
  clock.start()
  clock.stop()
  await sleep(80)
  t.same({ samples: log.samples.length, ends: log.ends.length, sweeps: log.sweeps }, { samples: 0, ends: 0, sweeps: 0 })

  // While waiting for a start time: it never begins.
  const waiting = callbacks()
  const clock2 = new RunClock(config(), undefined, waiting.on)
  clock2.start(clock2.epochAt(performance.now() + 20))
  clock2.stop()
  await sleep(50)
  t.equal(waiting.log.begin.length, 0, 'the wait is cleared')

  // With the end timer armed again (early timers): that one is cleared too.
  const rearmed = callbacks()
  const clock3 = new RunClock(config({ sampleInt: 1000, duration: 0.06 }), undefined, rearmed.on)
  const restore = earlyTimers()
  try {
    clock3.start()
    await sleep(40)
    clock3.stop()
  } finally {
    restore()
  }
  await sleep(60)
  t.equal(rearmed.log.ends.length, 0, 'the end timer armed again is cleared')
})
