'use strict'

// The package as users get it: `npm pack`, then `npm install` of the
// tarball into an empty folder (dependencies from the registry or npm's
// cache, as for anyone), then the CLI (`autocannon` and the package's own
// name), require and import run from that folder against a server on
// 127.0.0.1; and installed under the name autocannon (npm's alias, for
// code written for autocannon). Also what the tarball carries.

const t = require('tap')
const fs = require('fs')
const os = require('os')
const path = require('path')
const http = require('http')
const { execFile } = require('child_process')
const { performance } = require('perf_hooks')

const ROOT = path.join(__dirname, '..', '..')
const pkg = require('../../package.json')
const { UPSTREAM_VERSION } = require('../../lib/core/upstream-messages')
// What -v prints first: our name and version, and the autocannon we follow.
const VERSION_LINE = `${pkg.name} v${pkg.version} (compatible with autocannon v${UPSTREAM_VERSION})`

// An install can take a minute or more on a busy machine. t.setTimeout
// moves this process's own timer; the runner, which runs files in
// parallel (.taprc jobs), only hears of the new limit from the comment.
const TIMEOUT = 5 * 60 * 1000
t.setTimeout(TIMEOUT)
t.comment(`timeout=${TIMEOUT}`)

const MAX_FILE_BYTES = 1000 * 1000
const NOT_SHIPPED = ['test/', 'bench/', 'fuzz/', '.ci/', 'samples/']

// One entry per way of running the installed CLI. A new output is one more
// entry: `args` and `check` get { url, dir }, dir being an empty folder of
// the entry's own for files it writes.
const CLI_CASES = [
  {
    name: 'npx autocannon -a 100 URL',
    args: ({ url }) => ['-a', '100', url],
    check: (t, out) => {
      t.equal(out.code, 0, out.stderr)
      t.match(out.stderr, /^100 requests in [\d.]+s, /m, 'the tables show the 100 requests')
    }
  },
  {
    name: 'npx autocannon -v prints the version from package.json',
    args: () => ['-v'],
    check: (t, out) => {
      t.equal(out.code, 0, out.stderr)
      t.equal(out.stdout.split('\n')[0], VERSION_LINE)
    }
  },
  {
    name: 'npx autocannon -h reads help.txt from the package',
    args: () => ['-h'],
    check: (t, out) => {
      t.equal(out.code, 0, out.stderr)
      t.match(out.stderr, /^Usage: autocannon \[opts\] URL/, 'on stderr, as autocannon prints it')
    }
  },
  {
    name: `npx ${pkg.name} -v: the package's own name runs the same CLI`,
    bin: pkg.name,
    args: () => ['-v'],
    check: (t, out) => {
      t.equal(out.code, 0, out.stderr)
      t.equal(out.stdout.split('\n')[0], VERSION_LINE)
    }
  },
  {
    // Worker threads load lib/engine/worker.js by path and resolve the
    // dependencies again from there.
    name: 'npx autocannon -w 2 -c 2 -a 100 -j URL',
    args: ({ url }) => ['-w', '2', '-c', '2', '-a', '100', '-j', url],
    check: (t, out) => {
      t.equal(out.code, 0, out.stderr)
      const result = JSON.parse(out.stdout)
      t.equal(result.workers, 2)
      t.equal(result.requests.total, 100)
    }
  },
  {
    // The report inlines uPlot, read from the installed dependency: a
    // dev-only or checkout path would fail here.
    name: 'npx autocannon -a 100 --html FILE URL',
    args: ({ url, dir }) => ['-a', '100', '--html', path.join(dir, 'report.html'), url],
    check: (t, out, { dir }) => {
      t.equal(out.code, 0, out.stderr)
      const html = fs.readFileSync(path.join(dir, 'report.html'), 'utf8')
      t.match(html, /^<!doctype html>/i)
      t.match(html, `<meta name="generator" content="${pkg.name} ${pkg.version}">`)
      t.match(html, `Written by ${pkg.name} ${pkg.version}`)
      const uplot = require.resolve('uplot/package.json', { paths: [path.join(shared.app, 'node_modules', pkg.name)] })
      const library = fs.readFileSync(path.join(path.dirname(uplot), 'dist', 'uPlot.iife.min.js'), 'utf8')
      t.ok(html.includes(library.slice(0, 500)), 'the chart library is inlined from the installed dependency')
    }
  }
]

