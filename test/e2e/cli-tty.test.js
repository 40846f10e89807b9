'use strict'

// The CLI in a terminal: run under util-linux `script`, which gives it a
// pseudo-TTY. The progress bar is drawn (duration, amount and workers
// runs), then cleared, and the tables after it are intact and coloured;
// NO_COLOR takes the colour away but keeps the bar.

const t = require('tap')
const http = require('http')
const { parseTables, stripAnsi } = require('../helpers/tables')
const { hasScript, inTerminal: runInTerminal } = require('../helpers/terminal')

// The terminal's output with its carriage returns taken out.
async function inTerminal (args, env = {}) {
  const { code, output } = await runInTerminal(args, { env, ms: 30000 })
  return { code, output: output.replace(/\r/g, '') }
}

// The last frame the bar drew for each percentage, in order.
function barPercents (output) {
  return [...stripAnsi(output).matchAll(/(?:running|warmup) \[([= ]*)\] (\d+)%/g)].map((m) => Number(m[2]))
}

function serve (t) {
  const server = http.createServer((req, res) => res.end('hello'))
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    t.teardown(() => new Promise((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }))
    resolve(`http://127.0.0.1:${server.address().port}`)
  }))
}

t.test('in a terminal', { skip: hasScript() ? false : 'util-linux script is not installed' }, async (t) => {
  const url = await serve(t)

  t.test('a duration run: bar, then coloured tables', async (t) => {
    const { code, output } = await inTerminal(['-d', '2', '-c', '2', '-R', '2000', url])
    t.equal(code, 0, output)
    t.match(output, `Running 2s test @ ${url}\n2 connections\n`)
    t.match(output, /\u001b\[32mrunning\u001b\[39m \[/, 'the bar, with its label in green') // eslint-disable-line no-control-regex
    const percents = barPercents(output)
    t.equal(percents[0], 0, 'starts at 0%')
    t.ok(percents.some((p) => p > 0 && p < 100), `moves as the seconds pass (${percents.join(', ')})`)
    t.equal(percents[percents.length - 1], 100, 'ends at 100%')
    t.match(output, /100%\u001b\[0K\u001b\[2K\u001b\[1G/, 'and is cleared before the tables') // eslint-disable-line no-control-regex
    // Each interval's figures after the percentage.
    t.match(stripAnsi(output), /\] \d+% 1\.0\/2\.0 s {2}[\d,]+ resp\/s {2}p50 [\d.]+ ms {2}p99 [\d.]+ ms {2}[\d,]+ errors {2}[\d,]+ timeouts {2}[\d,]+ late/, 'the bar carries the last interval\'s figures')
    t.match(output, /\u001b\[36mStat\u001b\[39m/, 'tables coloured for a terminal') // eslint-disable-line no-control-regex
    const tables = parseTables(output)
    t.equal(tables.length, 2, 'both tables intact')
    t.same(tables[0][0], ['Stat', '2.5%', '50%', '97.5%', '99%', 'Avg', 'Stdev', 'Max'])
    t.equal(tables[0][1][0], 'Latency')
    t.same(tables[1].map((r) => r[0]), ['Stat', 'Req/Sec', 'Bytes/Sec'])
    t.ok(tables.every((table) => table.every((row) => row.length === 8)), 'every row has its 8 cells')
    // The tables end the output, but for the generator's health line on a
    // machine busy enough to delay it (docs/latency.md: Generator health).
    t.match(stripAnsi(output), /\n\d+k? requests in [\d.]+s, [\d.]+ [kMG]?B read\n(cannonade: warning: the generator may have distorted the latency: [^\n]+\n)?$/)
  })

  t.test('an amount run with workers: the bar follows the responses', async (t) => {
    const { code, output } = await inTerminal(['-w', '2', '-c', '2', '-a', '400', '-R', '200', url])
    t.equal(code, 0, output)
    t.match(output, `Running 400 requests test @ ${url}\n2 connections\n2 workers\n`)
    const percents = barPercents(output)
    t.ok(percents.some((p) => p > 0 && p < 100), `moves with the responses (${percents.join(', ')})`)
    t.equal(percents[percents.length - 1], 100)
    t.equal(parseTables(output).length, 2)
    t.match(stripAnsi(output), /\n400 requests in /)
  })

  t.test('NO_COLOR: the bar without colour, the tables without colour', async (t) => {
    const { code, output } = await inTerminal(['-d', '1', '-c', '1', '-R', '1000', url], { NO_COLOR: '1' })
    t.equal(code, 0, output)
    t.match(output, /running \[/)
    t.notMatch(output, /\u001b\[(3\d|1|22|39)m/, 'no colour codes') // eslint-disable-line no-control-regex
    t.equal(parseTables(output).length, 2)
  })

  t.test('-n: no bar even in a terminal; -j: only the JSON', async (t) => {
    let { code, output } = await inTerminal(['-n', '-a', '20', '-c', '1', url])
    t.equal(code, 0, output)
    t.notMatch(output, /running \[|Running/)
    t.equal(parseTables(output).length, 2)

    ;({ code, output } = await inTerminal(['-j', '-a', '20', '-c', '1', url]))
    t.equal(code, 0, output)
    t.equal(output.trim().split('\n').length, 1)
    t.equal(JSON.parse(output).requests.total, 20)
  })
})
