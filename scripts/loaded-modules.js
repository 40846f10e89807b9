'use strict'

// Which modules a run loads: for each of a few common runs (the library
// required alone, the library running, the CLI plain, with -j, --http2,
// -R, -w 2), the files of lib/ and node_modules/ and the public node
// builtins each thread has loaded when it ends, against loopback servers
// of its own. What it prints decides which require()s are worth putting
// off until first use (lib/core/lazy.js): one whose module every run that
// loads its file loads anyway saves nothing.
//
//   node scripts/loaded-modules.js            the counts per run
//   node scripts/loaded-modules.js --list     and the modules themselves
//   node scripts/loaded-modules.js --sites    each put-off require of lib/:
//                                             the runs that load its file,
//                                             and those that load its module
//   node scripts/loaded-modules.js --json     all of it, as JSON
//
// The CLI runs from lib/ (NODE_DISABLE_COMPILE_CACHE=1, so that each file
// is seen), and once more from dist/cli.js as a user's run is (what the
// bundle leaves outside itself: builtins, node_modules it does not carry).

// Only what Node has loaded before any script runs, here at the top: a
// child of this file counts what it loads.
const fs = require('fs')
const path = require('path')
const Module = require('module')

const ROOT = path.join(__dirname, '..')
const BIN = path.join(ROOT, 'bin', 'autocannon.js')

// In a run's threads: what the thread has loaded, appended to `log` (one
// JSON line per thread) as it ends.
function record (log, isMainThread) {
  process.on('exit', () => {
    const files = Object.keys(require.cache).map((f) => path.relative(ROOT, f).split(path.sep).join('/'))
    const builtins = process.moduleLoadList
      .filter((m) => m.startsWith('NativeModule '))
      .map((m) => m.slice('NativeModule '.length))
      .filter((m) => !m.startsWith('internal/') && Module.isBuiltin(m))
    fs.appendFileSync(log, JSON.stringify({ main: isMainThread, files, builtins }) + '\n')
  })
}

// The child: `--child <log> <script> [args…]`, the script run as the main
// module would be (process.argv as it expects), or `--eval <code>`. Worker
// threads get this file preloaded; the main thread is not given it with
// --require, which would turn the CLI's compile cache off.
function child ([log, script, ...args]) {
  record(log, true)
  // worker_threads given this file to preload, when the run first loads it.
  const load = Module._load
  Module._load = function (request) {
    const exports = load.apply(this, arguments)
    if ((request === 'worker_threads' || request === 'node:worker_threads') && !exports.Worker.preloading) {
      const { Worker } = exports
      exports.Worker = class extends Worker {
        static preloading = true
        constructor (file, options = {}) {
          super(file, { ...options, execArgv: [...(options.execArgv || process.execArgv), '--require', __filename] })
        }
      }
    }
    return exports
  }
  if (script === '--eval') return new Function('require', args[0])(require) // eslint-disable-line no-new-func
  process.argv = [process.argv[0], script, ...args]
  require(script)
}

// A worker thread of a child: preloaded.
if (process.env.LOADED_MODULES_LOG && require.main !== module) record(process.env.LOADED_MODULES_LOG, false)

