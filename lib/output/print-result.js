'use strict'

// printResult(result, opts) → the text autocannon prints after a run: the
// latency table, the Req/Sec and Bytes/Sec table, optional status code and
// percentile tables, and the summary lines. Latency is kept to a hundredth
// of a millisecond, as the recorder measures microseconds: "0.25 ms" rather
// than autocannon's "0 ms".

const { OPTIONS } = require('../core/options')
const { raise } = require('../core/errors')
const { ms, thousands, tally } = require('../core/format')
const { lazy } = require('../core/lazy')
// Lazy: only the tables need them, not the thresholds' verdict a -j run
// prints when one failed (lib/cli/exit-codes.js).
const prettyBytes = lazy(() => require('pretty-bytes'))
const cliTable3 = lazy(() => require('cli-table3'))
// Lazy: only a merged result (autocannon merge) needs it.
const merge = lazy(() => require('../distributed/merge'))

const DEFAULTS = {
  outputStream: process.stderr,
  renderResultsTable: OPTIONS.renderResultsTable.default,
  renderLatencyTable: OPTIONS.renderLatencyTable.default,
  renderStatusCodes: OPTIONS.renderStatusCodes.default,
  renderTimings: OPTIONS.renderTimings.default,
  verbose: OPTIONS.verbose.default
}

const PERCENTILES = [0.001, 0.01, 0.1, 1, 2.5, 10, 25, 50, 75, 90, 97.5, 99, 99.9, 99.99, 99.999]

// Colour only for a terminal, and never when NO_COLOR is set (no-color.org)
// or FORCE_COLOR=0; FORCE_COLOR=1 asks for it even without a terminal.
function wantsColor (stream, env = process.env) {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '') return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false'
  if (env.TERM === 'dumb') return false
  return Boolean(stream && stream.isTTY)
}

// The four basic ANSI styles the output uses, or plain strings. Not chalk:
// it loads supports-color and os with it, and wantsColor above already
// makes the only decision chalk would make.
const STYLES = { bold: [1, 22], cyan: [36, 39], green: [32, 39], redBright: [91, 39] }

function colorsFor (stream) {
  const on = wantsColor(stream)
  const colors = {}
  for (const [name, [open, close]] of Object.entries(STYLES)) {
    colors[name] = on ? (text) => `\u001b[${open}m${text}\u001b[${close}m` : (text) => String(text)
  }
  return colors
}

// Req/Sec values with thousands separators: 70713.61 → "70,713.61".
function count (value) {
  return thousands(value, 2)
}

function bytes (value) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value)
  return prettyBytes()(value)
}

// Totals in the summary: exact below 1000, then thousands ("251k").
function abbreviate (value) {
  return value < 1000 ? String(value) : `${Math.round(value / 1000)}k`
}

function makeTable (colors, head) {
  const Table = cliTable3()
  // No colours from cli-table3 itself: colorsFor decides, once, for the stream.
  return new Table({ head: head.map((h) => colors.cyan(h)), style: { head: [], border: [] } })
}

function stat (stats, key) {
  return stats ? stats[key] : undefined
}

// Where low values are better: the slow end matters.
function lowRow (name, stats, fmt) {
  return [name, ...['p2_5', 'p50', 'p97_5', 'p99', 'average', 'stddev', 'max'].map((k) => fmt(stat(stats, k)))]
}

// Where high values are better: the slow end is the low percentiles.
function highRow (name, stats, fmt) {
  return [name, ...['p1', 'p2_5', 'p50', 'p97_5', 'average', 'stddev', 'min'].map((k) => fmt(stat(stats, k)))]
}

function statusColor (colors, code) {
  return Number(code) >= 400 ? colors.redBright : colors.cyan
}

// Target and achieved rate, and how far behind the plan the generator was
// forced to fall (a server that cannot keep up, or too few connections).
function rateLine (rate) {
  let line = `target rate ${count(rate.target)} req/s`
  // Poisson: the seed replays the run's send times (--seed).
  if (rate.arrivals === 'poisson') line += ` (Poisson arrivals, seed ${rate.seed})`
  line += `, achieved ${count(rate.achieved)} req/s`
  if (rate.late > 0) {
    const p99 = rate.lateness ? rate.lateness.p99 : undefined
    line += `; ${abbreviate(rate.late)} requests late, p99 lateness ${ms(p99)} ms`
  }
  return line
}

