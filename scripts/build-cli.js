'use strict'

// Builds dist/cli.js: the command line's modules and their dependencies in
// one file, and dist/cli.json, the list of the files it was made from.
// A run of the CLI loads dozens of files; one file instead saves Node
// resolving, reading and wrapping each of them, and V8 the background
// compiles of the loader's hot paths, a good part of what a run's start-up
// adds to `node -e 0`. lib/cli/bundle.js decides, at each start, whether
// the file may be used (it is as new as its sources) or the sources are
// loaded.
//
// Run by `npm install` and `npm ci` in a clone (the "dependencies" script,
// which npm runs for the project itself, never for a package installed
// as a dependency) and before the package is packed ("prepack"), so a
// published package has no install script for npm to warn about; `npm
// run build` after editing lib/ makes the CLI use the bundle again (until
// then it loads lib/ as is, never stale code).

const fs = require('fs')
const path = require('path')
const { BUNDLE, MANIFEST, OUTSIDE } = require('../lib/cli/bundle')

const ROOT = path.join(__dirname, '..')
const DIST = path.dirname(BUNDLE)

// A file's path from the package's root, with '/' as lib/cli/bundle.js
// lists them.
const fromRoot = (file) => path.relative(ROOT, file).split(path.sep).join('/')

// Files that refer to where they are (a worker's script, the HTML report's
// assets, help.txt) are given their own __dirname and __filename, not the
// bundle's. `__bundleDir` is the bundle's folder, set by the banner.
const WHERE = /\b__(dirname|filename)\b/
function ownLocation (file, source) {
  if (!WHERE.test(source)) return source
  const dir = JSON.stringify(path.relative(DIST, path.dirname(file)))
  const name = JSON.stringify(path.basename(file))
  const own = `const __dirname = require('path').join(__bundleDir, ${dir}); const __filename = require('path').join(__dirname, ${name});`
  // After the 'use strict' directive, which must stay first to count.
  const strict = /^'use strict'\n/
  return strict.test(source) ? source.replace(strict, `'use strict'; ${own}\n`) : `${own}\n${source}`
}

// Dependencies only some options or subcommands load, and large (YAML
// flag files, multipart forms, decoding saved histograms): loaded from
// node_modules when used, as from lib/, rather than read and checked at
// every start.
const LOADED_FROM_NODE_MODULES = ['yaml', 'form-data', 'hdr-histogram-js/dist/encoding']

const plugin = {
  name: 'cannonade-cli',
  setup (build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      return LOADED_FROM_NODE_MODULES.includes(args.path) ? { path: args.path, external: true } : undefined
    })
    // The modules the bin loads before the bundle (the compile caches and
    // the state they hand to workers) stay in lib/: one copy of each.
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const file = require.resolve(path.resolve(args.resolveDir, args.path))
      if (!OUTSIDE.includes(fromRoot(file))) return undefined
      return { path: `./${path.relative(DIST, file)}`, external: true }
    })
    build.onLoad({ filter: /\.js$/ }, (args) => {
      if (fromRoot(args.path).startsWith('node_modules/')) return undefined
      return { contents: ownLocation(args.path, fs.readFileSync(args.path, 'utf8')), loader: 'js' }
    })
  }
}

function replace (file, data) {
  const tmp = `${file}.${process.pid}.tmp`
  try {
    fs.writeFileSync(tmp, data)
    fs.renameSync(tmp, file)
  } finally {
    fs.rmSync(tmp, { force: true })
  }
}

async function build () {
  const result = await require('esbuild').build({
    entryPoints: [path.join(ROOT, 'lib', 'cli', 'main.js')],
    outfile: BUNDLE,
    write: false,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node22',
    banner: { js: "'use strict'\nconst __bundleDir = __dirname" },
    metafile: true,
    // Without comments and in ASCII: Node reads an ASCII file into a
    // string at memcpy speed, one with a single "µ" many times slower.
    // Names are kept (stack traces, error names).
    minifyWhitespace: true,
    charset: 'ascii',
    keepNames: true,
    absWorkingDir: ROOT,
    logLevel: 'error',
    plugins: [plugin]
  })
  const bytes = result.outputFiles[0].contents
  const wide = bytes.findIndex((b) => b > 0x7f)
  if (wide !== -1) {
    const text = Buffer.from(bytes).toString('latin1')
    throw new Error(`${path.relative(ROOT, BUNDLE)} would not be ASCII at "${text.slice(Math.max(0, wide - 40), wide + 10)}": write that character as an escape in the source`)
  }
  // Under a new name, then renamed: a CLI starting meanwhile reads the old
  // bundle or the new one, never part of one.
  fs.mkdirSync(DIST, { recursive: true })
  replace(BUNDLE, bytes)
  const inputs = Object.keys(result.metafile.inputs).map((f) => fromRoot(path.resolve(ROOT, f)))
  inputs.push('package.json')
  const files = {}
  for (const f of inputs.sort()) files[f] = fs.statSync(path.join(ROOT, f)).size
  replace(MANIFEST, `${JSON.stringify({ files })}\n`)
  return { bundle: BUNDLE, files: inputs.length }
}

// `--if-available` (the "dependencies" script): an install without the development
// dependencies has no esbuild; the CLI then loads lib/, as it would with
// an old bundle, and the install goes on.
function available () {
  try {
    require.resolve('esbuild')
    return true
  } catch {
    return false
  }
}

// What it says goes to stderr: `npm pack --json` runs it, and its stdout
// must stay npm's JSON.
if (require.main === module) {
  if (process.argv.includes('--if-available') && !available()) {
    process.stderr.write('build-cli: no esbuild (development dependencies not installed); the CLI loads lib/\n')
  } else {
    build().then(({ bundle, files }) => {
      process.stderr.write(`${path.relative(ROOT, bundle)}: ${files} files\n`)
    }, (err) => {
      process.stderr.write(`build-cli: ${err.message}\n`)
      process.exitCode = 1
    })
  }
}

module.exports = { build }
