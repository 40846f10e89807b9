'use strict'

// Runs a range of cases through one layer and tallies the verdicts: the
// unit of work of the fuzz runner's worker threads, and what
// test/e2e/fuzz.test.js runs directly.

const { generate } = require('./generate')
const { checkCase } = require('./check')
const { checkLoopback } = require('./loopback')

// How many disagreements and anomalies a tally keeps in full.
const KEEP = 20

function emptyTally () {
  return { cases: 0, byCategory: {}, known: {}, disagreements: [], disagreeCount: 0, anomalies: [], anomalyCount: 0 }
}

function record (tally, c, r) {
  tally.cases++
  const row = tally.byCategory[c.category] || (tally.byCategory[c.category] = { cases: 0, agree: 0, known: 0, disagree: 0 })
  row.cases++
  row[r.verdict]++
  for (const id of r.known) tally.known[id] = (tally.known[id] || 0) + 1
  if (r.verdict === 'disagree') {
    tally.disagreeCount++
    if (tally.disagreements.length < KEEP) tally.disagreements.push({ id: c.id, category: c.category, layer: r.layer, detail: r.detail })
  }
  if (r.anomaly) {
    tally.anomalyCount++
    if (tally.anomalies.length < KEEP) tally.anomalies.push({ id: c.id, category: c.category, detail: r.anomaly })
  }
}

function merge (into, t) {
  into.cases += t.cases
  for (const [cat, row] of Object.entries(t.byCategory)) {
    const r = into.byCategory[cat] || (into.byCategory[cat] = { cases: 0, agree: 0, known: 0, disagree: 0 })
    for (const k of Object.keys(row)) r[k] += row[k]
  }
  for (const [id, n] of Object.entries(t.known)) into.known[id] = (into.known[id] || 0) + n
  into.disagreeCount += t.disagreeCount
  into.anomalyCount += t.anomalyCount
  for (const d of t.disagreements) if (into.disagreements.length < KEEP) into.disagreements.push(d)
  for (const a of t.anomalies) if (into.anomalies.length < KEEP) into.anomalies.push(a)
  return into
}

// task: { layer: 'in-process' | 'loopback', seed, from, to, category,
// concurrency }. `server`: a started StreamServer (loopback only).
async function runBatch (task, server) {
  const tally = emptyTally()
  if (task.layer === 'in-process') {
    for (let i = task.from; i < task.to; i++) {
      const c = generate(task.seed, i, task.category)
      record(tally, c, checkCase(c))
    }
    return tally
  }
  let next = task.from
  const lane = async () => {
    while (next < task.to) {
      const c = generate(task.seed, next++, task.category)
      record(tally, c, await checkLoopback(c, server))
    }
  }
  await Promise.all(Array.from({ length: task.concurrency || 16 }, lane))
  return tally
}

module.exports = { runBatch, emptyTally, merge }
