'use strict'

// A result made without a run: latencies (µs) recorded into a Recorder,
// one sample per second, aggregated as a run would be. For the report's
// unit tests, which need known numbers and no timing.

const { Recorder } = require('../../lib/engine/recorder')
const { aggregateResult } = require('../../lib/results/result')

// perSecond: [[latencyUs…], …] one array per interval; uncorrected: a
// function of each latency giving its service time (turns on the rate).
function resultOfLatencies ({ title, url = 'http://127.0.0.1:1/', perSecond, uncorrected, start = Date.UTC(2024, 0, 2, 3, 4, 5), status = 200 }) {
  const recorder = new Recorder({ trackUncorrected: Boolean(uncorrected) })
  // Two connections opened: looked up, connected, a TLS handshake each.
  for (const us of [300, 500]) recorder.connected({ dns: us, connect: us / 2, proxyConnect: -1, tls: us * 4 })
  perSecond.forEach((latencies, i) => {
    for (const us of latencies) {
      recorder.started(1)
      // Its first byte at 40% of its latency, as a response that takes
      // its time in both phases.
      const ttfb = Math.round(us * 0.4)
      recorder.response(status, 100, us, ttfb, us - ttfb)
      if (uncorrected) recorder.uncorrected(status, uncorrected(us))
    }
    recorder.sample(start + (i + 1) * 1000)
  })
  const raw = recorder.snapshot({ start, finish: start + perSecond.length * 1000, targetRate: uncorrected ? 100 : 0 })
  return aggregateResult([raw], { title, url, connections: 10, pipelining: 1 })
}

module.exports = { resultOfLatencies }
