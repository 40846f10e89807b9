'use strict'

// Micro-benchmark of ResponseParser.execute() on its hot path: a buffer of
// small pipelined keep-alive responses (ten per read, as with -p 10),
// parsed with wantHeaders off (the fast path) and on.
//
//   node fuzz/bench-parser.js [--parser path/to/response-parser.js]... [--seconds 1] [--rounds 7]
//
// Several --parser copies (an older one, say) are measured in the same
// process, rounds interleaved, so that a slow moment of the machine hits
// them all alike. Prints responses per CPU second per setting (median of
// the rounds, and the range) and the garbage collections seen while
// timing: none means no allocation per response.

const path = require('path')
const { parseArgs } = require('util')
const { PerformanceObserver, performance } = require('perf_hooks')

const { values } = parseArgs({
  options: {
    parser: { type: 'string', multiple: true },
    seconds: { type: 'string', default: '1' },
    rounds: { type: 'string', default: '7' }
  }
})
const files = (values.parser || [path.join(__dirname, '..', 'lib', 'response-parser.js')]).map((f) => path.resolve(f))
const parsers = files.map((f) => require(f).ResponseParser)

const ONE = 'HTTP/1.1 200 OK\r\nContent-Length: 14\r\nConnection: keep-alive\r\n\r\nHello, world!\n'
// A more common shape: headers the fast path skips.
const REALISTIC = 'HTTP/1.1 200 OK\r\nDate: Sun, 22 Nov 2026 10:00:00 GMT\r\nContent-Type: text/plain; charset=utf-8\r\n' +
  'Content-Length: 14\r\nConnection: keep-alive\r\nKeep-Alive: timeout=5\r\n\r\nHello, world!\n'

// GC entries arrive later; each is matched to the timing window it fell in.
const gcTimes = []
new PerformanceObserver((list) => { for (const e of list.getEntries()) gcTimes.push(e.startTime) }).observe({ entryTypes: ['gc'] })

function bench (ResponseParser, response, wantHeaders, seconds) {
  const buf = Buffer.from(response.repeat(10), 'latin1')
  let completed = 0
  const parser = new ResponseParser({
    onHeadersComplete () { return false },
    onBody () {},
    onMessageComplete () { completed++ },
    onParseError (err) { throw err }
  })
  parser.wantHeaders = wantHeaders
  parser.wantBody = false
  parser.reset()
  // Warm up, then time whole batches of reads.
  for (let k = 0; k < 50000; k++) parser.execute(buf, 0, buf.length)
  completed = 0
  const from = performance.now()
  const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9))
  // CPU time, not wall time: on a shared machine other processes take
  // turns on the core, which wall time would count against us.
  const cpu0 = process.cpuUsage()
  while (process.hrtime.bigint() < deadline) {
    for (let k = 0; k < 2000; k++) parser.execute(buf, 0, buf.length)
  }
  const cpu = process.cpuUsage(cpu0)
  return { rate: completed / ((cpu.user + cpu.system) / 1e6), responses: completed, from, to: performance.now() }
}

async function main () {
  const seconds = Number(values.seconds)
  const rounds = Number(values.rounds)
  const settings = [
    ['canned (CL + Connection)', ONE, false],
    ['canned (CL + Connection)', ONE, true],
    ['realistic (+4 skipped headers)', REALISTIC, false],
    ['realistic (+4 skipped headers)', REALISTIC, true]
  ]
  const results = parsers.map(() => settings.map(() => []))
  for (let r = 0; r < rounds; r++) {
    // Each parser goes first in turn.
    for (let q = 0; q < parsers.length; q++) {
      const p = (q + r) % parsers.length
      for (let k = 0; k < settings.length; k++) {
        const [, response, wantHeaders] = settings[k]
        results[p][k].push(bench(parsers[p], response, wantHeaders, seconds))
      }
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 200))
  const fmt = (n) => (n / 1e6).toFixed(2) + ' M/s'
  console.log(`node ${process.version}, ${rounds} rounds of ${seconds} s, ten responses per execute(), responses per CPU second`)
  for (let p = 0; p < parsers.length; p++) {
    console.log(`\n${path.relative(process.cwd(), files[p])}`)
    settings.forEach(([name, , wantHeaders], k) => {
      const runs = results[p][k]
      const xs = runs.map((x) => x.rate).sort((a, b) => a - b)
      const median = xs[Math.floor(xs.length / 2)]
      const gc = runs.reduce((a, x) => a + gcTimes.filter((t) => t >= x.from && t <= x.to).length, 0)
      const total = runs.reduce((a, x) => a + x.responses, 0)
      console.log(`  ${name.padEnd(31)} wantHeaders ${wantHeaders ? 'on ' : 'off'}  ${fmt(median).padStart(10)}  (${fmt(xs[0])} – ${fmt(xs[xs.length - 1])})  GCs ${gc} in ${(total / 1e6).toFixed(0)} M responses`)
    })
  }
}

main()
