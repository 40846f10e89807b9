'use strict'

// The CLI's code cache (lib/cli/compile-cache.js): a second start takes
// our modules' compiled code from the cache, an edited file is compiled
// again (V8 itself would take a same-length edit's stale code), the user's
// files and the main module are left to Node, and the cache folder is one
// only this user can write.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { cacheDirectory, foldersOf } = require('../../lib/cli/compile-cache')
const { execFile, execFileSync } = require('child_process')
const { httpServer } = require('../helpers/servers')
const { BIN } = require('../helpers/cli')

function tmp (t, prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

// A package root with lib/ (ours) and hooks/ (the user's), a cache folder.
function layout (t) {
  const root = tmp(t, 'ac-cc-root-')
  const dir = tmp(t, 'ac-cc-cache-')
  fs.mkdirSync(path.join(root, 'lib'))
  fs.mkdirSync(path.join(root, 'hooks'))
  const write = (rel, text) => fs.writeFileSync(path.join(root, rel), text)
  return { root, dir, write, file: (rel) => path.join(root, rel) }
}

// Loads `file` with the cache installed in a fresh process: V8 keeps
// what it compiled in memory, so a second load in this one would not read
// the entry at all. Resolves to the module's `report()` (if any), the
// cache's counts, after flush(), which writes what was missing.
function loadWith ({ root, dir, folders }, file) {
  const script = `
    const { install } = require(${JSON.stringify(require.resolve('../../lib/cli/compile-cache'))})
    const cache = install({ root: ${JSON.stringify(root)}, dir: ${JSON.stringify(dir)}${folders ? `, folders: ${JSON.stringify(folders)}` : ''} })
    const loaded = require(${JSON.stringify(file)})
    Promise.resolve(typeof loaded.report === 'function' ? loaded.report() : loaded).then((value) => {
      const stats = { ...cache.stats }
      cache.flush()
      process.stdout.write(JSON.stringify({ value, stats, written: cache.stats.written }))
    })
  `
  const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })
  return JSON.parse(out)
}

t.test('the second load takes the cached code; what the module sees is Node\'s', async (t) => {
  const { root, dir, write, file } = layout(t)
  write('lib/dep.js', "'use strict'\nmodule.exports = { n: 41 }\n")
  write('lib/main.js', [
    "'use strict'",
    "const dep = require('./dep')",
    'exports.report = async () => ({',
    '  n: dep.n + 1,',
    '  filename: __filename,',
    '  dirname: __dirname,',
    "  resolved: require.resolve('./dep'),",
    '  strict: (function () { return this === undefined })(),',
    '})',
    ''
  ].join('\n'))
  const first = loadWith({ root, dir }, file('lib/main.js'))
  t.same(first.stats, { hits: 0, misses: 2, written: 0 }, 'both files compiled on the first load')
  t.equal(first.written, 2, 'and both written to the cache')
  t.same(fs.readdirSync(dir).sort(), ['lib_dep.js', 'lib_main.js'])

  const second = loadWith({ root, dir }, file('lib/main.js'))
  t.same(second.stats, { hits: 2, misses: 0, written: 0 }, 'both taken from the cache the second time')
  for (const { value } of [first, second]) {
    t.same(value, {
      n: 42,
      filename: file('lib/main.js'),
      dirname: path.join(root, 'lib'),
      resolved: file('lib/dep.js'),
      strict: true
    }, "__filename, __dirname, require.resolve and 'use strict' as Node gives them")
  }
})

// On Node 20 a function V8 takes back from a code cache has lost the
// loader import() needs (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING).
t.test('a file with import() is left to Node, and import() works on every start', async (t) => {
  const { root, dir, write, file } = layout(t)
  write('lib/lazy.js', "exports.report = () => import('node:path').then((m) => typeof m.join)\n")
  for (let i = 0; i < 2; i++) {
    const loaded = loadWith({ root, dir }, file('lib/lazy.js'))
    t.equal(loaded.value, 'function')
    t.same(loaded.stats, { hits: 0, misses: 0, written: 0 })
  }
})

t.test('an edited file is compiled again, even one of the same length', async (t) => {
  const { root, dir, write, file } = layout(t)
  write('lib/value.js', "exports.report = () => 'AAAA'\n")
  const first = loadWith({ root, dir }, file('lib/value.js'))
  t.equal(first.value, 'AAAA')
  // Same length, other code: V8's own check (length, version, flags)
  // would hand back the old function.
  write('lib/value.js', "exports.report = () => 'BBBB'\n")
  const later = new Date(Date.now() + 5000)
  fs.utimesSync(file('lib/value.js'), later, later)
  const second = loadWith({ root, dir }, file('lib/value.js'))
  t.equal(second.value, 'BBBB', 'the edit is what runs')
  t.same(second.stats, { hits: 0, misses: 1, written: 0 })
  const third = loadWith({ root, dir }, file('lib/value.js'))
  t.equal(third.value, 'BBBB')
  t.same(third.stats, { hits: 1, misses: 0, written: 0 }, 'the new entry replaced the old')
})

