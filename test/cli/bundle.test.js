'use strict'

// The CLI from one built file (lib/cli/bundle.js, scripts/build-cli.js):
// used only while it is as new as every file it was made from, and then
// the same command as the sources (its files found where they are, the
// workers', the report's, help.txt). The built CLI runs from a copy of
// the package, as a user runs it (no test runner's hooks, whose preloads
// turn the code cache, and so the bundle, off).

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { spawnSync } = require('child_process')
const { httpServer } = require('../helpers/servers')
const { packageCopy, runAsUser } = require('../helpers/package-copy')
const { staleness, OUTSIDE } = require('../../lib/cli/bundle')
const { UPSTREAM_VERSION } = require('../../lib/core/upstream-messages')

function tmp (t, prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

function write (file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text)
}

t.test('staleness: the bundle serves only while no source is newer or of another size', async (t) => {
  const root = tmp(t, 'ac-bundle-stale-')
  t.match(staleness(root), /^no bundle/, 'no dist/: the sources')

  const a = path.join(root, 'lib', 'a.js')
  const b = path.join(root, 'node_modules', 'dep', 'b.js')
  write(a, 'module.exports = 1\n')
  write(b, 'module.exports = 22\n')
  write(path.join(root, 'dist', 'cli.js'), '// built\n')
  write(path.join(root, 'dist', 'cli.json'), JSON.stringify({ files: { 'lib/a.js': 19, 'node_modules/dep/b.js': 20 } }))
  const built = Date.now() / 1000
  fs.utimesSync(path.join(root, 'dist', 'cli.js'), built, built)
  for (const f of [a, b]) fs.utimesSync(f, built - 60, built - 60)
  t.equal(staleness(root), null, 'sources older than the bundle, sizes as built')

  fs.utimesSync(b, built + 1, built + 1)
  t.match(staleness(root), /^node_modules\/dep\/b\.js changed since the bundle was built$/, 'a dependency touched after the build')
  fs.utimesSync(b, built - 60, built - 60)

  fs.writeFileSync(a, 'module.exports = 12\n')
  fs.utimesSync(a, built - 60, built - 60)
  t.match(staleness(root), /^lib\/a\.js changed/, 'another size, whatever its time')
  fs.writeFileSync(a, 'module.exports = 1\n')
  fs.utimesSync(a, built - 60, built - 60)
  t.equal(staleness(root), null)

  fs.rmSync(b)
  t.equal(staleness(root), 'node_modules/dep/b.js is gone')
  write(path.join(root, 'dist', 'cli.json'), '{"fil')
  t.match(staleness(root), /^no bundle/, 'a damaged list: the sources')
})

// npm unpacks a package's files in no useful order, each with the time it
// was written: installed, only sizes count.
t.test('staleness: in an installed package, sizes only', async (t) => {
  const root = path.join(tmp(t, 'ac-bundle-installed-'), 'node_modules', 'cannonade')
  const a = path.join(root, 'lib', 'a.js')
  write(path.join(root, 'dist', 'cli.js'), '// built\n')
  write(a, 'module.exports = 1\n')
  write(path.join(root, 'dist', 'cli.json'), JSON.stringify({ files: { 'lib/a.js': 19, 'node_modules/dep/b.js': 20 } }))
  const later = Date.now() / 1000 + 60
  fs.utimesSync(a, later, later)
  t.equal(staleness(root), null, 'a source unpacked after the bundle, its dependencies elsewhere')
  fs.writeFileSync(a, 'module.exports = 12\n')
  t.match(staleness(root), /^lib\/a\.js changed/, 'patched: another size')
  fs.rmSync(path.join(root, 'dist', 'cli.js'))
  t.match(staleness(root), /^no bundle/, 'the list without the bundle')
})

// A user's shell: no coverage hooks, a cache folder of the test's own.
async function cli (bin, args, { tmpdir, cwd }) {
  const res = await runAsUser(bin, args, { vars: { TMPDIR: tmpdir, NODE_DEBUG: 'cannonade' }, cwd })
  return { ...res, loaded: (/cli: (.*)/.exec(res.stderr) || [])[1] }
}

const posixOnly = process.platform === 'win32' && 'uses /usr/bin/env'