// The runs (a)–(f) of the start-up's question, and less common ones that
// load files those do not (the subcommands, a CI gate's -j, -i): every
// file's put-off requires are judged against the runs that load it.
function runs (http1, http2, dir) {
  const cli = (...args) => [BIN, ...args]
  const lib = { NODE_DISABLE_COMPILE_CACHE: '1' }
  const saved = path.join(dir, 'result.json')
  const body = path.join(dir, 'body.txt')
  return [
    { name: 'empty', what: 'an empty script (subtracted from the others)', argv: ['--eval', ''], baseline: true },
    { name: 'empty worker', what: 'an empty worker thread (subtracted from workers)', argv: ['--eval', "new (require('worker_threads').Worker)('0', { eval: true })"], baseline: true },
    { name: 'require', what: "require('cannonade') alone", argv: ['--eval', "require('../autocannon.js')"] },
    { name: 'library run', what: 'autocannon({ url, amount: 100 })', argv: ['--eval', `require('../autocannon.js')({ url: '${http1}', amount: 100, connections: 10 })`] },
    { name: 'cli', what: '-a 100 -c 10', argv: cli('-a', '100', '-c', '10', http1), env: lib },
    { name: 'cli (dist)', what: '-a 100 -c 10, from dist/cli.js', argv: cli('-a', '100', '-c', '10', http1), dist: true },
    { name: 'cli -j', what: '-j -a 100 -c 10', argv: cli('-j', '-a', '100', '-c', '10', http1), env: lib },
    { name: 'cli --http2', what: '--http2 -a 100 -c 10 (h2c)', argv: cli('--http2', '-a', '100', '-c', '10', http2), env: lib },
    { name: 'cli -R', what: '-R 100 -d 1', argv: cli('-R', '100', '-d', '1', http1), env: lib },
    { name: 'cli -w 2', what: '-w 2 -a 100 -c 10', argv: cli('-w', '2', '-a', '100', '-c', '10', http1), env: lib },
    { name: 'cli -j gate', what: '-j --threshold "p99 < 0ms" (fails: 99)', argv: cli('-j', '--threshold', 'p99 < 0ms', '-a', '100', '-c', '10', http1), env: lib, rare: true },
    { name: 'cli -i', what: '-i FILE -m POST -a 100', argv: cli('-i', body, '-m', 'POST', '-a', '100', http1), env: lib, rare: true },
    { name: 'report', what: 'report result.json -o FILE', argv: cli('report', saved, '-o', path.join(dir, 'report.html')), env: lib, rare: true },
    { name: 'compare', what: 'compare result.json result.json', argv: cli('compare', saved, saved), env: lib, rare: true },
    { name: 'merge', what: 'merge result.json', argv: cli('merge', saved, '-j'), env: lib, rare: true },
    { name: 'kube', what: 'kube --shards 2 -c 10 URL', argv: cli('kube', '--shards', '2', '-c', '10', http1), env: lib, rare: true }
  ]
}

// → [{ main, files, builtins }] for each thread of the run.
function measure (run, dir) {
  const log = path.join(dir, `${run.name.replace(/\W+/g, '-')}.jsonl`)
  fs.rmSync(log, { force: true })
  const env = { ...process.env, LOADED_MODULES_LOG: log, ...run.env }
  delete env.NODE_OPTIONS
  if (!run.env) delete env.NODE_DISABLE_COMPILE_CACHE
  // From dist/: the same run twice, the second with the caches made.
  for (let i = 0; i < (run.dist ? 2 : 1); i++) {
    fs.rmSync(log, { force: true })
    // A threshold's failure (99) is a run like another.
    const { status, stderr } = require('child_process').spawnSync(process.execPath, [__filename, '--child', log, ...run.argv], { env, cwd: __dirname, stdio: ['ignore', 'ignore', 'pipe'], timeout: 30000 })
    if (status !== 0 && status !== 99) throw new Error(`${run.name} exited with ${status}: ${stderr}`)
  }
  return fs.readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line))
}

