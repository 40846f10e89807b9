'use strict'

// har: replaying a HAR's requests for the target origin(s).

const t = require('tap')
const fs = require('fs')
const path = require('path')
const autocannon = require('../..')
const { warningLine, WARNING_PREFIX } = require('../../lib/core/warnings')
const { recordingServer, tempDir, jsonResult } = require('../helpers/recording')
const { makeHar } = require('../helpers/har')
const { run: runCli } = require('../helpers/cli')

const EXPECTED = [
  ['GET', '/index.html?lang=en', '', 'text/html'],
  ['POST', '/api/login', '{"user":"jane"}', undefined],
  ['PUT', '/api/prefs', 'theme=dark%20mode&lang=en', undefined]
]

// The library's warnings are process warnings, each as the CLI prints it
// (autocannon's "Warning: skipping requests to …" for the skipped origins).
async function captureStderr (fn) {
  const lines = []
  const listener = (w) => { if (String(w.code).startsWith('AC_HAR')) lines.push(warningLine(w)) }
  process.on('warning', listener)
  try {
    const value = await fn()
    await new Promise((resolve) => setImmediate(resolve))
    return { value, stderr: lines.map((l) => l + '\n').join('') }
  } finally {
    process.removeListener('warning', listener)
  }
}

t.test('replays the entries for the URL\'s origin, in order; other domains skipped with a warning', async (t) => {
  const { url, port, seen } = await recordingServer(t)
  const { value: result, stderr } = await captureStderr(() => autocannon({
    url,
    connections: 1,
    amount: 9,
    har: makeHar(url),
    headers: { 'x-extra': 'still sent' },
    // ignored with a HAR:
    method: 'DELETE',
    body: 'ignored body',
    requests: [{ path: '/ignored' }]
  }))
  t.equal(result.requests.total, 9)
  t.equal(result.errors, 0)
  const got = seen.map((r) => [r.method, r.url, r.body.toString(), r.headers.accept])
  t.same(got, [...EXPECTED, ...EXPECTED, ...EXPECTED], 'the HAR\'s own requests, round and round')
  t.ok(seen.every((r) => r.headers.host === `127.0.0.1:${port}`), 'Host is the target\'s')
  t.ok(seen.every((r) => r.headers['x-extra'] === 'still sent'), '-H headers still apply')
  t.equal(seen[1].headers['content-type'], 'application/json')
  t.equal(seen[1].headers['content-length'], String('{"user":"jane"}'.length), 'Content-Length is computed, not copied')
  const lines = stderr.trim().split('\n')
  t.equal(lines.length, 1, 'one warning line')
  t.equal(lines[0], `Warning: skipping requests to 'https://cdn.example.net' as the target is http://127.0.0.1:${port} (2 HAR entries)`,
    'autocannon\'s warning, then how many entries')
})

t.test('several URLs: each origin gets its own entries and Host', async (t) => {
  const a = await recordingServer(t)
  const b = await recordingServer(t)
  const har = makeHar(a.url, b.url)
  const { value: result, stderr } = await captureStderr(() => autocannon({ url: [a.url, b.url], connections: 2, amount: 10, har }))
  t.equal(result.errors, 0)
  t.equal(stderr, '', 'nothing skipped, nothing to say')
  t.ok(a.seen.length > 0 && b.seen.length > 0)
  t.ok(a.seen.every((r) => ['/index.html?lang=en', '/api/login', '/api/prefs'].includes(r.url) && r.headers.host === `127.0.0.1:${a.port}`))
  t.ok(b.seen.every((r) => ['/app.js', '/logo.png'].includes(r.url) && r.headers.host === `127.0.0.1:${b.port}`))
})