// What a user's shell has: npm's own settings (npm_config_*: registry,
// cache, certificates) but not the variables of the `npm test` running
// this file, nor tap's loader and settings. PATH loses the checkout's
// node_modules/.bin, where `autocannon` is the devDependency
// autocannon-upstream: npx must find the installed package, not that.
function userEnv () {
  const env = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_(?!config_)|npm_config_call$|TAP|_TAPJS_|NODE_OPTIONS$|INIT_CWD$)/i.test(key)) continue
    env[key] = value
  }
  env.PATH = (env.PATH || '').split(path.delimiter)
    .filter((dir) => !/node_modules[\\/]\.bin$|node-gyp-bin$/.test(dir))
    .join(path.delimiter)
  return env
}

// Resolves to { code, stdout, stderr, seconds } whatever the exit code.
function exec (file, args, cwd) {
  const started = performance.now()
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env: userEnv(), timeout: 180000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : String(err.code || err.signal || err.message)) : 0
      resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 })
    })
  })
}

async function npm (args, cwd) {
  const out = await exec('npm', args, cwd)
  if (out.code !== 0) throw new Error(`npm ${args.join(' ')} exited with ${out.code}\n${out.stderr}`)
  return out
}

// Relative module specifiers in a shipped source file: require('./x'),
// import … from '../y', import('./z').
function relativeSpecifiers (source) {
  const out = []
  const re = /(?:require\s*\(\s*|\bfrom\s+|import\s*\(\s*)(['"])(\.{1,2}\/[^'"]*)\1/g
  for (const m of source.matchAll(re)) out.push(m[2])
  return out
}

const shared = {}

t.before(async () => {
  shared.base = fs.mkdtempSync(path.join(os.tmpdir(), 'autocannon-pack-'))

  const pack = await npm(['pack', '--json', '--pack-destination', shared.base], ROOT)
  shared.packed = JSON.parse(pack.stdout)[0]
  shared.tarball = path.join(shared.base, shared.packed.filename)
  t.comment(`tarball ${shared.packed.filename}: ${shared.packed.size} bytes (${(shared.packed.size / 1024).toFixed(1)} KiB), ` +
    `${shared.packed.unpackedSize} bytes unpacked, ${shared.packed.entryCount} files`)

  shared.app = path.join(shared.base, 'consumer')
  fs.mkdirSync(shared.app)
  await npm(['init', '-y'], shared.app)
  const install = await npm(['install', shared.tarball, '--no-audit', '--no-fund', '--prefer-offline'], shared.app)
  t.comment(`npm install of the tarball took ${install.seconds.toFixed(1)} s`)

  shared.server = http.createServer((req, res) => {
    req.resume()
    res.end('hello')
  })
  await new Promise((resolve) => shared.server.listen(0, '127.0.0.1', resolve))
  shared.url = `http://127.0.0.1:${shared.server.address().port}/`
})

t.teardown(() => {
  if (shared.server) {
    shared.server.closeAllConnections()
    shared.server.close()
  }
  if (shared.base) fs.rmSync(shared.base, { recursive: true, force: true })
})

t.test('the tarball carries the tool and nothing else', async (t) => {
  const files = shared.packed.files.map((f) => f.path)
  const shipped = new Set(files)

  for (const dir of NOT_SHIPPED) {
    t.same(files.filter((f) => f.startsWith(dir)), [], `nothing from ${dir}`)
  }
  t.same(shared.packed.files.filter((f) => f.size > MAX_FILE_BYTES).map((f) => `${f.path} (${f.size} bytes)`), [],
    `no file over ${MAX_FILE_BYTES} bytes`)

  // Every file package.json sends users or tools to.
  const named = [pkg.main, pkg.types, ...Object.values(pkg.bin)]
  for (const target of Object.values(pkg.exports)) {
    const targets = typeof target === 'string' ? [target] : Object.values(target)
    named.push(...targets.filter((p) => !p.includes('*')))
  }
  for (const file of new Set(named.map((p) => path.posix.normalize(p)))) {
    t.ok(shipped.has(file), `${file}, named in package.json, is in the tarball`)
  }
  for (const entry of pkg.files) {
    t.ok(files.some((f) => f === entry || f.startsWith(entry.endsWith('/') ? entry : `${entry}/`)), `files entry ${entry} shipped something`)
  }
  for (const file of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'help.txt', 'types/index.d.ts']) {
    t.ok(shipped.has(file), `${file} is in the tarball`)
  }

  // A module the shipped code loads by a relative path and that exists in
  // the checkout must be shipped too (a missing one is a bug of another
  // kind, for the tests of that code).
  const left = []
  for (const file of files.filter((f) => /\.(c|m)?js$/.test(f))) {
    const source = fs.readFileSync(path.join(ROOT, file), 'utf8')
    for (const spec of relativeSpecifiers(source)) {
      const target = path.posix.join(path.posix.dirname(file), spec)
      const candidates = [target, `${target}.js`, `${target}.json`, `${target}/index.js`]
      const existing = candidates.find((c) => fs.existsSync(path.join(ROOT, c)) && fs.statSync(path.join(ROOT, c)).isFile())
      if (existing && !shipped.has(existing)) left.push(`${file} loads ${existing}`)
    }
  }
  t.same(left, [], 'everything the shipped code loads is shipped')
})

t.test('the installed package is the one packed', async (t) => {
  t.not(pkg.name, 'autocannon', 'a name of our own: `npm install autocannon` is autocannon 9')
  const installed = JSON.parse(fs.readFileSync(path.join(shared.app, 'node_modules', pkg.name, 'package.json'), 'utf8'))
  t.equal(installed.version, pkg.version)
  t.same(Object.keys(installed.bin).sort(), ['autocannon', pkg.name].sort(), 'the autocannon command, and one named as the package for npx')
  const dependency = JSON.parse(fs.readFileSync(path.join(shared.app, 'package.json'), 'utf8')).dependencies[pkg.name]
  t.match(dependency, /^file:/, 'installed from the tarball')
})

for (const entry of CLI_CASES) {
  t.test(entry.name, async (t) => {
    const dir = fs.mkdtempSync(path.join(shared.base, 'case-'))
    const ctx = { url: shared.url, dir }
    // --yes=false: should the installed one be missing, fail rather than
    // fetch someone else's autocannon. (npx reads --no as an option taking
    // a value, and would take 'autocannon' for it.)
    const out = await exec('npx', ['--yes=false', entry.bin || 'autocannon', ...entry.args(ctx)], shared.app)
    await entry.check(t, out, ctx)
  })
}

// As a user starts it, without the test runner's hooks (which turn the
// code cache off): the installed CLI runs from its one built file. npm
// gives every installed file one time, so the bundle is as new as its
// sources. /usr/bin/env takes tap's hooks out of what npx starts.
t.test('the installed CLI runs from dist/cli.js', { skip: process.platform === 'win32' && 'uses /usr/bin/env' }, async (t) => {
  t.ok(shared.packed.files.some((f) => f.path === 'dist/cli.js'), 'the tarball carries the bundle')
  const dir = fs.mkdtempSync(path.join(shared.base, 'bundle-'))
  const run = (args) => exec('env', ['-u', 'NODE_OPTIONS', '-u', 'NODE_V8_COVERAGE', 'NODE_DEBUG=cannonade', `TMPDIR=${dir}`, 'npx', '--yes=false', 'autocannon', ...args], shared.app)
  for (const args of [['-a', '50', '-j', shared.url], ['-w', '2', '-c', '2', '-a', '50', '-j', shared.url]]) {
    const out = await run(args)
    t.equal(out.code, 0, out.stderr)
    t.match(out.stderr, /cli: dist\/cli\.js/, `${args.join(' ')}: from the bundle`)
    t.equal(JSON.parse(out.stdout).requests.total, 50)
  }
})

// Run in `app` with the package installed as `name`.
function requireScript (name) {
  return `
    const autocannon = require('${name}')
    autocannon({ url: process.argv[1], connections: 2, amount: 50 }).then((result) => {
      process.stdout.write(JSON.stringify({
        total: result.requests.total,
        errors: result.errors,
        resolved: require.resolve('${name}'),
        helpers: ['track', 'printResult', 'aggregateResult', 'parseArguments', 'findMaxRate', 'renderHtml', 'mergeResults'].map((name) => typeof autocannon[name]),
        version: require('${name}/package.json').version,
        printResultPath: require('${name}/lib/printResult') === autocannon.printResult,
        aggregateResultPath: require('${name}/lib/aggregateResult') === autocannon.aggregateResult,
        internal: [typeof require('${name}/lib/output/print-result'), typeof require('${name}/lib/output/print-result.js')],
        documented: [typeof require('${name}/lib/compare').formatComparison, typeof require('${name}/lib/hgrm').renderHgrm,
          typeof require('${name}/lib/compare.js').compare, typeof require('${name}/lib/hgrm.js').renderHgrm]
      }))
    })
  `
}

async function checkRequire (t, app, name) {
  const out = await exec(process.execPath, ['-e', requireScript(name), shared.url], app)
  t.equal(out.code, 0, out.stderr)
  const got = JSON.parse(out.stdout)
  t.equal(got.total, 50, 'result.requests.total')
  t.equal(got.errors, 0)
  t.equal(got.resolved, path.join(fs.realpathSync(app), 'node_modules', name, 'autocannon.js'))
  t.same(got.helpers, ['function', 'function', 'function', 'function', 'function', 'function', 'function'])
  t.equal(got.version, pkg.version, "require('autocannon/package.json')")
  t.ok(got.printResultPath, "require('autocannon/lib/printResult') is printResult, as scripts written for autocannon expect")
  t.ok(got.aggregateResultPath, "require('autocannon/lib/aggregateResult') is aggregateResult")
  t.same(got.internal, ['function', 'function'], 'lib/ paths resolve with and without .js')
  t.same(got.documented, ['function', 'function', 'function', 'function'], 'the lib/ paths the docs name (compare, hgrm) resolve')
}

t.test(`require('${pkg.name}') runs a benchmark`, async (t) => {
  await checkRequire(t, shared.app, pkg.name)
})

// What the README tells users of autocannon: npm's alias keeps
// require('autocannon') and the paths under it.
t.test("installed as autocannon@npm:…, require('autocannon') runs a benchmark", async (t) => {
  const app = fs.mkdtempSync(path.join(shared.base, 'alias-'))
  await npm(['init', '-y'], app)
  await npm(['install', `autocannon@file:${shared.tarball}`, '--no-audit', '--no-fund', '--prefer-offline'], app)
  t.equal(JSON.parse(fs.readFileSync(path.join(app, 'node_modules', 'autocannon', 'package.json'), 'utf8')).name, pkg.name, 'ours, under the name autocannon')
  await checkRequire(t, app, 'autocannon')
})

t.test(`import autocannon, { track, printResult } from '${pkg.name}' runs a benchmark`, async (t) => {
  const file = path.join(shared.app, 'run.mjs')
  fs.writeFileSync(file, `
    import autocannon, { track, printResult } from '${pkg.name}'

    const result = await autocannon({ url: process.argv[2], connections: 2, amount: 50 })
    process.stdout.write(JSON.stringify({
      total: result.requests.total,
      resolved: import.meta.resolve('${pkg.name}'),
      track: typeof track,
      printed: printResult(result).includes('50 requests in')
    }))
  `)
  const out = await exec(process.execPath, [file, shared.url], shared.app)
  t.equal(out.code, 0, out.stderr)
  const got = JSON.parse(out.stdout)
  t.equal(got.total, 50, 'result.requests.total')
  t.ok(got.resolved.endsWith(`/node_modules/${pkg.name}/autocannon.mjs`), `import loads the ES module entry (${got.resolved})`)
  t.equal(got.track, 'function')
  t.ok(got.printed, 'printResult printed the summary')
})

// The supported Node majors are said in package.json, the README and the
// types, and are the ones CI runs (.ci/node.sh pins each release).
t.test('the Node versions said to be supported are the ones CI tests', async (t) => {
  const script = fs.readFileSync(path.join(ROOT, '.ci', 'node.sh'), 'utf8')
  const pinned = [...script.matchAll(/^ {2}\[(\d+)\]=(\d+)\.\d+\.\d+$/gm)].map((m) => Number(m[1])).sort()
  t.same(pinned, [22, 24], 'CI pins Node 22 and 24')
  for (const m of script.matchAll(/^ {2}\[(\d+)\]=(\d+)\.\d+\.\d+$/gm)) t.equal(m[1], m[2], `the release pinned for ${m[1]} is a ${m[1]}.x`)
  t.equal(pkg.engines.node, `>=${pinned[0]}`, 'engines: from the oldest major CI tests')
  t.match(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'), `Supported and tested on Node.js ${pinned.join(' and ')}`)
  t.match(fs.readFileSync(path.join(ROOT, 'types', 'index.d.ts'), 'utf8'), `For Node.js ${pinned.join(' and ')}, the versions it supports`)
  t.match(fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8'), /run "Node 24, the README's test command" "\$node24" npm test/, 'the full suite on the newest')
})
