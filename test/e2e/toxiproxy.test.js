'use strict'

// Faults of a real network, made by a real fault proxy: Toxiproxy in front
// of a node:http server on 127.0.0.1, adding latency, a bandwidth limit, a
// close held back, a stall, resets and a cut after N bytes, some of them
// mid-run. Whatever the fault, the run ends at its duration and every
// request is counted once (sent = answered + errors + in flight), and the
// figures are what the fault makes them: bounds come from the toxic's
// settings, the server's own counts and the wire, never from the result.

const t = require('tap')
const net = require('net')
const http = require('http')
const autocannon = require('../..')
const { run } = require('../helpers/cli')
const { findServer, startToxiproxy, MISSING } = require('../helpers/toxiproxy')

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// A node:http server that counts what it served: requests, connections,
// bytes written. `respond(req, res)` answers (default: 'ok').
async function countingServer (t, respond = (req, res) => res.end('ok')) {
  const stats = { requests: 0, connections: 0 }
  const sockets = []
  const server = http.createServer((req, res) => {
    stats.requests++
    req.resume()
    req.on('end', () => respond(req, res))
  })
  server.on('connection', (socket) => {
    stats.connections++
    sockets.push(socket)
  })
  stats.bytesWritten = () => sockets.reduce((sum, s) => sum + s.bytesWritten, 0)
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    server.closeAllConnections()
    server.close()
  })
  return { port: server.address().port, stats }
}

// One response's size on the wire, read straight from the server (no
// proxy, not through the code under test): a GET, the head up to its
// blank line, then Content-Length bytes.
function responseSize (port) {
  return new Promise((resolve, reject) => {
    let buf = Buffer.alloc(0)
    const socket = net.connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'))
    socket.on('error', reject)
    socket.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk])
      const end = buf.indexOf('\r\n\r\n')
      if (end < 0) return
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(buf.subarray(0, end).toString())[1])
      if (buf.length >= end + 4 + length) {
        socket.destroy()
        resolve(end + 4 + length)
      }
    })
  })
}

// Every request is counted once: answered, an error, or in flight.
function accounted (t, r, label) {
  t.equal(r.requests.sent, r.requests.total + r.errors + r.requests.inFlight,
    `${label}: sent ${r.requests.sent} = answered ${r.requests.total} + errors ${r.errors} + in flight ${r.requests.inFlight}`)
}

// The run ended at its duration: measured, and by the clock around it.
function onTime (t, r, wallMs, duration, label) {
  t.ok(r.duration >= duration - 0.05 && r.duration <= duration + 0.5, `${label}: its duration ${r.duration} s (asked ${duration} s)`)
  // Start-up, and a machine busy with other tests, on top.
  t.ok(wallMs < (duration + 2.5) * 1000, `${label}: ended on time (${wallMs} ms by the wall clock)`)
}

// A library run with reqError events timestamped from its start.
async function bench (opts, during) {
  const started = Date.now()
  const events = []
  const instance = autocannon(opts)
  instance.on('reqError', (err) => events.push({ at: Date.now() - started, code: err.code }))
  const [r] = await Promise.all([instance, during ? during(started) : null])
  return { r, events, wall: Date.now() - started, started }
}

