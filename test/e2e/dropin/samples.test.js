'use strict'

// autocannon's own samples/ (as its package ships them), each run twice, as
// written but shortened, with require('../autocannon') resolving to
// autocannon 9 for one run and to us for the other: the same exit code,
// the same lines on stdout before the result and the same first line of
// it, the same lines on stderr but for the numbers (the tables of
// track-run), and a result with every key autocannon's has (ours adds
// keys, so the printed objects differ). Shortened: a run of 1 s, 20
// connections where a sample asks for 1000, the servers on 127.0.0.1 and
// closed once the result is in; nothing else of the sample changes, and
// each process must then end by itself.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { execFile } = require('child_process')
const { ROOT, UPSTREAM } = require('../../helpers/dropin')

const SAMPLES = path.join(UPSTREAM, 'samples')

// Added to each sample: the result's key paths to the test, then the
// sample's servers closed (none of autocannon's samples closes its own).
const REPORT = `
function dropinReport (res) {
  const keys = (v, p = '') => v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Date)
    ? Object.keys(v).flatMap((k) => [p + k, ...keys(v[k], p + k + '.')])
    : []
  require('fs').writeFileSync(process.env.DROPIN_KEYS, JSON.stringify(keys(res)))
  for (const s of [typeof server === 'undefined' ? null : server, typeof server1 === 'undefined' ? null : server1, typeof server2 === 'undefined' ? null : server2]) {
    if (s) { s.close(); s.closeAllConnections() }
  }
}
`

function shorten (source) {
  let text = source
    .replace(/(\w+)\.listen\(0, /g, "$1.listen(0, '127.0.0.1', ")
    .replace(/http:\/\/localhost:/g, 'http://127.0.0.1:')
    .replace(/duration: \d+/g, 'duration: 1')
    .replace(/connections: 1000/g, 'connections: 20')
    .replace(/console\.log\('finished bench', err, res\)/, '$&\n    dropinReport(res)')
  if (!/duration:|amount:/.test(text)) text = text.replace(/autocannon\(\{/, 'autocannon({\n    duration: 1,')
  return text + REPORT
}

// A copy of samples/ beside an autocannon.js that is `side`.
function copy (t, side) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ac-samples-${side}-`))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  fs.cpSync(SAMPLES, path.join(dir, 'samples'), { recursive: true })
  for (const file of fs.readdirSync(SAMPLES).filter((f) => f.endsWith('.js'))) {
    const at = path.join(dir, 'samples', file)
    fs.writeFileSync(at, shorten(fs.readFileSync(at, 'utf8')))
  }
  fs.writeFileSync(path.join(dir, 'autocannon.js'), `module.exports = require(${JSON.stringify(side === 'upstream' ? UPSTREAM : ROOT)})\n`)
  return dir
}

function runSample (dir, file) {
  const keysFile = path.join(dir, `${file}.keys.json`)
  return new Promise((resolve) => {
    // tap's hooks in NODE_OPTIONS are not the sample's.
    const env = { ...process.env, DROPIN_KEYS: keysFile }
    delete env.NODE_OPTIONS
    execFile(process.execPath, [path.join(dir, 'samples', file)], { env, timeout: 60000, maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      const keys = fs.existsSync(keysFile) ? JSON.parse(fs.readFileSync(keysFile, 'utf8')) : null
      resolve({ code: err ? err.code : 0, killed: !!(err && err.killed), stdout, stderr, keys })
    })
  })
}

// stdout: the distinct lines before the result (a sample's own logs, one
// per request for bench-multi-url), and the result's first line.
function stdoutOf (stdout) {
  const lines = stdout.split('\n')
  const at = lines.findIndex((l) => l.startsWith('finished bench'))
  return { before: [...new Set(lines.slice(0, at))].sort(), first: lines[at] }
}

// Every number, with its thousands separators and a count's k (1.2k
// requests), is N: the two measure different rates.
// A number and its unit of bytes (B, kB, MB, GB: which one is the load's,
// and ours is larger than autocannon's) read the same.
const normal = (text) => text.split('\n').map((l) => l.replace(/\d[\d,]*(\.\d+)?(k(?=\s))?/g, 'N').replace(/\bN [kMG]?B\b/g, 'N B').replace(/[\s│┌┐└┘├┤┬┴┼─]+/g, ' ').trim()).filter(Boolean)

t.test('autocannon\'s samples, shortened: the same ending with us as with autocannon 9', async (t) => {
  const dirs = { upstream: copy(t, 'upstream'), ours: copy(t, 'ours') }
  const files = fs.readdirSync(SAMPLES).filter((f) => f.endsWith('.js')).sort()
  t.ok(files.length >= 12, `${files.length} samples`)
  for (const file of files) {
    const up = await runSample(dirs.upstream, file)
    const ours = await runSample(dirs.ours, file)
    t.notOk(up.killed, `${file}: autocannon's run ended by itself`)
    t.notOk(ours.killed, `${file}: ours ended by itself`)
    t.equal(ours.code, up.code, `${file}: exit code ${up.code}`)
    t.ok(up.keys, `${file}: autocannon's run gave a result`)
    t.same(stdoutOf(ours.stdout), stdoutOf(up.stdout), `${file}: stdout's lines before the result, and its first line`)
    t.same(normal(ours.stderr), normal(up.stderr), `${file}: stderr's lines, but for the numbers`)
    t.same((up.keys || []).filter((k) => !(ours.keys || []).includes(k)), [], `${file}: the result has every key of autocannon's`)
  }
})