t.test('a HAR with nothing for the target says so and requests the URL itself', async (t) => {
  const { url, seen } = await recordingServer(t)
  const { value: result, stderr } = await captureStderr(() => autocannon({ url: url + '/plain', connections: 1, amount: 2, har: makeHar('https://a.example.org') }))
  t.equal(result.requests.total, 2)
  t.same(seen.map((r) => r.url), ['/plain', '/plain'])
  t.same(stderr.trim().split('\n'), [
    `Warning: skipping requests to 'https://a.example.org' as the target is ${url} (3 HAR entries)`,
    `Warning: skipping requests to 'https://cdn.example.net' as the target is ${url} (2 HAR entries)`,
    `${WARNING_PREFIX}no HAR entry for ${url}: requesting the URL itself`
  ])
})

t.test('a HAR file path works too; bad HARs give clear errors', async (t) => {
  const { url, seen } = await recordingServer(t)
  const dir = tempDir(t)
  const file = path.join(dir, 'session.har')
  fs.writeFileSync(file, JSON.stringify(makeHar(url)))
  await captureStderr(() => autocannon({ url, connections: 1, amount: 3, har: file }))
  t.same(seen.map((r) => r.url), EXPECTED.map((e) => e[1]))

  const notJson = path.join(dir, 'broken.har')
  fs.writeFileSync(notJson, '<html>not a har</html>')
  // autocannon's messages; ours in err.detail.
  await t.rejects(autocannon({ url, har: notJson }), { message: /^Failed to load HAR file content: Unexpected token/, detail: /broken\.har.*is not valid JSON/, code: 'AC_FILE_UNREADABLE', option: 'har' })
  await t.rejects(autocannon({ url, har: path.join(dir, 'missing.har') }), { message: /^Failed to load HAR file content: ENOENT/, detail: /missing\.har.*does not exist/, code: 'AC_FILE_UNREADABLE', option: 'har' })
  await t.rejects(autocannon({ url, har: { log: {} } }), { message: 'Could not parse HAR content: no entries found', detail: /is not a HAR: no entries found/, code: 'AC_INVALID_OPTION', option: 'har' })
  const bad = makeHar(url)
  bad.log.entries[2].request.headers = 'nope'
  await t.rejects(autocannon({ url, har: bad }), { message: 'Could not parse HAR content: invalid headers array in entry #3' })
})

t.test('CLI: --har replays the file and warns about other domains', async (t) => {
  const { url, seen } = await recordingServer(t)
  const dir = tempDir(t)
  fs.writeFileSync(path.join(dir, 'session.har'), JSON.stringify(makeHar(url)))
  const run = await runCli([url, '-a', '6', '-c', '1', '-j', '--har', 'session.har', '-H', 'x-extra=yes'], { cwd: dir })
  t.equal(run.code, 0, run.stderr)
  t.equal(jsonResult(run.stdout).requests.total, 6)
  t.same(seen.map((r) => [r.method, r.url, r.body.toString(), r.headers.accept]), [...EXPECTED, ...EXPECTED])
  t.ok(seen.every((r) => r.headers['x-extra'] === 'yes'))
  t.match(run.stderr, /^Warning: skipping requests to 'https:\/\/cdn\.example\.net' as the target is http:\/\/127\.0\.0\.1:\d+ \(2 HAR entries\)$/m)

  fs.writeFileSync(path.join(dir, 'broken.har'), 'this is not json')
  const bad = await runCli([url, '-a', '1', '--har', 'broken.har'], { cwd: dir })
  t.equal(bad.code, 1)
  t.match(bad.stderr, /^Error: Failed to load HAR file content: Unexpected token .+ \(--har broken\.har is not valid JSON\)\n$/)

  fs.writeFileSync(path.join(dir, 'empty.har'), JSON.stringify({ log: { entries: [] } }))
  const empty = await runCli([url, '-a', '1', '--har', 'empty.har'], { cwd: dir })
  t.equal(empty.code, 1)
  t.equal(empty.stderr, 'Error: Failed to load HAR file content: Could not parse HAR content: no entries found (--har empty.har)\n')
})
