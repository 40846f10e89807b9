'use strict'

// A capacity search as text: one row per step, printed as each step ends
// (so the table is live), and the closing sentence of each connection
// count.

const format = require('../core/format')

const COLUMNS = [
  ['step', 4], ['kind', 7], ['target', 10], ['achieved', 10], ['p50', 10], ['p99', 10], ['p99.9', 10], ['errors', 7], ['verdict', 15]
]

function pad (text, width) {
  const s = String(text)
  return s.length >= width ? s : ' '.repeat(width - s.length) + s
}

function rate (value) {
  return typeof value === 'number' ? format.rate(value) : '-'
}

function ms (value) {
  return typeof value === 'number' ? `${format.ms(value)} ms` : '-'
}

function headerLine (connections) {
  const head = COLUMNS.map(([name, width]) => pad(name, width)).join(' ')
  return `Searching for the highest rate at ${connections} connections\n${head}  why\n`
}

function stepLine (entry, index) {
  const r = entry.result
  const achieved = r.rate ? r.rate.achieved : r.requests.total / r.duration
  const cells = [index + 1, entry.kind, rate(entry.target), rate(achieved), ms(r.latency.p50), ms(r.latency.p99),
    ms(r.latency.p99_9), r.errors, entry.verdict]
  const why = entry.reasons && entry.reasons.length ? entry.reasons.join('; ') : ''
  return COLUMNS.map(([, width], i) => pad(cells[i], width)).join(' ') + (why ? `  ${why}` : '') + '\n'
}

// tries: the probe's, when its thread was starved in the first (the
// search runs it again); starved: the last try's, when it was too (the
// search goes on from the highest ceiling of the tries).
function probeLine ({ connections, ceiling, tries = 1, starved = null }) {
  const again = tries > 1
    ? starved ? `, the highest of ${tries} tries, each starved (this machine's ceiling, not the server's: the steps judge the server)` : `, try ${tries} (the generator was starved in the ${tries > 2 ? `${tries - 1} before` : 'first'})`
    : ''
  return `closed-loop probe at ${connections} connections: ${rate(ceiling)} req/s${again}\n`
}

module.exports = { headerLine, stepLine, probeLine }
