'use strict'

// printResult: autocannon's tables and summary lines, latency to a hundredth
// of a millisecond, colour only for a terminal.

const t = require('tap')
const printResult = require('../../lib/output/print-result')
const { parseTables, tableByName, parseBytes, parseMs, parseCount, stripAnsi } = require('../helpers/tables')

const plain = { isTTY: false }
const tty = { isTTY: true }

function stats (base, step) {
  const keys = ['p0_001', 'p0_01', 'p0_1', 'p1', 'p2_5', 'p10', 'p25', 'p50', 'p75', 'p90', 'p97_5', 'p99', 'p99_9', 'p99_99', 'p99_999']
  const out = {}
  keys.forEach((k, i) => { out[k] = Math.round((base + i * step) * 1000) / 1000 })
  return out
}

function fixture (overrides = {}) {
  return {
    title: undefined,
    url: 'http://127.0.0.1:3000',
    socketPath: undefined,
    connections: 10,
    sampleInt: 1000,
    pipelining: 1,
    workers: undefined,
    duration: 10.02,
    samples: 10,
    start: new Date('2024-01-01T00:00:00Z'),
    finish: new Date('2024-01-01T00:00:10Z'),
    errors: 0,
    timeouts: 0,
    mismatches: 0,
    non2xx: 0,
    resets: 0,
    '1xx': 0,
    '2xx': 707134,
    '3xx': 0,
    '4xx': 0,
    '5xx': 0,
    statusCodeStats: { 200: { count: 707134 } },
    latency: {
      ...stats(0.2, 1.4583), average: 1.063, mean: 1.063, stddev: 0.412, min: 0.021, max: 28.004, totalCount: 707134, p2_5: 0.251
    },
    requests: {
      average: 70713.61, mean: 70713.61, stddev: 1616.86, min: 66134, max: 72191, total: 707134, sent: 707234, ...stats(66175, 400)
    },
    throughput: {
      average: 13700000, mean: 13700000, stddev: 313000, min: 12800000, max: 14000000, total: 137000000, ...stats(12800000, 80000)
    },
    ...overrides
  }
}

