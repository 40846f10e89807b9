'use strict'

// The HTTP/2 client (--http2) against node:http2's server, in clear text
// (h2c, prior knowledge) and over TLS (ALPN h2): closed loops of streams,
// exact amounts, bodies both ways (one larger than the server's windows),
// a fixed rate, sequences with hooks and context, body checks, workers;
// and the refusal of an https server that does not offer h2.

const t = require('tap')
const { watchOwnThread, starvedReason, describe } = require('../helpers/own-thread')
const https = require('https')
const autocannon = require('../..')
const { makePki } = require('../helpers/pki')
const { tempDir } = require('../helpers/recording')
const { nodeH2Server, readBody } = require('../helpers/h2-servers')
const { run: runCli } = require('../helpers/cli')

const hello = (stream) => {
  stream.respond({ ':status': 200, 'content-type': 'text/plain' })
  stream.end('hello h2')
}

// Before an h2c run, its origin is sent our preface once on a connection
// of its own (lib/http2/alpn-check.js): a session the server counts too.
const CHECK = 1

// Every request the server saw was answered, or was in flight at the end.
function accounted (t, result, server) {
  t.ok(result.requests.total <= server.streams, `${result.requests.total} responses, of ${server.streams} streams served`)
  t.ok(server.streams <= result.requests.total + result.requests.inFlight, `${server.streams} served ≤ responses + ${result.requests.inFlight} in flight`)
}

t.test('h2c: a closed loop of 2 connections × 10 streams', async (t) => {
  const server = await nodeH2Server(t, hello)
  const result = await autocannon({ url: server.url, http2: true, connections: 2, pipelining: 10, duration: 1 })
  t.equal(result.protocol, 'h2')
  t.equal(result.errors, 0)
  t.equal(result.non2xx, 0)
  t.ok(result.requests.total > 1000, `${result.requests.total} responses`)
  t.equal(server.sessions, 2 + CHECK, 'one HTTP/2 connection each, and the check\'s')
  accounted(t, result, server)
  t.equal(result.throughput.total > result.requests.total * 'hello h2'.length, true, 'bytes count the bodies and header blocks')
})

t.test('h2 over TLS with ALPN', async (t) => {
  const pki = makePki(tempDir(t, 'ac-h2-tls-'))
  const server = await nodeH2Server(t, hello, pki.server)
  const result = await autocannon({ url: `https://localhost:${server.port}/`, http2: true, connections: 2, pipelining: 10, duration: 1 })
  t.equal(result.protocol, 'h2')
  t.equal(result.errors, 0)
  t.equal(server.sessions, 2)
  t.ok(result.requests.total > 500, `${result.requests.total} responses`)
  accounted(t, result, server)

  t.test('an https server without h2 is refused before the run, in one line', async (t) => {
    let hits = 0
    const h1 = https.createServer(pki.server, (req, res) => {
      hits++
      res.end('h1')
    })
    await new Promise((resolve) => h1.listen(0, '127.0.0.1', resolve))
    t.teardown(() => h1.close())
    const url = `https://localhost:${h1.address().port}/`
    await t.rejects(autocannon({ url, http2: true, connections: 1, duration: 1 }), { code: 'AC_H2_NOT_OFFERED', message: /^the server at https:\/\/localhost:\d+ does not offer HTTP\/2 \(ALPN h2\)/ })
    t.equal(hits, 0, 'no request was sent')
    const cli = await runCli([url, '--http2', '-d', '1', '-c', '1'])
    t.equal(cli.code, 1, 'the CLI exits 1')
    const lines = cli.stderr.trim().split('\n')
    t.equal(lines.length, 1, `one line: ${cli.stderr.trim()}`)
    t.match(lines[0], /does not offer HTTP\/2/)
    t.equal(hits, 0, 'nor by the CLI')

    // A TLS server without ALPN at all: the handshake ends, with no protocol.
    const bare = require('tls').createServer(pki.server, (socket) => socket.end())
    await new Promise((resolve) => bare.listen(0, '127.0.0.1', resolve))
    t.teardown(() => bare.close())
    await t.rejects(autocannon({ url: `https://localhost:${bare.address().port}/`, http2: true, connections: 1, duration: 1 }), { code: 'AC_H2_NOT_OFFERED' })
  })
})

