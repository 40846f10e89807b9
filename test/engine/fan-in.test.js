'use strict'

// One question to every worker, one answer: the replies kept in worker
// order and combined once each worker has replied, a fallback when a time
// limit passes first, and the pending question answered without the
// workers when the run is over. Driven with workers that only record what
// they are sent.

const t = require('tap')
const { FanIn } = require('../../lib/engine/fan-in')

const recorders = (n) => Array.from({ length: n }, () => ({ sent: [], postMessage (msg) { this.sent.push(msg) } }))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

t.test('every worker asked; the replies in worker order, whatever order they came in', async (t) => {
  const workers = recorders(3)
  const fanIn = new FanIn(workers)
  const question = { type: 'cut' }
  const answer = fanIn.ask(question)
  t.same(workers.map((w) => w.sent), [[question], [question], [question]])
  fanIn.reply(2, 'c')
  fanIn.reply(0, 'a')
  t.not(fanIn.pending, null, 'two of three: still waiting')
  fanIn.reply(1, 'b')
  t.same(await answer, ['a', 'b', 'c'])
  t.equal(fanIn.pending, null)
  fanIn.reply(0, 'late')
  t.equal(fanIn.pending, null, 'a reply with nothing asked is dropped')
})

t.test('combined into one value', async (t) => {
  const fanIn = new FanIn(recorders(2), (answers) => answers.every(Boolean))
  const both = fanIn.ask({ type: 'drain' })
  fanIn.reply(0, true)
  fanIn.reply(1, true)
  t.equal(await both, true)
  const one = fanIn.ask({ type: 'drain' })
  fanIn.reply(1, false)
  fanIn.reply(0, true)
  t.equal(await one, false)
})

t.test('the workers read at each question: all of them', async (t) => {
  const workers = recorders(1)
  const fanIn = new FanIn(workers)
  workers.push(...recorders(1))
  const answer = fanIn.ask({ type: 'peek' })
  t.equal(workers[1].sent.length, 1)
  fanIn.reply(0, 1)
  fanIn.reply(1, 2)
  t.same(await answer, [1, 2])
})

t.test('a time limit: the fallback when a worker has not replied by then', async (t) => {
  const fanIn = new FanIn(recorders(2))
  const at = Date.now()
  const answer = fanIn.ask({ type: 'peek' }, 50, 'none')
  fanIn.reply(0, 'a')
  t.equal(await answer, 'none')
  t.ok(Date.now() - at >= 45, 'not before the limit')
  t.equal(fanIn.pending, null)
  fanIn.reply(1, 'b')
  t.equal(fanIn.pending, null, 'the late reply is dropped')
  const answered = fanIn.ask({ type: 'peek' }, 50, 'none')
  fanIn.reply(0, 'a')
  fanIn.reply(1, 'b')
  t.same(await answered, ['a', 'b'], 'answered in time')
  const next = fanIn.ask({ type: 'peek' })
  await sleep(80)
  fanIn.reply(0, 'c')
  fanIn.reply(1, 'd')
  t.same(await next, ['c', 'd'], 'and the limit of the question answered no longer counts')
})

t.test('settle: the pending question answered without the workers', async (t) => {
  const fanIn = new FanIn(recorders(2))
  const resolved = fanIn.ask({ type: 'cut' }, 50, 'none')
  fanIn.reply(0, 'a')
  fanIn.settle(null, ['last'])
  t.same(await resolved, ['last'])
  const next = fanIn.ask({ type: 'cut' })
  await sleep(80)
  fanIn.reply(0, 'b')
  fanIn.reply(1, 'c')
  t.same(await next, ['b', 'c'], 'the settled question\'s limit no longer counts')
  const failure = new Error('worker 1 failed')
  const rejected = fanIn.ask({ type: 'cut' })
  fanIn.settle(failure, ['unused'])
  await t.rejects(rejected, failure)
  fanIn.settle(null, 'nothing pending')
  t.equal(fanIn.pending, null)
})
