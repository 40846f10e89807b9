'use strict'

// --connectionStages: the closed model's stages. A server counts its open
// connections every 100 ms and the count follows the ramp within one
// connection; going down, connections close once answered, so nothing is
// lost; the series, the result and the report show the connections.

const t = require('tap')
const fs = require('fs')
const path = require('path')
const http = require('http')
const autocannon = require('../..')
const { createConnectionRamp } = require('../../lib/engine/connection-ramp')
const { aggregateResult } = require('../../lib/results/result')
const { run } = require('../helpers/cli')

// Answers after `delayMs` (requests are in flight when a ramp goes down),
// and counts its open sockets.
function countingServer (t, delayMs = 5) {
  const server = http.createServer((req, res) => setTimeout(() => res.end('ok'), delayMs))
  server.open = 0
  server.opened = 0
  server.on('connection', (socket) => {
    server.open++
    server.opened++
    socket.on('close', () => server.open--)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    t.teardown(() => { server.closeAllConnections(); server.close() })
    server.url = `http://127.0.0.1:${server.address().port}`
    resolve(server)
  }))
}

function watch (server, everyMs = 100) {
  const seen = []
  const timer = setInterval(() => seen.push([Date.now(), server.open]), everyMs)
  return { seen, stop: () => clearInterval(timer) }
}

t.test('findMaxRate refuses a ramp of connections', async (t) => {
  await t.rejects(autocannon.findMaxRate({ url: 'http://127.0.0.1:1', slos: ['p99<10ms'], connectionStages: '1s:5' }), { code: 'AC_CONFLICTING_OPTIONS' })
})

t.test('library: the server\'s open connections follow the ramp, and no request is lost going down', async (t) => {
  const server = await countingServer(t)
  const watching = watch(server)
  const stages = [{ duration: 1, connections: 5 }, { duration: 2, connections: 15 }, { duration: 1, connections: 15 }, { duration: 2, connections: 0 }]
  const result = await autocannon({ url: server.url, connectionStages: stages })
  watching.stop()
  const ramp = createConnectionRamp(stages)
  const start = new Date(result.start).getTime()
  // Within one connection of the ramp at each 100 ms sample after the
  // first second; the moment read is allowed to be off by as long as this
  // thread's longest pause (the server and its sampling share it).
  const slack = result.generator.loopDelay.max
  let checked = 0
  for (const [at, open] of watching.seen) {
    const ms = at - start
    if (ms < 1000 || ms > 6000 - slack) continue
    let low = Infinity
    let high = -Infinity
    for (let x = ms - slack; x <= ms + slack; x += 1) {
      low = Math.min(low, ramp.wholeAt(x))
      high = Math.max(high, ramp.wholeAt(x))
    }
    checked++
    if (open < low - 1 || open > high + 1) t.fail(`at ${ms} ms the server had ${open} open, the ramp ${low === high ? low : `${low}-${high}`}`)
  }
  t.ok(checked >= 40, `${checked} samples checked`)
  t.equal(Math.max(...watching.seen.map(([, open]) => open)), 15, 'the plateau: 15')
  t.equal(server.opened, 15, 'each connection opened once: none opened again on the way up')
  t.equal(result.errors, 0, 'parked connections count no error')
  t.equal(result.requests.sent, result.requests.total + result.requests.inFlight, 'every request sent was answered or is in flight at the end')
  t.same(result.connectionStages, stages)
  t.equal(result.connections, 15)
  // The series: the connections open at each interval's end.
  t.equal(result.series.connections.length, 6)
  result.series.connections.forEach((open, i) => {
    const expected = ramp.wholeAt((i + 1) * 1000)
    t.ok(Math.abs(open - expected) <= 1, `interval ${i + 1}: ${open} open, the ramp ${expected}`)
  })
  t.equal(server.open, 0, 'all closed at the end')
})

t.test('library: a ramp that goes down and up again reopens the same connections', async (t) => {
  const server = await countingServer(t, 0)
  const seen = new Set()
  const instance = autocannon({ url: server.url, connectionStages: '0s:4,0.5s:4,0s:1,0.5s:1,0s:4,0.5s:4', setupClient: (client) => seen.add(client) })
  const result = await instance
  t.equal(seen.size, 4, 'four clients built in all')
  t.equal(server.opened, 7, '4, then 3 reopened')
  t.equal(result.errors, 0)
})

t.test('library: a connection done with its requests is not opened again when the ramp comes back up', async (t) => {
  const server = await countingServer(t, 0)
  const result = await autocannon({ url: server.url, maxConnectionRequests: 3, connectionStages: '0s:4,0.5s:4,0s:1,0.5s:1,0s:4,0.5s:4' })
  t.equal(result.requests.total, 12, 'three requests on each of four connections')
  t.equal(server.opened, 4, 'each opened once: a done connection stays closed')
  t.equal(result.errors, 0)
})

t.test('workers: each thread holds its part, together the ramp', async (t) => {
  const server = await countingServer(t)
  const watching = watch(server, 50)
  const result = await autocannon({ url: server.url, connectionStages: '0s:7,2s:7', workers: 2 })
  watching.stop()
  t.equal(Math.max(...watching.seen.map(([, open]) => open)), 7, '4 + 3')
  t.same(result.series.connections, [7, 7], 'the series adds the threads\' connections')
  t.equal(result.errors, 0)
})

t.test('aggregateResult sums the connections of threads and shards per interval', async (t) => {
  const raw = (connections) => ({ series: [[1000, 10, 100, 0, null, 0, 0, 0, connections]], start: 0, finish: 1000, duration: 1 })
  const result = aggregateResult([raw(3), raw(4)], { sampleInt: 1000, connections: 7 })
  t.same(result.series.connections, [7])
})

t.test('CLI: the header says the ramp; a rate with it is one line, exit 1', async (t) => {
  const server = await countingServer(t, 0)
  const out = path.join(t.testdir(), 'result.json')
  const ok = await run(['--connectionStages', '0.5s:3,0.5s:0', '--out', out, server.url])
  t.equal(ok.code, 0, ok.stderr)
  t.match(ok.stderr, /connections ramped by stages: 0\.5s to 3, 0\.5s to 0/)
  const result = JSON.parse(fs.readFileSync(out, 'utf8'))
  t.same(result.connectionStages, [{ duration: 0.5, connections: 3 }, { duration: 0.5, connections: 0 }])
  t.ok(Array.isArray(result.series.connections))
  const bad = await run(['--connectionStages', '1s:3', '-R', '100', server.url])
  t.equal(bad.code, 1)
  t.equal(bad.stderr.trim().split('\n').length, 1, bad.stderr)
  t.match(bad.stderr, /^Error: connectionStages and overallRate \(-R\) cannot be used together/)
})

t.test('report: the HTML draws the connections beside requests and latency', async (t) => {
  const { renderHtml } = require('../../lib/output/html/report')
  const server = await countingServer(t, 0)
  const result = await autocannon({ url: server.url, connectionStages: '0.5s:3,0.5s:3' })
  const html = renderHtml([JSON.parse(JSON.stringify(result))])
  t.match(html, /id="chart-connections-over-time"/)
  t.match(html, /ramped: 0\.5 s to 3, 0\.5 s to 3/)
  const plain = await autocannon({ url: server.url, connections: 2, duration: 0.5 })
  t.notMatch(renderHtml([JSON.parse(JSON.stringify(plain))]), /chart-connections-over-time/, 'no ramp, no chart')
})
