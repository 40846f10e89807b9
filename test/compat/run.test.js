'use strict'

// require('autocannon/lib/run'): run(opts[, tracker[, cb]]) → tracker.
// Against closed ports on loopback here (how autocannon 9's run and ours
// report a real run side by side: test/e2e/dropin/deep-paths.test.js).

const t = require('tap')
const { EventEmitter } = require('events')
const run = require('../../lib/compat/run')
const { closedPort } = require('../helpers/raw-server')

t.test('the tracker given, or a new one, with stop(); the result to the callback', async (t) => {
  const url = `http://127.0.0.1:${await closedPort()}`
  const tracker = new EventEmitter()
  const errors = []
  tracker.on('reqError', (err) => errors.push(err))
  let started = 0
  let done = 0
  tracker.on('done', () => done++)
  const result = await new Promise((resolve, reject) => {
    const back = run({ url, connections: 1, amount: 2, timeout: 1 }, tracker, (err, res) => err ? reject(err) : resolve(res))
    t.equal(back, tracker, 'the tracker given is returned')
    t.equal(typeof back.stop, 'function')
    tracker.on('start', () => started++)
  })
  t.equal(started, 1, '\'start\' forwarded, to a listener added after run() returned')
  t.ok(errors.length >= 1, 'reqError forwarded')
  t.equal(result.errors, errors.length)
  t.equal(done, 0, 'no \'done\' without forever, as autocannon\'s run')
  const own = run({ url, connections: 1, amount: 1, timeout: 1 })
  t.ok(own instanceof EventEmitter, 'a new EventEmitter without a tracker')
  own.stop()
})

t.test('options that cannot be used go to the callback', async (t) => {
  const err = await new Promise((resolve) => run({ url: 'http://127.0.0.1:1', connections: 0 }, null, resolve))
  t.equal(err.code, 'AC_INVALID_OPTION')
  t.equal(err.message, 'connections can not be less than 1')
})

t.test('forever: \'done\' once per round, stop() ends it', async (t) => {
  const url = `http://127.0.0.1:${await closedPort()}`
  const tracker = run({ url, connections: 1, amount: 1, timeout: 1, forever: true })
  let rounds = 0
  await new Promise((resolve) => tracker.on('done', (result) => {
    t.type(result.errors, 'number')
    if (++rounds === 2) {
      tracker.stop()
      resolve()
    }
  }))
  t.equal(rounds, 2)
})
