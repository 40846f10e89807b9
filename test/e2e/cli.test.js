'use strict'

// The real command, spawned against node:http servers on 127.0.0.1: what
// the server received, what was printed (the tables read back and checked
// against the -j result of the same run), PORT, --on-port, --warmup, -f,
// Ctrl-C, and one-line errors for bad input.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const net = require('net')
const path = require('path')
const http = require('http')
const prettyBytes = require('pretty-bytes')
const { parseTables, tableByName, parseMs, parseCount } = require('../helpers/tables')
const { closedPort } = require('../helpers/raw-server')

const { start, run } = require('../helpers/cli')
const { gone } = require('../helpers/processes')
const HELP = fs.readFileSync(path.join(__dirname, '..', '..', 'help.txt'), 'utf8')
const { name, version } = require('../../package.json')
const { UPSTREAM_VERSION } = require('../../lib/core/upstream-messages')

// Resolves once `check()` is true, polling every 20 ms.
function until (check, timeoutMs = 10000) {
  return new Promise((resolve, reject) => {
    const begun = Date.now()
    const poll = () => {
      if (check()) return resolve()
      if (Date.now() - begun > timeoutMs) return reject(new Error('timed out waiting'))
      setTimeout(poll, 20)
    }
    poll()
  })
}

// A node:http server that counts connections and requests and keeps the
// first requests it saw. handler(req, res, body) answers (default 'hello').
function server (t, handler, listenOn = { port: 0, host: '127.0.0.1' }) {
  const seen = { connections: 0, requests: 0, first: [] }
  const srv = http.createServer((req, res) => {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      seen.requests++
      const body = Buffer.concat(chunks).toString()
      if (seen.first.length < 200) seen.first.push({ method: req.method, url: req.url, headers: req.headers, body })
      if (handler) handler(req, res, body, seen)
      else res.end('hello')
    })
  })
  srv.on('connection', () => { seen.connections++ })
  return new Promise((resolve) => {
    srv.listen(listenOn, () => {
      t.teardown(() => new Promise((resolve) => {
        srv.closeAllConnections()
        srv.close(() => resolve())
      }))
      const address = srv.address()
      seen.port = address.port
      seen.url = `http://127.0.0.1:${address.port}`
      resolve(seen)
    })
  })
}

