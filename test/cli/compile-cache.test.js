'use strict'

// The CLI's code cache (lib/cli/compile-cache.js): Node's own
// (module.enableCompileCache), in a folder only this user can write. A
// second start takes our modules' compiled code from it, in the worker
// threads too; Node's debug output (NODE_DEBUG_NATIVE=COMPILE_CACHE) says
// which files it read from the cache.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const Module = require('module')
const { execFileSync } = require('child_process')
const { httpServer } = require('../helpers/servers')
const { packageCopy, runAsUser } = require('../helpers/package-copy')

const CC = require.resolve('../../lib/cli/compile-cache')
const { cacheDirectory, enable } = require(CC)

if (typeof Module.enableCompileCache !== 'function') {
  // Node 20: past its end of life, not supported; the CLI runs uncached.
  t.equal(enable({}), null, 'no cache without module.enableCompileCache')
  t.skip(`Node ${process.version} has no module.enableCompileCache (22.1+)`)
} else {
  tests()
}

function tmp (t, prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

function folderName () {
  return `autocannon-compile-cache${typeof process.getuid === 'function' ? `-${process.getuid()}` : ''}`
}

// The files under our folder: Node's, one subfolder per Node version and
// flags, and the after-run cache's, one file per Node version and copy of
// the package.
function entries (tmpdir) {
  const base = path.join(tmpdir, folderName())
  if (!fs.existsSync(base)) return []
  const out = []
  for (const sub of fs.readdirSync(base).sort()) {
    const where = path.join(base, sub)
    for (const name of fs.statSync(where).isDirectory() ? fs.readdirSync(where).sort() : ['']) {
      const file = path.join(where, name)
      out.push({ file, mtimeMs: fs.statSync(file).mtimeMs })
    }
  }
  return out
}

// What the after-run cache says at exit (NODE_DEBUG=cannonade).
function said (stderr) {
  const m = /code cache: (\d+) files from it, (\d+) compiled; (written|kept)/.exec(stderr)
  return m ? { fromCache: Number(m[1]), compiled: Number(m[2]), file: m[3] } : null
}

// Files of the package at `root` Node says it took from the cache (its
// debug output). The copy's node_modules links to the checkout's: those
// files are outside the package, and Node's to cache.
function hits (stderr, root) {
  const out = new Set()
  for (const m of stderr.matchAll(/cache for (?:CommonJS )?(\S+) was accepted/g)) {
    const file = path.relative(root, m[1])
    if (!file.startsWith('..')) out.add(file)
  }
  return out
}

// The real command, as a user runs it, from a copy of the package without
// dist/: the sources, each file on its own (the bundle's own cases:
// test/cli/bundle.test.js).
function cli (bin, args, vars) {
  return runAsUser(bin, args, { vars, timeout: 30000 })
}

function tests () {
  t.test('the cache folder is this user\'s alone, or there is none', { skip: typeof process.getuid !== 'function' && 'no uids here' }, async (t) => {
    const base = tmp(t, 'ac-cc-tmp-')
    const dir = cacheDirectory(base)
    t.equal(dir, path.join(base, folderName()))
    const st = fs.statSync(dir)
    t.equal(st.mode & 0o777, 0o700)
    t.equal(st.uid, process.getuid())

    const open = tmp(t, 'ac-cc-open-')
    fs.mkdirSync(path.join(open, folderName()), { mode: 0o777 })
    fs.chmodSync(path.join(open, folderName()), 0o777)
    t.equal(cacheDirectory(open), null, 'a folder others can write is not used')

    const blocked = tmp(t, 'ac-cc-file-')
    fs.writeFileSync(path.join(blocked, folderName()), '')
    t.equal(cacheDirectory(blocked), null, 'a file in its place is not used')

    // Only root can make a folder another user owns.
    if (process.getuid() === 0) {
      const theirs = tmp(t, 'ac-cc-theirs-')
      fs.mkdirSync(path.join(theirs, folderName()), { mode: 0o700 })
      fs.chownSync(path.join(theirs, folderName()), 65534, 65534)
      t.equal(cacheDirectory(theirs), null, 'a folder another user owns is not used')
    }
  })

  t.test('enable() in a process of its own: Node\'s cache, in our folder', async (t) => {
    const tmpdir = tmp(t, 'ac-cc-enable-')
    const blocked = tmp(t, 'ac-cc-blocked-')
    fs.writeFileSync(path.join(blocked, folderName()), '')
    const script = `
      const cc = require(${JSON.stringify(CC)})
      const none = cc.enable({ TMPDIR: ${JSON.stringify(blocked)} })
      const dir = cc.enable({ TMPDIR: ${JSON.stringify(tmpdir + '/')} })
      const { workerPreload } = require(${JSON.stringify(require.resolve('../../lib/engine/worker-preload'))})
      process.stdout.write(JSON.stringify({ none, dir, cacheDir: require('module').getCompileCacheDir(), preload: workerPreload() }))
    `
    const env = { ...process.env }
    delete env.NODE_OPTIONS
    delete env.NODE_V8_COVERAGE
    delete env.NODE_COMPILE_CACHE
    const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', env }))
    const dir = path.join(tmpdir, folderName())
    t.equal(out.none, null, 'a file where our folder would be: no cache')
    t.equal(out.dir, dir, 'a trailing slash in TMPDIR changes nothing')
    t.ok(out.cacheDir.startsWith(dir + path.sep), `Node caches in it (${out.cacheDir})`)
    t.same(out.preload, { file: CC, data: dir }, 'worker threads start it in the same folder')

    for (const off of [{ NODE_DISABLE_COMPILE_CACHE: '1' }, { NODE_V8_COVERAGE: tmpdir }, { NODE_OPTIONS: '"--import=/x/hook.js"' }, { NODE_OPTIONS: '-r ./hook' }]) {
      t.equal(enable({ TMPDIR: tmpdir, ...off }), null, `off with ${JSON.stringify(off)}`)
    }
  })

  t.test('the CLI: a cold start fills the cache, a warm one runs from it alike', { skip: process.platform === 'win32' && 'uses /usr/bin/env' }, async (t) => {
    const { root, bin: BIN } = packageCopy(t, { bundle: false })
    const url = await httpServer(t)
    const tmpdir = tmp(t, 'ac-cc-cli-')
    const env = { TMPDIR: tmpdir, NODE_DEBUG_NATIVE: 'COMPILE_CACHE', NODE_DEBUG: 'cannonade' }
    const args = ['-a', '20', '-c', '2', '-j', url]

    const off = await cli(BIN, args, { ...env, NODE_DISABLE_COMPILE_CACHE: '1' })
    t.equal(off.code, 0, off.stderr)
    t.same(entries(tmpdir), [], 'NODE_DISABLE_COMPILE_CACHE=1: nothing written')

    // A preloaded hook (here an empty one) may instrument what is compiled.
    const hook = path.join(tmpdir, 'hook.js')
    fs.writeFileSync(hook, '')
    for (const preload of [`--require ${hook}`, `--import=${hook}`]) {
      const hooked = await cli(BIN, args, { ...env, NODE_OPTIONS: preload })
      t.equal(hooked.code, 0, hooked.stderr)
      t.same(entries(tmpdir), [], `NODE_OPTIONS=${preload.split(' ')[0]}…: nothing written`)
    }

    const cold = await cli(BIN, args, env)
    t.equal(cold.code, 0, cold.stderr)
    t.notOk(fs.existsSync(path.join(tmpdir, 'node-compile-cache')), 'nothing in Node\'s default folder')
    const first = said(cold.stderr)
    t.ok(first && first.fromCache === 0 && first.compiled >= 40 && first.file === 'written', `the cold start compiled every file of ours and wrote them (${JSON.stringify(first)})`)
    const file = require('../../lib/cli/after-run-cache').cacheFile(path.join(tmpdir, folderName()), root)
    t.equal(fs.statSync(file).mode & 0o777, 0o600, 'the after-run cache is this user\'s alone')

    // The second run adds what it compiled to what it loaded; from then
    // on every file comes from the cache and nothing is written.
    const second = await cli(BIN, args, env)
    t.equal(second.code, 0, second.stderr)
    t.same(said(second.stderr), { fromCache: first.compiled, compiled: 0, file: 'written' })
    const written = entries(tmpdir)
    const warm = await cli(BIN, args, env)
    t.equal(warm.code, 0, warm.stderr)
    t.same(said(warm.stderr), { fromCache: first.compiled, compiled: 0, file: 'kept' }, 'every file from the cache')
    t.same(entries(tmpdir), written, 'the warm run needed nothing new and rewrote nothing')
    t.same([...hits(warm.stderr, root)].filter((f) => !['lib/cli/compile-cache.js', 'lib/cli/after-run-cache.js'].includes(f)), [], 'in the main thread Node\'s cache has only the files loaded before ours starts')
    for (const res of [cold, second, warm]) {
      const result = JSON.parse(res.stdout)
      t.equal(result['2xx'], 20)
      t.equal(result.errors, 0)
    }

    const tables = await cli(BIN, ['-a', '20', '-c', '2', url], { TMPDIR: tmpdir })
    t.equal(tables.code, 0, tables.stderr)
    t.match(tables.stderr, /20 requests in/, 'the tables print from cached code')
  })

  // With -w the main thread loads no protocol code: the parser, the run
  // and the connections are the worker threads' alone.
  t.test('the CLI\'s worker threads use the cache too', { skip: process.platform === 'win32' && 'uses /usr/bin/env' }, async (t) => {
    const { root, bin: BIN } = packageCopy(t, { bundle: false })
    const url = await httpServer(t)
    const tmpdir = tmp(t, 'ac-cc-workers-')
    const env = { TMPDIR: tmpdir, NODE_DEBUG_NATIVE: 'COMPILE_CACHE' }
    const args = ['-w', '2', '-c', '4', '-a', '40', '-j', url]
    const cold = await cli(BIN, args, env)
    t.equal(cold.code, 0, cold.stderr)
    t.equal(JSON.parse(cold.stdout)['2xx'], 40)
    const warm = await cli(BIN, args, env)
    t.equal(warm.code, 0, warm.stderr)
    t.equal(JSON.parse(warm.stdout)['2xx'], 40)
    const got = hits(warm.stderr, root)
    for (const file of ['lib/http1/response-parser.js', 'lib/engine/run.js', 'lib/transport/connection.js']) {
      t.ok(got.has(file), `${file}, loaded only by the workers, came from the cache`)
    }
  })
}
