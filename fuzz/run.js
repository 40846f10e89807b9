'use strict'

// Differential fuzzing of lib/http1/response-parser.js against Node's own HTTP
// parser (llhttp). See fuzz/README.md.
//
//   npm run fuzz -- [--cases 100000] [--seed 1] [--category NAME]
//                   [--no-loopback] [--workers N] [--concurrency 16] [--show 5]
//   npm run fuzz -- --replay SEED:INDEX     one case, in detail
//
// Cases are generated from the seed alone, in batches handed to worker
// threads (one per core): each case goes through the in-process layer and
// the loopback layer. Exits with code 1 if anything disagrees.

const os = require('os')
const path = require('path')
const { Worker } = require('worker_threads')
const { parseArgs } = require('util')
const { generate, CATEGORIES } = require('./generate')
const { emptyTally, merge } = require('./batch')
const { minimize } = require('./minimize')
const { hexdump, table, knownLines } = require('./summary')
const { KNOWN } = require('./known')

const BATCH = 250

function options () {
  const { values } = parseArgs({
    options: {
      cases: { type: 'string', default: '10000' },
      seed: { type: 'string', default: '1' },
      category: { type: 'string' },
      replay: { type: 'string' },
      'no-loopback': { type: 'boolean', default: false },
      workers: { type: 'string', default: String(Math.max(1, os.availableParallelism ? os.availableParallelism() : os.cpus().length)) },
      concurrency: { type: 'string', default: '16' },
      show: { type: 'string', default: '5' },
      help: { type: 'boolean', short: 'h', default: false }
    }
  })
  if (values.help) {
    console.log(require('fs').readFileSync(__filename, 'utf8').split('\n').slice(2, 13).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'))
    process.exit(0)
  }
  if (values.category !== undefined && !CATEGORIES.includes(values.category)) {
    console.error(`unknown category ${values.category}: one of ${CATEGORIES.join(', ')}`)
    process.exit(1)
  }
  const int = (name) => {
    const n = Number(values[name])
    if (!Number.isInteger(n) || n < 0) {
      console.error(`--${name} wants a whole number, not ${values[name]}`)
      process.exit(1)
    }
    return n
  }
  return {
    cases: int('cases'),
    seed: int('seed'),
    category: values.category,
    replay: values.replay,
    loopback: !values['no-loopback'],
    workers: Math.max(1, int('workers')),
    concurrency: Math.max(1, int('concurrency')),
    show: int('show')
  }
}

function versions () {
  return `node ${process.version}, llhttp ${process.versions.llhttp}`
}

async function runAll (opts) {
  const tasks = []
  for (let from = 0; from < opts.cases; from += BATCH) {
    const to = Math.min(opts.cases, from + BATCH)
    tasks.push({ layer: 'in-process', seed: opts.seed, from, to, category: opts.category })
    if (opts.loopback) tasks.push({ layer: 'loopback', seed: opts.seed, from, to, category: opts.category, concurrency: opts.concurrency })
  }
  const tallies = { 'in-process': emptyTally(), loopback: emptyTally() }
  const total = tasks.length
  let done = 0
  let lastShown = 0
  const started = Date.now()
  await new Promise((resolve, reject) => {
    let running = 0
    for (let k = 0; k < Math.min(opts.workers, tasks.length); k++) {
      const worker = new Worker(path.join(__dirname, 'worker.js'))
      running++
      const feed = () => {
        if (tasks.length === 0) {
          worker.postMessage({ type: 'stop' })
          return
        }
        worker.postMessage({ type: 'task', task: tasks.shift() })
      }
      worker.on('message', (msg) => {
        if (msg.type === 'done') {
          merge(tallies[msg.task.layer], msg.tally)
          done++
          const pct = Math.floor(done / total * 10)
          if (pct > lastShown) {
            lastShown = pct
            process.stderr.write(`  ${pct * 10}% (${((Date.now() - started) / 1000).toFixed(0)} s)\n`)
          }
        }
        feed()
      })
      worker.on('error', reject)
      worker.on('exit', () => {
        if (--running === 0) resolve()
      })
    }
  })
  return tallies
}

async function main () {
  const opts = options()
  if (opts.replay !== undefined) return replay(opts.replay)
  const started = Date.now()
  console.log(`Our response parser vs Node's (${versions()}): seed ${opts.seed}, ${opts.cases} cases${opts.category ? ` of ${opts.category}` : ''}, ${opts.workers} worker thread(s)`)
  const tallies = await runAll(opts)
  const elapsed = (Date.now() - started) / 1000
  const layers = [['in-process', tallies['in-process']]]
  if (opts.loopback) layers.push(['loopback', tallies.loopback])

  console.log('\nin-process: both parsers fed the same bytes (whole; one byte at a time; cut at every position, or 32 random ones past 200 bytes;')
  console.log('3 random sets of cuts; ranges of a larger buffer; plus the stream followed by one garbage byte), our parser with wantHeaders off and on')
  console.log(table(tallies['in-process']))
  if (opts.loopback) {
    console.log('\nloopback: a raw server on 127.0.0.1 writes the stream in random slices; our parser reads it from a socket and is compared')
    console.log('with llhttp fed the same reads, and with node:http (http.request, agent: false) reading it from another socket (first response)')
    console.log(table(tallies.loopback))
  }
  const known = knownLines(layers)
  if (known.length > 0) {
    console.log(`\nknown differences (cases per layer: ${layers.map(([name]) => name).join(', ')}; fuzz/README.md says why):`)
    for (const line of known) console.log(line)
  }
  let disagreements = 0
  for (const [name, t] of layers) {
    disagreements += t.disagreeCount
    if (t.disagreeCount === 0) continue
    console.log(`\n${name}: ${t.disagreeCount} disagreement(s); the first ${Math.min(opts.show, t.disagreements.length)}:`)
    for (const d of t.disagreements.slice(0, opts.show)) {
      const c = generate(opts.seed, Number(d.id.split(':')[1]), opts.category)
      console.log(`  ${d.id} (${d.category}, ${d.layer}): ${d.detail}`)
      console.log(`  replay: npm run fuzz -- --replay ${d.id}${opts.category ? ` --category ${opts.category}` : ''}`)
      if (name === 'in-process') {
        const small = minimize(c)
        console.log(`  ${c.wire.length} bytes, shrunk to ${small.length} that still disagree${c.head.some(Boolean) ? ` (HEAD flags ${JSON.stringify(c.head)})` : ''}${c.maxHeaderSize !== 16384 ? ` (maxHeaderSize ${c.maxHeaderSize})` : ''}:`)
        console.log(hexdump(small))
      } else {
        console.log(`  ${c.wire.length} bytes:`)
        console.log(hexdump(c.wire))
      }
    }
  }
  let anomalies = 0
  for (const [name, t] of layers) {
    anomalies += t.anomalyCount
    for (const a of t.anomalies.slice(0, opts.show)) console.log(`\nanomaly (${name}, the reference disagrees with itself): ${a.id} (${a.category}): ${a.detail}`)
  }
  console.log(`\ncases: ${opts.cases}; disagreements: ${disagreements}; known differences: ${layers.map(([name, t]) => `${name} ${Object.values(t.byCategory).reduce((a, r) => a + r.known, 0)}`).join(', ')}; reference anomalies: ${anomalies}`)
  console.log(`elapsed: ${elapsed.toFixed(1)} s`)
  if (disagreements > 0 || anomalies > 0) process.exitCode = 1
}

// One case in detail: its bytes, each parser's outcome, each layer's verdict.
async function replay (id) {
  const { runOurs } = require('./ours')
  const { runReference } = require('./reference')
  const { checkCase } = require('./check')
  const { StreamServer, checkLoopback } = require('./loopback')
  const m = /^(\d+):(\d+)$/.exec(id)
  if (m === null) {
    console.error(`--replay wants SEED:INDEX, such as 1:2345, not ${id}`)
    process.exit(1)
  }
  const argv = process.argv
  const category = argv.includes('--category') ? argv[argv.indexOf('--category') + 1] : undefined
  const c = generate(Number(m[1]), Number(m[2]), category)
  const show = (o) => JSON.stringify({
    responses: o.responses.map((r) => ({ status: r.status, body: r.body.toString('latin1'), close: r.close })),
    error: o.error && { code: o.error.code, reason: o.error.reason, after: o.error.at },
    upgraded: o.upgraded || undefined
  }, null, 1).replace(/\n\s*/g, ' ')
  console.log(`case ${c.id} (${c.category}), ${c.wire.length} bytes, HEAD flags ${JSON.stringify(c.head)}, maxHeaderSize ${c.maxHeaderSize} (${versions()})`)
  console.log(hexdump(c.wire, 4096))
  console.log('\nwire as a string:', JSON.stringify(c.wire.toString('latin1')))
  console.log('\nllhttp:                   ', show(runReference([c.wire], { head: c.head, maxHeaderSize: c.maxHeaderSize })))
  for (const wantHeaders of [false, true]) {
    console.log(`ours, wantHeaders ${wantHeaders ? 'on: ' : 'off:'}      `, show(runOurs([c.wire], { head: c.head, wantHeaders, maxHeaderSize: c.maxHeaderSize })))
  }
  Error.stackTraceLimit = 0
  const r = checkCase(c)
  console.log(`\nin-process: ${r.verdict}${r.known.length ? ` (${r.known.map((k) => `${k}: ${KNOWN[k].title}`).join('; ')})` : ''}${r.detail ? `\n  ${r.layer}: ${r.detail}` : ''}${r.anomaly ? `\n  anomaly: ${r.anomaly}` : ''}`)
  const server = new StreamServer()
  await server.start()
  try {
    const l = await checkLoopback(c, server)
    console.log(`loopback: ${l.verdict}${l.known.length ? ` (${l.known.join(', ')})` : ''}${l.detail ? `\n  ${l.layer}: ${l.detail}` : ''}${l.anomaly ? `\n  anomaly: ${l.anomaly}` : ''}`)
  } finally {
    await server.close()
  }
}

// Piped into head and the like: stop quietly when the reader goes.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode || 0)
  throw err
})

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
