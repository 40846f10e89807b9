'use strict'

// autocannon's own test suite, run against this package: a copy of the
// autocannon package installed for the bench (node_modules/autocannon-
// upstream, with its test/ folder), whose entry points (autocannon.js,
// lib/init.js, lib/printResult.js, lib/aggregateResult.js,
// lib/progressTracker.js) are replaced by ours. The tests of autocannon's
// internals (its client, parser, request builder, validate…) are left out:
// we have none of those. Prints node --test's counts per file and in all.
//
//   node bench/upstream-suite.js [--keep] [--node PATH] [file.test.js …]
//
// The suite needs Node 22 or later (its tests wait on t.plan(n, { wait }),
// which Node 20 lacks: there they end with 0 assertions). Give one with
// --node, e.g. from `npm install node@22` in a scratch directory.
// Needs the npm registry once, for the suite's own dev dependencies. Not
// part of `npm test`: the suite starts servers of its own and takes minutes.

const fs = require('fs')
const os = require('os')
const path = require('path')
const { execFileSync, spawnSync } = require('child_process')

const ROOT = path.join(__dirname, '..')
const INTERNAL = new Set(['httpClient', 'httpRequestBuilder', 'requestIterator', 'pipelinedRequestsQueue', 'validate',
  'format', 'url', 'parseHAR', 'subargAliases'].map((name) => `${name}.test.js`))
// The suite's own dev dependencies (busboy at the major its helper uses).
const DEV = ['ansi-regex@5', 'bl@6', 'busboy@0.3.1', 'proxyquire@2', 'split2@4', 'why-is-node-running@2', 'has-async-hooks', 'timestring']

function shims (dir) {
  const ours = JSON.stringify(path.join(ROOT, 'autocannon.js'))
  fs.writeFileSync(path.join(dir, 'autocannon.js'), `'use strict'
module.exports = require(${ours})
if (require.main === module) require(${JSON.stringify(path.join(ROOT, 'lib', 'cli', 'main.js'))}).main(process.argv.slice(2))
`)
  const lib = (name, expr) => fs.writeFileSync(path.join(dir, 'lib', name), `'use strict'\nmodule.exports = ${expr}\n`)
  lib('init.js', `require(${ours})`)
  lib('printResult.js', `require(${ours}).printResult`)
  lib('aggregateResult.js', `require(${ours}).aggregateResult`)
  lib('progressTracker.js', `require(${ours}).track`)
}

function main (argv) {
  const keep = argv.includes('--keep')
  const at = argv.indexOf('--node')
  const node = at === -1 ? process.execPath : path.resolve(argv[at + 1])
  const only = argv.filter((a) => a.endsWith('.test.js'))
  const upstream = path.dirname(require.resolve('autocannon-upstream/package.json', { paths: [ROOT] }))
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autocannon-upstream-suite-'))
  fs.cpSync(upstream, dir, { recursive: true })
  fs.rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true })
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
  // Its dependencies stay: its tests' helpers load parts of its lib/.
  delete pkg.devDependencies
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg, null, 2))
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--silent', ...DEV], { cwd: dir, stdio: 'inherit' })
  shims(dir)
  const files = fs.readdirSync(path.join(dir, 'test'))
    .filter((f) => f.endsWith('.test.js') && !INTERNAL.has(f) && (only.length === 0 || only.includes(f)))
    .sort()
  const total = { pass: 0, fail: 0 }
  for (const file of files) {
    const res = spawnSync(node, ['--test', '--test-reporter=tap', '--test-timeout=60000', path.join('test', file)], { cwd: dir, encoding: 'utf8', timeout: 300000 })
    const count = (name) => Number((new RegExp(`^# ${name} (\\d+)$`, 'm').exec(res.stdout) || [])[1] || 0)
    const [pass, fail] = [count('pass'), count('fail')]
    total.pass += pass
    total.fail += fail
    process.stdout.write(`${file.padEnd(42)} ${String(pass).padStart(4)} passed ${String(fail).padStart(4)} failed\n`)
    if (fail > 0) {
      for (const m of res.stdout.matchAll(/^not ok \d+ - (.*)$/gm)) process.stdout.write(`    not ok: ${m[1]}\n`)
    }
  }
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()
  process.stdout.write(`${total.pass} passed, ${total.fail} failed (autocannon ${pkg.version}'s tests, ${files.length} files, node ${version}${keep ? `, in ${dir}` : ''})\n`)
  if (!keep) fs.rmSync(dir, { recursive: true, force: true })
}

main(process.argv.slice(2))