function printResult (result, opts) {
  if (result === null || typeof result !== 'object' || !result.requests) {
    throw raise('AC_INVALID_ARGUMENT', 'printResult needs a result, as autocannon() resolves to it')
  }
  opts = Object.assign({}, DEFAULTS, opts)
  const lines = []
  const out = (text) => lines.push(text)

  // Without a single response the tables would be all zeros: the summary
  // lines below say what happened instead.
  const responded = !(result.requests && result.requests.total === 0)
  if (opts.verbose !== false && opts.renderResultsTable !== false && responded) {
    const colors = colorsFor(opts.outputStream)
    const withMs = (v) => `${ms(v)} ms`

    const latency = makeTable(colors, ['Stat', '2.5%', '50%', '97.5%', '99%', 'Avg', 'Stdev', 'Max'])
    latency.push(lowRow(colors.bold('Latency'), result.latency, withMs))
    // Under a fixed rate `Latency` counts from when each request should have
    // gone out (wrk2); the service time beside it shows what the server did
    // once a request reached it.
    if (result.latencyUncorrected) {
      latency.push(lowRow(colors.bold('Latency (uncorrected)'), result.latencyUncorrected, withMs))
    }
    out('\n' + latency.toString())

    const volume = makeTable(colors, ['Stat', '1%', '2.5%', '50%', '97.5%', 'Avg', 'Stdev', 'Min'])
    volume.push(highRow(colors.bold('Req/Sec'), result.requests, count))
    volume.push(highRow(colors.bold('Bytes/Sec'), result.throughput, bytes))
    out(volume.toString())

    if (opts.renderStatusCodes) {
      const codes = makeTable(colors, ['Code', 'Count'])
      const stats = result.statusCodeStats || {}
      for (const code of Object.keys(stats)) {
        codes.push([statusColor(colors, code)(code), count(stats[code].count)])
      }
      out(codes.toString())
    }

    out('')
    out(result.sampleInt === undefined || result.sampleInt === 1000
      ? 'Req/Bytes counts sampled once per second.'
      : `Req/Bytes counts sampled every ${result.sampleInt / 1000} seconds.`)
    out(`# of samples: ${result.samples}`)
    out('')

    if (opts.renderTimings && result.timings) {
      out(timingsTable(result, colors).toString())
      out(timingsNote(result))
      out('')
    }

    if (opts.renderLatencyTable) {
      const table = makeTable(colors, ['Percentile', 'Latency (ms)'])
      for (const p of PERCENTILES) {
        table.push([colors.bold(String(p)), ms(stat(result.latency, `p${p}`.replace('.', '_')))])
      }
      out(table.toString())
      out('')
    }
  }

  if (result.rate) out(rateLine(result.rate))
  if (result.non2xx) {
    out(`${result['2xx']} 2xx responses, ${result.non2xx} non 2xx responses`)
  }
  const sent = result.requests.sent === undefined ? result.requests.total : result.requests.sent
  out(`${abbreviate(sent)} requests in ${result.duration}s, ${bytes(result.throughput.total)} read`)
  // A gRPC run's calls by status (OK among them).
  if (result.grpcStatus && Object.keys(result.grpcStatus).length > 0) out(`gRPC status: ${tally(result.grpcStatus)}`)
  if (result.errors) {
    out(`${abbreviate(result.errors)} errors (${abbreviate(result.timeouts || 0)} timeouts)`)
    if (result.errorsByCause) out(`  by cause: ${tally(result.errorsByCause)}`)
    if (result.errorCodes) out(`  by code: ${tally(result.errorCodes)}`)
  }
  if (result.mismatches) {
    out(`${abbreviate(result.mismatches)} requests with mismatched body`)
  }
  if (result.resets) {
    out(`request pipeline was reset ${abbreviate(result.resets)} ${result.resets === 1 ? 'time' : 'times'}`)
  }
  if (result.resent) {
    out(`${abbreviate(result.resent)} ${result.resent === 1 ? 'request' : 'requests'} resent on a new connection (the server closed theirs before answering them)`)
  }

  const missing = result.merge ? merge().missingText(result.merge) : null
  if (missing !== null) out(missingLine(missing))

  if (result.aborted) {
    const { threshold, at, value, unit } = result.aborted
    const shown = unit === '%' ? `${value}%` : unit ? `${value} ${unit}` : String(value)
    out(`aborted at ${at} s: ${threshold} failed on the run so far (measured ${shown})`)
  }
  if (result.thresholds && result.thresholds.length) out('\n' + thresholdsTable(result.thresholds, colorsFor(opts.outputStream)))

  return lines.join('\n') + '\n'
}

