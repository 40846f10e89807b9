'use strict'

// The progress tick across worker threads: the workers' ticks summed and
// emitted as one each second (even an empty one), a fresh sum after each;
// at the end what came since the last, only if anything did. The seconds
// are a fake clock's.

const t = require('tap')
const { EventEmitter } = require('events')
const { ProgressTicks } = require('../../lib/engine/progress-ticks')
const { useFakeClock } = require('../helpers/fake-clock')

function ticksOf (t) {
  const events = new EventEmitter()
  const heard = []
  events.on('tick', (tick) => heard.push({ ...tick }))
  const ticks = new ProgressTicks(events)
  t.teardown(() => ticks.stop())
  return { ticks, heard }
}

t.test('summed, emitted, started afresh', async (t) => {
  const { ticks, heard } = ticksOf(t)
  ticks.add(3, 300)
  ticks.add(2, 150)
  ticks.emit()
  ticks.emit()
  t.same(heard, [{ counter: 5, bytes: 450 }, { counter: 0, bytes: 0 }], 'a second without responses is a tick too')
})

t.test('the end: what came since the last tick, only if anything did', async (t) => {
  const { ticks, heard } = ticksOf(t)
  ticks.flush()
  t.same(heard, [], 'nothing since')
  ticks.add(0, 10)
  ticks.flush()
  t.same(heard, [{ counter: 0, bytes: 10 }], 'bytes without a whole response count')
})

t.test('each second until stopped', async (t) => {
  useFakeClock(t)
  const { ticks, heard } = ticksOf(t)
  const at = Date.now()
  ticks.add(1, 100)
  while (heard.length === 0 && Date.now() - at < 5000) await new Promise((resolve) => setTimeout(resolve, 20))
  const after = Date.now() - at
  t.ok(after >= 950, `the first after ${after} ms`)
  t.same(heard, [{ counter: 1, bytes: 100 }])
  ticks.stop()
  await new Promise((resolve) => setTimeout(resolve, 1300))
  t.equal(heard.length, 1, 'none after the stop')
})