t.test('the latency and volume tables, in autocannon\'s layout', async (t) => {
  const result = fixture()
  const text = printResult(result, { outputStream: plain })
  t.notMatch(text, /\u001b\[/, 'no colour for a stream that is not a terminal') // eslint-disable-line no-control-regex
  const tables = parseTables(text)
  t.equal(tables.length, 2)
  t.same(tables[0][0], ['Stat', '2.5%', '50%', '97.5%', '99%', 'Avg', 'Stdev', 'Max'])
  t.same(tables[1][0], ['Stat', '1%', '2.5%', '50%', '97.5%', 'Avg', 'Stdev', 'Min'])

  const latency = tableByName(tables[0]).Latency
  t.equal(latency['2.5%'], '0.25 ms', 'sub-millisecond latency is not rounded to 0 ms')
  t.equal(latency.Max, '28 ms', 'trailing zeros dropped')
  t.equal(latency.Avg, '1.06 ms')
  t.equal(latency.Stdev, '0.41 ms')
  for (const [col, key] of [['2.5%', 'p2_5'], ['50%', 'p50'], ['97.5%', 'p97_5'], ['99%', 'p99']]) {
    t.ok(Math.abs(parseMs(latency[col]) - result.latency[key]) <= 0.0051, `latency ${col} within rounding`)
  }

  const volume = tableByName(tables[1])
  t.equal(volume['Req/Sec'].Avg, '70,713.61', 'thousands separators and decimals, as autocannon prints them')
  t.equal(volume['Req/Sec'].Stdev, '1,616.86')
  t.equal(volume['Req/Sec'].Min, '66,134')
  t.equal(parseCount(volume['Req/Sec']['1%']), result.requests.p1)
  t.equal(volume['Bytes/Sec'].Avg, '13.7 MB')
  t.equal(volume['Bytes/Sec'].Stdev, '313 kB')
  t.equal(parseBytes(volume['Bytes/Sec'].Min), 12800000)

  const lines = text.split('\n')
  t.equal(lines[0], '', 'starts with a blank line, as autocannon does')
  t.ok(lines.includes('Req/Bytes counts sampled once per second.'))
  t.ok(lines.includes('# of samples: 10'))
  t.ok(lines.includes('707k requests in 10.02s, 137 MB read'))
  t.notOk(/non 2xx|errors|mismatched|reset/.test(text), 'no lines for what did not happen')
  t.ok(text.endsWith('read\n'))
})

t.test('small numbers, errors, non-2xx, mismatches and resets', async (t) => {
  const result = fixture({
    non2xx: 12,
    '2xx': 88,
    '5xx': 12,
    errors: 3,
    timeouts: 1,
    mismatches: 4,
    resets: 1,
    requests: { ...fixture().requests, sent: 100 },
    throughput: { ...fixture().throughput, total: 1234 }
  })
  const lines = printResult(result, { outputStream: plain }).split('\n')
  t.ok(lines.includes('88 2xx responses, 12 non 2xx responses'))
  t.ok(lines.includes('100 requests in 10.02s, 1.23 kB read'))
  t.ok(lines.includes('3 errors (1 timeouts)'))
  t.ok(lines.includes('4 requests with mismatched body'))
  t.ok(lines.includes('request pipeline was reset 1 time'))
  const twice = printResult(fixture({ resets: 2 }), { outputStream: plain })
  t.match(twice, /request pipeline was reset 2 times\n/)
})

t.test('a gRPC run\'s calls by status', async (t) => {
  const lines = printResult(fixture({ protocol: 'grpc', grpcStatus: { OK: 90, UNAVAILABLE: 10 }, errors: 10, errorCodes: { AC_GRPC_UNAVAILABLE: 10 } }), { outputStream: plain }).split('\n')
  t.ok(lines.includes('gRPC status: OK 90, UNAVAILABLE 10'), lines.filter((l) => l.includes('gRPC')).join(' | ') || 'no gRPC line')
  t.notOk(printResult(fixture(), { outputStream: plain }).includes('gRPC'), 'none over HTTP')
})

t.test('another sample interval is named', async (t) => {
  const text = printResult(fixture({ sampleInt: 250 }), { outputStream: plain })
  t.match(text, /\nReq\/Bytes counts sampled every 0\.25 seconds\.\n/)
})

t.test('-l adds the full percentile table', async (t) => {
  const result = fixture()
  const tables = parseTables(printResult(result, { outputStream: plain, renderLatencyTable: true }))
  t.equal(tables.length, 3)
  const [head, ...rows] = tables[2]
  t.same(head, ['Percentile', 'Latency (ms)'])
  t.same(rows.map((r) => r[0]), ['0.001', '0.01', '0.1', '1', '2.5', '10', '25', '50', '75', '90', '97.5', '99', '99.9', '99.99', '99.999'])
  for (const [p, value] of rows) {
    const key = `p${p}`.replace('.', '_')
    t.ok(Math.abs(Number(value) - result.latency[key]) <= 0.0051, `p${p}: ${value} ≈ ${result.latency[key]}`)
  }
})

t.test('--timings adds where the time went: a row per phase taken', async (t) => {
  const phase = (p50, count) => ({ ...stats(p50, 0), p50, p99: p50 * 2, average: p50 + 0.5, mean: p50 + 0.5, max: p50 * 3, totalCount: count })
  const timings = { dns: phase(1.5, 10), connect: phase(0.25, 10), proxyConnect: phase(0, 0), tls: phase(4, 10), ttfb: phase(2, 1500), transfer: phase(0, 1500) }
  const result = fixture({ timings })
  const tables = parseTables(printResult(result, { outputStream: plain, renderTimings: true }))
  t.equal(tables.length, 3)
  t.same(tables[2], [
    ['Phase', '50%', '99%', 'Avg', 'Max', 'Count'],
    ['DNS lookup', '1.5 ms', '3 ms', '2 ms', '4.5 ms', '10'],
    ['TCP connect', '0.25 ms', '0.5 ms', '0.75 ms', '0.75 ms', '10'],
    ['TLS handshake', '4 ms', '8 ms', '4.5 ms', '12 ms', '10'],
    ['TTFB', '2 ms', '4 ms', '2.5 ms', '6 ms', '1,500'],
    ['Transfer', '0 ms', '0 ms', '0.5 ms', '0 ms', '1,500']
  ], 'no row for the proxy\'s CONNECT, which no connection took')
  const text = printResult(result, { outputStream: plain, renderTimings: true })
  t.match(text, /TTFB: from the write to the first byte of the response; transfer: the rest of it\./)
  t.notMatch(text, /latency = wait/)
  t.equal(parseTables(printResult(result, { outputStream: plain, renderLatencyTable: true })).length, 3, '-l prints autocannon\'s tables only: the percentiles, not the phases')
  t.equal(parseTables(printResult(result, { outputStream: plain })).length, 2, 'not printed unless asked')
  t.equal(parseTables(printResult(fixture(), { outputStream: plain, renderTimings: true })).length, 2, 'nothing for a result without timings')
  const rated = printResult(fixture({ timings, rate: { target: 100, achieved: 100, late: 0, arrivals: 'uniform' } }), { outputStream: plain, renderTimings: true })
  t.match(rated, /Under a fixed rate, Latency also counts the wait from the planned send time to the write: latency = wait \+ TTFB \+ transfer\./)
  t.notMatch(text, /Inside DNS to TLS/, 'no generator delay known: no line')
  const delayed = {
    ...timings,
    dns: { ...timings.dns, generatorDelay: { avg: 0, max: 0.05 } },
    connect: { ...timings.connect, generatorDelay: { avg: 12.5, max: 23.75 } },
    tls: { ...timings.tls, generatorDelay: { avg: 0.5, max: 1 } }
  }
  t.match(printResult(fixture({ timings: delayed }), { outputStream: plain, renderTimings: true }),
    /\nInside DNS to TLS, this process's event loop was busy \(its own work, not the network's, up to that much of each step\): TCP connect 12\.5 ms on average, 23\.75 ms at most; TLS handshake 0\.5 ms on average, 1 ms at most\.\n/)
})

