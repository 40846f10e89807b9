'use strict'

// Results made from numbers a test chooses, through the real recorder and
// aggregation: per-interval request counts and latencies drawn from a
// seeded generator, so every run of a test sees the same data.

const { Recorder } = require('../../lib/engine/recorder')
const { aggregateResult } = require('../../lib/results/result')
const { seededRandom } = require('../../lib/core/random')

function gaussian (random) {
  // Box–Muller; 1 - u keeps log() away from 0.
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
}

// rate: responses per second; rateNoise: their relative spread from one
// interval to the next; latencyMs: median latency; spread: lognormal
// sigma of latency within an interval; drift: of each interval's level
// (a busy second is slow for all its requests); errors: per interval.
function randomResult ({
  intervals = 10, sampleInt = 1000, rate = 1000, rateNoise = 0.05,
  latencyMs = 5, spread = 0.3, drift = 0.05, errors = 0, seed = 1
} = {}) {
  const random = seededRandom(seed)
  const recorder = new Recorder()
  const start = 1700000000000
  for (let i = 0; i < intervals; i++) {
    const n = Math.max(0, Math.round(rate * sampleInt / 1000 * (1 + rateNoise * gaussian(random))))
    const level = latencyMs * 1000 * Math.exp(drift * gaussian(random))
    for (let k = 0; k < n; k++) {
      recorder.started(1)
      const us = Math.max(1, Math.round(level * Math.exp(spread * gaussian(random))))
      // The first byte at 70% of it, the rest its transfer.
      const ttfb = Math.round(us * 0.7)
      recorder.response(200, 100, us, ttfb, us - ttfb)
    }
    const e = typeof errors === 'function' ? errors(i) : errors
    if (e > 0) {
      recorder.started(e)
      recorder.requestErrors(e, 'read', 'ECONNRESET')
    }
    recorder.sample(start + (i + 1) * sampleInt)
  }
  const finish = start + intervals * sampleInt
  return aggregateResult([recorder.snapshot({ start, finish })], { url: 'http://127.0.0.1:1', sampleInt, connections: 10 })
}

module.exports = { randomResult, gaussian }
