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
