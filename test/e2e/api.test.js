'use strict'

// The library's shape: callback and promise, stop, forever, ESM import.

const t = require('tap')
const path = require('path')
const { execFileSync } = require('child_process')
const autocannon = require('../..')
const { httpServer } = require('../helpers/servers')

t.test('callback and promise give the same kind of result', async (t) => {
  const url = await httpServer(t)
  const viaPromise = await autocannon({ url, connections: 2, amount: 50 })
  const viaCallback = await new Promise((resolve, reject) => {
    autocannon({ url, connections: 2, amount: 50 }, (err, result) => err ? reject(err) : resolve(result))
  })
  t.equal(viaPromise.requests.total, 50)
  t.equal(viaCallback.requests.total, 50)
  t.same(Object.keys(viaPromise).sort(), Object.keys(viaCallback).sort())
})

t.test('every helper called without what it works on throws a registered code', async (t) => {
  const cases = [
    [() => autocannon.aggregateResult([]), 'aggregateResult needs at least one result'],
    [() => autocannon.mergeResults([]), 'mergeResults needs at least one result'],
    [() => autocannon.renderHtml([]), 'renderHtml needs at least one result or search'],
    [() => autocannon.track(), 'instance required for tracking'],
    [() => autocannon.printResult(undefined), 'printResult needs a result, as autocannon() resolves to it']
  ]
  for (const [call, message] of cases) t.throws(call, { code: 'AC_INVALID_ARGUMENT', message }, message)
  t.throws(() => autocannon.compare({}, {}), { code: 'AC_NOT_A_RESULT' })
  await t.rejects(autocannon.findMaxRate(null), { code: 'AC_INVALID_OPTION', option: 'opts' })
})

t.test('--on-port: a command that cannot start or exits first is AC_COMMAND_FAILED', async (t) => {
  const { startCommand } = require('../../lib/cli/on-port')
  const { Session } = require('../../lib/engine/session')
  await t.rejects(startCommand({ spawn: [process.execPath, '-e', 'process.exit(3)'] }, new Session()), {
    code: 'AC_COMMAND_FAILED',
    message: `--on-port: the command exited (code 3) before listening on a port: ${process.execPath} -e process.exit(3)`
  })
  await t.rejects(startCommand({ spawn: [path.join(__dirname, 'no-such-command')] }, new Session()), {
    code: 'AC_COMMAND_FAILED',
    message: /^--on-port: cannot start .*no-such-command: /
  })
})

t.test('an invalid option rejects, names the option, and emits no unhandled error', async (t) => {
  await t.rejects(autocannon({ url: 'http://127.0.0.1:1', connections: -1 }), {
    message: 'connections can not be less than 1',
    detail: '-1 must be an integer >= 1',
    option: 'connections',
    code: 'AC_INVALID_OPTION'
  })
  const err = await new Promise((resolve) => autocannon({ url: 'http://127.0.0.1:1', pipelining: 0 }, resolve))
  t.match(err.message, /pipelining/)
})

t.test('stop() before the run starts still ends it with a result', async (t) => {
  const url = await httpServer(t)
  const instance = autocannon({ url, duration: 10 })
  instance.stop()
  const result = await instance
  t.ok(result.duration < 1, `ended at once (${result.duration}s)`)
})

t.test('forever runs round after round until stopped', async (t) => {
  const url = await httpServer(t)
  const instance = autocannon({ url, connections: 2, amount: 20, forever: true })
  let rounds = 0
  await new Promise((resolve) => {
    instance.on('done', (result) => {
      t.equal(result.requests.total, 20, `round ${rounds + 1} did its 20 requests`)
      if (++rounds === 3) {
        instance.stop()
        resolve()
      }
    })
  })
  t.equal(rounds, 3)
})

t.test('forever with a callback is refused', async (t) => {
  const err = await new Promise((resolve) => autocannon({ url: 'http://127.0.0.1:1', forever: true }, resolve))
  t.match(err.message, /forever/)
})

t.test('works through import as well as require', async (t) => {
  const entry = path.join(__dirname, '..', '..', 'autocannon.js')
  const out = execFileSync(process.execPath, ['--input-type=module', '-e',
    `import ac, { track, printResult, aggregateResult, parseArguments } from ${JSON.stringify(entry)};
     console.log([ac, track, printResult, aggregateResult, parseArguments].map((f) => typeof f).join(','))`]).toString()
  t.equal(out.trim(), 'function,function,function,function,function')
})

t.test('start and done events, tick with counter and bytes', async (t) => {
  const url = await httpServer(t)
  const instance = autocannon({ url, connections: 2, duration: 1.2 })
  const seen = []
  instance.on('start', () => seen.push('start'))
  instance.on('tick', (tick) => {
    seen.push('tick')
    t.type(tick.counter, 'number')
    t.type(tick.bytes, 'number')
  })
  instance.on('done', () => seen.push('done'))
  await instance
  t.equal(seen[0], 'start')
  t.equal(seen[seen.length - 1], 'done')
  t.ok(seen.filter((s) => s === 'tick').length >= 1)
})