t.test('-a 500: exactly 500 requests, each answered once', async (t) => {
  const server = await nodeH2Server(t, hello)
  const result = await autocannon({ url: server.url, http2: true, connections: 4, pipelining: 10, amount: 500 })
  t.equal(result.requests.total, 500)
  t.equal(result.requests.sent, 500)
  t.equal(server.streams, 500, 'the server saw 500 streams')
  t.equal(result.errors, 0)
  t.equal(result['2xx'], 500)
})

t.test("a client's 'response' listener hears every response over HTTP/2 too", async (t) => {
  const server = await nodeH2Server(t, hello)
  const heard = []
  const result = await autocannon({
    url: server.url,
    http2: true,
    connections: 2,
    pipelining: 4,
    amount: 200,
    setupClient: (client) => client.on('response', (status, bytes) => heard.push([status, bytes > 0]))
  })
  t.equal(result.requests.total, 200)
  t.equal(heard.length, 200, 'one event per response')
  t.same(heard[0], [200, true])
})

t.test('POST bodies reach the server: small ones with their HEADERS, a large one as the windows open', async (t) => {
  const seen = []
  const server = await nodeH2Server(t, async (stream, headers) => {
    const body = await readBody(stream)
    seen.push({ method: headers[':method'], length: Number(headers['content-length']), body })
    stream.respond({ ':status': 200 })
    stream.end(body)
  })
  const small = await autocannon({ url: server.url, http2: true, method: 'POST', body: 'the body', expectBody: 'the body', connections: 2, pipelining: 5, amount: 100 })
  t.equal(small.requests.total, 100)
  t.equal(small.errors, 0)
  t.equal(small.mismatches, 0, 'echoed back whole')
  t.ok(seen.every((r) => r.method === 'POST' && r.length === 8 && r.body.toString() === 'the body'), 'the server saw each body')

  seen.length = 0
  // Larger than the 65535 octets a server's windows start with: the rest
  // goes as its WINDOW_UPDATEs come.
  const big = Buffer.alloc(200 * 1024, 'x')
  const large = await autocannon({ url: server.url, http2: true, method: 'POST', body: big, connections: 2, pipelining: 3, amount: 30 })
  t.equal(large.requests.total, 30)
  t.equal(large.errors, 0)
  t.equal(seen.length, 30)
  t.ok(seen.every((r) => r.body.equals(big)), 'every large body arrived whole')
})

t.test('-R 200: the rate is kept, latency from the planned times', async (t) => {
  const server = await nodeH2Server(t, hello)
  const result = await autocannon({ url: server.url, http2: true, connections: 2, pipelining: 5, overallRate: 200, duration: 2 })
  t.equal(result.errors, 0)
  t.ok(Math.abs(result.rate.achieved - 200) <= 20, `achieved ${result.rate.achieved} req/s of 200`)
  t.ok(result.latency.totalCount >= 360, `${result.latency.totalCount} latencies`)
  t.ok(result.latency.p50 > 0, `p50 ${result.latency.p50} ms`)
  t.ok(result.latencyUncorrected, 'the service time is kept beside it')
  accounted(t, result, server)
})