// A merge with shards missing, after its numbers (the HTML report says
// it in the same words).
function missingLine (missing) {
  return `a merge of part of the run: ${missing} missing, whose load these numbers lack`
}

const PHASES = [
  ['dns', 'DNS lookup'],
  ['connect', 'TCP connect'],
  ['proxyConnect', 'Proxy CONNECT'],
  ['tls', 'TLS handshake'],
  ['ttfb', 'TTFB'],
  ['transfer', 'Transfer']
]

// Where the time went, a row per phase the run took (a phase no
// connection took, such as TLS over plain TCP, is left out).
function timingsTable (result, colors) {
  const table = makeTable(colors, ['Phase', '50%', '99%', 'Avg', 'Max', 'Count'])
  const withMs = (v) => `${ms(v)} ms`
  for (const [key, name] of PHASES) {
    const stats = result.timings[key]
    if (!stats || !stats.totalCount) continue
    table.push([colors.bold(name), ...['p50', 'p99', 'average', 'max'].map((k) => withMs(stats[k])), count(stats.totalCount)])
  }
  return table
}

// The set-up steps in which our own event loop was busy long enough to
// matter, with by how much: the network's share of a step lies between
// the step less this and the step.
const DELAY_SHOWN_MS = 0.1

function timingsNote (result) {
  const note = 'DNS to TLS: once per connection opened. TTFB: from the write to the first byte of the response; transfer: the rest of it.'
  const delays = PHASES.slice(0, 4).map(([key, name]) => [name, result.timings[key] && result.timings[key].generatorDelay])
    .filter(([, d]) => d && d.max >= DELAY_SHOWN_MS)
    .map(([name, d]) => `${name} ${ms(d.avg)} ms on average, ${ms(d.max)} ms at most`)
  const delayNote = delays.length
    ? `\nInside DNS to TLS, this process's event loop was busy (its own work, not the network's, up to that much of each step): ${delays.join('; ')}.`
    : ''
  return note + delayNote + (result.rate
    ? '\nUnder a fixed rate, Latency also counts the wait from the planned send time to the write: latency = wait + TTFB + transfer.'
    : '')
}

// A measured value in its threshold's unit: "312.5 ms", "0.3%", "5,120 req/s".
function measured (t) {
  switch (t.unit) {
    case 'ms': return `${ms(t.value)} ms`
    case '%': return `${count(t.value)}%`
    case 'B/s': return `${bytes(t.value)}/s`
    case 'req/s': return `${count(t.value)} req/s`
    default: return count(t.value)
  }
}

function thresholdsTable (thresholds, colors) {
  const table = makeTable(colors, ['Threshold', 'Measured', ''])
  for (const t of thresholds) {
    table.push([t.expression, measured(t), t.ok ? colors.green('✔ pass') : colors.redBright('✗ fail')])
  }
  return table.toString() + '\n' + thresholdsVerdict(thresholds)
}

// "all 3 thresholds passed", "1 of 3 thresholds failed", with `list` the
// failed expressions after a colon.
function thresholdsVerdict (thresholds, { list = false } = {}) {
  const failed = thresholds.filter((t) => !t.ok)
  if (failed.length === 0) return `all ${thresholds.length} thresholds passed`
  return `${failed.length} of ${thresholds.length} thresholds failed` + (list ? `: ${failed.map((t) => t.expression).join(', ')}` : '')
}

module.exports = printResult
module.exports.printResult = printResult
module.exports.colorsFor = colorsFor
module.exports.thresholdsVerdict = thresholdsVerdict
module.exports.missingLine = missingLine
