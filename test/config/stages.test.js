'use strict'

// --stages and --connectionStages: a list or the command line's text,
// checked into frozen stages of seconds and a target.

const t = require('tap')
const { checkStages, checkConnectionStages } = require('../../lib/config/stages')

t.test('rate stages', async (t) => {
  const stages = checkStages('30s:100, 2m:5000 ,30s:0')
  t.same(stages, [{ duration: 30, rate: 100 }, { duration: 120, rate: 5000 }, { duration: 30, rate: 0 }])
  t.ok(Object.isFrozen(stages) && Object.isFrozen(stages[1]))
  t.same(checkStages([{ duration: '1s', rate: '5' }]), [{ duration: 1, rate: 5 }])
  t.equal(checkStages(undefined), undefined)
  t.throws(() => checkStages('1s:0,2s:0'), { option: 'stages', message: /plan no request at all/ })
  t.throws(() => checkStages('0s:5'), { option: 'stages' }, 'a rate stage has a duration')
})

t.test('connection stages: whole counts, and 0s steps', async (t) => {
  t.same(checkConnectionStages('0s:10,1m:1000'), [{ duration: 0, connections: 10 }, { duration: 60, connections: 1000 }])
  t.throws(() => checkConnectionStages('1s:1.5'), { option: 'connectionStages' })
  t.throws(() => checkConnectionStages('0s:5,0ms:6'), { option: 'connectionStages', message: /last no time at all/ })
  t.throws(() => checkConnectionStages('1s:0'), { message: /open no connection at all/ })
})