t.test('a damaged entry is compiled again and replaced', async (t) => {
  const { root, dir, write, file } = layout(t)
  write('lib/x.js', 'module.exports = 7\n')
  loadWith({ root, dir }, file('lib/x.js'))
  const entry = path.join(dir, 'lib_x.js')
  const bytes = fs.readFileSync(entry)
  fs.writeFileSync(entry, Buffer.concat([bytes.subarray(0, 16), Buffer.alloc(bytes.length - 16, 0x5a)]))
  const again = loadWith({ root, dir }, file('lib/x.js'))
  t.equal(again.value, 7)
  t.same(again.stats, { hits: 0, misses: 1, written: 0 }, 'V8 rejected the bytes; compiled as usual')
})

t.test('files outside our folders are Node\'s to compile', async (t) => {
  const { root, dir, write, file } = layout(t)
  write('hooks/setup.js', 'module.exports = 3\n')
  const loaded = loadWith({ root, dir }, file('hooks/setup.js'))
  t.equal(loaded.value, 3)
  t.same(loaded.stats, { hits: 0, misses: 0, written: 0 })
  t.same(fs.readdirSync(dir), [])
})

// npx and npm install us with our dependencies hoisted beside us.
t.test('installed as a package, the dependencies hoisted beside it are ours too', async (t) => {
  t.same(foldersOf('/src/autocannon'), ['/src/autocannon/lib', '/src/autocannon/node_modules'], 'a checkout: lib/ and its node_modules')
  t.same(foldersOf('/p/node_modules/autocannon'), ['/p/node_modules/autocannon/lib', '/p/node_modules/autocannon/node_modules', '/p/node_modules'])

  const top = tmp(t, 'ac-cc-npx-')
  const dir = tmp(t, 'ac-cc-cache-')
  const root = path.join(top, 'node_modules', 'autocannon')
  fs.mkdirSync(path.join(root, 'lib'), { recursive: true })
  fs.mkdirSync(path.join(top, 'node_modules', 'dep'))
  fs.writeFileSync(path.join(top, 'node_modules', 'dep', 'index.js'), 'module.exports = 5\n')
  fs.writeFileSync(path.join(root, 'lib', 'main.js'), "module.exports = require('dep') + 1\n")
  const opts = { root, dir, folders: foldersOf(root) }
  const first = loadWith(opts, path.join(root, 'lib', 'main.js'))
  t.equal(first.value, 6)
  t.same(first.stats, { hits: 0, misses: 2, written: 0 })
  t.same(fs.readdirSync(dir).sort(), ['.._dep_index.js', 'lib_main.js'])
  const second = loadWith(opts, path.join(root, 'lib', 'main.js'))
  t.same(second.stats, { hits: 2, misses: 0, written: 0 })
})

t.test('the cache folder is this user\'s alone, or there is none', { skip: typeof process.getuid !== 'function' && 'no uids here' }, async (t) => {
  const base = tmp(t, 'ac-cc-tmp-')
  const dir = cacheDirectory(base)
  t.equal(path.dirname(path.dirname(dir)), base)
  t.equal(path.basename(dir), `${process.version}-${process.arch}`)
  const st = fs.statSync(path.dirname(dir))
  t.equal(st.mode & 0o777, 0o700)
  t.equal(st.uid, process.getuid())

  const open = tmp(t, 'ac-cc-open-')
  fs.mkdirSync(path.join(open, `autocannon-compile-cache-${process.getuid()}`), { mode: 0o777 })
  fs.chmodSync(path.join(open, `autocannon-compile-cache-${process.getuid()}`), 0o777)
  t.equal(cacheDirectory(open), null, 'a folder others can write is not used')

  const blocked = tmp(t, 'ac-cc-file-')
  fs.writeFileSync(path.join(blocked, `autocannon-compile-cache-${process.getuid()}`), '')
  t.equal(cacheDirectory(blocked), null, 'a file in its place is not used')
})

// The cache's folder for this Node version under a TMPDIR.
function versionFolder (tmpdir) {
  const uid = typeof process.getuid === 'function' ? `-${process.getuid()}` : ''
  return path.join(tmpdir, `autocannon-compile-cache${uid}`, `${process.version}-${process.arch}`)
}

// The real command, as a user runs it. tap adds its coverage hook to the
// NODE_OPTIONS of every process a test starts (and a preloaded hook turns
// the cache off): /usr/bin/env takes it out again, and sets what a case
// needs.
function cli (args, vars) {
  const assignments = Object.entries(vars).map(([k, v]) => `${k}=${v}`)
  return new Promise((resolve) => {
    execFile('env', ['-u', 'NODE_OPTIONS', '-u', 'NODE_V8_COVERAGE', ...assignments, process.execPath, BIN, ...args], { timeout: 30000 }, (err, stdout, stderr) => {
      resolve({ code: err ? err.code : 0, stdout, stderr })
    })
  })
}

