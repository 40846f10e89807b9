'use strict'

// What autocannon() returns and when it calls back, beside autocannon 9:
// with a callback the instance is no promise (awaiting it gives the
// instance), nor with forever; a refused option reaches the callback
// before autocannon() returns, with no 'error' event, which only a
// forever run without a callback emits. The differences are asserted as
// such, each a row of docs/differences.md.

const t = require('tap')
const http = require('http')
const { bothScripts } = require('../../helpers/side-by-side')

async function server (t, seen = []) {
  const s = http.createServer((req, res) => {
    seen.push(req.method)
    res.end('ok')
  })
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve))
  t.teardown(() => s.close())
  return `http://127.0.0.1:${s.address().port}`
}

// The script's findings, one JSON object on stdout.
async function findings (t, body, args) {
  const source = `
    const { EventEmitter } = require('events')
    const url = ARGS.url
    const out = {}
    ;(async () => { ${body} })().then(() => console.log(JSON.stringify(out)), (err) => { console.log(JSON.stringify({ failed: err.message })) })`
  const { upstream, ours } = await bothScripts(source, { args })
  t.equal(upstream.code, 0, upstream.stderr)
  t.equal(ours.code, 0, ours.stderr)
  return { theirs: JSON.parse(upstream.stdout), mine: JSON.parse(ours.stdout), stderr: { upstream: upstream.stderr, ours: ours.stderr } }
}

const kinds = (i) => ({ then: typeof i.then, catch: typeof i.catch, emitter: i instanceof require('events').EventEmitter, stop: typeof i.stop, opts: typeof i.opts })

t.test('the instance of each form', async (t) => {
  const url = await server(t)
  const { theirs, mine } = await findings(t, `
    const kinds = ${kinds.toString()}
    await new Promise((resolve) => {
      const i = autocannon({ url, amount: 20, connections: 1 }, () => setImmediate(resolve))
      out.callback = kinds(i)
    })
    let result
    const awaited = await autocannon({ url, amount: 20, connections: 1 }, (err, r) => { result = r })
    out.awaitedCallback = awaited instanceof EventEmitter && awaited.requests === undefined ? 'the instance' : 'the result'
    // (autocannon ends an amount run at its next sample, a second in.)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    out.callbackResult = result && result['2xx']
    const p = autocannon({ url, amount: 20, connections: 1 })
    out.promise = kinds(p)
    out.promiseResult = (await p)['2xx']
    const f = autocannon({ url, amount: 20, connections: 1, forever: true })
    out.forever = kinds(f)
    f.stop()
    await new Promise((resolve) => setTimeout(resolve, 300))`, { url })
  t.same(mine, theirs, 'the same forms')
  t.same(mine.callback, { then: 'undefined', catch: 'undefined', emitter: true, stop: 'function', opts: 'object' }, 'with a callback: no promise')
  t.equal(mine.awaitedCallback, 'the instance')
  t.equal(mine.promise.then, 'function')
  t.equal(mine.forever.then, 'undefined', 'forever: no promise')
})

t.test('a refused option: the callback before autocannon() returns; no error event', async (t) => {
  const url = await server(t)
  const { theirs, mine } = await findings(t, `
    let returned = false
    let events = 0
    const i = autocannon({ url, connections: 0 }, (err) => { out.callback = { message: err.message, beforeReturn: !returned } })
    returned = true
    i.on('error', () => events++)
    const p = autocannon({ url, connections: 0 })
    p.on('error', () => events++)
    out.rejected = await p.then(() => null, (e) => e.message)
    await new Promise((resolve) => setTimeout(resolve, 100))
    out.errorEvents = events
    const f = autocannon({ url, connections: 0, forever: true })
    out.foreverEvent = await new Promise((resolve) => f.on('error', (e) => resolve(e.message)))`, { url })
  t.same(mine, theirs, 'as autocannon')
  t.same(mine.callback, { message: 'connections can not be less than 1', beforeReturn: true })
  t.equal(mine.errorEvents, 0)
  t.equal(mine.foreverEvent, 'connections can not be less than 1', 'forever without a callback: the error event')
})

// Each of these a row of docs/differences.md.
t.test('differences: a method of its own, the response event with workers, stop()\'s duration', async (t) => {
  const seen = []
  const url = await server(t, seen)
  const { theirs, mine, stderr } = await findings(t, `
    try {
      const r = await autocannon({ url, amount: 5, connections: 1, method: 'PURGE' })
      out.method = 'ran ' + r['2xx']
    } catch (e) {
      out.method = 'refused: ' + e.message
    }
    const warnings = []
    process.on('warning', (w) => warnings.push(w.code))
    const w = autocannon({ url, amount: 20, connections: 2, workers: 2 })
    let responses = 0
    try {
      w.on('response', () => responses++)
      out.workersListener = 'accepted'
    } catch (e) {
      out.workersListener = 'thrown'
    }
    await w
    out.responses = responses
    out.warnings = warnings
    const s = autocannon({ url, duration: 10, connections: 1 })
    setTimeout(() => s.stop(), 1200)
    out.stoppedDuration = (await s).duration`, { url })
  t.equal(theirs.method, 'refused: PURGE HTTP method is not supported', 'autocannon refuses a method not in its list')
  t.equal(mine.method, 'ran 5', 'here any HTTP token is sent')
  t.same(seen.filter((m) => m === 'PURGE'), ['PURGE', 'PURGE', 'PURGE', 'PURGE', 'PURGE'], 'the server got PURGE, from us only')

  t.equal(theirs.workersListener, 'accepted')
  t.equal(mine.workersListener, 'accepted', 'a response listener with workers is accepted, as autocannon\'s')
  t.equal(theirs.responses, 0, 'autocannon never calls it')
  t.equal(mine.responses, 0, 'nor do we')
  t.same(theirs.warnings, [], 'autocannon says nothing')
  t.same(mine.warnings, ['AC_NOT_WITH_WORKERS'], 'here one warning says so')
  t.equal(stderr.upstream, '')

  t.ok(theirs.stoppedDuration >= 2, `autocannon: at the next whole sample after stop() (${theirs.stoppedDuration} s)`)
  t.ok(mine.stoppedDuration >= 1.1 && mine.stoppedDuration < 1.9, `here: when stop() came (${mine.stoppedDuration} s)`)
})

// A callback that throws: the exception is the caller's, uncaught, and the
// callback is not called again with it as the run's error.
t.test('a callback that throws: called once, its exception uncaught, as autocannon\'s', async (t) => {
  const url = await server(t)
  const source = `
    let calls = 0
    process.on('uncaughtException', (err) => {
      setTimeout(() => { console.log(JSON.stringify({ calls, uncaught: err.message })); process.exit(0) }, 200)
    })
    autocannon({ url: ARGS.url, amount: 5, connections: 1 }, () => {
      calls++
      throw new Error('the caller\\'s own')
    })`
  const { upstream, ours } = await bothScripts(source, { args: { url } })
  t.equal(upstream.code, 0, upstream.stderr)
  t.equal(ours.code, 0, ours.stderr)
  t.same(JSON.parse(upstream.stdout), { calls: 1, uncaught: 'the caller\'s own' }, 'autocannon')
  t.same(JSON.parse(ours.stdout), JSON.parse(upstream.stdout), 'here, the same')
})
