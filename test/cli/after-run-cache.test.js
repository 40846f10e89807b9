'use strict'

// The CLI's after-run code cache (lib/cli/after-run-cache.js) on its own,
// in processes of their own, over a package of one file it is asked to
// load. Through the real CLI, cold, second and warm starts:
// test/cli/compile-cache.test.js.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const { execFile } = require('child_process')

const AFTER = require.resolve('../../lib/cli/after-run-cache')

function tmp (t, prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

// What the cache says at exit (NODE_DEBUG=cannonade).
function said (stderr) {
  const m = /code cache: (\d+) files from it, (\d+) compiled; (written|kept)/.exec(stderr)
  return m ? { fromCache: Number(m[1]), compiled: Number(m[2]), file: m[3] } : null
}

// install() on its own, in a process of its own, over a package of one
// file that it is asked to load: an edit that keeps the file's length is
// compiled afresh (V8 itself checks only the length), a damaged cache
// file means compiling as usual, and files outside the root are Node's.
t.test('the after-run cache serves a file only as it was when cached', async (t) => {
  const root = tmp(t, 'ac-arc-root-')
  const dir = tmp(t, 'ac-arc-dir-')
  const outside = tmp(t, 'ac-arc-out-')
  const mod = path.join(root, 'm.js')
  fs.writeFileSync(path.join(outside, 'o.js'), 'module.exports = "outside"\n')
  // A script with a #! line, as a package's bin may be.
  fs.writeFileSync(path.join(root, 'bin.js'), '#!/usr/bin/env node\nmodule.exports = (n) => n * 2\n')
  const run = () => {
    const script = `
      const persist = require(${JSON.stringify(AFTER)}).install(${JSON.stringify(dir)}, ${JSON.stringify(root)})
      const m = require(${JSON.stringify(mod)})
      process.stdout.write(JSON.stringify([m.value(), require(${JSON.stringify(path.join(root, 'bin.js'))})(21), require(${JSON.stringify(path.join(outside, 'o.js'))})]))
      persist()
      persist()
    `
    const env = { ...process.env, NODE_DEBUG: 'cannonade' }
    delete env.NODE_OPTIONS
    delete env.NODE_V8_COVERAGE
    return new Promise((resolve) => {
      execFile(process.execPath, ['-e', script], { env }, (err, stdout, stderr) => resolve({ err, out: stdout && JSON.parse(stdout), said: said(stderr), stderr }))
    })
  }
  const source = (letter) => `'use strict'\nexports.value = function () { return '${letter}' }\nexports.twice = (n) => n * 2\n`
  fs.writeFileSync(mod, source('A'))
  const cold = await run()
  t.same(cold.out, ['A', 42, 'outside'], cold.stderr)
  t.same(cold.said, { fromCache: 0, compiled: 1, file: 'written' }, 'only the file under the root, without a #! line')
  const warm = await run()
  t.same(warm.out, ['A', 42, 'outside'])
  t.same(warm.said, { fromCache: 1, compiled: 0, file: 'written' })

  // Same length, another letter: a ctime of its own.
  await new Promise((resolve) => setTimeout(resolve, 20))
  fs.writeFileSync(mod, source('B'))
  const edited = await run()
  t.same(edited.out, ['B', 42, 'outside'], 'the edit is what runs')
  t.same(edited.said, { fromCache: 0, compiled: 1, file: 'written' })

  const file = require(AFTER).cacheFile(dir, root)
  const whole = fs.readFileSync(file)
  for (const [what, bytes] of [['cut short', whole.subarray(0, whole.length - 40)], ['not ours', Buffer.from('junk\n{}\n')], ['its data overwritten', Buffer.concat([whole.subarray(0, whole.length - 200), Buffer.alloc(200, 7)])]]) {
    fs.writeFileSync(file, bytes)
    const damaged = await run()
    t.same(damaged.out, ['B', 42, 'outside'], `a cache file ${what}: the file runs as written`)
    t.equal(damaged.said.fromCache, 0, `a cache file ${what}: nothing taken from it`)
  }
})

// Each copy of the package has a file of its own, and an entry lasts only
// while its file is as it was: a file deleted or edited and not loaded
// since is not carried on.
t.test('the after-run cache keeps one copy\'s files, as they are', async (t) => {
  const root = tmp(t, 'ac-arc-root-')
  const other = tmp(t, 'ac-arc-other-')
  const dir = tmp(t, 'ac-arc-dir-')
  const { cacheFile } = require(AFTER)
  t.not(cacheFile(dir, root), cacheFile(dir, other), 'two copies, two files')
  t.equal(cacheFile(dir, root), cacheFile(dir, root))
  const files = ['a.js', 'b.js', 'c.js'].map((f) => path.join(root, f))
  for (const f of files) fs.writeFileSync(f, `module.exports = ${JSON.stringify(path.basename(f))}\n`)
  const run = (load) => {
    const script = `
      const persist = require(${JSON.stringify(AFTER)}).install(${JSON.stringify(dir)}, ${JSON.stringify(root)})
      for (const f of ${JSON.stringify(load)}) require(f)
      persist()
    `
    const env = { ...process.env, NODE_DEBUG: 'cannonade' }
    delete env.NODE_OPTIONS
    delete env.NODE_V8_COVERAGE
    return new Promise((resolve) => execFile(process.execPath, ['-e', script], { env }, (err, stdout, stderr) => resolve({ err, said: said(stderr), stderr })))
  }
  const indexed = () => {
    const all = fs.readFileSync(cacheFile(dir, root), 'utf8')
    const lines = all.split('\n')
    return Object.keys(JSON.parse(lines[1]).files).map((f) => path.basename(f)).sort()
  }
  const first = await run(files)
  t.same(first.said, { fromCache: 0, compiled: 3, file: 'written' }, first.stderr)
  t.same(indexed(), ['a.js', 'b.js', 'c.js'])
  fs.unlinkSync(files[1])
  await new Promise((resolve) => setTimeout(resolve, 20))
  fs.writeFileSync(files[2], 'module.exports = "C"\n')
  // Loads a.js only (from the cache: the run after writes again).
  const second = await run([files[0]])
  t.same(second.said, { fromCache: 1, compiled: 0, file: 'written' }, second.stderr)
  t.same(indexed(), ['a.js'], 'the deleted and the edited files are dropped')
  t.notOk(fs.existsSync(cacheFile(dir, other)), 'nothing written for another copy')
})