t.test('a sequence with setupRequest and onResponse hooks, context carried', async (t) => {
  const server = await nodeH2Server(t, async (stream, headers) => {
    const body = await readBody(stream)
    if (headers[':path'] === '/login') {
      stream.respond({ ':status': 200, 'x-token': 'tok-' + JSON.parse(body).user })
      return stream.end('{"ok":true}')
    }
    const ok = headers.authorization === 'Bearer tok-ann'
    stream.respond({ ':status': ok ? 200 : 401 })
    stream.end(ok ? 'data' : 'no')
  })
  const tokens = []
  const result = await autocannon({
    url: server.url,
    http2: true,
    connections: 2,
    amount: 40,
    requests: [
      {
        method: 'POST',
        path: '/login',
        setupRequest: (req, context) => ({ ...req, body: JSON.stringify({ user: context.user }) }),
        onResponse: (status, body, context, headers) => {
          context.token = headers['x-token']
          tokens.push(context.token)
        }
      },
      {
        path: '/data',
        // Async, as a hook that fetches something first would be.
        setupRequest: async (req, context) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${context.token}` } })
      }
    ],
    initialContext: { user: 'ann' }
  })
  t.equal(result.errors, 0)
  t.equal(result.requests.total, 40)
  t.equal(result['2xx'], 40, 'every authorised request was accepted')
  t.equal(tokens.length, 20)
  t.ok(tokens.every((x) => x === 'tok-ann'))
})

t.test('verifyBody and expectBody count mismatches', async (t) => {
  let n = 0
  const server = await nodeH2Server(t, (stream) => {
    stream.respond({ ':status': 200 })
    stream.end(n++ % 2 === 0 ? 'good' : 'bad')
  })
  const expected = await autocannon({ url: server.url, http2: true, connections: 1, amount: 100, expectBody: 'good' })
  t.equal(expected.requests.total, 100)
  t.equal(expected.mismatches, 50)
  n = 0
  const bodies = []
  const verified = await autocannon({ url: server.url, http2: true, connections: 1, pipelining: 4, amount: 100, verifyBody: (body) => bodies.push(body) && body === 'good' })
  t.equal(verified.mismatches, 50)
  t.equal(bodies.length, 100)
})

t.test('-w 2: workers speak HTTP/2 too', async (t) => {
  const server = await nodeH2Server(t, hello)
  const result = await autocannon({ url: server.url, http2: true, workers: 2, connections: 2, pipelining: 5, amount: 400 })
  t.equal(result.protocol, 'h2')
  t.equal(result.requests.total, 400)
  t.equal(server.streams, 400)
  t.equal(server.sessions, 2 + CHECK, 'checked once, in the main thread')
  t.equal(result.errors, 0)
})

t.test('the CLI header says HTTP/2', async (t) => {
  const server = await nodeH2Server(t, hello)
  const cli = await runCli([server.url, '--http2', '-c', '1', '-p', '4', '-a', '20'])
  t.equal(cli.code, 0, cli.stderr)
  t.match(cli.stderr, /1 connections over HTTP\/2, 4 streams each/)
  t.equal(server.streams, 20)
})

t.test('forms, HAR entries, thresholds and maxConnectionRequests over HTTP/2', async (t) => {
  const seen = []
  const server = await nodeH2Server(t, async (stream, headers) => {
    const body = await readBody(stream)
    seen.push({ method: headers[':method'], path: headers[':path'], type: headers['content-type'], body: body.toString() })
    stream.respond({ ':status': 200 })
    stream.end('ok')
  })

  const form = await autocannon({ url: server.url + '/upload', http2: true, connections: 1, amount: 5, form: { name: { type: 'text', value: 'Jane' } } })
  t.equal(form.errors, 0)
  t.ok(seen.every((r) => r.method === 'POST' && /^multipart\/form-data; boundary=/.test(r.type) && /name="name"\r\n\r\nJane\r\n/.test(r.body)), 'the form reached the server whole')

  seen.length = 0
  const entries = [
    { request: { method: 'GET', url: `${server.url}/a?x=1`, headers: [{ name: 'Accept', value: 'text/html' }] } },
    { request: { method: 'POST', url: `${server.url}/b`, headers: [{ name: 'Content-Type', value: 'application/json' }], postData: { mimeType: 'application/json', text: '{"k":1}' } } }
  ]
  const har = { log: { version: '1.2', creator: { name: 't', version: '1' }, entries } }
  const replayed = await autocannon({ url: server.url, http2: true, connections: 1, amount: 4, har })
  t.equal(replayed.errors, 0)
  t.same(seen.map((r) => `${r.method} ${r.path} ${r.body}`), ['GET /a?x=1 ', 'POST /b {"k":1}', 'GET /a?x=1 ', 'POST /b {"k":1}'], 'the HAR\'s requests, in turn')

  const held = await autocannon({ url: server.url, http2: true, connections: 1, duration: 1, thresholds: ['p99 < 2s', 'errors == 0', 'p50 < 0.001ms'] })
  t.same(held.thresholds.map((x) => x.ok), [true, true, false], 'thresholds judged on the HTTP/2 run')

  const before = server.sessions
  const limited = await autocannon({ url: server.url, http2: true, connections: 1, pipelining: 5, maxConnectionRequests: 20, duration: 1 })
  t.equal(limited.requests.total, 20, 'the connection stops after its 20 requests')
  t.equal(server.sessions - before, 1 + CHECK)
  const recycled = await autocannon({ url: server.url, http2: true, connections: 1, pipelining: 5, reconnectRate: 10, amount: 50 })
  t.equal(recycled.requests.total, 50)
  t.equal(server.sessions - before - 1 - CHECK, 5 + CHECK, 'a new HTTP/2 connection every 10 requests')
})

t.test('a malformed {{…}} template is refused over HTTP/2 as over HTTP/1.1, in one line naming the option (filled ones: h2-gaps.test.js)', async (t) => {
  await t.rejects(autocannon({ url: 'http://127.0.0.1:1/{{int 9 1}}', http2: true, connections: 1, amount: 1 }), { code: 'AC_INVALID_OPTION', option: 'url', message: /at character \d+: \{\{int A B\}\} needs two integers/ })
})

t.test('[<id>] over HTTP/2: a fresh id in each request', async (t) => {
  const paths = []
  const server = await nodeH2Server(t, (stream, headers) => {
    paths.push(headers[':path'])
    stream.respond({ ':status': 200 })
    stream.end()
  })
  const r = await autocannon({ url: server.url + '/item/[<id>]', http2: true, idReplacement: true, connections: 1, pipelining: 4, amount: 20 })
  t.equal(r.errors, 0)
  t.equal(new Set(paths).size, 20, 'twenty ids')
  t.ok(paths.every((p) => /^\/item\/[A-Za-z0-9_-]{22}-\d{10}$/.test(p)), paths[0])
})

t.test('merged HTTP/2 results say h2', async (t) => {
  const server = await nodeH2Server(t, hello)
  // Two parts of one run: at the same time (results one after the other
  // are two runs), each paced over 200 ms so that they overlap.
  const parts = await Promise.all([0, 1].map(() => autocannon({ url: server.url, http2: true, connections: 1, amount: 50, overallRate: 250 })))
  const merged = autocannon.mergeResults(parts)
  t.equal(merged.protocol, 'h2')
  t.equal(merged.requests.total, 100)
  t.throws(() => autocannon.mergeResults([parts[0], { ...parts[1], protocol: undefined }]), { code: 'AC_DIFFERENT_RUNS' }, 'a part that spoke HTTP/1.1 is of another run')
  t.equal(autocannon.mergeResults([parts[0], { ...parts[1], protocol: undefined }], { force: true }).protocol, 'mixed', 'merged all the same when forced: mixed')
})

t.test('--findMaxRate over HTTP/2 finds the rate above which the server answers 503; the report says HTTP/2', async (t) => {
  // At most R answers per whole second, 503 above: a capacity of R req/s.
  const R = 400
  let second = 0
  let served = 0
  const server = await nodeH2Server(t, (stream) => {
    const now = Math.floor(Date.now() / 1000)
    if (now !== second) {
      second = now
      served = 0
    }
    stream.respond({ ':status': ++served <= R ? 200 : 503 })
    stream.end('ok')
  })
  const search = autocannon.findMaxRate({ url: server.url, http2: true, connections: 4, slos: ['non2xx < 1%'], stepDuration: 1 })
  const own = watchOwnThread(search)
  const out = await search
  const [s] = out.searches
  t.comment(s.sentence)
  t.ok(s.steps.length >= 3, `${s.steps.length} steps`)
  for (const step of s.steps) t.equal(step.result.protocol, 'h2', `step at ${step.target} req/s spoke h2`)
  // The server runs in this test's own thread: a starved thread is
  // believed only on this test's own measurements.
  const starved = s.status === 'generator-bound' && starvedReason(own)
  if (starved) return t.skip(`the machine starved the generator (${starved}): ${s.sentence}`)
  t.equal(s.status, 'found', `${s.sentence} (steps as this test saw its own thread: ${describe(own)})`)
  t.ok(s.best.rate <= R * 1.05 && s.best.rate >= R * 0.8, `best ${s.best.rate} req/s near ${R}`)
  // The probe's connections (once per try: a probe the machine starved
  // is run again) and the steps', each set with its check.
  const probes = s.probeTries || 1
  t.ok(server.sessions >= 1 && server.sessions <= (probes + 1) * (4 + CHECK), `${server.sessions} HTTP/2 connections (${probes} probe runs)`)
  const { renderHtml } = require('../../lib/output/html/report')
  const result = await autocannon({ url: server.url, http2: true, connections: 2, pipelining: 4, duration: 0.5 })
  const html = renderHtml([JSON.parse(JSON.stringify(result))])
  t.match(html, /<td[^>]*>HTTP\/2<\/td>/, 'the run table names the protocol')
  t.match(html, /4 streams per connection/)
})
