'use strict'

// A fixed-seed slice of the differential fuzzing in fuzz/ (npm run fuzz
// runs it in full): our response parser against Node's own (llhttp), on
// generated valid and broken streams, in-process at every cut and through
// loopback sockets (llhttp fed the same reads, and node:http). Every case
// must agree, or differ only in one of the documented ways (fuzz/README.md).

const t = require('tap')
const { runBatch, emptyTally, merge } = require('../../fuzz/batch')
const { StreamServer } = require('../../fuzz/loopback')
const { classify, KNOWN, LLHTTP, here } = require('../../fuzz/known')
const { REVIEWED, DECISIONS, summary } = require('../../fuzz/decisions')
const { compareOutcomes } = require('../../fuzz/compare')
const { runOurs } = require('../../fuzz/ours')
const { runReference } = require('../../fuzz/reference')
const { generate, CATEGORIES } = require('../../fuzz/generate')

const SEED = 20261122

function report (t, tally) {
  for (const d of tally.disagreements) t.comment(`disagreement ${d.id} (${d.category}, ${d.layer}): ${d.detail} — npm run fuzz -- --replay ${d.id}`)
  for (const a of tally.anomalies) t.comment(`anomaly ${a.id}: ${a.detail}`)
  t.comment(`known differences: ${JSON.stringify(tally.known)}`)
}

// Parse errors are most of what these cases produce.
async function quietly (fn) {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return await fn()
  } finally {
    Error.stackTraceLimit = limit
  }
}

t.test('generation is reproducible from the seed alone', async (t) => {
  const a = generate(SEED, 1234)
  const b = generate(SEED, 1234)
  t.ok(a.wire.equals(b.wire))
  t.same([a.head, a.maxHeaderSize, a.category], [b.head, b.maxHeaderSize, b.category])
  t.notOk(generate(SEED, 1235).wire.equals(a.wire))
  const seen = new Set()
  for (let i = 0; i < 400; i++) seen.add(generate(SEED, i).category)
  t.same([...seen].sort(), [...CATEGORIES].sort(), 'every category comes up')
})

t.test('in-process: 2000 cases, every cut, wantHeaders off and on', async (t) => {
  const tally = await quietly(() => runBatch({ layer: 'in-process', seed: SEED, from: 0, to: 2000 }))
  report(t, tally)
  t.equal(tally.cases, 2000)
  t.equal(tally.disagreeCount, 0, 'no disagreement')
  t.equal(tally.anomalyCount, 0, 'llhttp gives the same whole and one byte at a time')
  t.ok(Object.keys(tally.known).length >= 4, 'known differences are recognised as such')
})

t.test('loopback: 400 cases through sockets, against llhttp and node:http', async (t) => {
  const server = new StreamServer()
  await server.start()
  t.teardown(() => server.close())
  const tally = emptyTally()
  // Two batches, one from another part of the seed's sequence.
  merge(tally, await quietly(() => runBatch({ layer: 'loopback', seed: SEED, from: 0, to: 200, concurrency: 8 }, server)))
  merge(tally, await quietly(() => runBatch({ layer: 'loopback', seed: SEED, from: 5000, to: 5200, concurrency: 8 }, server)))
  report(t, tally)
  t.equal(tally.cases, 400)
  t.equal(tally.disagreeCount, 0, 'no disagreement')
  t.equal(tally.anomalyCount, 0)
})

t.test('the classifier does not excuse a real difference', async (t) => {
  // A bare-LF stream (a known difference) where our outcome is then
  // tampered with: a wrong body, a lost response, another error code.
  const wire = Buffer.from('HTTP/1.1 200 OK\nContent-Length: 2\n\nhiHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx', 'latin1')
  const ctx = (ours) => ({ wire, head: [], maxHeaderSize: 16384, wantHeaders: false, ours, ref: runReference([wire]) })
  const ours = runOurs([wire])
  t.same(classify(ctx(ours)), ['bare-lf'])
  const wrongBody = { ...ours, responses: [{ ...ours.responses[0], body: Buffer.from('ho') }, ours.responses[1]] }
  t.equal(classify(ctx(wrongBody)), null, 'a wrong body')
  t.equal(classify(ctx({ ...ours, responses: ours.responses.slice(0, 1) })), null, 'a lost response')
  t.equal(classify(ctx({ ...ours, error: { code: 'HPE_INVALID_CONSTANT', reason: 'x', at: 2 } })), null, 'an error llhttp does not see')
  t.not(compareOutcomes(wrongBody, ours), null)
  for (const id of Object.keys(KNOWN)) t.ok(KNOWN[id].title && KNOWN[id].reason && KNOWN[id].verify, `${id} is documented`)
})

// A new llhttp (a new Node) may frame responses otherwise than the ones we
// compared ours with; it fails here until its decisions are looked at and
// recorded in fuzz/decisions.js (and any new difference in known.js).
t.test(`llhttp ${process.versions.llhttp} frames responses as recorded in fuzz/decisions.js`, async (t) => {
  t.ok(REVIEWED.includes(LLHTTP), `llhttp ${LLHTTP} (Node ${process.version}) has been reviewed: ${REVIEWED.join(', ')} have`)
  for (const d of DECISIONS) {
    const wire = Buffer.from(d.wire, 'latin1')
    const head = d.head ? [true] : []
    const ref = runReference([wire], { head })
    const ours = runOurs([wire], { head })
    t.equal(summary(ours), d.ours, `ours: ${d.name}`)
    if (!REVIEWED.includes(LLHTTP)) continue
    t.equal(summary(ref), d.llhttp[LLHTTP], `llhttp ${LLHTTP}: ${d.name}`)
    // Where the two differ, a known difference of this llhttp explains it.
    if (compareOutcomes(ours, ref) !== null) {
      t.not(classify({ wire, head, maxHeaderSize: 16384, wantHeaders: false, ours, ref }), null, `a known difference: ${d.name}`)
    }
  }
})

t.test('the differences of one llhttp are not excused under another', async (t) => {
  t.same(Object.keys(KNOWN).filter((id) => KNOWN[id].llhttp !== undefined).sort(), ['ows-tab', 'status-cr-cr', 'te-empty'])
  for (const id of ['ows-tab', 'status-cr-cr', 'te-empty']) {
    t.ok(here(id, '9.3'), `${id} under 9.3`)
    t.notOk(here(id, '9.4'), `not ${id} under 9.4`)
  }
  t.ok(here('bare-lf', '9.4') && here('bare-lf', '9.3'), 'the others under both')
})