t.test('the CLI: a cold start fills the cache, a warm one runs from it alike', { skip: process.platform === 'win32' && 'uses /usr/bin/env' }, async (t) => {
  const url = await httpServer(t)
  const tmpdir = tmp(t, 'ac-cc-cli-')
  const env = { TMPDIR: tmpdir }
  const base = versionFolder(tmpdir)
  // One folder per checkout and set of Node flags.
  const folders = () => fs.existsSync(base) ? fs.readdirSync(base).sort() : []
  const entries = () => folders().length === 1 ? fs.readdirSync(path.join(base, folders()[0])).sort() : []

  const off = await cli(['-a', '20', '-c', '2', '-j', url], { ...env, NODE_DISABLE_COMPILE_CACHE: '1' })
  t.equal(off.code, 0, off.stderr)
  t.same(folders(), [], 'NODE_DISABLE_COMPILE_CACHE=1: nothing written')

  // A preloaded hook (here an empty one) may instrument what is compiled.
  const hook = path.join(tmpdir, 'hook.js')
  fs.writeFileSync(hook, '')
  for (const preload of [`--require ${hook}`, `--import=${hook}`]) {
    const hooked = await cli(['-a', '20', '-c', '2', '-j', url], { ...env, NODE_OPTIONS: preload })
    t.equal(hooked.code, 0, hooked.stderr)
    t.same(folders(), [], `NODE_OPTIONS=${preload.split(' ')[0]}…: nothing written`)
  }

  const cold = await cli(['-a', '20', '-c', '2', '-j', url], env)
  t.equal(cold.code, 0, cold.stderr)
  const written = entries()
  t.ok(written.includes('lib_cli_main.js') && written.includes('lib_http1_response-parser.js'), 'our modules are cached')
  t.ok(written.some((name) => name.startsWith('node_modules_')), 'and our dependencies')
  t.notOk(written.some((name) => name.startsWith('bin_') || name.endsWith('.tmp')), 'not the main module, no half-written entry')
  const folder = path.join(base, folders()[0])
  const stamps = written.map((name) => fs.statSync(path.join(folder, name)).mtimeMs)

  const warm = await cli(['-a', '20', '-c', '2', '-j', url], env)
  t.equal(warm.code, 0, warm.stderr)
  t.same(entries(), written, 'the warm run needed nothing new')
  t.same(written.map((name) => fs.statSync(path.join(folder, name)).mtimeMs), stamps, 'and rewrote nothing')
  for (const res of [cold, warm]) {
    const result = JSON.parse(res.stdout)
    t.equal(result['2xx'], 20)
    t.equal(result.errors, 0)
  }

  const tables = await cli(['-a', '20', '-c', '2', url], env)
  t.equal(tables.code, 0, tables.stderr)
  t.match(tables.stderr, /20 requests in/, 'the tables print from cached code')

  // From the cache too: the HTML report (it finds uPlot with
  // require.resolve) and worker threads.
  const html = path.join(tmpdir, 'report.html')
  const more = await cli(['-a', '40', '-c', '2', '-w', '2', '--html', html, '-j', url], env)
  t.equal(more.code, 0, more.stderr)
  t.equal(JSON.parse(more.stdout)['2xx'], 40)
  t.match(fs.readFileSync(html, 'utf8'), /uPlot/, 'the report has its charts')

  // Other flags: V8 would refuse the entries, so they go to another folder
  // instead of overwriting these at every start.
  const flagged = await cli(['-a', '20', '-c', '2', '-j', url], { ...env, NODE_OPTIONS: '--no-warnings' })
  t.equal(flagged.code, 0, flagged.stderr)
  t.equal(folders().length, 2, 'a folder of its own for other Node flags')
  t.same(written.map((name) => fs.statSync(path.join(folder, name)).mtimeMs), stamps, 'the first folder untouched')
})

// With -w the main thread loads no protocol code: the parser, the run and
// the connections are the worker threads' alone, and so are their entries.
t.test('the CLI\'s worker threads use the cache too', { skip: process.platform === 'win32' && 'uses /usr/bin/env' }, async (t) => {
  const url = await httpServer(t)
  const tmpdir = tmp(t, 'ac-cc-workers-')
  const base = versionFolder(tmpdir)
  const args = ['-w', '2', '-c', '4', '-a', '40', '-j', url]
  const cold = await cli(args, { TMPDIR: tmpdir })
  t.equal(cold.code, 0, cold.stderr)
  t.equal(JSON.parse(cold.stdout)['2xx'], 40)
  const [folder] = fs.readdirSync(base).map((name) => path.join(base, name))
  const names = fs.readdirSync(folder)
  for (const name of ['lib_http1_response-parser.js', 'lib_engine_run.js', 'lib_transport_connection.js']) {
    t.ok(names.includes(name), `${name}, loaded only by the workers, is cached`)
  }
  const stamps = names.map((name) => fs.statSync(path.join(folder, name)).mtimeMs)
  const warm = await cli(args, { TMPDIR: tmpdir })
  t.equal(warm.code, 0, warm.stderr)
  t.same(fs.readdirSync(folder), names, 'the warm run needed nothing new')
  t.same(names.map((name) => fs.statSync(path.join(folder, name)).mtimeMs), stamps, 'and rewrote nothing')
})