t.test('the built CLI: one ASCII file, and the same command as the sources', { skip: posixOnly }, async (t) => {
  const { root, bin } = packageCopy(t, { bundle: true })
  const bundle = fs.readFileSync(path.join(root, 'dist', 'cli.js'))
  t.equal(bundle.findIndex((b) => b > 0x7f), -1, 'dist/cli.js is ASCII')
  const files = Object.keys(JSON.parse(fs.readFileSync(path.join(root, 'dist', 'cli.json'), 'utf8')).files)
  for (const file of OUTSIDE) t.notOk(files.includes(file), `${file} is not in it`)
  t.ok(bundle.includes('require("./../lib/cli/compile-cache.js")'), 'it loads the compile cache from lib/, where the bin started it')
  for (const file of ['lib/cli/main.js', 'lib/http1/client-h1.js', 'package.json']) {
    t.ok(files.includes(file), `built from ${file}`)
  }
  // The copy's node_modules is a link to the checkout's: listed by where
  // the files are.
  t.ok(files.some((f) => f.endsWith('node_modules/yargs-parser/build/index.cjs')), 'built from its dependencies')

  const url = await httpServer(t)
  const tmpdir = tmp(t, 'ac-bundle-run-')
  const dir = tmp(t, 'ac-bundle-out-')
  const run = (args) => cli(bin, args, { tmpdir, cwd: dir })

  const first = await run(['-a', '20', '-c', '2', '-j', '--out', 'r.json', url])
  t.equal(first.code, 0, first.stderr)
  t.equal(first.loaded, 'dist/cli.js', 'a run loads the bundle')
  t.equal(JSON.parse(first.stdout)['2xx'], 20)
  const second = await run(['-a', '20', '-c', '2', url])
  t.equal(second.code, 0, second.stderr)
  t.match(second.stderr, /^20 requests in [\d.]+s, /m, 'the tables')
  t.match(second.stderr, /code cache: \d+ files from it, 0 compiled/, 'its compiled code comes from the after-run cache')

  const help = await run(['--help'])
  t.equal(help.stderr.replace(/^CANNONADE \d+: cli: .*\n/m, ''), fs.readFileSync(path.join(root, 'help.txt'), 'utf8'), '--help prints help.txt from where it is (on stderr, after the line NODE_DEBUG asked for)')
  const version = await run(['-v'])
  const { name, version: ours } = require(path.join(root, 'package.json'))
  t.equal(version.stdout.split('\n')[0], `${name} v${ours} (compatible with autocannon v${UPSTREAM_VERSION})`)

  const workers = await run(['-w', '2', '-c', '2', '-a', '20', '-j', url])
  t.equal(workers.code, 0, workers.stderr)
  t.equal(JSON.parse(workers.stdout)['2xx'], 20, 'worker threads load their script from lib/')

  const html = await run(['-a', '10', '-c', '1', '--html', 'r.html', url])
  t.equal(html.code, 0, html.stderr)
  const page = fs.readFileSync(path.join(dir, 'r.html'), 'utf8')
  t.match(page, /uPlot/, 'the report carries its chart library')
  const report = await run(['report', 'r.json', '-o', 'both.html'])
  t.equal(report.code, 0, report.stderr)
  t.equal(report.loaded, 'dist/cli.js')
  t.ok(fs.statSync(path.join(dir, 'both.html')).size > 10000, 'a subcommand, from the bundle')

  // A command started for --on-port gets its detector by path.
  fs.writeFileSync(path.join(dir, 'server.js'), "require('http').createServer((req, res) => res.end('hi')).listen(0, '127.0.0.1')\n")
  const onPort = await run(['-a', '10', '-c', '1', '-j', '--on-port', '/', '--', process.execPath, 'server.js'])
  t.equal(onPort.code, 0, onPort.stderr)
  t.equal(JSON.parse(onPort.stdout)['2xx'], 10, '--on-port found the command\'s port')

  const thrown = await run(['-c', 'x', url])
  t.equal(thrown.code, 1)
  t.match(thrown.stderr, /^Error: .*-c/m, 'bad input: one line, as from the sources')

  // Edited after the build: the sources run, edit included.
  const format = path.join(root, 'lib', 'core', 'format.js')
  fs.appendFileSync(format, '// edited\n')
  const edited = await run(['-a', '20', '-c', '2', '-j', url])
  t.equal(edited.code, 0, edited.stderr)
  t.equal(edited.loaded, 'lib/ (lib/core/format.js changed since the bundle was built)')
  t.equal(JSON.parse(edited.stdout)['2xx'], 20)
})

t.test('a clone without the development dependencies installs, and its CLI runs lib/', { skip: posixOnly }, async (t) => {
  const { root, bin } = packageCopy(t, { bundle: false })
  fs.rmSync(path.join(root, 'node_modules'))
  // Only what the build script itself needs: no esbuild.
  const out = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-cli.js'), '--if-available'], { encoding: 'utf8' })
  t.equal(out.status, 0)
  t.match(out.stderr, /no esbuild/)
  t.equal(out.stdout, '')
  t.notOk(fs.existsSync(path.join(root, 'dist')), 'nothing built')
  fs.symlinkSync(path.join(__dirname, '..', '..', 'node_modules'), path.join(root, 'node_modules'), 'dir')
  const res = await cli(bin, ['-v'], { tmpdir: tmp(t, 'ac-bundle-none-'), cwd: root })
  t.equal(res.code, 0, res.stderr)
  t.equal(res.loaded, 'lib/ (no bundle (npm run build makes it))')
})
