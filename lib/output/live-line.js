'use strict'

// The terminal's live line: what the progress bar carries after its
// percentage at each sample interval (elapsed of total, the last
// interval's responses per second, p50 and p99, the errors and timeouts
// so far, late requests under a rate), and the line of a capacity
// search's step under way, rewritten in place as it runs. Terminals only:
// track.js and the CLI's search use it when the stream is a TTY.

const format = require('../core/format')

function count (n) {
  return format.thousands(n || 0)
}

function ms (value) {
  return typeof value === 'number' ? `${format.ms(value)} ms` : '-'
}

function seconds (value) {
  return (Math.round(value * 10) / 10).toFixed(1)
}

// config: the run's (its duration or amount, and whether it has a rate).
function progressText (sample, config) {
  const perSecond = 1000 / (sample.interval || config.sampleInt || 1000)
  const done = config.amount
    ? `${count(sample.totals.responses)}/${count(config.amount)} responses`
    : config.duration && !config.forever ? `${seconds(sample.elapsed)}/${seconds(config.duration)} s` : `${seconds(sample.elapsed)} s`
  const parts = [
    done,
    `${count(Math.round(sample.requests * perSecond))} resp/s`,
    `p50 ${ms(sample.latencyP50)}`,
    `p99 ${ms(sample.latencyP99)}`,
    `${count(sample.totals.errors)} errors`,
    `${count(sample.totals.timeouts)} timeouts`
  ]
  if (config.overallRate || config.connectionRate || config.stages) parts.push(`${count(sample.totals.late)} late`)
  return parts.join('  ')
}

// A search's step under way: { index, kind, target, duration, elapsed,
// responses, errors, verdict }.
function stepText (step) {
  let text = `step ${step.index} (${step.kind}) at ${format.rate(step.target)} req/s: ${seconds(step.elapsed || 0)}/${seconds(step.duration)} s, ` +
    `${count(step.responses)} responses, ${count(step.errors)} errors`
  if (step.verdict) text += `, failing: ${step.verdict}`
  return text
}

// A line rewritten in place on a terminal: show() replaces it (cut to
// the terminal's width, so that it never wraps), clear() leaves the line
// empty for what is printed next.
class LiveLine {
  constructor (stream) {
    this.stream = stream
    this.shown = false
  }

  show (text) {
    const width = Math.max(20, (this.stream.columns || 80) - 1)
    this.stream.write(`\r\x1b[K${text.length > width ? text.slice(0, width - 1) + '…' : text}`)
    this.shown = true
  }

  clear () {
    if (!this.shown) return
    this.stream.write('\r\x1b[K')
    this.shown = false
  }
}

module.exports = { progressText, stepText, LiveLine }