// Every require() of lib/ put off: in a lazy(() => require(…)) or
// written inside a function. { file, line, target, lazy }.
function sites () {
  const found = []
  for (const rel of fs.readdirSync(path.join(ROOT, 'lib'), { recursive: true })) {
    if (!rel.endsWith('.js')) continue
    const file = path.join(ROOT, 'lib', rel)
    fs.readFileSync(file, 'utf8').split('\n').forEach((text, i) => {
      if (/^\s*(\/\/|\*)/.test(text)) return
      const lazy = /lazy\(\(\) => require\(/.test(text)
      if (!lazy && !/^\s+/.test(text)) return
      for (const m of text.matchAll(/require\((['"])([^'"]+)\1\)/g)) {
        let target = m[2]
        try {
          const resolved = require.resolve(target.startsWith('.') ? path.resolve(path.dirname(file), target) : target, { paths: [path.dirname(file)] })
          target = path.isAbsolute(resolved) ? path.relative(ROOT, resolved).split(path.sep).join('/') : resolved.replace(/^node:/, '')
        } catch {}
        found.push({ file: path.relative(ROOT, file).split(path.sep).join('/'), line: i + 1, target, lazy })
      }
    })
  }
  return found
}

const loads = (thread, name) => thread.files.includes(name) || thread.builtins.includes(name)

function main (flags) {
  const http = require('http')
  const http2 = require('http2')
  const servers = [
    http.createServer((req, res) => res.end('hello')),
    http2.createServer((req, res) => res.end('hello'))
  ]
  const dir = fs.mkdtempSync(path.join(require('os').tmpdir(), 'loaded-modules-'))
  return Promise.all(servers.map((s) => new Promise((resolve) => s.listen(0, '127.0.0.1', resolve)))).then(async () => {
    const [h1, h2] = servers.map((s) => `http://127.0.0.1:${s.address().port}/`)
    fs.writeFileSync(path.join(dir, 'body.txt'), 'hello')
    fs.writeFileSync(path.join(dir, 'result.json'), await cli(['-j', '-a', '100', h1]))
    const measured = []
    // One at a time, the servers in this process: spawnSync would block
    // them, so each run is a child of a child.
    for (const run of runs(h1, h2, dir)) {
      const threads = await new Promise((resolve, reject) => {
        const { execFile } = require('child_process')
        execFile(process.execPath, [__filename, '--measure', JSON.stringify(run), dir], { timeout: 60000, maxBuffer: 1 << 26 }, (err, stdout) => err ? reject(err) : resolve(JSON.parse(stdout)))
      })
      measured.push({ ...run, threads })
    }
    for (const s of servers) s.close()
    fs.rmSync(dir, { recursive: true, force: true })
    report(measured, flags)
  })
}

// Each run's threads less what an empty script's (an empty worker's)
// thread loads, the baselines themselves left out.
function subtract (measured) {
  const base = (name, main) => measured.find((r) => r.name === name).threads.find((t) => t.main === main)
  const empty = { main: base('empty', true), worker: base('empty worker', false) }
  return measured.filter((r) => !r.baseline).map((run) => ({
    ...run,
    threads: run.threads.map((t) => {
      const b = t.main ? empty.main : empty.worker
      return { ...t, files: t.files.filter((f) => !b.files.includes(f)), builtins: t.builtins.filter((m) => !b.builtins.includes(m)) }
    })
  }))
}

// The CLI's stdout.
function cli (args) {
  return new Promise((resolve, reject) => {
    require('child_process').execFile(process.execPath, [BIN, ...args], { timeout: 30000 }, (err, stdout) => err ? reject(err) : resolve(stdout))
  })
}

function report (raw, flags) {
  const measured = subtract(raw)
  const all = sites()
  if (flags.includes('--json')) {
    process.stdout.write(JSON.stringify({ runs: measured.map(({ name, what, threads }) => ({ name, what, threads })), sites: all }, null, 2) + '\n')
    return
  }
  const count = (t) => {
    const lib = t.files.filter((f) => f.startsWith('lib/') || f === 'autocannon.js').length
    const deps = t.files.filter((f) => f.startsWith('node_modules/')).length
    const dist = t.files.filter((f) => f.startsWith('dist/')).length
    return `lib ${String(lib).padStart(3)}  node_modules ${String(deps).padStart(3)}  builtins ${String(t.builtins.length).padStart(3)}${dist ? `  dist ${dist}` : ''}`
  }
  process.stdout.write('Files and builtins each thread loaded, beyond an empty script\'s (worker\'s):\n')
  for (const run of measured) {
    run.threads.forEach((t, i) => {
      process.stdout.write(`${(i === 0 ? run.name : '').padEnd(12)} ${(t.main ? 'main' : 'worker').padEnd(7)} ${count(t)}   ${i === 0 ? run.what : ''}\n`)
      if (flags.includes('--list')) {
        for (const f of [...t.files.filter((f) => !f.startsWith('scripts/')), ...t.builtins.map((b) => `(builtin) ${b}`)]) process.stdout.write(`      ${f}\n`)
      }
    })
  }
  if (!flags.includes('--sites')) return
  process.stdout.write(`\n${all.length} require()s put off in lib/, ${all.filter((s) => s.lazy).length} of them by lazy():\n`)
  const threads = measured.filter((r) => !r.dist).flatMap((r) => r.threads.map((t) => ({ run: r.name, ...t })))
  const baseline = raw.find((r) => r.name === 'empty').threads
  for (const site of all) {
    const serving = threads.filter((t) => loads(t, site.file))
    const also = serving.filter((t) => loads(t, site.target))
    const verdict = baseline.some((t) => loads(t, site.target))
      ? 'loaded by Node itself'
      : serving.length === 0
        ? 'file not loaded'
        : also.length === serving.length
          ? 'LOADED ANYWAY'
          : `put off in ${serving.filter((t) => !loads(t, site.target)).map((t) => t.run + (t.main ? '' : ' (worker)')).join(', ')}`
    process.stdout.write(`${`${site.file}:${site.line}`.padEnd(36)} ${site.lazy ? 'lazy' : '    '} ${site.target.padEnd(38)} ${verdict}\n`)
  }
}

const [mode, ...rest] = process.argv.slice(2)
if (require.main === module) {
  if (mode === '--child') child(rest)
  else if (mode === '--measure') process.stdout.write(JSON.stringify(measure(JSON.parse(rest[0]), rest[1])))
  else main(process.argv.slice(2))
}
