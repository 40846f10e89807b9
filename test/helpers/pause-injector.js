'use strict'

// The mutation the truth guards must catch: the generator's own first-use
// work mid-run (an encoder compiled at the first tick once took 19 ms in
// every run). Loaded in the process that runs the library, in-process
// (require it) or in a CLI process and its worker threads (NODE_OPTIONS
// --require, with AC_TEST_PAUSE_MS set): the first sample of the run's
// recorder and its first progress tick each first do PAUSE ms of busy
// work, counted in the thread's own CPU time (on a loaded machine that
// takes longer on the wall clock, as the real first use did).

const path = require('path')
const { performance } = require('perf_hooks')
const { Recorder } = require(path.join(__dirname, '..', '..', 'lib', 'engine', 'recorder'))
const { createThreadClock } = require(path.join(__dirname, '..', '..', 'lib', 'engine', 'thread-clock'))

const ENV = 'AC_TEST_PAUSE_MS'

// Busy for `ms` of this thread's CPU time, and of the wall clock at least.
function work (ms) {
  const clock = createThreadClock()
  const cpu0 = clock ? clock.read() : 0
  const wall0 = performance.now()
  // Bounded: on a machine that gives the thread no CPU at all, a second.
  while (performance.now() - wall0 < 1000) {
    if (performance.now() - wall0 >= ms && (!clock || clock.read() - cpu0 >= ms * 1000)) break
  }
  if (clock) clock.close()
}

// Wraps the first call of the recorder's sample() and takeTick() (in
// every recorder of the process from now on) with `ms` of work. → undo().
function injectPause (ms) {
  const proto = Recorder.prototype
  const originals = { sample: proto.sample, takeTick: proto.takeTick }
  const done = { sample: false, takeTick: false }
  for (const name of Object.keys(originals)) {
    proto[name] = function () {
      if (!done[name]) {
        done[name] = true
        work(ms)
      }
      return originals[name].apply(this, arguments)
    }
  }
  return () => Object.assign(proto, originals)
}

if (process.env[ENV]) injectPause(Number(process.env[ENV]))

// The environment that makes a CLI process (and its workers) pause so
// (cli.js adds the runner's own NODE_OPTIONS, unless the run is bare).
function pauseEnv (ms) {
  return { [ENV]: String(ms), NODE_OPTIONS: `--require ${__filename}` }
}

module.exports = { injectPause, pauseEnv, work }