t.test('--renderStatusCodes adds the status code table', async (t) => {
  const result = fixture({ statusCodeStats: { 200: { count: 1500 }, 404: { count: 3 } } })
  const tables = parseTables(printResult(result, { outputStream: plain, renderStatusCodes: true }))
  t.equal(tables.length, 3)
  t.same(tables[2], [['Code', 'Count'], ['200', '1,500'], ['404', '3']])
})

t.test('verbose: false and renderResultsTable: false leave only the summary', async (t) => {
  for (const opts of [{ verbose: false }, { renderResultsTable: false }]) {
    const text = printResult(fixture({ errors: 2, timeouts: 2 }), { outputStream: plain, ...opts })
    t.equal(parseTables(text).length, 0)
    t.equal(text, '707k requests in 10.02s, 137 MB read\n2 errors (2 timeouts)\n')
  }
})

t.test('colour for a terminal, unless NO_COLOR', async (t) => {
  const saved = { NO_COLOR: process.env.NO_COLOR, FORCE_COLOR: process.env.FORCE_COLOR }
  t.teardown(() => {
    for (const k of Object.keys(saved)) {
      if (saved[k] === undefined) delete process.env[k]
      else process.env[k] = saved[k]
    }
  })
  delete process.env.NO_COLOR
  delete process.env.FORCE_COLOR
  const coloured = printResult(fixture(), { outputStream: tty })
  t.match(coloured, /\u001b\[36mStat\u001b\[39m/, 'headings in cyan') // eslint-disable-line no-control-regex
  t.match(coloured, /\u001b\[1mLatency\u001b\[22m/, 'row names in bold') // eslint-disable-line no-control-regex
  t.equal(stripAnsi(coloured), printResult(fixture(), { outputStream: plain }), 'same text underneath')

  process.env.NO_COLOR = '1'
  t.notMatch(printResult(fixture(), { outputStream: tty }), /\u001b\[/) // eslint-disable-line no-control-regex
  delete process.env.NO_COLOR
  process.env.FORCE_COLOR = '0'
  t.notMatch(printResult(fixture(), { outputStream: tty }), /\u001b\[/) // eslint-disable-line no-control-regex
})

t.test('latency formatting', async (t) => {
  const f = require('../../lib/core/format').ms
  t.equal(f(0.251), '0.25')
  t.equal(f(20.127), '20.13')
  t.equal(f(1), '1')
  t.equal(f(1.5), '1.5')
  t.equal(f(0), '0')
  t.equal(f(10000.004), '10000')
})

t.test('under a fixed rate: the uncorrected latency row and the rate line', async (t) => {
  const result = fixture({
    latencyUncorrected: { ...stats(0.1, 0.01), average: 0.3, mean: 0.3, stddev: 0.05, min: 0.05, max: 2.5, p99: 0.42 },
    rate: {
      target: 1000,
      achieved: 998.2,
      late: 1523,
      lateness: { ...stats(1, 10), p99: 903.17 }
    }
  })
  const text = printResult(result, { outputStream: plain })
  const rows = tableByName(parseTables(text)[0])
  t.equal(parseMs(rows.Latency['99%']), Math.round(result.latency.p99 * 100) / 100, 'corrected latency first')
  t.equal(parseMs(rows['Latency (uncorrected)']['99%']), 0.42, 'service time beside it')
  t.equal(parseMs(rows['Latency (uncorrected)'].Max), 2.5)
  t.match(text, /^target rate 1,000 req\/s, achieved 998.2 req\/s; 2k requests late, p99 lateness 903.17 ms$/m)

  const onTime = printResult(fixture({ rate: { target: 500, achieved: 500, late: 0 } }), { outputStream: plain })
  t.match(onTime, /^target rate 500 req\/s, achieved 500 req\/s$/m, 'no lateness clause when on time')
  const poisson = printResult(fixture({ rate: { target: 500, achieved: 499.5, late: 0, arrivals: 'poisson', seed: 42 } }), { outputStream: plain })
  t.match(poisson, /^target rate 500 req\/s \(Poisson arrivals, seed 42\), achieved 499.5 req\/s$/m, 'Poisson arrivals and the seed that replays them')
  t.equal(parseTables(onTime)[0].length, 2, 'one latency row without an uncorrected histogram')
  t.notMatch(printResult(fixture(), { outputStream: plain }), /target rate/, 'no rate line without a rate')
})
