'use strict'

// What autocannon() returns (lib/engine/instance.js): an EventEmitter,
// awaitable when no callback was given (AwaitableInstance), settled once,
// whose promise is made only when asked for, and whose stop() goes to its
// session.

const t = require('tap')
const { Instance, AwaitableInstance } = require('../../lib/engine/instance')

const turn = () => new Promise((resolve) => setImmediate(resolve))

t.test('awaited before it settles: resolves with the result, every waiter', async (t) => {
  const instance = new AwaitableInstance()
  const heard = []
  instance.then((r) => heard.push(['a', r]))
  const b = instance.then((r) => heard.push(['b', r]))
  await turn()
  t.same(heard, [], 'nothing before it settles')
  const result = { requests: 1 }
  instance.settle(null, result)
  await b
  t.same(heard, [['a', result], ['b', result]])
  t.equal(await instance, result, 'and anyone who awaits it later')
})

t.test('settled with an error: rejects, through then, catch and finally', async (t) => {
  const instance = new AwaitableInstance()
  const err = new Error('refused')
  const waiting = instance.then(() => 'resolved', (e) => e)
  instance.settle(err)
  t.equal(await waiting, err)
  t.equal(await instance.catch((e) => e), err)
  let ran = 0
  await t.rejects(instance.finally(() => { ran++ }), err)
  t.equal(ran, 1, 'finally ran once, and the error went on')
})

t.test('finally passes the result through', async (t) => {
  const instance = new AwaitableInstance()
  instance.settle(null, 42)
  let ran = 0
  t.equal(await instance.finally(() => { ran++ }), 42)
  t.equal(ran, 1)
})

t.test('no promise until asked for: an error nobody awaits is no unhandled rejection', async (t) => {
  const unhandled = []
  const onUnhandled = (reason) => unhandled.push(reason)
  process.on('unhandledRejection', onUnhandled)
  t.teardown(() => process.removeListener('unhandledRejection', onUnhandled))
  const instance = new AwaitableInstance()
  instance.settle(new Error('nobody listens'))
  await turn()
  await turn()
  t.same(unhandled, [])
  t.same(instance.waiters, [])
})

t.test('an Instance is not awaitable, as autocannon\'s with a callback is not; settled() is its outcome', async (t) => {
  const instance = new Instance()
  t.equal(typeof instance.then, 'undefined', 'no then')
  t.equal(typeof instance.catch, 'undefined', 'no catch')
  t.equal(typeof instance.finally, 'undefined', 'no finally')
  t.equal(await Promise.resolve(instance), instance, 'awaited, it is itself')
  const waiting = instance.settled()
  instance.settle(null, 7)
  t.equal(await waiting, 7, 'settled() resolves with the result')
  const failed = new Instance()
  failed.settle(new Error('no'))
  await t.rejects(failed.settled(), { message: 'no' }, 'and rejects with the error')
})

t.test('emitError: to the error listeners, and none is no throw', async (t) => {
  const instance = new Instance()
  t.doesNotThrow(() => instance.emitError(new Error('unheard')))
  const heard = []
  instance.on('error', (err) => heard.push(err.message))
  instance.emitError(new Error('heard'))
  t.same(heard, ['heard'])
})

t.test('stop(): the session stops, and its current run with it', async (t) => {
  const instance = new Instance()
  let stopped = 0
  instance.session.current = { stop: () => { stopped++ } }
  t.equal(instance.stopped, false)
  instance.stop()
  t.equal(instance.stopped, true)
  t.equal(instance.session.stopped, true)
  t.equal(stopped, 1)
  instance.stop()
  t.equal(stopped, 1, 'once')
})
