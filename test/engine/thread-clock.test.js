'use strict'

// The sending thread's own CPU clock (lib/engine/thread-clock.js): it
// advances with the thread's work, not while the thread waits, nor with
// another thread's work; and where it cannot be per thread, a worker gets
// none.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { performance } = require('perf_hooks')
const { Worker } = require('worker_threads')
const { createThreadClock } = require('../../lib/engine/thread-clock')

function spin (ms) {
  const end = performance.now() + ms
  while (performance.now() < end);
}

t.test('the clock advances with the thread\'s work, not while it sleeps', async (t) => {
  const clock = createThreadClock()
  t.ok(clock, `a clock (${clock.source})`)
  // Work for 300 ms of this thread's CPU time as the kernel's tick
  // accounting counts it (/proc/thread-self/stat: utime and stime, in
  // ticks), however long a loaded machine takes to give it; the clock
  // says as much, to a tick or two.
  const TICK_US = 1e6 / 100
  const ticks = () => {
    const stat = fs.readFileSync('/proc/thread-self/stat', 'utf8')
    // After the command's name: state is field 3, utime 14 and stime 15.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(f[11]) + Number(f[12])
  }
  if (clock.source !== 'schedstat') t.skip('no /proc/thread-self to hold it to')
  else {
    const ticks0 = ticks()
    const before = clock.read()
    while ((ticks() - ticks0) * TICK_US < 300000);
    const worked = clock.read() - before
    const counted = (ticks() - ticks0) * TICK_US
    t.ok(Math.abs(worked - counted) <= 2 * TICK_US + counted * 0.1, `${counted} µs of CPU time by the kernel's ticks: ${Math.round(worked)} µs by the clock`)
  }
  const slept = clock.read()
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30)
  // A thread's CPU time may come from the kernel's ticks (4 ms at 250 Hz):
  // one tick's worth is the clock's grain, not time it counted asleep.
  t.ok(clock.read() - slept < 10000, `30 ms asleep: ${clock.read() - slept} µs`)
  clock.close()
  clock.close()
})

// A read up to date: between two reads the thread cannot have run longer
// than the wall clock moved, however loaded the machine (a thread held
// off the CPU only reads less). A read that lags the kernel's tick
// catches up in a later interval and reads more than its wall time: here
// 1 ms of work read as up to 4 ms in a third of the intervals.
t.test('each read is up to date: never more CPU time between two reads than wall time', async (t) => {
  const clock = createThreadClock()
  const over = []
  for (let i = 0; i < 40; i++) {
    const cpu0 = clock.read()
    const wall0 = performance.now()
    spin(1)
    const cpu = clock.read() - cpu0
    const wall = (performance.now() - wall0) * 1000
    if (cpu > wall + 100) over.push(`${Math.round(cpu)} µs in ${Math.round(wall)} µs`)
  }
  t.same(over, [], `${clock.source}: 40 reads of 1 ms of work`)
  clock.close()
})

t.test('process.threadCpuUsage() is asked after process.cpuUsage(), which brings the thread\'s time up to date', async (t) => {
  const calls = []
  const clock = createThreadClock({
    cpuUsage: () => { calls.push('cpuUsage'); return { user: 0, system: 0 } },
    threadCpuUsage: () => { calls.push('threadCpuUsage'); return { user: 1500, system: 500 } }
  })
  t.equal(clock.read(), 2000)
  t.same(calls, ['cpuUsage', 'threadCpuUsage'])
})

t.test('a worker thread\'s clock does not count the main thread\'s work', async (t) => {
  const shared = new Int32Array(new SharedArrayBuffer(8))
  const worker = new Worker(`
    const { workerData, parentPort } = require('worker_threads')
    const { createThreadClock } = require(${JSON.stringify(require.resolve('../../lib/engine/thread-clock'))})
    const clock = createThreadClock()
    const before = clock.read()
    // Waits while the main thread works.
    Atomics.store(workerData, 0, 1)
    Atomics.notify(workerData, 0)
    Atomics.wait(workerData, 1, 0, 2000)
    parentPort.postMessage({ source: clock.source, used: clock.read() - before })
  `, { eval: true, workerData: shared })
  const reply = new Promise((resolve) => worker.once('message', resolve))
  Atomics.wait(shared, 0, 0, 2000)
  spin(40)
  Atomics.store(shared, 1, 1)
  Atomics.notify(shared, 1)
  const { source, used } = await reply
  t.not(source, 'cpuUsage', 'per thread')
  t.ok(used < 10000, `the worker used ${used} µs while the main thread worked 40 ms`)
  await worker.terminate()
})

t.test('where each source is', async (t) => {
  const fake = createThreadClock({ threadCpuUsage: () => ({ user: 1500, system: 500 }) })
  t.equal(fake.source, 'threadCpuUsage')
  t.equal(fake.read(), 2000)
  fake.close()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-schedstat-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'schedstat')
  fs.writeFileSync(file, '123456789 1000 5\n')
  const stat = createThreadClock({ threadCpuUsage: null, schedstat: file })
  t.equal(stat.source, 'schedstat')
  t.equal(stat.read(), 123456.789, 'ns on a CPU, in µs')
  fs.writeFileSync(file, '223456789 1000 5\n')
  t.equal(stat.read(), 223456.789, 'read anew each time')
  stat.close()
  const missing = path.join(dir, 'none')
  const main = createThreadClock({ threadCpuUsage: null, schedstat: missing, mainThread: true })
  t.equal(main.source, 'cpuUsage', 'the main thread: the process\'s CPU time')
  t.ok(main.read() > 0)
  main.close()
  t.equal(createThreadClock({ threadCpuUsage: null, schedstat: missing, mainThread: false }), null, 'a worker without a per-thread clock: none')
  t.equal(createThreadClock({ threadCpuUsage: null, schedstat: null, mainThread: false }), null)
  t.equal(createThreadClock({ threadCpuUsage: null, schedstat: dir, mainThread: false }), null, 'a file that cannot be read: none')
})
