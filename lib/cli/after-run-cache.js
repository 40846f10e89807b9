'use strict'

// The CLI's own files, compiled from code V8 serialised after a run, not
// before it. Node's compile cache (compile-cache.js) keeps what V8 made
// when it compiled each file: the top level only, since V8 compiles a
// function when it is first called. A run calls a few hundred of ours,
// which every start would parse and compile again, a good part of what a
// short run costs beyond Node's own start. Here each of the package's
// CommonJS files is compiled with vm.Script, from the cache when it has
// one, and once the run is over script.createCachedData() serialises it
// with every function the run compiled (persist()).
//
// One file holds the index and the caches, written whole under a new name
// and renamed: two CLIs ending together leave one or the other, never a
// mix, and a digest of the caches says they are as written. An entry
// serves a file only while the file's size and ctime are those it was
// made from (an edit, even one that keeps the length, changes the ctime);
// V8 refuses data from another V8 or other flags. The file is written by
// a run that compiled a file afresh and by the run after it, which adds
// what it compiled to what it loaded. Any failure to read or write it
// means compiling as usual.
//
// Only the main thread of a CLI run, from enable() in compile-cache.js:
// the library never changes how a program loads its modules.
// NODE_DEBUG=cannonade says, as it is persisted, what came from the cache.

const Module = require('module')
const fs = require('fs')
const path = require('path')
const vm = require('vm')
const crypto = require('crypto')
const { debuglog } = require('util')

const MAGIC = 'cannonade-code-2\n'
// Runs in a row that write, from one that compiled a file afresh.
const SETTLING_RUNS = 2

// One file per copy of the package (`root`): two installs, or a clone
// and an install, would otherwise carry each other's code at every start,
// and read and check it.
function cacheFile (dir, root) {
  return path.join(dir, `after-run-${process.version}-${process.arch}-${crypto.hash('sha1', root).slice(0, 12)}.bin`)
}

// → { files: { [filename]: { off, size, bytes, ctimeMs } }, runs }, data
function read (file) {
  try {
    const all = fs.readFileSync(file)
    const head = all.indexOf(10, MAGIC.length)
    if (all.toString('latin1', 0, MAGIC.length) !== MAGIC || head === -1) return null
    const index = JSON.parse(all.toString('utf8', MAGIC.length, head))
    const data = all.subarray(head + 1)
    // V8 trusts a code cache that claims its source's length (a damaged
    // one can crash the process): the data must be what was written.
    if (index.sha1 !== digest(data)) return null
    return { index, data }
  } catch {
    return null
  }
}

// What read() checks the caches against before V8 is given them: damage,
// not an attacker (the folder is the user's own, see compile-cache.js).
function digest (data) {
  return crypto.hash('sha1', data)
}

function write (file, entries, runs) {
  const files = {}
  const parts = []
  let off = 0
  for (const [filename, { data, bytes, ctimeMs }] of entries) {
    files[filename] = { off, size: data.length, bytes, ctimeMs }
    parts.push(data)
    off += data.length
  }
  const tmp = `${file}.${process.pid}.tmp`
  try {
    const data = Buffer.concat(parts)
    fs.writeFileSync(tmp, Buffer.concat([Buffer.from(MAGIC + JSON.stringify({ files, runs, sha1: digest(data) }) + '\n'), data]), { mode: 0o600 })
    fs.renameSync(tmp, file)
  } catch {
    try { fs.unlinkSync(tmp) } catch {}
  }
}

// The require a module's code gets, as Node makes it.
function requireOf (mod) {
  const require = (id) => mod.require(id)
  require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options)
  require.resolve.paths = (request) => Module._resolveLookupPaths(request, mod)
  require.main = process.mainModule
  require.extensions = Module._extensions
  require.cache = Module._cache
  return require
}

// Compiles the CommonJS files under `root` through the cache in `dir`.
// Returns persist(): writes the cache when it should (see above), once.
// The CLI calls it when its work is done and its signal handlers are
// still in place: written at 'exit', the time writing takes would be a
// window in which a signal is lost.
function install (dir, root) {
  const file = cacheFile(dir, root)
  const kept = read(file)
  const index = kept ? kept.index.files : {}
  const counts = { fromCache: 0, compiled: 0 }
  const scripts = new Map()
  const under = root + path.sep
  const original = Module.prototype._compile

  Module.prototype._compile = function (content, filename, format) {
    // A `#!` line is valid only at the start of a script, not in the
    // wrapper: such a file is Node's to compile.
    if ((format !== undefined && format !== 'commonjs') || !filename.startsWith(under) || content.startsWith('#!')) {
      return original.apply(this, arguments)
    }
    let st = null
    try { st = fs.statSync(filename) } catch {}
    const entry = index[filename]
    const fresh = st !== null && entry !== undefined && entry.bytes === st.size && entry.ctimeMs === st.ctimeMs
    const cachedData = fresh ? kept.data.subarray(entry.off, entry.off + entry.size) : undefined
    const script = new vm.Script(Module.wrap(content), { filename, cachedData })
    if (cachedData === undefined || script.cachedDataRejected) counts.compiled++
    else counts.fromCache++
    if (st !== null) scripts.set(filename, { script, bytes: st.size, ctimeMs: st.ctimeMs })
    const fn = script.runInThisContext({ displayErrors: true })
    return fn.call(this.exports, this.exports, requireOf(this), this, filename, path.dirname(filename))
  }

  let persisted = false
  return function persist () {
    if (persisted) return
    persisted = true
    const runs = kept && counts.compiled === 0 ? kept.index.runs + 1 : 1
    if (runs <= SETTLING_RUNS) {
      const entries = new Map()
      // Files this run did not load keep their entries while they are
      // as they were.
      if (kept) {
        for (const [filename, e] of Object.entries(index)) {
          if (scripts.has(filename)) continue
          const st = fs.statSync(filename, { throwIfNoEntry: false })
          if (st !== undefined && st.size === e.bytes && st.ctimeMs === e.ctimeMs) entries.set(filename, { data: kept.data.subarray(e.off, e.off + e.size), bytes: e.bytes, ctimeMs: e.ctimeMs })
        }
      }
      for (const [filename, { script, bytes, ctimeMs }] of scripts) {
        entries.set(filename, { data: script.createCachedData(), bytes, ctimeMs })
      }
      write(file, entries, runs)
    }
    const debug = debuglog('cannonade')
    debug('code cache: %d files from it, %d compiled; %s', counts.fromCache, counts.compiled, runs <= SETTLING_RUNS ? `written (${scripts.size} files)` : 'kept')
  }
}

module.exports = { install, cacheFile }