const bin = findServer()
if (!bin) {
  t.comment(`skipped: ${MISSING}`)
  t.skip(MISSING)
} else {
  t.test('latency 20 ms ± 5: p50 near 20 ms plus service, the fixed rate kept (CLI)', async (t) => {
    const toxi = await startToxiproxy(t, bin)
    t.comment(`toxiproxy-server ${toxi.version} (${bin})`)
    const { port, stats } = await countingServer(t)
    const proxy = await toxi.proxy(port)
    await proxy.add({ type: 'latency', attributes: { latency: 20, jitter: 5 } })
    // 10 connections for 100 req/s: each has 100 ms between sends, far
    // more than a response takes, so none queues behind another.
    const started = Date.now()
    const res = await run(['-c', '10', '-R', '100', '-d', '2', '-j', proxy.url])
    const wall = Date.now() - started
    t.equal(res.code, 0, res.stderr)
    const r = JSON.parse(res.stdout)
    t.comment(`latency p50 ${r.latency.p50} ms (min ${r.latency.min}, max ${r.latency.max}), uncorrected p50 ${r.latencyUncorrected.p50} ms, rate ${r.rate.achieved}/s of ${r.rate.target} (${r.requests.sent} sent of ${r.rate.planned} planned, ${r.rate.late} late), loop delay p99 ${r.generator.loopDelay.p99} ms`)
    onTime(t, r, wall, 2, 'latency')
    accounted(t, r, 'latency')
    t.equal(r.errors, 0, 'no errors')
    t.equal(stats.requests, r.requests.sent, 'the server saw every request sent')
    // Toxiproxy holds each response 15 to 25 ms (uniform): none sooner,
    // and the middle one 20 ms, plus the service time.
    t.ok(r.latency.min >= 15 - 0.1, `no response sooner than the toxic allows (min ${r.latency.min} ms)`)
    t.ok(r.latencyUncorrected.min >= 15 - 0.1, `uncorrected: none sooner either (min ${r.latencyUncorrected.min} ms)`)
    // The rate is the plan's, not slowed by the latency: 100/s over the
    // run (its plan starts once a connection is up: up to 150 ms later on
    // a busy machine), every request due sent (but those due in a last
    // pause of the generator's loop), and answered but those in flight at
    // the end, one per connection at most.
    t.equal(r.rate.target, 100)
    t.ok(r.rate.planned >= Math.floor(100 * (r.duration - 0.15)) && r.rate.planned <= Math.ceil(100 * r.duration) + 1, `planned ${r.rate.planned} (100/s for ${r.duration} s)`)
    const stalled = Math.ceil(r.generator.loopDelay.max * 100 / 1000)
    t.ok(r.requests.sent >= r.rate.planned - 1 - stalled && r.requests.sent <= r.rate.planned + 1, `sent on plan (${r.requests.sent} of ${r.rate.planned}; up to ${stalled} due in the loop's longest pause)`)
    t.ok(r.requests.inFlight <= 10, `in flight at the end: one per connection at most (${r.requests.inFlight})`)
    t.ok(r.rate.achieved <= 101, `achieved ${r.rate.achieved}/s of 100`)
    const g = r.generator.loopDelay
    if (r.latency.p50 > 30 && g.p99 > 5) {
      return t.skip(`the machine starved the generator: its loop ran ${g.p99} ms late at p99 (latency p50 ${r.latency.p50} ms)`)
    }
    t.ok(r.latency.p50 >= 19 && r.latency.p50 <= 30, `p50 ${r.latency.p50} ms: 20 ms of toxic plus the service time`)
    t.ok(r.latencyUncorrected.p50 >= 19 && r.latencyUncorrected.p50 <= 30, `uncorrected p50 ${r.latencyUncorrected.p50} ms`)
  })

  t.test('bandwidth 50 KB/s, 10 KB bodies: ends on time, every byte that arrived counted (CLI)', async (t) => {
    const toxi = await startToxiproxy(t, bin)
    const body = Buffer.alloc(10000, 'x')
    const { port, stats } = await countingServer(t, (req, res) => res.end(body))
    const size = await responseSize(port)
    stats.requests = 0
    const written = stats.bytesWritten()
    const proxy = await toxi.proxy(port)
    // Per connection: Toxiproxy limits each link to 50 000 bytes a second.
    await proxy.add({ type: 'bandwidth', attributes: { rate: 50 } })
    const connections = 2
    const duration = 2
    const started = Date.now()
    const res = await run(['-c', String(connections), '-d', String(duration), '-j', proxy.url])
    const wall = Date.now() - started
    t.equal(res.code, 0, res.stderr)
    const r = JSON.parse(res.stdout)
    const served = stats.bytesWritten() - written
    t.comment(`${r.requests.total} responses of ${size} bytes: ${r.throughput.total} bytes counted, ${served} written by the server; latency p50 ${r.latency.p50} ms`)
    onTime(t, r, wall, duration, 'bandwidth')
    accounted(t, r, 'bandwidth')
    t.equal(r.errors, 0, 'no errors')
    // Each answered response counted whole, and nothing else.
    t.equal(r.throughput.total, r.requests.total * size, `bytes counted = responses × ${size} bytes on the wire`)
    // What the server wrote went through the proxy; one response per
    // connection (no pipelining) may still be on its way at the end.
    t.ok(served >= r.throughput.total && served <= r.throughput.total + connections * size, `the server wrote ${served} bytes: counted ${r.throughput.total}, within one response per connection`)
    // The link allows 50 bytes a millisecond each, and is the bottleneck.
    const cap = connections * 50 * duration * 1000
    t.ok(r.throughput.total <= cap, `no more than the links carry (${r.throughput.total} ≤ ${cap})`)
    t.ok(r.throughput.total >= cap / 2, `the links were kept busy (${r.throughput.total} ≥ ${cap / 2})`)
    // A response takes its size / 50 ms (202 ms); Toxiproxy passes 5 000
    // bytes per 100 ms slice, and a slice late for one response is made up
    // on the next: a few ms off each way, never below one slice.
    t.ok(r.latency.min >= 100, `no response sooner than a slice (min ${r.latency.min} ms)`)
    t.ok(r.latency.p50 >= 0.9 * size / 50, `p50 ${r.latency.p50} ms: the time its bytes take (${size} bytes at 50 B/ms: ${size / 50} ms)`)
  })

  t.test('slow close: a close the proxy holds back for 1 s does not hold the connection up', async (t) => {
    const toxi = await startToxiproxy(t, bin)
    // Every response announces its close: the next request goes on a new
    // connection at once, whenever the old one's FIN comes.
    const { port, stats } = await countingServer(t, (req, res) => {
      res.setHeader('connection', 'close')
      res.end('ok')
    })
    const proxy = await toxi.proxy(port)
    await proxy.add({ type: 'slow_close', attributes: { delay: 1000 } })
    const connections = 2
    const duration = 1.5
    const { r, wall } = await bench({ url: proxy.url, connections, duration })
    t.comment(`${r.requests.total} responses over ${stats.connections} connections`)
    onTime(t, r, wall, duration, 'slow close')
    accounted(t, r, 'slow close')
    t.equal(r.errors, 0, `no errors (${JSON.stringify(r.errorCodes)})`)
    // Waiting for each FIN would allow one response per connection per
    // second: 2 × 2 at most.
    const ifWaited = connections * Math.ceil(duration / 1)
    t.ok(r.requests.total > 10 * ifWaited, `far more than ${ifWaited} answered (${r.requests.total})`)
    t.ok(stats.connections >= r.requests.total, `a connection per request (${stats.connections})`)
  })

  t.test('a timeout toxic mid-run: the requests it stalls end as timeouts, on time', async (t) => {
    const toxi = await startToxiproxy(t, bin)
    const { port, stats } = await countingServer(t)
    const proxy = await toxi.proxy(port)
    const connections = 2
    const duration = 3
    const timeout = 1
    let added = null
    // From 0.5 s on, no byte passes: not the answers to the requests in
    // flight, not those of the connections opened after.
    const { r, events, wall } = await bench({ url: proxy.url, connections, duration, timeout }, async (started) => {
      await sleep(500)
      const from = Date.now() - started
      await proxy.add({ type: 'timeout', attributes: { timeout: 0 } })
      added = { from, to: Date.now() - started }
    })
    const at = events.filter((e) => e.code === 'AC_TIMEOUT').map((e) => e.at)
    t.comment(`toxic added at ${added.from}–${added.to} ms; timeouts at ${at.join(', ')} ms; ${JSON.stringify(r.errorCodes)}; ${stats.requests} requests served`)
    onTime(t, r, wall, duration, 'timeout')
    accounted(t, r, 'timeout')
    t.same(Object.keys(r.errorCodes), ['AC_TIMEOUT'], 'only timeouts')
    t.equal(r.errors, r.timeouts, 'every error a timeout')
    t.equal(r.errorsByCause.timeout, r.errors, 'by cause')
    // Each connection's request times out 1 s after it went (just before
    // the toxic), its next one 1 s later; 2.5 s hold two rounds at most.
    const rounds = Math.floor((duration - 0.5) / timeout)
    t.ok(r.timeouts >= connections && r.timeouts <= connections * rounds, `${connections} to ${connections * rounds} timeouts (${r.timeouts})`)
    // On time: the timeout after the last send before the toxic, found by
    // a sweep every 100 ms (a tenth of it), plus a busy machine's delay.
    const first = Math.min(...at)
    t.ok(first >= added.from + timeout * 1000 - 100, `the first timeout not early (${first} ms, toxic from ${added.from} ms)`)
    t.equal(r.requests.inFlight, connections, 'the stalled requests of the last round are in flight at the end')
    t.ok(r.series.requests.length >= 3 && r.series.requests.slice(1).every((n) => n === 0), `no response after the first second (${r.series.requests.join('/')})`)
    t.ok(r.series.requests[0] > 0, 'answered before the toxic')
    const loop = r.generator.loopDelay
    if (first > added.to + timeout * 1000 + 300 && loop && loop.max > 150) {
      return t.skip(`the machine starved the generator: its loop ran ${loop.max} ms late (first timeout at ${first} ms, toxic by ${added.to} ms)`)
    }
    t.ok(first <= added.to + timeout * 1000 + 100 + 200, `nor late (${first} ms, toxic by ${added.to} ms)`)
  })

  t.test('reset_peer for 1 s mid-run: errors by cause, only idempotent unanswered requests resent', async (t) => {
    const toxi = await startToxiproxy(t, bin)
    const connections = 4
    const duration = 3
    // GET and POST at once, each through its own proxy to its own server.
    const runs = await Promise.all(['GET', 'POST'].map(async (method) => {
      const { port, stats } = await countingServer(t)
      const proxy = await toxi.proxy(port)
      let window = null
      // Connections open when the toxic comes are closed (FIN) at their
      // next answer; those opened while it is on are reset (RST).
      const out = await bench({ url: proxy.url, connections, duration, method, body: method === 'POST' ? 'x' : undefined }, async (started) => {
        await sleep(1000)
        const from = Date.now() - started
        const name = await proxy.add({ type: 'reset_peer', attributes: { timeout: 0 } })
        await sleep(1000)
        await proxy.remove(name)
        window = { from, to: Date.now() - started }
      })
      return { method, stats, window, ...out }
    }))
    for (const { method, r, wall, events, window } of runs) {
      t.comment(`${method}: reset from ${window.from} to ${window.to} ms: ${r.errors} errors ${JSON.stringify(r.errorCodes)}, by cause ${JSON.stringify(r.errorsByCause)}, ${r.resent} resent; ${r.requests.total} answered; per second ${r.series.requests.join('/')} answered, ${r.series.errors.join('/')} errors`)
      onTime(t, r, wall, duration, method)
      accounted(t, r, method)
      t.equal(r.timeouts, 0, `${method}: no timeouts`)
      t.equal(r.errorsByCause.read, r.errors, `${method}: every error a read error`)
      t.ok(r.errors >= connections, `${method}: an error per connection at least (${r.errors})`)
      // A connection that keeps failing waits 5 ms, then twice as long
      // each time: in the ~1 s of resets, about 9 attempts each; 11 with
      // a busy machine's slack.
      t.ok(r.errors <= connections * 11, `${method}: backed off, not spun on (${r.errors})`)
      // A connection opened once the toxic is gone works: the back-off
      // delays the next attempt, it does not fail it.
      t.ok(events.every((e) => e.at >= window.from - 5 && e.at <= window.to + 100), `${method}: errors only while the resets were on (${events[0].at}–${events[events.length - 1].at} ms)`)
      t.ok(r.series.requests[2] > 0, `${method}: answered again once the toxic is gone (${r.series.requests[2]} in the last second)`)
    }
    const [get, post] = [runs[0].r, runs[1].r]
    // A GET whose connection closed (FIN) before a byte of its answer goes
    // again; one per connection open when the toxic came. A reset one is
    // an error: the server may have had it (RFC 9112 §9.3.1 allows the
    // retry; a reset gives no sign that it was not processed).
    t.ok(get.resent >= 1 && get.resent <= connections, `GET: resent once per connection closed under it (${get.resent})`)
    t.same(Object.keys(get.errorCodes), ['ECONNRESET'], 'GET: every error a reset')
    // A POST is never sent twice: its closes are hang-ups.
    t.equal(post.resent, 0, 'POST: nothing resent')
    t.ok(post.errorCodes.AC_SOCKET_HANG_UP >= 1 && post.errorCodes.AC_SOCKET_HANG_UP <= connections, `POST: the connections closed under it hung up (${post.errorCodes.AC_SOCKET_HANG_UP})`)
    t.equal((post.errorCodes.AC_SOCKET_HANG_UP || 0) + (post.errorCodes.ECONNRESET || 0), post.errors, 'POST: hang-ups and resets only')
  })

  t.test('limit_data: a response cut short is a read error; a close right after one, a resend', async (t) => {
    const toxi = await startToxiproxy(t, bin)
    const connections = 2
    const duration = 1
    const runs = await Promise.all([1.5, 2].map(async (responses) => {
      const { port, stats } = await countingServer(t)
      const size = await responseSize(port)
      stats.requests = 0
      const proxy = await toxi.proxy(port)
      // Each connection carries that many responses' bytes, then closes.
      await proxy.add({ type: 'limit_data', attributes: { bytes: Math.round(responses * size) } })
      return { responses, size, stats, ...await bench({ url: proxy.url, connections, duration }) }
    }))
    for (const { responses, size, stats, r, wall } of runs) {
      const label = `${responses} responses' bytes`
      t.comment(`${label} (${Math.round(responses * size)}): ${r.requests.total} answered, ${r.errors} errors ${JSON.stringify(r.errorCodes)} by cause ${JSON.stringify(r.errorsByCause)}, ${r.resent} resent, ${stats.connections} connections`)
      onTime(t, r, wall, duration, label)
      accounted(t, r, label)
      t.ok(r.requests.total > 20, `${label}: the run went on, connection after connection (${r.requests.total} answered)`)
      t.equal(r.throughput.total, r.requests.total * size, `${label}: bytes of whole responses only`)
    }
    const [cut, whole] = [runs[0], runs[1]]
    // One response whole, the next cut halfway, per connection: as many
    // errors as answers, give or take one per connection at the end.
    const c = cut.r
    t.same(Object.keys(c.errorCodes), ['HPE_INCOMPLETE'], 'cut short: HPE_INCOMPLETE')
    t.equal(c.errorsByCause.read, c.errors, 'cut short: read errors, as wrk counts them (not parse errors)')
    t.equal(c.errorsByCause.parse, 0, 'cut short: no parse error')
    t.ok(Math.abs(c.requests.total - c.errors) <= connections, `cut short: an error per answer (${c.errors} for ${c.requests.total})`)
    t.equal(c.resent, 0, 'cut short: a response begun is not sent again')
    t.ok(cut.stats.connections >= c.errors, 'cut short: a connection per error')
    // Two whole responses, then the close: the third request, written as
    // the second answer came, had no byte of answer on a connection that
    // had answered, so a GET goes again. Unless it reached the proxy
    // before its close: a close with unread data is a reset (RST), and a
    // reset is an error, never a resend (the peer may have read it).
    const w = whole.r
    t.ok(Object.keys(w.errorCodes).every((code) => code === 'ECONNRESET'), `closed after whole responses: no error but resets (${JSON.stringify(w.errorCodes)})`)
    t.ok(w.resent > w.errors, `closed after whole responses: mostly resent (${w.resent} resent, ${w.errors} reset)`)
    const thirds = w.resent + w.errors
    t.ok(thirds >= w.requests.total / 2 - 2 * connections && thirds <= w.requests.total / 2 + connections,
      `closed after whole responses: one resent or reset per two answers (${thirds} for ${w.requests.total})`)
  })
}
