'use strict'

// {{…}} templates through the library and the CLI: {{seq}} unique across
// workers, the random ones replayed by the seed, a malformed one refused
// before the run in one line, and pipelined batches that arrive whole.
// Compiling and filling them: test/http1/template.test.js.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const autocannon = require('../..')
const { run } = require('../helpers/cli')
const { recordingServer } = require('../helpers/recording')

// What the tests compare of each request received.
async function recorder (t) {
  const { url, seen } = await recordingServer(t)
  const view = () => seen.map((r) => ({ url: r.url, id: r.headers['x-id'], body: r.body.toString() }))
  return { url, seen, view }
}

t.test('{{seq}} in the path: 10,000 requests over 4 workers, 10,000 distinct paths', async (t) => {
  const { url, seen } = await recorder(t)
  const result = await autocannon({ url: `${url}/item/{{seq}}`, workers: 4, connections: 8, amount: 10000 })
  t.equal(result.requests.total, 10000)
  t.equal(seen.length, 10000)
  t.equal(new Set(seen.map((r) => r.url)).size, 10000, 'every path distinct')
})

t.test('library: the same seed sends the same requests; the body\'s holes and Content-Length', async (t) => {
  const { url, seen, view } = await recorder(t)
  const opts = { url: `${url}/u/{{int 1 1000000}}`, connections: 1, amount: 20, method: 'POST', headers: { 'x-id': '{{uuid}}' }, body: '{"pick":"{{pick red|green|blue}}","seq":{{seq}}}' }
  await autocannon({ ...opts, seed: 9 })
  const first = view()
  seen.length = 0
  await autocannon({ ...opts, seed: 9 })
  t.same(view(), first, 'replayed by the seed')
  t.same(first.map((r) => JSON.parse(r.body).seq), Array.from({ length: 20 }, (_, i) => i))
  t.equal(new Set(first.map((r) => r.id)).size, 20, 'a uuid each')
})

t.test('CLI: templates work from the command line; a malformed one is one line, before the run', async (t) => {
  const { url, seen } = await recorder(t)
  const ok = await run(['-c', '2', '-a', '30', '-H', 'x-id: {{uuid}}', `${url}/c/{{conn}}/{{seq}}`])
  t.equal(ok.code, 0, ok.stderr)
  t.equal(new Set(seen.map((r) => r.url)).size, 30)
  t.same([...new Set(seen.map((r) => r.url.split('/')[2]))].sort(), ['0', '1'], '{{conn}}: the two connections')
  const bad = await run(['-c', '1', '-a', '1', '-b', 'n={{int 9 1}}', '-m', 'POST', url])
  t.equal(bad.code, 1)
  t.equal(bad.stderr, 'Error: Invalid value for -b/--body: "{{int 9 1}}" at character 3: {{int A B}} needs two integers, A <= B (use {{seq}}, {{conn}}, {{uuid}}, {{int A B}}, {{pick a|b|c}}, {{now}} or {{line FILE}})\n')
})

// Over a Unix socket, whose buffer is small and fixed (TCP's on loopback
// grows to megabytes).
const unixOnly = process.platform === 'win32' ? 'no Unix domain sockets here' : false

t.test('pipelined batches larger than the socket takes at once arrive whole: a queued batch is not written over', { skip: unixOnly }, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-tpl-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  // Batches of up to 10 bodies of 100 kB: more than the socket takes at
  // once, so it queues the rest while the first responses come back.
  const lines = Array.from({ length: 7 }, (_, i) => String.fromCharCode(97 + i).repeat(100000 + i))
  fs.writeFileSync(path.join(dir, 'bodies.txt'), lines.join('\n'))
  const socketPath = path.join(dir, 'server.sock')
  const { seen } = await recordingServer(t, undefined, { listen: { path: socketPath } })
  const result = await autocannon({ url: 'http://localhost/{{seq}}', socketPath, method: 'POST', body: `{{line ${path.join(dir, 'bodies.txt')}}}`, connections: 1, pipelining: 10, amount: 100 })
  t.equal(result.errors, 0)
  t.equal(seen.length, 100)
  const wrong = seen.filter((r) => r.body.toString('latin1') !== lines[Number(r.url.slice(1)) % lines.length])
  t.same(wrong.map((r) => r.url), [], 'every body the line of its {{seq}}')
})

