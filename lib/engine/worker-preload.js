'use strict'

// What every worker thread starts before it loads anything else
// (worker.js requires the file set here and calls its startInWorker(data)
// first). Set for the process by whoever owns the process: the CLI, for
// its code cache, which must be in place before a worker loads the
// config, the run and the protocol code if those are to come from it. The
// library never sets one: a program's threads start as Node starts them.
// A path, not a module of ours, so that the engine need not know the CLI
// (which requires the engine).

let preload = null

// file: an absolute path; data: what a worker's startInWorker gets, plain
// data (it is cloned into the thread). preloadWorkers(null) clears it.
function preloadWorkers (file, data) {
  preload = file ? { file, data } : null
}

function workerPreload () {
  return preload
}

module.exports = { preloadWorkers, workerPreload }