function tmpdir (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-cli-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

function json (stdout) {
  const lines = stdout.split('\n')
  return { lines: lines.filter((l) => l !== ''), result: JSON.parse(lines[0]) }
}

function abbreviate (n) {
  return n < 1000 ? String(n) : `${Math.round(n / 1000)}k`
}

// Runs longer than a moment are held to a rate (-R) so that they leave CPU
// to the timing tests running beside them.

t.test('a default run: header, tables and summary on stderr, nothing on stdout', async (t) => {
  const s = await server(t)
  const { code, stdout, stderr } = await run(['-d', '1', '-c', '3', s.url])
  t.equal(code, 0, stderr)
  t.equal(stdout, '')
  t.ok(stderr.startsWith(`Running 1s test @ ${s.url}\n3 connections\n\n\n┌`), 'autocannon\'s header, then the tables')
  t.notMatch(stderr, /\u001b\[/, 'no colour and no progress bar when stderr is not a terminal') // eslint-disable-line no-control-regex
  const tables = parseTables(stderr)
  t.equal(tables.length, 2)
  t.same(tables[0][0], ['Stat', '2.5%', '50%', '97.5%', '99%', 'Avg', 'Stdev', 'Max'])
  t.same(tables[1][0], ['Stat', '1%', '2.5%', '50%', '97.5%', 'Avg', 'Stdev', 'Min'])
  t.match(stderr, /\nReq\/Bytes counts sampled once per second\.\n# of samples: \d+\n\n\d+k? requests in [\d.]+s, [\d.]+ [kMG]?B read\n$/)
  t.equal(s.connections, 3, 'three connections')
  t.ok(s.requests > 0)
})

t.test('the printed tables match the -j result of the same run', async (t) => {
  // Every tenth response a 404, for the status code table and non-2xx line.
  const s = await server(t, (req, res, body, seen) => {
    res.statusCode = seen.requests % 10 === 0 ? 404 : 200
    res.end('hello world')
  })
  const { code, stdout, stderr } = await run(['-j', '-V', '-l', '--renderStatusCodes', '-d', '2', '-c', '2', '-R', '5000', s.url])
  t.equal(code, 0, stderr)
  const { lines, result: r } = json(stdout)
  t.equal(lines.length, 1, 'one JSON line on stdout')
  t.notMatch(stderr, /Running/, 'no header or bar with -j')

  const tables = parseTables(stderr)
  t.equal(tables.length, 4, 'latency, volume, status codes, percentiles')
  const latency = tableByName(tables[0]).Latency
  const cols = { '2.5%': 'p2_5', '50%': 'p50', '97.5%': 'p97_5', '99%': 'p99', Avg: 'average', Stdev: 'stddev', Max: 'max' }
  for (const [col, key] of Object.entries(cols)) {
    t.ok(Math.abs(parseMs(latency[col]) - r.latency[key]) <= 0.0051, `latency ${col}: ${latency[col]} vs ${r.latency[key]}`)
  }
  const volume = tableByName(tables[1])
  const highCols = { '1%': 'p1', '2.5%': 'p2_5', '50%': 'p50', '97.5%': 'p97_5', Avg: 'average', Stdev: 'stddev', Min: 'min' }
  for (const [col, key] of Object.entries(highCols)) {
    t.ok(Math.abs(parseCount(volume['Req/Sec'][col]) - r.requests[key]) <= 0.0051, `Req/Sec ${col}: ${volume['Req/Sec'][col]} vs ${r.requests[key]}`)
    t.equal(volume['Bytes/Sec'][col], prettyBytes(r.throughput[key]), `Bytes/Sec ${col}`)
  }
  const codes = Object.fromEntries(tables[2].slice(1).map(([code, count]) => [code, parseCount(count)]))
  t.same(codes, Object.fromEntries(Object.entries(r.statusCodeStats).map(([c, v]) => [c, v.count])))
  t.ok(codes['404'] > 0 && codes['200'] > 0)
  for (const [p, value] of tables[3].slice(1)) {
    const key = `p${p}`.replace('.', '_')
    t.ok(Math.abs(Number(value) - r.latency[key]) <= 0.0051, `p${p}`)
  }
  const text = stderr.split('\n')
  t.ok(text.includes(`# of samples: ${r.samples}`))
  t.ok(r.samples >= 1 && r.samples <= 3, `${r.samples} samples in a 2 s run`)
  t.ok(text.includes(`${r['2xx']} 2xx responses, ${r.non2xx} non 2xx responses`))
  t.ok(text.includes(`${abbreviate(r.requests.sent)} requests in ${r.duration}s, ${prettyBytes(r.throughput.total)} read`))
  t.ok(s.requests >= r.requests.total && s.requests <= r.requests.sent, `the server saw ${s.requests}, the result says ${r.requests.total}..${r.requests.sent}`)
  t.equal(r['2xx'] + r.non2xx, r.requests.total)
})

t.test('-j alone: one JSON line on stdout and nothing at all on stderr', async (t) => {
  const s = await server(t)
  const { code, stdout, stderr } = await run(['-j', '-a', '50', '-c', '5', s.url])
  t.equal(code, 0)
  t.equal(stderr, '')
  const { lines, result } = json(stdout)
  t.equal(lines.length, 1)
  t.ok(stdout.endsWith('}\n'))
  t.equal(result.requests.total, 50)
  t.equal(result.connections, 5)
  t.equal(result.url, s.url)
  t.equal(s.requests, 50)
  t.equal(s.connections, 5)
})

t.test('method, headers, body: what the server receives', async (t) => {
  const s = await server(t)
  const { code, stderr } = await run(['-m', 'PUT', '-H', 'x-a=1', '-H', 'X-B: two=2', '--header', 'content-type=text/plain',
    '-b', 'hello body', '-a', '6', '-c', '2', '-T', 'my title', s.url + '/put?q=1'])
  t.equal(code, 0, stderr)
  t.equal(s.requests, 6)
  for (const r of s.first) {
    t.equal(r.method, 'PUT')
    t.equal(r.url, '/put?q=1')
    t.equal(r.headers['x-a'], '1')
    t.equal(r.headers['x-b'], 'two=2')
    t.equal(r.headers['content-type'], 'text/plain')
    t.equal(r.body, 'hello body')
  }
})

t.test('-i reads the body from a file, -I gives each request its own id, -F posts a form', async (t) => {
  const dir = tmpdir(t)
  const s = await server(t)
  const file = path.join(dir, 'body.json')
  fs.writeFileSync(file, '{"from":"a file"}')
  let out = await run(['-i', file, '-m', 'POST', '-a', '3', '-c', '1', '-j', s.url])
  t.equal(out.code, 0, out.stderr)
  t.same(s.first.map((r) => [r.method, r.body]), Array(3).fill(['POST', '{"from":"a file"}']))

  s.first.length = 0
  out = await run(['-I', '-m', 'POST', '-b', '{"id":"[<id>]"}', '-a', '5', '-c', '1', '-j', s.url])
  t.equal(out.code, 0, out.stderr)
  const ids = s.first.map((r) => JSON.parse(r.body).id)
  t.equal(new Set(ids).size, 5, 'five different ids')
  t.notOk(ids.some((id) => id.includes('[<id>]')))

  s.first.length = 0
  out = await run(['-F', JSON.stringify({ greeting: { type: 'text', value: 'hi there' } }), '-a', '2', '-c', '1', '-j', s.url])
  t.equal(out.code, 0, out.stderr)
  for (const r of s.first) {
    t.equal(r.method, 'POST', 'a form is posted')
    t.match(r.headers['content-type'], /^multipart\/form-data; boundary=/)
    t.match(r.body, /name="greeting"\r\n\r\nhi there\r\n/)
  }
})

t.test('-c, -p, -a, -w: connections, pipelining, amount and workers in the header and on the wire', async (t) => {
  const s = await server(t)
  let out = await run(['-c', '3', '-p', '2', '-a', '60', s.url])
  t.equal(out.code, 0, out.stderr)
  t.ok(out.stderr.startsWith(`Running 60 requests test @ ${s.url}\n3 connections with 2 pipelining factor\n\n`))
  t.equal(s.connections, 3)
  t.equal(s.requests, 60)
  t.match(out.stderr, /\n60 requests in [\d.]+s, /)

  const w = await server(t)
  out = await run(['-w', '2', '-c', '4', '-a', '100', w.url])
  t.equal(out.code, 0, out.stderr)
  t.ok(out.stderr.startsWith(`Running 100 requests test @ ${w.url}\n4 connections\n2 workers\n\n`))
  t.equal(parseTables(out.stderr).length, 2)
  t.equal(w.connections, 4)
  t.equal(w.requests, 100)
})

t.test('several URLs share the connections', async (t) => {
  const a = await server(t)
  const b = await server(t)
  const { code, stdout, stderr } = await run(['-c', '2', '-a', '20', '-j', a.url + '/a', b.url + '/b'])
  t.equal(code, 0, stderr)
  t.same(json(stdout).result.url, [a.url + '/a', b.url + '/b'])
  t.ok(a.requests > 0 && b.requests > 0)
  t.equal(a.requests + b.requests, 20)
  t.ok(a.first.every((r) => r.url === '/a') && b.first.every((r) => r.url === '/b'))
})

t.test('PORT and a path-only URL target localhost:$PORT', async (t) => {
  const s = await server(t, null, { port: 0, host: 'localhost' })
  const { code, stdout, stderr } = await run(['/via-port?x=1', '-a', '5', '-c', '1', '-j'], { extraEnv: { PORT: String(s.port) } })
  t.equal(code, 0, stderr)
  t.equal(json(stdout).result.url, `http://localhost:${s.port}/via-port?x=1`)
  t.equal(s.requests, 5)
  t.ok(s.first.every((r) => r.url === '/via-port?x=1'))
})

t.test('-S sends over a Unix socket', { skip: process.platform === 'win32' }, async (t) => {
  const dir = tmpdir(t)
  const socketPath = path.join(dir, 's.sock')
  const s = await server(t, null, socketPath)
  const { code, stdout, stderr } = await run(['-S', socketPath, '-a', '4', '-c', '1', '-j', 'http://unix.test/sock'])
  t.equal(code, 0, stderr)
  t.equal(json(stdout).result.requests.total, 4)
  t.equal(s.requests, 4)
  t.ok(s.first.every((r) => r.url === '/sock' && r.headers.host === 'unix.test'))
})

t.test('limits, rates, sampling, title, expected body, bailout, timeouts, --debug', async (t) => {
  const s = await server(t)
  const result = async (args) => {
    const out = await run(['-j', ...args, s.url])
    t.equal(out.code, 0, `${args.join(' ')}: ${out.stderr}`)
    return json(out.stdout).result
  }
  t.equal((await result(['-M', '5', '-c', '2', '-d', '5'])).requests.total, 10, '-M: 5 per connection')
  t.equal((await result(['-O', '30', '-c', '3', '-d', '5'])).requests.total, 30, '-O: 30 overall')
  const before = s.connections
  t.equal((await result(['-D', '5', '-a', '20', '-c', '1'])).requests.total, 20)
  t.ok(s.connections - before >= 4, `-D 5: reconnected every 5 requests (${s.connections - before} connections)`)
  const rated = await result(['-R', '50', '-d', '1', '-c', '2'])
  t.ok(rated.requests.total >= 30 && rated.requests.total <= 70, `-R 50 for 1 s: ${rated.requests.total}`)
  const perConnection = await result(['-r', '20', '-C', '-d', '1', '-c', '2'])
  t.ok(perConnection.requests.total >= 25 && perConnection.requests.total <= 55, `-r 20 -C, 2 connections, 1 s: ${perConnection.requests.total}`)

  const sampled = await run(['-j', '-V', '-L', '500', '-T', 'sampled', '-d', '1', '-c', '1', '-R', '2000', s.url])
  const sr = json(sampled.stdout).result
  t.equal(sr.sampleInt, 500)
  t.equal(sr.title, 'sampled')
  t.match(sampled.stderr, `\nReq/Bytes counts sampled every 0.5 seconds.\n# of samples: ${sr.samples}\n`)

  const mismatched = await run(['-E', 'not hello', '-a', '7', '-c', '1', s.url])
  t.equal(mismatched.code, 0)
  t.match(mismatched.stderr, /\n7 requests with mismatched body\n/)

  const failing = await server(t, (req, res) => { res.statusCode = 500; res.end('no') })
  const excluded = await run(['-x', '-a', '10', '-c', '1', '-j', failing.url])
  const included = await run(['-a', '10', '-c', '1', '-j', failing.url])
  t.equal(json(excluded.stdout).result.latency.totalCount, 0, '-x: non-2xx left out of latency')
  t.equal(json(included.stdout).result.latency.totalCount, 10)
  t.equal(json(excluded.stdout).result.non2xx, 10)

  // A port nothing listens on: every connection attempt fails.
  const closed = `http://127.0.0.1:${await closedPort()}`
  const begun = Date.now()
  const bailed = await run(['-B', '3', '-d', '20', '-c', '1', '-j', closed])
  t.equal(bailed.code, 1, 'no response at all: exit code 1')
  t.match(bailed.stderr, new RegExp(`^no response from ${closed}: \\d+ of \\d+ requests ended in errors \\(connect \\d+; ECONNREFUSED \\d+\\)\n$`), 'one line says why')
  t.ok(Date.now() - begun < 10000, '-B: bailed out long before 20 s')
  t.ok(json(bailed.stdout).result.errors >= 3)
  const debug = await run(['--debug', '-d', '0.5', '-c', '1', '-j', closed])
  t.match(debug.stderr, /ECONNREFUSED/, '--debug prints connection errors on stderr')
  t.equal(json(debug.stdout).lines.length, 1, 'and stdout still holds only the JSON')

  const hanging = await server(t, () => {})
  const timedOut = await run(['-t', '0.5', '-d', '1.5', '-c', '1', '-j', '-V', hanging.url])
  const tr = json(timedOut.stdout).result
  t.ok(tr.timeouts >= 1, `-t 0.5: ${tr.timeouts} timeouts`)
  t.match(timedOut.stderr, `\n${tr.errors} errors (${tr.timeouts} timeouts)\n`)
})

t.test('-n: no header; --no-verbose: only the summary; -l and --renderStatusCodes add tables', async (t) => {
  const s = await server(t)
  let out = await run(['-n', '-a', '10', '-c', '1', s.url])
  t.notMatch(out.stderr, /Running/)
  t.equal(parseTables(out.stderr).length, 2)

  out = await run(['--no-verbose', '-a', '10', '-c', '1', s.url])
  t.match(out.stderr, /^Running 10 requests test/)
  t.equal(parseTables(out.stderr).length, 0)
  t.match(out.stderr, /\n10 requests in [\d.]+s, [\d.]+ kB read\n$/)

  out = await run(['-l', '--renderStatusCodes', '-a', '10', '-c', '1', s.url])
  const tables = parseTables(out.stderr)
  t.equal(tables.length, 4)
  t.same(tables[2], [['Code', 'Count'], ['200', '10']])
  t.same(tables[3][0], ['Percentile', 'Latency (ms)'])
  t.equal(tables[3].length, 16)
})

t.test('-h prints help.txt on stderr (as autocannon, with or without a URL), -v the version', async (t) => {
  let out = await run(['-h'])
  t.equal(out.code, 0)
  t.equal(out.stderr, HELP)
  t.equal(out.stdout, '', 'stdout is for results')
  out = await run(['--help', '-c', '5'])
  t.equal(out.stderr, HELP)
  for (const args of [[], ['-c', '2']]) {
    out = await run(args)
    t.equal(out.code, 0, `${args.join(' ') || 'no arguments'}: exit code 0, as autocannon`)
    t.equal(out.stderr, HELP, `${args.join(' ') || 'no arguments'}: no URL, the help`)
    t.equal(out.stdout, '')
  }
  out = await run(['-v'])
  t.equal(out.code, 0)
  t.equal(out.stdout, `${name} v${version} (compatible with autocannon v${UPSTREAM_VERSION})\nnode ${process.version}\n`)
  // autocannon's own test reads its version so, anywhere in the output.
  t.equal(/autocannon v(\d+\.\d+\.\d+)/.exec(out.stdout)[1], UPSTREAM_VERSION)
})

t.test('--warmup [ -c -d ] runs unrecorded first, then the run', async (t) => {
  const s = await server(t)
  let out = await run(['-c', '2', '-d', '1', '-R', '2000', '-W', '[', '-c', '1', '-d', '1', ']', '-j', s.url])
  t.equal(out.code, 0, out.stderr)
  const { lines, result } = json(out.stdout)
  t.equal(lines.length, 1, 'only the run is printed')
  t.equal(result.connections, 2)
  t.equal(result.warmup.connections, 1, 'the warmup\'s result is attached')
  t.ok(result.warmup.duration >= 0.9 && result.warmup.duration < 3)
  t.equal(s.connections, 3, 'one warmup connection, then two')
  t.ok(s.requests >= result.requests.total + result.warmup.requests.total)
  t.ok(result.start >= result.warmup.finish, 'the run starts after the warmup')

  out = await run(['-c', '2', '-d', '1', '-R', '2000', '--warmup', '[-c', '1', '-d', '1]', s.url])
  t.equal(out.code, 0, out.stderr)
  const warmupAt = out.stderr.indexOf(`Running 1s warmup @ ${s.url}\n1 connections\n`)
  const testAt = out.stderr.indexOf(`Running 1s test @ ${s.url}\n2 connections\n`)
  t.ok(warmupAt === 0 && testAt > warmupAt, 'warmup header, then the test header')
  t.equal(parseTables(out.stderr).length, 2, 'tables for the run only')
})

t.test('-f runs round after round until Ctrl-C', async (t) => {
  const s = await server(t)
  const child = start(['-f', '-a', '100', '-c', '2', '-j', s.url])
  await until(() => child.out.split('\n').length > 2)
  child.kill('SIGINT')
  const { code, stdout } = await child.done
  t.equal(code, 0)
  const rounds = stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l))
  t.ok(rounds.length >= 2, `${rounds.length} rounds`)
  t.equal(rounds[0].requests.total, 100)
  t.equal(rounds[1].requests.total, 100)

  const tables = start(['-f', '-a', '100', '-c', '2', s.url])
  await until(() => (tables.err.match(/requests in/g) || []).length >= 2)
  tables.kill('SIGINT')
  const done = await tables.done
  t.equal(done.code, 0)
  t.ok((done.stderr.match(/Running 100 requests test @/g) || []).length >= 2, 'a header each round')
  t.ok(parseTables(done.stderr).length >= 4, 'tables each round')
})

t.test('Ctrl-C stops the run and still prints its results', async (t) => {
  const s = await server(t)
  const child = start(['-d', '30', '-c', '2', '-R', '2000', s.url])
  await until(() => child.err.includes('Running') && s.requests > 0)
  await new Promise((resolve) => setTimeout(resolve, 1200))
  const stoppedAt = Date.now()
  child.kill('SIGINT')
  const { code, stderr } = await child.done
  t.equal(code, 0)
  t.ok(Date.now() - stoppedAt < 5000, 'stopped promptly')
  t.equal(parseTables(stderr).length, 2, 'the tables')
  const m = /\n\d+k? requests in ([\d.]+)s, /.exec(stderr)
  t.ok(m, 'the summary')
  t.ok(m && Number(m[1]) >= 1 && Number(m[1]) < 10, `ran ${m && m[1]}s of 30`)
})

t.test('--on-port starts the command, benchmarks the port it listens on, stops it', async (t) => {
  const dir = tmpdir(t)
  const script = path.join(dir, 'server.js')
  fs.writeFileSync(script, `'use strict'
const fs = require('fs')
const http = require('http')
let n = 0
const [pidFile, countFile] = process.argv.slice(2)
process.on('SIGTERM', () => { fs.writeFileSync(countFile, String(n)); process.exit(0) })
http.createServer((req, res) => { n++; res.end('child ' + req.url) }).listen(0, '127.0.0.1', () => {
  fs.writeFileSync(pidFile, String(process.pid))
  console.log('child is listening')
})
`)
  const pidFile = path.join(dir, 'pid')
  const countFile = path.join(dir, 'count')
  const { code, stdout, stderr } = await run(['--on-port', '-a', '20', '-c', '2', '-j', '/from-test', '--', process.execPath, script, pidFile, countFile])
  t.equal(code, 0, stderr)
  const { lines, result } = json(stdout)
  t.equal(lines.length, 1, 'the command\'s own output is not on stdout with -j')
  t.match(stderr, /child is listening/, 'it goes to stderr')
  t.match(result.url, /^http:\/\/127\.0\.0\.1:\d+\/from-test$/)
  t.equal(result.requests.total, 20)
  t.equal(fs.readFileSync(countFile, 'utf8'), '20', 'the command served the requests and was stopped (SIGTERM)')
  const pid = Number(fs.readFileSync(pidFile, 'utf8'))
  t.ok(gone(pid), 'the command is gone (or a zombie no init reaps)')

  // `-- node script` implies --on-port; the tables go to stderr as usual.
  fs.rmSync(countFile)
  const implied = await run(['-a', '10', '-c', '1', '/implied', '--', 'node', script, pidFile, countFile])
  t.equal(implied.code, 0, implied.stderr)
  t.match(implied.stderr, /Running 10 requests test @ http:\/\/127\.0\.0\.1:\d+\/implied\n/)
  t.equal(fs.readFileSync(countFile, 'utf8'), '10')

  const early = await run(['--on-port', '/', '--', process.execPath, '-e', 'process.exit(3)'])
  t.equal(early.code, 1)
  t.equal(early.stderr, `Error: --on-port: the command exited (code 3) before listening on a port: ${process.execPath} -e process.exit(3)\n`)
})

t.test('bad input: exit code 1 and exactly one line on stderr', async (t) => {
  const dir = tmpdir(t)
  const url = 'http://127.0.0.1:9'
  const missing = path.join(dir, 'missing')
  const har = (request) => JSON.stringify({ log: { entries: [{ request: { url: `${url}/`, headers: [], ...request } }] } })
  const badHar = path.join(dir, 'bad-method.har')
  fs.writeFileSync(badHar, har({ method: 'GE T' }))
  const crlfHar = path.join(dir, 'crlf.har')
  fs.writeFileSync(crlfHar, har({ method: 'GET', headers: [{ name: 'x-a', value: 'b\r\nx-b: c' }] }))
  // Each line starts as autocannon's: "Error: " and its message where it
  // has one (test/e2e/upstream-messages.test.js), our detail in brackets.
  const cases = [
    [['--bogus', url], 'Error: Unknown option: --bogus (see autocannon --help)'],
    [['-c', 'many', url], 'Error: connections can not be less than 1 (-c/--connections: "many" is not a number)'],
    [['-d', 'soon', url], 'Error: duration entered was in an invalid format (-d/--duration: "soon" is not a number of seconds or a timestring such as 10s or 2m)'],
    [['-i', missing, url], `Error: ENOENT: no such file or directory, open '${missing}' (-i/--input ${missing} cannot be read)`],
    [['--har', missing, url], `Error: Failed to load HAR file content: ENOENT: no such file or directory, open '${missing}' (--har ${missing})`],
    [['--cert', missing, url], `Error: Failed to load cert file: ENOENT: no such file or directory, open '${missing}' (--cert ${missing})`],
    [['--key', missing, url], `Error: Failed to load key file: ENOENT: no such file or directory, open '${missing}' (--key ${missing})`],
    // Half a client certificate's pair, before the file is checked.
    [['--cert', badHar, url], `Error: Invalid value for --cert: "${badHar}" is a client certificate, which is sent with its private key: give --key with it`],
    [['--key', badHar, url], `Error: Invalid value for --key: "${badHar}" is the private key of a client certificate: give --cert with it`],
    // Found before the run (not at the first request), naming the flag.
    [['-H', 'x-a=b\r\nx-b: c', url], 'Error: Invalid value for -H/--headers: "x-a" header value must not contain CR, LF or other control characters'],
    [['-H', 'bad name: v', url], /^Error: Invalid value for -H\/--headers: "bad name" is not a valid header name/],
    [['--har', badHar, url], `Error: Failed to load HAR file content: Could not parse HAR content: entry #1 has an invalid "method": "GE T" is not an HTTP method such as GET or POST (--har ${badHar})`],
    [['--har', crlfHar, url], `Error: Failed to load HAR file content: Could not parse HAR content: header #1 of entry #1: "x-a" header value must not contain CR, LF or other control characters (--har ${crlfHar})`],
    // A host that does not resolve, as wrk tells it: one line, no run.
    [['-c', '2', 'ht!tp://nope'], /^Error: Cannot resolve host "ht!tp" of http:\/\/ht!tp\/\/nope \((ENOTFOUND|EAI_AGAIN)\): check the host name, or give an IP address\n$/],
    [['-c', '2', '-d', '1', 'http://nonexistent.invalid:8080/'], /^Error: Cannot resolve host "nonexistent\.invalid" of http:\/\/nonexistent\.invalid:8080\/ \((ENOTFOUND|EAI_AGAIN)\)/],
    [['--ca', missing, url], `Error: Failed to load ca file: ENOENT: no such file or directory, open '${missing}' (--ca ${missing})`],
    [['-F', '{"field": ', url], /^Error: Invalid JSON or file where to get form data \(-F\/--form is not valid JSON: .+\)\n$/],
    [['http://bad host/'], 'Error: Invalid URL "http://bad host/"'],
    [['ftp://127.0.0.1/'], 'Error: Invalid URL "ftp://127.0.0.1/": only http:// and https:// are supported'],
    [['/no-port'], 'Error: Invalid URL "/no-port": a path needs the PORT environment variable (or --on-port); use a full URL or set PORT'],
    [['-H', 'broken', url], 'Error: An HTTP header was not correctly formatted: broken (use -H name=value or -H "name: value")'],
    [['-d', '-1', url], 'Error: duration can not be less than 0 (-d/--duration: "-1" is not a number of seconds or a timestring such as 10s or 2m)'],
    [['http:///path'], 'Error: Invalid URL "http:///path": no host (e.g. http://127.0.0.1:3000/path)'],
    [['http://user:secretpass@127.0.0 .1:9/'], 'Error: Invalid URL "http://user:***@127.0.0 .1:9/"'],
    [['-F', '[1,2]', url], /^Error: Invalid JSON or file where to get form data \(-F\/--form \[1,2\] is not a JSON object of form fields.*\)\n$/],
    [['-b', 'x', '-F', '{}', url], 'Error: -b/--body and -F/--form cannot be used together: each one is the request body (use one)'],
    [['--ca', path.join(__dirname, '..', '..', 'package.json'), 'https://127.0.0.1:9/'], /^Error: --ca .*package\.json: no PEM certificate in it/],
    // Caught by the library's own checks, told with the flag.
    [['-p', '0', '-a', '10', url], 'Error: pipelining factor can not be less than 1 (-p/--pipelining: 0 must be an integer >= 1)'],
    [['-d', '0', url], 'Error: Invalid value for -d/--duration: 0 must be a number of seconds > 0 (or set amount to run a number of requests)'],
    [['-t', '0', url], 'Error: timeout must be greater than 0 (-t/--timeout: 0 must be a number > 0)'],
    [['-R', '-5', url], 'Error: bailout overallRate can not be less than 1 (-R/--overallRate: -5 must be a number of requests per second > 0)'],
    [['-a', '5', url], 'Error: connections cannot be greater than amount (-c/--connections: 10 is more than amount (5): each connection makes at least one request)'],
    [['-c', '1000000', url], /^Error: 1000000 connections need about \d+ open files, but this process may open \d+ \(ulimit -n\): raise the limit \(ulimit -n \d+\) or use fewer connections\n$/],
    // More threads than the machine can run: refused before any starts,
    // and before a command is started for --on-port.
    [['-w', '1000', '-d', '1', url], /^Error: 1000 workers \(-w, workers\) are more than this machine can run: at most \d+, 4 for each of its \d+ CPU cores? \(threads beyond the cores only compete for them\): use -w \d+ or fewer\n$/],
    [['-w', '1000', '/', '--', process.execPath, '-e', 'require("fs").writeFileSync("started", "")'], /^Error: 1000 workers \(-w, workers\)/],
    [['-F', '{"f":{"type":"file","path":"nope.bin"}}', '-c', '1', '-a', '1', url], /^Error: ENOENT: no such file or directory, open '.*nope\.bin' \(-F\/--form: .*nope\.bin.*\)\n$/]
  ]
  await Promise.all(cases.map(async ([args, message]) => {
    const { code, stdout, stderr } = await run(args, { cwd: dir })
    if (args.includes('--')) t.notOk(fs.existsSync(path.join(dir, 'started')), 'the command was not started')
    t.equal(code, 1, `${args.join(' ')}: exit code 1`)
    t.equal(stdout, '', 'nothing on stdout')
    t.equal(stderr.split('\n').length, 2, `one line: ${JSON.stringify(stderr)}`)
    if (typeof message === 'string') t.equal(stderr, message + '\n')
    else t.match(stderr, message)
    t.notMatch(stderr, /\n\s+at /, 'no stack trace')
    t.notMatch(stderr, /secretpass/, 'no password')
  }))
})

t.test('no response at all: the summary, one line saying why, exit code 1', async (t) => {
  const url = `http://127.0.0.1:${await closedPort()}`
  const silent = net.createServer(() => {}).listen(0, '127.0.0.1')
  await new Promise((resolve) => silent.once('listening', resolve))
  t.teardown(() => silent.close())
  const quiet = `http://127.0.0.1:${silent.address().port}`
  for (const args of [['-a', '20', '-c', '2'], ['-a', '40', '-c', '2', '-p', '10'], ['-d', '1', '-c', '2']]) {
    const refused = await run([...args, url])
    t.equal(refused.code, 1, `${args.join(' ')}: exit code 1`)
    t.notMatch(refused.stderr, /┌/, 'no tables of zeros')
    t.match(refused.stderr, /\d+ errors \(0 timeouts\)\n {2}by cause: connect \d+\n {2}by code: ECONNREFUSED \d+\n/, 'errors by cause and code')
    t.match(refused.stderr, new RegExp(`\nno response from ${url}: (\\d+) of \\1 requests ended in errors \\(connect \\1; ECONNREFUSED \\1\\)\n$`), 'the last line says why')
    t.notMatch(refused.stderr, /\n\s+at /, 'no stack trace')
  }
  const waited = await run(['-d', '1', '-c', '2', '-t', '5', quiet])
  t.equal(waited.code, 1)
  t.match(waited.stderr, /\nno response from http:\/\/127\.0\.0\.1:\d+: 2 requests were still waiting after 1(\.\d+)?s/, 'requests still in flight')
  const j = await run(['-a', '10', '-c', '1', '-j', url])
  t.equal(j.code, 1)
  const r = JSON.parse(j.stdout)
  t.equal(r.requests.sent, 10, '-j: the JSON is still printed')
  t.equal(r.errors, 10)
  t.same(r.errorCodes, { ECONNREFUSED: 10 })
  t.match(j.stderr, /^no response from /)
})

t.test('a host name that resolves is only resolved: refused connections run and are counted, and the check opens none', async (t) => {
  // A name of this machine's own that resolves to loopback (os.hostname()
  // does on most machines; localhost itself is not looked up).
  const name = os.hostname()
  const address = await require('dns').promises.lookup(name).then((a) => a.address, () => null)
  if (address === null || !/^127\.|^::1$/.test(address)) return t.skip(`${name} resolves to ${address}, not to loopback: no name to test with`)
  const refused = await run(['-a', '6', '-c', '2', `http://${name}:${await closedPort()}/`])
  t.equal(refused.code, 1, 'the run ran: no response, exit 1')
  t.match(refused.stderr, /by code: ECONNREFUSED 6\n/, 'its refused connections counted, as autocannon counts them')
  t.match(refused.stderr, /^Running 6 requests test @ /, 'after the header of a run that started')

  let connections = 0
  const server = http.createServer((req, res) => res.end('ok'))
  server.on('connection', () => { connections++ })
  await new Promise((resolve) => server.listen(0, address, resolve))
  t.teardown(() => server.close())
  const ok = await run(['-a', '20', '-c', '2', '-j', `http://${name}:${server.address().port}/`])
  t.equal(ok.code, 0, ok.stderr)
  t.equal(JSON.parse(ok.stdout).requests.total, 20)
  t.equal(connections, 2, 'the server saw the run\'s 2 connections and no other: the name was resolved, not connected to')
})
