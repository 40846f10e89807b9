'use strict'

// --targets FILE (vegeta's plain format): parsed once, replayed in the
// file's order across all connections, or in a seeded random order; bad
// lines named by number.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const autocannon = require('../..')
const { run } = require('../helpers/cli')
const { recordingServer } = require('../helpers/recording')

function tmpdir (t) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-targets-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

// Records every request: method, path, body, headers.
async function recorder (t) {
  const { url, seen } = await recordingServer(t)
  return { url, seen }
}

function writeTargets (dir, url) {
  fs.writeFileSync(path.join(dir, 'user.json'), '{"name":"jane"}')
  const file = path.join(dir, 'targets.txt')
  fs.writeFileSync(file, [
    `GET ${url}/users/1`,
    'X-Account: 8675309',
    '',
    '# a comment, then a request with a body file',
    `POST ${url}/users`,
    'Content-Type: application/json',
    '@user.json',
    '',
    '',
    `DELETE ${url}/users/1`,
    '',
    'GET https://elsewhere.example/skipped',
    ''
  ].join('\n'))
  return file
}

const ORDER = ['GET /users/1', 'POST /users', 'DELETE /users/1']

t.test('sequential: the file\'s order, round and round, one connection', async (t) => {
  const dir = tmpdir(t)
  const { url, seen } = await recorder(t)
  const file = writeTargets(dir, url)
  const warnings = []
  const listener = (w) => { if (String(w.code).startsWith('AC_TARGETS')) warnings.push(w.message) }
  process.on('warning', listener)
  t.teardown(() => process.removeListener('warning', listener))
  const result = await autocannon({ url, connections: 1, amount: 7, targets: file, headers: { 'x-extra': 'yes' } })
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(result.errors, 0)
  t.same(seen.map((r) => `${r.method} ${r.url}`), [...ORDER, ...ORDER, ORDER[0]])
  t.equal(seen[1].body.toString(), '{"name":"jane"}', 'the body file')
  t.equal(seen[0].headers['x-account'], '8675309', 'its headers')
  t.ok(seen.every((r) => r.headers['x-extra'] === 'yes'), 'the run\'s headers beneath')
  t.same(warnings, [`skipping requests to 'https://elsewhere.example' as the target is ${url} (1 targets entry)`])
})

t.test('sequential across connections: one cursor, each entry as often', async (t) => {
  const dir = tmpdir(t)
  const { url, seen } = await recorder(t)
  const result = await autocannon({ url, connections: 4, pipelining: 2, amount: 300, targets: writeTargets(dir, url) })
  t.equal(result.requests.total, 300)
  const counts = {}
  for (const r of seen) counts[`${r.method} ${r.url}`] = (counts[`${r.method} ${r.url}`] || 0) + 1
  t.same(counts, { [ORDER[0]]: 100, [ORDER[1]]: 100, [ORDER[2]]: 100 })
})

t.test('pipelined, a HEAD among them: each response read as its own request\'s', async (t) => {
  const dir = tmpdir(t)
  const { url, seen } = await recorder(t)
  const file = path.join(dir, 'head.txt')
  fs.writeFileSync(file, `HEAD ${url}/a\n\nGET ${url}/b\n\nGET ${url}/c\n`)
  for (const order of ['sequential', 'random']) {
    seen.length = 0
    const r = await autocannon({ url, connections: 2, pipelining: 10, amount: 300, timeout: 2, targets: file, order })
    t.equal(r.errors, 0, `${order}: no errors (${JSON.stringify(r.errorCodes)})`)
    t.equal(r.requests.total, 300, `${order}: every response read`)
  }
  t.ok(seen.some((r) => r.method === 'HEAD'))
})

t.test('random: the same seed, the same requests; another seed, others', async (t) => {
  const dir = tmpdir(t)
  const { url, seen } = await recorder(t)
  const file = writeTargets(dir, url)
  const sent = async (seed) => {
    seen.length = 0
    await autocannon({ url, connections: 1, amount: 30, targets: file, order: 'random', seed })
    return seen.map((r) => `${r.method} ${r.url}`)
  }
  const a = await sent(7)
  t.same(await sent(7), a, 'replayed')
  t.notSame(await sent(8), a)
  t.ok(ORDER.every((o) => a.includes(o)), 'every entry drawn')
  t.notSame(a.slice(0, 6), [...ORDER, ...ORDER], 'not the file\'s order')
})

t.test('refused: with har, with requests; a bad --order; the CLI names the line', async (t) => {
  const dir = tmpdir(t)
  const file = writeTargets(dir, 'http://127.0.0.1:9')
  await t.rejects(autocannon({ url: 'http://127.0.0.1:9', targets: file, requests: [{}] }), { code: 'AC_CONFLICTING_OPTIONS' })
  await t.rejects(autocannon({ url: 'http://127.0.0.1:9', targets: file, order: 'shuffled' }), { code: 'AC_INVALID_OPTION', option: 'order' })
  fs.writeFileSync(path.join(dir, 'bad.txt'), 'GET http://127.0.0.1:9/\nbogus line here\n')
  const out = await run(['--targets', 'bad.txt', '-c', '1', '-a', '1', 'http://127.0.0.1:9'], { cwd: dir })
  t.equal(out.code, 1)
  t.equal(out.stderr, 'Error: Invalid value for --targets: "bad.txt" line 2: "bogus line h"… is not a header (Name: value) nor a body file (@path); requests are separated by a blank line\n')
})

t.test('CLI: --targets with --order random -j', async (t) => {
  const dir = tmpdir(t)
  const { url, seen } = await recorder(t)
  writeTargets(dir, url)
  const out = await run(['--targets', 'targets.txt', '--order', 'random', '--seed', '3', '-c', '2', '-a', '20', '-j', url], { cwd: dir })
  t.equal(out.code, 0, out.stderr)
  t.equal(JSON.parse(out.stdout).requests.total, 20)
  t.equal(seen.length, 20)
  t.match(out.stderr, /^cannonade: warning: skipping requests to 'https:\/\/elsewhere\.example'/m, 'one warning line')
})