// Every template in the path and in the query, as a real server receives
// it: over HTTP/1.1 and HTTP/2 (h2c), on the main thread and on workers.
// Each value is percent-encoded as a browser sends it in that part of the
// URL (WHATWG's path percent-encode set in the path, the query one in the
// query): the oracle is the URL parser itself, given the value in place.
t.test('templates in the path and the query: each value sent as the URL parser encodes it there, HTTP/1.1 and HTTP/2, with and without workers', async (t) => {
  const http2 = require('http2')
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-tpl-url-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  const lines = ['ada lovelace', 'grâce', 'x?y#z']
  const file = path.join(dir, 'names.txt')
  fs.writeFileSync(file, lines.join('\n') + '\n')
  const choices = ['a b', 'é', 'q?r', 's#t', '"<>`^', '50%', 'it\'s']
  const pick = choices.join('|')
  const template = `/p/{{int 1 5}}/{{pick ${pick}}}/{{seq}}/{{conn}}/{{line ${file}}}` +
    `?i={{int 1 5}}&p={{pick ${pick}}}&s={{seq}}&c={{conn}}&u={{uuid}}&n={{now}}&l={{line ${file}}}`
  // The oracle: what the URL parser makes of a value set as the data of each part of
  // an http: URL (a "?" or a "#" in it is data, not a delimiter).
  const part = (name, v) => { const u = new URL('http://h/'); u[name] = name === 'search' ? '?' + v : '/' + v; return u[name].slice(1) }
  // The URL standard added "^" to the path percent-encode set in 2024; a
  // parser from before (Node 22's) leaves it as it is. We send the
  // standard's, so an older oracle is told the one character it lacks.
  const oldParser = part('pathname', '^') === '^'
  const inPath = (v) => oldParser ? part('pathname', v).replaceAll('^', '%5E') : part('pathname', v)
  const inQuery = (v) => part('search', v)
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
  const check = (t, urls, connections) => {
    const expect = {
      int: ['1', '2', '3', '4', '5'],
      pathPick: choices.map(inPath),
      queryPick: choices.map(inQuery),
      pathLine: lines.map(inPath),
      queryLine: lines.map(inQuery),
      conn: Array.from({ length: connections }, (_, i) => String(i))
    }
    const bad = []
    const seqs = new Set()
    for (const url of urls) {
      const m = /^\/p\/([^/]*)\/([^/]*)\/([^/]*)\/([^/]*)\/([^?]*)\?i=([^&]*)&p=([^&]*)&s=([^&]*)&c=([^&]*)&u=([^&]*)&n=([^&]*)&l=(.*)$/.exec(url)
      if (m === null) { bad.push(url); continue }
      const [, pi, pp, ps, pc, pl, qi, qp, qs, qc, qu, qn, ql] = m
      const ok = expect.int.includes(pi) && expect.int.includes(qi) &&
        expect.pathPick.includes(pp) && expect.queryPick.includes(qp) &&
        expect.pathLine.includes(pl) && expect.queryLine.includes(ql) &&
        /^\d+$/.test(ps) && ps === qs && expect.conn.includes(pc) && pc === qc &&
        UUID.test(qu) && Math.abs(Number(qn) - Date.now()) < 60000
      if (!ok) bad.push(url)
      seqs.add(ps)
    }
    t.same(bad.slice(0, 3), [], 'every request as the URL parser would send it')
    t.equal(seqs.size, urls.length, '{{seq}} once per request')
    // Both parts draw every value, each once encoded.
    const seen = (i) => new Set(urls.map((u) => /^\/p\/[^/]*\/([^/]*)\/[^/]*\/[^/]*\/([^?]*)\?i=[^&]*&p=([^&]*)&.*&l=(.*)$/.exec(u)?.[i]))
    t.same([...seen(1)].sort(), [...expect.pathPick].sort(), 'every choice reached the path')
    t.same([...seen(3)].sort(), [...expect.queryPick].sort(), 'every choice reached the query')
    t.same([...seen(2)].sort(), [...expect.pathLine].sort(), 'every line reached the path')
    t.same([...seen(4)].sort(), [...expect.queryLine].sort(), 'every line reached the query')
  }
  const amount = 300
  for (const workers of [undefined, 2]) {
    t.test(`HTTP/1.1${workers ? ', 2 workers' : ''}`, async (t) => {
      const { url, seen } = await recorder(t)
      const result = await autocannon({ url: url + template, connections: 2, amount, workers })
      t.equal(result.non2xx + result.errors, 0)
      t.equal(seen.length, amount)
      check(t, seen.map((r) => r.url), workers ? 4 : 2)
    })
    t.test(`HTTP/2 (h2c)${workers ? ', 2 workers' : ''}`, async (t) => {
      const paths = []
      const server = http2.createServer()
      server.on('stream', (stream, headers) => {
        paths.push(headers[':path'])
        stream.respond({ ':status': 200 })
        stream.end('ok')
      })
      await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
      t.teardown(() => new Promise((resolve) => server.close(resolve)))
      const result = await autocannon({ url: `http://127.0.0.1:${server.address().port}${template}`, http2: true, connections: 2, amount, workers })
      t.equal(result.non2xx + result.errors, 0)
      t.equal(paths.length, amount)
      check(t, paths, workers ? 4 : 2)
    })
  }
})

t.test('a template in the host or the port is refused before the run, in one line naming the way to reach several', async (t) => {
  await t.rejects(autocannon({ url: 'http://127.0.0.1:{{int 3000 3001}}/', amount: 1 }), { code: 'AC_INVALID_OPTION', option: 'url', message: /template in its host or port.*several URLs/ })
  const cli = await run(['-a', '1', 'http://127.0.0.1:{{pick 3000|3001}}/'])
  t.equal(cli.code, 1)
  t.match(cli.stderr, /^Error: Invalid URL "http:\/\/127\.0\.0\.1:\{\{pick 3000\|3001\}\}\/": a template in its host or port: .*several URLs.*\n$/)
  t.equal(cli.stderr.split('\n').length, 2, 'one line')
})
