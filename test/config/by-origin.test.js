'use strict'

// A file's requests (a HAR, a --targets file) grouped by the run's target
// origins: each origin's entries in the file's order, frozen; entries for
// other origins skipped with one warning per origin, counted, in
// autocannon's words; a target with no entry named in one warning. The
// default warning is a process warning in the main thread and nothing in
// a worker thread, which builds the same map again.

const t = require('tap')
const path = require('path')
const { Worker } = require('worker_threads')
const { byOrigin, defaultWarn } = require('../../lib/config/by-origin')

const CODES = { other: 'AC_HAR_OTHER_ORIGIN', none: 'AC_HAR_NO_ENTRY', noun: 'HAR' }
const A = 'http://a.test:81'
const B = 'https://b.test'
const C = 'http://c.test'

function group (entries, targets, codes = CODES) {
  const warnings = []
  const map = byOrigin(entries, targets.map((origin) => ({ origin })), (code, message) => warnings.push([code, message]), codes)
  return { map, warnings }
}

const at = (origin, name) => ({ origin, request: { path: `/${name}` } })

t.test('each target origin gets its entries, in the file\'s order', async (t) => {
  const entries = [at(A, 1), at(B, 2), at(A, 3), at(B, 4), at(A, 5)]
  const { map, warnings } = group(entries, [B, A])
  t.same([...map.keys()], [A, B], 'origins in the order their first entry comes')
  t.equal(map.get(A)[0], entries[0].request, 'the requests themselves, not copies')
  t.same(map.get(A).map((r) => r.path), ['/1', '/3', '/5'])
  t.same(map.get(B).map((r) => r.path), ['/2', '/4'])
  t.ok(Object.isFrozen(map.get(A)) && Object.isFrozen(map.get(B)), 'each list frozen')
  t.same(warnings, [], 'nothing skipped, nothing missing: nothing said')
  const repeated = group([at(A, 1)], [A, A])
  t.same([...repeated.map.keys()], [A], 'a target origin listed twice is one origin')
  t.same(repeated.warnings, [])
})

t.test('entries for other origins: skipped, one warning per origin with its count', async (t) => {
  const { map, warnings } = group([at(C, 1), at(A, 2), at(C, 3), at(B, 4), at(C, 5)], [A])
  t.same([...map.keys()], [A])
  t.same(map.get(A).map((r) => r.path), ['/2'])
  t.same(warnings, [
    ['AC_HAR_OTHER_ORIGIN', `skipping requests to '${C}' as the target is ${A} (3 HAR entries)`],
    ['AC_HAR_OTHER_ORIGIN', `skipping requests to '${B}' as the target is ${A} (1 HAR entry)`]
  ], 'in the order the origins come; "entry" for one')
  const two = group([at(C, 1)], [A, B])
  t.same(two.warnings[0], ['AC_HAR_OTHER_ORIGIN', `skipping requests to '${C}' as the target is ${A}, ${B} (1 HAR entry)`], 'every target named')
})

t.test('a target the file has nothing for is named once; it then requests its own URL', async (t) => {
  const { map, warnings } = group([at(C, 1), at(C, 2)], [A, B], { other: 'AC_TARGETS_OTHER_ORIGIN', none: 'AC_TARGETS_NO_ENTRY', noun: 'targets' })
  t.equal(map.size, 0)
  t.same(warnings, [
    ['AC_TARGETS_OTHER_ORIGIN', `skipping requests to '${C}' as the target is ${A}, ${B} (2 targets entries)`],
    ['AC_TARGETS_NO_ENTRY', `no targets entry for ${A}, ${B}: requesting the URL itself`]
  ], 'the codes and noun the caller gives; the missing after the skipped')
  const one = group([at(A, 1)], [A, B])
  t.same(one.warnings, [['AC_HAR_NO_ENTRY', `no HAR entry for ${B}: requesting the URL itself`]])
  t.same([...one.map.keys()], [A])
})

t.test('defaultWarn: a process warning in the main thread', async (t) => {
  const seen = []
  const listener = (w) => seen.push([w.name, w.code, w.message])
  process.on('warning', listener)
  t.teardown(() => process.removeListener('warning', listener))
  defaultWarn('AC_TARGETS_NO_ENTRY', 'no targets entry for http://a.test: requesting the URL itself')
  await new Promise((resolve) => setImmediate(resolve))
  t.same(seen, [['Warning', 'AC_TARGETS_NO_ENTRY', 'no targets entry for http://a.test: requesting the URL itself']])
})

t.test('defaultWarn: nothing in a worker thread', async (t) => {
  // The same call in a worker thread, whose process warnings it counts.
  const file = path.join(__dirname, '../../lib/config/by-origin.js')
  const worker = new Worker(`
    const { parentPort } = require('worker_threads')
    let warnings = 0
    process.on('warning', () => warnings++)
    require(${JSON.stringify(file)}).defaultWarn('AC_TARGETS_NO_ENTRY', 'x')
    process.emitWarning('the counter counts', { code: 'AC_TARGETS_NO_ENTRY' })
    setImmediate(() => parentPort.postMessage(warnings))
  `, { eval: true })
  const [warnings] = await Promise.all([
    new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject)),
    new Promise((resolve) => worker.once('exit', resolve))
  ])
  t.equal(warnings, 1, 'only the thread\'s own warning: none from defaultWarn')
})
