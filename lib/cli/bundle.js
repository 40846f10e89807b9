'use strict'

// The command line's code from dist/cli.js, one file made by
// scripts/build-cli.js, when it is as new as every file it was made from;
// from lib/ otherwise (a clone whose lib/ was edited or pulled since the
// last build, a package without dist/). One file loads in less CPU than
// the many it replaces (no resolving, reading and wrapping each), but only
// with the compiled code kept between runs (after-run-cache.js): without
// it, V8 compiles the whole bundle's functions as it meets them, as it
// does the sources'. NODE_DEBUG=cannonade says which was loaded.

const fs = require('fs')
const path = require('path')
const { debuglog } = require('util')

const ROOT = path.join(__dirname, '..', '..')
const BUNDLE = path.join(ROOT, 'dist', 'cli.js')
// { files: { [path from the package's root]: size in bytes } }
const MANIFEST = path.join(ROOT, 'dist', 'cli.json')
// What the bin loads before the bundle, kept out of it: one copy of each
// (the compile caches' state, what they hand to worker threads).
const OUTSIDE = ['lib/cli/compile-cache.js', 'lib/cli/after-run-cache.js', 'lib/engine/worker-preload.js', 'lib/cli/bundle.js']

// Why the bundle may not be used, or null. A file of another size than it
// had at the build, or gone, was changed; in a clone, so was one newer
// than the bundle. An installed package (in a node_modules folder) is not
// edited: npm gives each file the time it was unpacked, in no useful
// order, so only sizes count, and its dependencies are where npm put them,
// not where the build found them: the bundle carries them as published
// (NODE_DISABLE_COMPILE_CACHE=1 runs lib/, with the installed ones).
function staleness (root = ROOT) {
  const installed = root.split(path.sep).includes('node_modules')
  let files, built
  try {
    files = JSON.parse(fs.readFileSync(path.join(root, 'dist', 'cli.json'), 'utf8')).files
    built = fs.statSync(path.join(root, 'dist', 'cli.js')).mtimeMs
    if (installed) built = Infinity
  } catch {
    return 'no bundle (npm run build makes it)'
  }
  const dir = root + path.sep
  for (const file of Object.keys(files)) {
    if (installed && !file.startsWith('lib/') && file !== 'package.json') continue
    const st = fs.statSync(dir + file, { throwIfNoEntry: false })
    if (st === undefined) return `${file} is gone`
    if (st.size !== files[file] || st.mtimeMs > built) return `${file} changed since the bundle was built`
  }
  return null
}

// main.js's exports, from the bundle or the sources. `cached`: whether
// compiled code is kept between runs (see above).
function cliMain ({ cached }) {
  const why = cached ? staleness() : 'no code cache'
  debuglog('cannonade')(why === null ? 'cli: dist/cli.js' : `cli: lib/ (${why})`)
  // One or the other, never both: each holds the whole command line.
  return why === null ? require(BUNDLE) : require('./main')
}

module.exports = { cliMain, staleness, BUNDLE, MANIFEST, OUTSIDE }
