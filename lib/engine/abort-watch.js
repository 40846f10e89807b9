'use strict'

// --abortOnFail across worker threads: the thresholds held to all the
// workers' figures together, in the main thread (each worker's own run
// does not judge them, see workers.js).

const { createLatencyHistogram, addEncoded } = require('../results/histogram')
const { lazy } = require('../core/lazy')
// Lazy: only --abortOnFail needs its check, taken as the watch is made,
// before the workers start.
const abortChecks = lazy(() => require('../results/abort-check'))

// Each worker's samples: its interval's latency is added to one live
// histogram, its counts so far kept; once every running worker has sent
// a sample, the thresholds are checked on the sum. add() → true when one
// failed (the verdict in `aborted`, the 'abort' event emitted).
function abortWatch (config, events) {
  const { createAbortCheck, abortedAt } = abortChecks()
  const check = createAbortCheck(config.thresholds, config.abortAfter)
  const rated = !!(config.connectionRate || config.overallRate || config.stages)
  const latency = createLatencyHistogram()
  const figures = new Array(config.workers).fill(null)
  const samples = new Array(config.workers).fill(0)
  const running = new Array(config.workers).fill(true)
  const watch = {
    aborted: null,
    add (i, msg) {
      if (watch.aborted !== null) return false
      addEncoded(latency, msg.latency)
      figures[i] = msg.figures
      samples[i]++
      // Judged at the sample every running worker has reached.
      const k = Math.min(...samples.filter((n, j) => running[j]))
      if (k < samples[i]) return false
      const total = { completed: 0, sent: 0, errors: 0, timeouts: 0, non2xx: 0, bytes: 0 }
      for (const f of figures) if (f !== null) for (const key of Object.keys(total)) total[key] += f[key]
      const failed = check.figures(total, latency, msg.elapsedS, rated)
      if (failed === null) return false
      watch.aborted = abortedAt(failed, msg.elapsedS)
      events.emit('abort', watch.aborted)
      return true
    },
    finished (i) {
      running[i] = false
    }
  }
  return watch
}

module.exports = { abortWatch }
