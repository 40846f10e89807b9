'use strict'

// The CLI's start-up: Node's own code cache (module.enableCompileCache,
// Node 22.1+), so that a CLI run after the first does not parse and
// compile again the files a plain run loads. Node keys each entry by
// the file's content and its own version and flags, so an edited file or
// another Node is compiled afresh. In the main thread the package's own
// files come from code cached after a run instead (after-run-cache.js),
// which has the functions the run compiled too.
//
// What we add is where it lives: in the temp directory, in a folder of the
// user's own (mode 0700, checked before use: a folder someone else owns or
// can write could hand us code), not Node's default folder, which any user
// may have created first. The library never turns it on: only the CLI,
// whose process is ours, and the CLI's worker threads, which start it
// before they load anything else (Node's cache is per thread; enable()
// names this file as what the engine's workers preload).
//
// NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does Node's; so do
// coverage (NODE_V8_COVERAGE), which needs freshly compiled code, and
// modules preloaded with --require or --import (instrumenters, tap's
// coverage, transpilers), which may watch what is compiled. Any failure
// means compiling as usual. Node 20, which has no such cache and is past
// its end of life, compiles as usual.

// Loaded by the bin before anything else, and before Node's cache is on:
// it requires only what Node has already loaded, at its top, and the rest
// where it is needed (not through lib/core/lazy.js, which would be one
// more file read, and compiled afresh, at every start).
const Module = require('module')
const fs = require('fs')
const path = require('path')

// NODE_OPTIONS may quote each option ("--import=…", as tap writes it).
const PRELOAD = /(^|[\s"'])(-r|--require|--import|--loader|--experimental-loader)(["'=\s]|$)/

// A folder only this user can write, or null. Node makes a subfolder per
// Node version and set of flags in it.
function cacheDirectory (tmp) {
  const uid = typeof process.getuid === 'function' ? process.getuid() : null
  const dir = path.join(tmp, `autocannon-compile-cache${uid === null ? '' : `-${uid}`}`)
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    const st = fs.lstatSync(dir)
    if (!st.isDirectory()) return null
    if (uid !== null && (st.uid !== uid || (st.mode & 0o022) !== 0)) return null
    return dir
  } catch {
    return null
  }
}

// os.tmpdir() without loading os, which nothing else of a plain run
// loads, where it is a variable's value.
function tmpDirectory (env) {
  if (process.platform === 'win32') return require('os').tmpdir()
  const dir = env.TMPDIR || env.TMP || env.TEMP || '/tmp'
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir
}

let persistAfterRun = null

// The CLI's work is done: the after-run cache is written if it should be.
function persist () {
  if (persistAfterRun !== null) persistAfterRun()
}

// The CLI's start. Returns the folder in use, or null.
function enable (env = process.env) {
  if (typeof Module.enableCompileCache !== 'function') return null
  if (env.NODE_DISABLE_COMPILE_CACHE || env.NODE_V8_COVERAGE) return null
  // A preloaded hook may change what is compiled (an instrumenter, a
  // transpiler) or watch it (tap's coverage).
  if (PRELOAD.test(process.execArgv.join(' ')) || PRELOAD.test(env.NODE_OPTIONS || '')) return null
  const dir = cacheDirectory(tmpDirectory(env))
  if (dir === null || startInWorker(dir) === null) return null
  // This thread's files of the package: from code cached after a run.
  // Required once Node's cache is on, so that it comes from it too.
  persistAfterRun = require('./after-run-cache').install(dir, path.join(__dirname, '..', '..'))
  // A worker thread loads the run, the parser and the connections itself:
  // it starts the cache in this folder first, or compiles them at every
  // start.
  require('../engine/worker-preload').preloadWorkers(__filename, dir)
  return dir
}

// Node's cache in `dir`, for this thread: a worker thread of a CLI run
// calls it before it loads anything else (see enable()).
function startInWorker (dir) {
  try {
    const { status } = Module.enableCompileCache(dir)
    return status === Module.constants.compileCacheStatus.FAILED ? null : dir
  } catch {
    return null
  }
}

module.exports = { enable, persist, cacheDirectory, startInWorker }
