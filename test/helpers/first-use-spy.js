'use strict'

// Preloaded into a CLI process and its worker threads (NODE_OPTIONS
// --require): records, with epoch-ms times, every module a thread loads
// for the first time and every compression call (what encoding a
// histogram costs), and the moment it first connects, and appends them to FIRST_USE_LOG when the thread
// exits, one JSON line per thread. A test holds them to the server's
// arrivals: nothing loaded or compressed between the first request and
// the last.

const Module = require('module')
const fs = require('fs')
const zlib = require('zlib')
const { performance } = require('perf_hooks')
const { threadId } = require('worker_threads')

const events = []
const now = () => performance.timeOrigin + performance.now()

const load = Module._load
Module._load = function (request, parent, isMain) {
  let file = request
  try {
    file = Module._resolveFilename(request, parent, isMain)
  } catch {}
  const fresh = !(file in require.cache) && !file.startsWith('node:') && !Module.isBuiltin(file)
  const at = now()
  const out = load.apply(this, arguments)
  if (fresh) events.push({ what: 'load', name: file, at, ms: now() - at, threadId })
  if (fresh && /lib[\\/]engine[\\/]recorder\.js$/.test(file)) markEnd(out.Recorder)
  return out
}

// Another preload (pause-injector.js) may have loaded the recorder first.
const RECORDER = require('path').join(__dirname, '..', '..', 'lib', 'engine', 'recorder.js')
if (require.cache[RECORDER]) markEnd(require.cache[RECORDER].exports.Recorder)

// When the thread's run ends (its recorder's snapshot): with workers,
// each thread ends on its own timer, and what one compresses after its
// end delays none of its sends.
function markEnd (Recorder) {
  const snapshot = Recorder.prototype.snapshot
  Recorder.prototype.snapshot = function () {
    if (!events.some((e) => e.what === 'end')) events.push({ what: 'end', at: now(), ms: 0, threadId })
    return snapshot.apply(this, arguments)
  }
}

for (const name of ['deflateSync', 'inflateSync', 'gzipSync', 'gunzipSync']) {
  const original = zlib[name]
  zlib[name] = function () {
    const at = now()
    const out = original.apply(this, arguments)
    events.push({ what: name, at, ms: now() - at, threadId })
    return out
  }
}

// When the thread first opens a connection (its run has begun): what is
// loaded from then on delays the first sends, before any reaches the
// server.
const net = require('net')
const connect = net.Socket.prototype.connect
net.Socket.prototype.connect = function () {
  if (!events.some((e) => e.what === 'connect')) events.push({ what: 'connect', at: now(), ms: 0, threadId })
  return connect.apply(this, arguments)
}

process.on('exit', () => {
  fs.appendFileSync(process.env.FIRST_USE_LOG, JSON.stringify(events) + '\n')
})
