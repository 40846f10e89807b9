'use strict'

// The terminal's live line: the bar's figures of the last interval, the
// step under way of a search, and a line rewritten in place (on a fake
// terminal stream) that never wraps.

const t = require('tap')
const { progressText, stepText, LiveLine } = require('../../lib/output/live-line')

const SAMPLE = {
  elapsed: 3,
  interval: 1000,
  requests: 1234,
  latencyP50: 1.234,
  latencyP99: 45.6,
  totals: { responses: 5000, errors: 2, timeouts: 1, late: 7 }
}

t.test('the bar\'s figures', async (t) => {
  t.equal(progressText(SAMPLE, { duration: 10 }), '3.0/10.0 s  1,234 resp/s  p50 1.23 ms  p99 45.6 ms  2 errors  1 timeouts')
  t.match(progressText(SAMPLE, { duration: 10, overallRate: 100 }), / {2}7 late$/, 'late requests under a rate')
  t.match(progressText(SAMPLE, { amount: 10000 }), /^5,000\/10,000 responses /, 'an amount run: responses of the amount')
  t.match(progressText({ ...SAMPLE, interval: 500 }, { duration: 10 }), / 2,468 resp\/s /, 'per second, whatever the interval')
  t.match(progressText(SAMPLE, { duration: 10, forever: true }), /^3\.0 s /, 'forever: no total')
})

t.test('a search\'s step', async (t) => {
  const step = { index: 2, kind: 'upper', target: 700, duration: 5, elapsed: 1.26, responses: 880, errors: 0, verdict: null }
  t.equal(stepText(step), 'step 2 (upper) at 700 req/s: 1.3/5.0 s, 880 responses, 0 errors')
  t.match(stepText({ ...step, verdict: 'p99 < 50 ms can no longer hold' }), /, failing: p99 < 50 ms can no longer hold$/, 'the early verdict')
})

t.test('a line rewritten in place', async (t) => {
  const written = []
  const stream = { isTTY: true, columns: 30, write: (s) => written.push(s) }
  const line = new LiveLine(stream)
  line.clear()
  t.same(written, [], 'nothing to clear yet')
  line.show('short')
  line.show('x'.repeat(100))
  line.clear()
  t.equal(written[0], '\r\x1b[Kshort', 'at the line\'s start, the line cleared')
  t.equal(written[1].length, '\r\x1b[K'.length + 29, 'cut to the terminal\'s width')
  t.ok(written[1].endsWith('…'), 'and says so')
  t.equal(written[2], '\r\x1b[K', 'cleared for what comes next')
})
