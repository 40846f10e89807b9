'use strict'

// The CLI's start-up: V8's code cache for our own modules, so that a CLI
// run after the first does not parse and compile again the ~60 files a
// plain run loads (~13 ms of its ~60 ms above bare Node). Node 22.1+ has
// this built in (module.enableCompileCache) and we use it there; on Node
// 20 the CJS loader has no such hook, so our files (foldersOf: lib/ and
// our dependencies; not the user's hook files nor the main module) are
// compiled here with vm.Script and the cached data V8 gives back after
// the run, which holds the functions the run compiled lazily too.
// The library never turns it on: only the CLI, whose process is ours, and
// the CLI's worker threads, which start it before they load anything else
// (enable() names this file as what the engine's workers preload).
//
// V8 checks that cached data fits its own version and flags and the
// source's length, not its content: each entry keeps the file's size and
// mtime and is dropped when either changed. The cache lives in the temp
// directory in a folder of the user's own (mode 0700, checked before use),
// one subfolder per Node version, and in it one per checkout and set of
// Node flags. Any failure means compiling as usual.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does Node's; so do
// coverage (NODE_V8_COVERAGE), which needs freshly compiled code, and
// modules preloaded with --require or --import (instrumenters, tap's
// coverage, transpilers), which may see or change what is compiled.

const Module = require('module')
const fs = require('fs')
const path = require('path')

const ROOT = path.join(__dirname, '..', '..')
const DYNAMIC_IMPORT = /\bimport\s*\(/
// NODE_OPTIONS may quote each option ("--import=…", as tap writes it).
const PRELOAD = /(^|[\s"'])(-r|--require|--import|--loader|--experimental-loader)(["'=\s]|$)/
// Entry header: the source's size and mtime (ms), float64 each.
const HEADER = 16

// A folder only this user can write, or null.
function cacheDirectory (tmp) {
  const uid = typeof process.getuid === 'function' ? process.getuid() : null
  const base = path.join(tmp, `autocannon-compile-cache${uid === null ? '' : `-${uid}`}`)
  try {
    fs.mkdirSync(base, { recursive: true, mode: 0o700 })
    const st = fs.lstatSync(base)
    if (!st.isDirectory()) return null
    // Someone else's folder (or one others can write) could hand us code.
    if (uid !== null && (st.uid !== uid || (st.mode & 0o022) !== 0)) return null
    const dir = path.join(base, `${process.version}-${process.arch}`)
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    return dir
  } catch {
    return null
  }
}

function entryName (dir, root, filename) {
  return path.join(dir, path.relative(root, filename).replace(/[\\/:]/g, '_'))
}

// Our files: lib/ and our node_modules, and, installed as a package (as
// npx does), the node_modules folder we are in, where npm hoists our
// dependencies. Not bin/ (the main module) nor the user's hook files.
function foldersOf (root) {
  const folders = [path.join(root, 'lib'), path.join(root, 'node_modules')]
  const parent = path.dirname(root)
  if (path.basename(parent) === 'node_modules') folders.push(parent)
  return folders
}

// Compiles the files in `folders` (absolute) through the cache in `dir`,
// each named by its path from `root`. Returns what it did and flush(),
// which writes the entries that were missing or stale.
function install ({ root, dir, folders = foldersOf(root) }) {
  const vm = require('vm')
  const prefixes = folders.map((folder) => folder + path.sep)
  const stats = { hits: 0, misses: 0, written: 0 }
  const pending = []
  const compile = Module.prototype._compile

  Module.prototype._compile = function (content, filename, format) {
    // import() fails in code V8 takes back from a cache on Node 20 (the
    // loader it needs is not restored with it): such files are Node's.
    if (format === 'module' || !prefixes.some((prefix) => filename.startsWith(prefix)) || DYNAMIC_IMPORT.test(content)) {
      return compile.apply(this, arguments)
    }
    let st
    try {
      st = fs.statSync(filename)
    } catch {
      return compile.apply(this, arguments)
    }
    const key = entryName(dir, root, filename)
    let cachedData
    try {
      const entry = fs.readFileSync(key)
      if (entry.length > HEADER && entry.readDoubleLE(0) === st.size && entry.readDoubleLE(8) === st.mtimeMs) {
        cachedData = entry.subarray(HEADER)
      }
    } catch {}
    const source = Module.wrap(content.charCodeAt(0) === 35 /* # */ ? `//${content}` : content)
    const script = new vm.Script(source, { filename, cachedData })
    if (cachedData !== undefined && !script.cachedDataRejected) {
      stats.hits++
    } else {
      stats.misses++
      pending.push({ key, script, size: st.size, mtimeMs: st.mtimeMs })
    }
    const fn = script.runInThisContext({ displayErrors: true })
    return fn.call(this.exports, this.exports, requireOf(this), this, filename, path.dirname(filename))
  }

  function flush () {
    for (const { key, script, size, mtimeMs } of pending.splice(0)) {
      try {
        const data = script.createCachedData()
        const header = Buffer.alloc(HEADER)
        header.writeDoubleLE(size, 0)
        header.writeDoubleLE(mtimeMs, 8)
        // Whole or not at all: another run (or thread) may be reading it.
        const tmp = `${key}.${process.pid}.${require('worker_threads').threadId}.tmp`
        fs.writeFileSync(tmp, Buffer.concat([header, data]), { mode: 0o600 })
        fs.renameSync(tmp, key)
        stats.written++
      } catch {}
    }
  }

  return { stats, flush }
}

// What Node gives a module as `require`.
function requireOf (mod) {
  function require (id) {
    return mod.require(id)
  }
  function resolve (request, options) {
    return Module._resolveFilename(request, mod, false, options)
  }
  resolve.paths = (request) => Module._resolveLookupPaths(request, mod)
  require.resolve = resolve
  require.main = process.mainModule
  require.extensions = Module._extensions
  require.cache = Module._cache
  return require
}

// A short name for a string (32-bit FNV-1a, hex).
function fnv1a (text) {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return (h >>> 0).toString(16).padStart(8, '0')
}

// os.tmpdir() without loading os (~0.4 ms) where it is a variable's value.
function tmpDirectory (env) {
  if (process.platform === 'win32') return require('os').tmpdir()
  const dir = env.TMPDIR || env.TMP || env.TEMP || '/tmp'
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir
}

// The CLI's start: Node's own cache where there is one, else ours for
// this package's files, written when the process exits.
function enable (env = process.env) {
  if (env.NODE_DISABLE_COMPILE_CACHE || env.NODE_V8_COVERAGE) return null
  // A preloaded hook may change what is compiled (an instrumenter, a
  // transpiler) or watch it (tap's coverage): cached code would hide the
  // one and be stale for the other.
  if (PRELOAD.test(process.execArgv.join(' ')) || PRELOAD.test(env.NODE_OPTIONS || '')) return null
  if (typeof Module.enableCompileCache === 'function') {
    try {
      Module.enableCompileCache()
    } catch {}
    return null
  }
  const base = cacheDirectory(tmpDirectory(env))
  if (base === null) return null
  // V8 refuses data made under other flags, and two checkouts have files
  // of the same names: each gets a folder of its own, or they would
  // overwrite each other's entries at every start.
  const dir = path.join(base, fnv1a(`${ROOT}\0${process.execArgv.join(' ')}\0${env.NODE_OPTIONS || ''}`))
  try {
    fs.mkdirSync(dir, { mode: 0o700 })
  } catch (err) {
    if (err.code !== 'EEXIST') return null
  }
  const place = { root: ROOT, dir, folders: foldersOf(ROOT) }
  const cache = start(place)
  // A worker thread loads the run, the parser and the connections itself:
  // it starts the cache in this folder first, or compiles them at every
  // start.
  require('../engine/worker-preload').preloadWorkers(__filename, place)
  return cache
}

function start (place) {
  const cache = install(place)
  // In a worker thread too: 'exit' comes before the thread ends.
  process.once('exit', cache.flush)
  return cache
}

// A worker thread of a CLI run, before it loads anything else (the
// engine's worker calls it, see enable()): its main thread's folder.
function startInWorker (place) {
  return start(place)
}

module.exports = { enable, install, cacheDirectory, foldersOf, startInWorker }
